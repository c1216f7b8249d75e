"""Hypothesis settings profiles, and the rule of which tests run on both databases
(``tests/databases.py``); app and database fixtures live in tests/api/conftest.py."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests import databases, support

# CI (.ci/run) runs Hypothesis' own 100 examples a test, as a developer's `make test` does, new
# random ones in every run (no fixed seed), so the runs add up; it ran 200, when the property
# tests were a sixth of the SQLite half's time (docs/testing.md, "Where the time goes").
settings.register_profile("default", max_examples=100, deadline=None)
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("quick", max_examples=20, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``database`` every test that uses the database under test (``-m database`` is the
    PostgreSQL half of the suite)."""
    for item in items:
        if databases.reaches_database(item):
            item.add_marker(databases.MARK)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    # The fixtures a test sets up run inside this: postgres_url() knows whom it answers.
    databases.current = item
    try:
        return (yield)
    finally:
        databases.current = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    # The apps a test makes in its body are its own: closed when it ends (support.make_app).
    support.made_by_test = made = []
    try:
        return (yield)
    finally:
        support.made_by_test = None
        for app in made:
            support.dispose_engines(app)
