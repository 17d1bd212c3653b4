"""The benchmark harness: ``python benchmarks/run.py`` (or ``make bench``); see README.md."""
