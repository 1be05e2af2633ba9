"""The rules: pure, deterministic, no clock, no randomness of its own, no I/O."""
