# Two commands on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 0.0.0.0
WEB_CONCURRENCY ?= 2
export FLASK_APP := service

.PHONY: install serve test test-fast openapi bench lint

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

serve: install
	$(VENV)/bin/flask db upgrade
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

lint: install
	$(VENV)/bin/ruff check service tests bench
