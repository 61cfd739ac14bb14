"""One-off studies, each printing figures measured in one run: ``python -m
benchmarks.studies.<name> --help``."""
