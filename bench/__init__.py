"""Benchmarks, each run as a module from the project root: ``.venv/bin/python -m bench.http``.

They run as modules (not as files) because ``bench/http.py`` would otherwise hide the standard
library's ``http`` package from every script in this folder."""
