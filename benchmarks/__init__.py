"""Benchmark commands: each module prints its figures (``python -m benchmarks.NAME``)."""
