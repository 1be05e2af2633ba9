"""The harnesses here are libFuzzer scripts (run as subprocesses by test_fuzz_short.py and
`make fuzz`), not modules for pytest to import: importing one instruments the package and
opens an event loop. Only the test files are collected."""

collect_ignore_glob = ["fuzz_*.py", "_harness.py", "make_corpus.py"]
