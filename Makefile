# Two commands on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 0.0.0.0
WEB_CONCURRENCY ?= 2
export FLASK_APP := service

.PHONY: install serve test test-fast openapi bench bench-http lint

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

serve: install
	$(VENV)/bin/flask db upgrade
	# Threaded workers that gather each request before a thread takes it (gunicorn.conf.py).
	exec $(VENV)/bin/gunicorn --workers $(WEB_CONCURRENCY) --bind $(HOST):$(PORT) \
		--access-logfile - wsgi:app

test: install
	$(PY) -m pytest

test-fast: install
	HYPOTHESIS_PROFILE=quick $(PY) -m pytest -x -q -m "not slow"

openapi: install
	$(VENV)/bin/flask write-openapi openapi.yaml

bench: install
	$(PY) -m bench.settle

# The service against a bare Flask app under wrk (installed from Debian's packages when absent),
# on SQLite and on the PostgreSQL at 127.0.0.1:5432 when it answers.
bench-http: install
	command -v wrk >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk)
	$(PY) -m bench.http

lint: install
	$(VENV)/bin/ruff check service tests bench
