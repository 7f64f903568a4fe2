"""Benchmarks and agreement runs (not shipped with the package)."""
