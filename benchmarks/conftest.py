"""Benchmarks (pytest-benchmark), not tests: run them with

    python -m pytest benchmarks --benchmark-only

Each measures one figure of `roost bench` on the same fixed positions (each game's
``bench_position`` in src/core/games.py) and records the rate in ``extra_info``.

Reports, not tests: no benchmark asserts a speed target (see benchmarks/README.md)."""
