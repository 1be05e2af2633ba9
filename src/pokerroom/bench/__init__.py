"""Benchmarks and test oracles; never imported by the room itself."""
