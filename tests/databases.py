"""Which database a test runs on, and the rule that decides which tests run on both.

The whole suite runs on SQLite (``make test``). With ``TEST_DATABASE_URL`` set (``.ci/run``'s
PostgreSQL half, ``make test-postgres``) only the tests marked ``database`` run again: what the
database decides (the API and everything behind it, the league, nights, webhooks, streams,
imports, migrations, faults). The rules, the pad in the browser, the linters and the generated
clients do not depend on the database and run once.

The rule: a test is marked ``database`` when it uses the fixture that hands out the database
under test (``app`` of tests/api/conftest.py, or any fixture built on it), when its module asks
which database it runs on (it names ``ON_POSTGRES`` or ``postgres_url`` from here: a test for
PostgreSQL alone must not be left out of the PostgreSQL half), or by hand
(``pytestmark = pytest.mark.database``). A test that asks for the database under test through
``postgres_url()`` without the mark fails, so no test can reach PostgreSQL in one half and be
left out of the other.
"""

from __future__ import annotations

import os

import pytest

MARK = "database"
# The fixture that hands out the database under test, and where it is defined: ``client``,
# ``api`` and the API modules' own apps are built on it. A fixture of the same name defined
# elsewhere (a browser test's own SQLite app) does not count.
FIXTURE = "app"
FIXTURE_MODULE = "tests.api.conftest"

GIVEN_URL = os.environ.get("TEST_DATABASE_URL") or None
ON_POSTGRES = GIVEN_URL is not None
# pytest-xdist's workers (gw0, gw1 …) each wipe and fill a database of their own: the given
# one's name with the worker's after it, made when first asked for.
WORKER = os.environ.get("PYTEST_XDIST_WORKER")
POSTGRES_URL = f"{GIVEN_URL}_{WORKER}" if GIVEN_URL and WORKER else GIVEN_URL
_made = False

# The test being set up, run or torn down (tests/conftest.py keeps it).
current: pytest.Item | None = None


def reaches_database(item: pytest.Item) -> bool:
    """Whether ``item`` runs on both databases: marked by hand, or using a fixture that hands
    out the database under test (``fixturenames`` is the closure: fixtures of fixtures count)."""
    if item.get_closest_marker(MARK) is not None:
        return True
    module = getattr(item, "module", None)
    names = vars(module) if module is not None else {}
    if names.get("ON_POSTGRES") is ON_POSTGRES or names.get("postgres_url") is postgres_url:
        return True
    info = getattr(item, "_fixtureinfo", None)
    definitions = info.name2fixturedefs.get(FIXTURE) if info is not None else None
    if not definitions:
        return False
    return bool(definitions[-1].func.__module__ == FIXTURE_MODULE)


def postgres_url() -> str | None:
    """``TEST_DATABASE_URL`` for the test being run, which must be marked ``database``: a test
    that reaches the database under test runs in both halves of the suite."""
    if current is not None and not reaches_database(current):
        pytest.fail(
            f"{current.nodeid} reaches the database under test (TEST_DATABASE_URL) but is not "
            f"marked {MARK!r}: mark it (it then runs on PostgreSQL too), or give it SQLite of "
            "its own (tests.support.migrated_app(None, …))",
            pytrace=False,
        )
    _make_workers_database()
    return POSTGRES_URL


def _make_workers_database() -> None:
    global _made
    if _made or not GIVEN_URL or POSTGRES_URL == GIVEN_URL:
        return
    import psycopg
    from psycopg import sql

    from service.config import normalize_database_url

    name = str(POSTGRES_URL).rsplit("/", 1)[1]
    given = normalize_database_url(GIVEN_URL).replace("+psycopg", "")
    with psycopg.connect(given, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
        if exists.fetchone() is None:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    _made = True
