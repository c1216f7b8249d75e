"""The suite's own rules: which tests run on both databases (tests/databases.py), and that
nothing reaches the database under test around that rule."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests import databases

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"


def _item(session: pytest.Session, nodeid_part: str) -> pytest.Item:
    found = [item for item in session.items if nodeid_part in item.nodeid]
    if not found:
        pytest.skip(f"{nodeid_part} is not collected in this run")
    return found[0]


def test_only_the_rule_reads_the_database_under_test() -> None:
    """A test that read TEST_DATABASE_URL itself would reach PostgreSQL without the mark."""
    reads = re.compile(r"""(environ\.get\(|environ\[|getenv\()\s*["']TEST_DATABASE_URL""")
    readers = sorted(
        str(path.relative_to(ROOT))
        for path in TESTS.rglob("*.py")
        if reads.search(path.read_text())
    )
    assert readers == ["tests/databases.py"]


def test_a_test_on_the_api_fixtures_runs_on_both_databases(request: pytest.FixtureRequest) -> None:
    on_api = _item(request.session, "tests/api/test_tables.py::")
    assert "api" in on_api.fixturenames or "client" in on_api.fixturenames
    assert on_api.get_closest_marker(databases.MARK) is not None


def test_rules_and_browser_tests_run_once(request: pytest.FixtureRequest) -> None:
    rule = _item(request.session, "tests/unit/test_american_examples.py::")
    assert rule.get_closest_marker(databases.MARK) is None
    # The browser tests' asset app is a fixture named ``app`` too, on SQLite of its own.
    browser = _item(request.session, "tests/e2e/test_assets.py::test_no_path_escapes")
    assert "app" in browser.fixturenames
    assert browser.get_closest_marker(databases.MARK) is None


def test_a_module_that_asks_which_database_it_is_on_runs_on_both(
    request: pytest.FixtureRequest,
) -> None:
    postgres_only = _item(request.session, "tests/api/test_locking.py::")
    assert postgres_only.get_closest_marker(databases.MARK) is not None


def test_reaching_the_database_without_the_mark_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    unmarked = SimpleNamespace(
        nodeid="tests/unit/test_x.py::test_y",
        get_closest_marker=lambda name: None,
        fixturenames=[],
        module=None,
    )
    monkeypatch.setattr(databases, "current", unmarked)
    with pytest.raises(pytest.fail.Exception, match="not marked 'database'"):
        databases.postgres_url()


def test_a_marked_test_gets_the_database_under_test(monkeypatch: pytest.MonkeyPatch) -> None:
    marked = SimpleNamespace(
        nodeid="tests/api/test_x.py::test_y",
        get_closest_marker=lambda name: object() if name == databases.MARK else None,
        fixturenames=[],
        module=None,
    )
    monkeypatch.setattr(databases, "current", marked)
    assert databases.postgres_url() == databases.POSTGRES_URL


def test_the_postgresql_half_runs_the_marked_tests() -> None:
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^test-postgres:.*?(?=^\S)", makefile, flags=re.M | re.S)
    assert target is not None and f"-m {databases.MARK}" in target.group(0)
    assert "make test-postgres" in (ROOT / ".ci" / "run").read_text()


def test_the_workers_take_the_files_in_pytests_order() -> None:
    """``make test`` and ``make test-postgres`` hand a file to each worker at a time, in the
    order pytest collects them: xdist's default order (most tests first) left the files of a few
    long tests (the fuzzing, a killed worker's restart, a whole evening in the browser) to the
    end, run by one worker while the other idled (docs/testing.md)."""
    makefile = (ROOT / "Makefile").read_text()
    pytest_command = re.search(r"^PYTEST := (.*)$", makefile, flags=re.M)
    assert pytest_command is not None
    assert "--dist loadfile" in pytest_command.group(1)
    assert "--no-loadscope-reorder" in pytest_command.group(1)
    for target in ("test", "test-postgres"):
        recipe = re.search(rf"^{target}:.*?(?=^\S)", makefile, flags=re.M | re.S)
        assert recipe is not None and "$(PYTEST)" in recipe.group(0)


def test_the_fuzzing_is_spread_over_modules() -> None:
    """Schemathesis' phases and modes are modules of their own (tests/api/fuzz/), so that the
    workers share them out: no test module holds more than one phase."""
    phases = ("coverage_phase(", "fuzzing_phase(", "stateful_phase(")
    modules = sorted((TESTS / "api" / "fuzz").glob("test_*.py"))
    assert len(modules) >= 5
    for module in modules:
        text = module.read_text()
        assert sum(text.count(phase) for phase in phases) == 1, module.name
