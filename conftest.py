"""Test-session set-up shared by every test and doctest."""

import os

# The hot core modules may be compiled by mypyc (see setup.py): their module __file__ is
# then the extension module, not the .py that --doctest-modules collects. Both come from
# the same source, so tell pytest the mismatch is expected.
os.environ.setdefault("PY_IGNORE_IMPORTMISMATCH", "1")

# Alembic's migration scripts run only inside Alembic (the server's start-up runs them).
collect_ignore_glob = ["src/pokerroom/store/migrations/*"]
