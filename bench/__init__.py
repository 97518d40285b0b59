"""Benchmarks, run by `make bench` (build.py: figure and site builds, the edit loop
under `mkdocs serve`) and `make bench-pages` (pages.py: page loads in Chromium).
They print medians and ratios and never fail on a number: speed is measured here,
never by a timed test."""
