# make run / make test do all set-up themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench fuzz soak clean cluster

# The hot core modules are compiled with mypyc (setup.py) from the same source; the
# install is redone when they change. POKERROOM_PURE=1 builds and runs pure Python.
COMPILED_SRC := $(addprefix src/pokerroom/core/,evaluator.py pots.py stud.py \
	variants.py legal.py forced.py dealing.py showdown.py betting.py hand.py \
	phh/grammar.py phh/tomltext.py phh/files.py phh/deck.py phh/playback.py phh/results.py)

$(STAMP): pyproject.toml setup.py $(COMPILED_SRC)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The living room: the server on its SQLite default (pokerroom.db) with the default tables
# (NL, PL, FL hold'em, mixed NL/FL, stud) kept playing by bots that leave seats free.
run: $(STAMP)
	$(BIN)/pokerroom serve --host 127.0.0.1 --port $${PORT:-8000} --bots 17

lint: $(STAMP)
	$(BIN)/ruff check src tests conftest.py setup.py
	$(BIN)/mypy --strict src/pokerroom

# The browser tests drive Debian's chromium (never `playwright install`, which downloads).
CHROMIUM := /usr/bin/chromium

$(CHROMIUM):
	command -v apt-get >/dev/null || { echo "chromium is needed at $(CHROMIUM)"; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# The cluster tests and `make cluster` start private NATS servers: Debian's nats-server.
NATS_SERVER := /usr/sbin/nats-server

$(NATS_SERVER):
	command -v apt-get >/dev/null || { echo "nats-server is needed at $(NATS_SERVER)"; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server

test: lint $(CHROMIUM) $(NATS_SERVER)
	@# the compiled core must have been built (a fresh clone once fell back to pure Python unnoticed)
	$(BIN)/python -c 'import pokerroom.core as c, sys; print("core modules:", c.MODE); sys.exit(c.MODE != "compiled")'
	$(BIN)/python -m pytest -q -n 2 --dist worksteal
	POKERROOM_PURE=1 $(BIN)/python -m pytest -q -n 2 -p no:cacheprovider src README.md \
		tests/core/test_rules_holdem.py tests/core/test_cases_holdem.py tests/core/test_stud.py \
		tests/core/test_forced_bets.py tests/core/test_phh.py

# The long runs of the tests that play hundreds of hands (tests/soak.py): the leak scan on
# serve and the cluster, the statistics count; make test plays a short seeded run of each.
soak: $(STAMP) $(NATS_SERVER)
	POKERROOM_SOAK=1 $(BIN)/python -m pytest -q -n 2 -p no:cacheprovider \
		tests/server/test_leak.py tests/server/test_stats_server.py

bench: $(STAMP)
	$(BIN)/pokerroom bench engine

# Coverage-guided fuzzing (atheris), each harness of tests/fuzz for FUZZ_SECONDS (600) from its
# kept seed corpus; new inputs go to a temporary folder, a crash to $TMPDIR/pokerroom-fuzz-<target>-crash-*.
# make test runs a short seeded run of each (tests/fuzz/test_fuzz_short.py).
fuzz: $(STAMP)
	cd tests/fuzz && for t in frames handshake phh history; do \
		../../$(BIN)/python fuzz_$$t.py -max_total_time=$${FUZZ_SECONDS:-600} -seed=$${FUZZ_SEED:-1} \
			-timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
			-artifact_prefix=$${TMPDIR:-/tmp}/pokerroom-fuzz-$$t- || exit 1; \
	done

# A room spread over processes on this machine (docs/deploy.md): a private nats-server on a
# free port, two workers and two gateways on the local PostgreSQL (database test, schema
# $(CLUSTER_SCHEMA)), bots at the tables; prints the gateways' URLs. Ctrl-C stops it all.
CLUSTER_DB ?= postgresql://postgres@127.0.0.1:5432/test
CLUSTER_SCHEMA ?= cluster
cluster: $(STAMP) $(NATS_SERVER)
	$(BIN)/python -m pokerroom.cli cluster --db $(CLUSTER_DB) --schema $(CLUSTER_SCHEMA) \
		--workers $${WORKERS:-2} --gateways $${GATEWAYS:-2} --bots $${BOTS:-12}

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
