# Two commands on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 0.0.0.0
WEB_CONCURRENCY ?= 2
export FLASK_APP := service

.PHONY: install serve test test-postgres test-fast fuzz openapi bench bench-http bench-capacity \
	lint contract-tools translations

# The third-party tools tests/contract checks openapi.yaml with (Spectral, Redocly,
# openapi-typescript, @hey-api/openapi-ts, tsc), from npm at the versions of
# tools/contract/package-lock.json; the stamp makes a second run install nothing. (The Python
# ones, openapi-python-client, openapi-generator-cli and datamodel-code-generator, come with
# '.[test]'; openapi-generator runs on the JRE .ci/run installs.)
CONTRACT_TOOLS := tools/contract/node_modules/.installed

# The first run downloads and installs the service's and the tests' packages into $(VENV): a few
# minutes, with pip telling each package as it goes. Later runs skip this until pyproject.toml
# changes.
$(VENV)/.installed: pyproject.toml
	@echo "== Installing into $(VENV): the first time takes a few minutes (pip lists each package)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check --progress-bar on --upgrade pip
	$(PY) -m pip install --disable-pip-version-check --progress-bar on -e '.[test]'
	touch $@
	@echo "== Installed into $(VENV)"

install: $(VENV)/.installed

$(CONTRACT_TOOLS): tools/contract/package-lock.json
	command -v npm >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm)
	cd tools/contract && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $@

contract-tools: $(CONTRACT_TOOLS)

# Threaded workers that gather each request before a thread takes it (gunicorn.conf.py), and
# the webhooks' deliverer beside them, stopped with them (docs/operations.md#webhooks).
# The metrics' files of the workers and the deliverer (service/metrics.py), emptied at each start.
serve: install
	$(VENV)/bin/flask db upgrade
	rm -rf instance/metrics && mkdir -p instance/metrics
	export PROMETHEUS_MULTIPROC_DIR=$(CURDIR)/instance/metrics; \
	$(VENV)/bin/flask deliver-webhooks & deliverer=$$!; \
	trap 'kill $$deliverer 2>/dev/null; wait $$deliverer' EXIT INT TERM; \
	$(VENV)/bin/gunicorn --workers $(WEB_CONCURRENCY) --bind $(HOST):$(PORT) \
		--access-logfile - wsgi:app

# The suite runs in TEST_WORKERS processes (pytest-xdist), a test file to each at a time: the
# browser tests, the real servers and the database wait much of the time (one process used 0.4
# of the two cores), and the second worker fills it (docs/testing.md gives the figures). The
# files are handed out in the order pytest collects them (--no-loadscope-reorder): xdist's
# default order, by how many tests a file holds, left the files of few long tests (the fuzzing,
# a killed worker's restart, a whole evening in the browser) to the end, where one worker ran
# them while the other idled; in pytest's order the API's first (the fuzzing's modules lead)
# and the many small rules' files last, which even out the two workers' ends.
TEST_WORKERS ?= 2
PYTEST := $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# The whole suite on SQLite (PostgreSQL where TEST_DATABASE_URL says so), after the lint (ruff's
# checks and format, mypy strict: a change that breaks them fails `make test` as a failing test
# would), with the branch coverage of service/ measured and held at its floor ([tool.coverage]
# in pyproject.toml; the servers the tests start are measured too) and the 20 slowest tests
# named. docs/testing.md says what runs where.
test: install contract-tools lint
	$(PYTEST) --cov --cov-report=term:skip-covered --durations=20

# What the database decides, on PostgreSQL: the tests marked `database` (tests/databases.py
# says which). This database's public schema is wiped. The fuzzing's random examples at 10 an
# operation and mode (25 on SQLite): here they look only for an answer PostgreSQL makes
# different (a text or a number it stores otherwise), beside the coverage phase's boundary
# cases, sent in full; every answer as documented is the SQLite half's (docs/testing.md).
POSTGRES_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/test
test-postgres: install
	TEST_DATABASE_URL="$${TEST_DATABASE_URL:-$(POSTGRES_TEST_URL)}" \
	FUZZ_EXAMPLES="$${FUZZ_EXAMPLES:-10}" \
		$(PYTEST) -m database --durations=20

# A quick round: no test that starts real servers or runs long, Hypothesis' quick profile; a
# tool that is not installed (Chromium, the npm tools, a JRE) skips its tests with the reason.
test-fast: install
	HYPOTHESIS_PROFILE=quick $(PYTEST) -q -m "not slow"

# Schemathesis with its full budget (make test runs a bounded one): before a release, and after
# changing an operation's schema or its checks.
fuzz: install
	FUZZ_EXAMPLES=300 FUZZ_STATEFUL_SCENARIOS=200 $(PYTEST) tests/api/fuzz

openapi: install
	$(VENV)/bin/flask write-openapi openapi.yaml

# The messages the code marks (N_, Nn_; the rules' Phrase("…") and RuleViolation(field, "…"),
# which import no marker) into the German and Spanish catalogs: new ones arrive
# untranslated (tests/unit/test_catalogs.py fails until they are translated). The service reads
# the .po files themselves, compiled in memory when first asked for (service/i18n): no .mo.
translations: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ -k Nn_:1,2 -k Phrase:1 -k RuleViolation:2 \
		--no-default-keywords \
		--no-location --sort-output -o service/i18n/messages.pot .
	$(VENV)/bin/pybabel update -i service/i18n/messages.pot -d service/i18n/locales \
		--no-fuzzy-matching --ignore-obsolete
	rm service/i18n/messages.pot

bench: install
	$(PY) -m bench.settle

# The service against a bare Flask app under wrk (installed from Debian's packages when absent),
# on SQLite and on the PostgreSQL at 127.0.0.1:5432 when it answers.
bench-http: install
	command -v wrk >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk)
	$(PY) -m bench.http

# How many live tables one instance holds, polling and following streams, each step a cold
# start and 2 minutes of steady state (about 20 minutes), on DATABASE_URL (SQLite by default),
# against the bare echo's ceiling; `$(PY) -m bench.capacity --quick` for a look.
bench-capacity: install
	command -v wrk >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wrk)
	$(PY) -m bench.capacity

# ruff's checks and formatting over the code, and mypy (strict; what it checks is in
# pyproject.toml's [tool.mypy]); the pad's JavaScript: tsc --checkJs over its JSDoc types
# (tools/jscheck/tsconfig.json; TypeScript comes with the contract tools) and the Python's line
# length (tools/jscheck/line_length.py).
lint: install contract-tools
	$(VENV)/bin/ruff check service tests bench tools/jscheck
	$(VENV)/bin/ruff format --check service tests bench tools/jscheck
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --strict tools/jscheck/line_length.py
	tools/contract/node_modules/.bin/tsc -p tools/jscheck/tsconfig.json
	$(PY) tools/jscheck/line_length.py
