"""An app on a migrated database for API tests: SQLite in a temp dir, or PostgreSQL when
``TEST_DATABASE_URL`` is set. Every test starts from empty tables."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.databases import postgres_url
from tests.support import dispose_engines, migrated_app, wipe


@pytest.fixture(scope="session")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    return migrated_app(postgres_url(), tmp_path_factory.mktemp("db"))


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    yield app.test_client()
    wipe(app)
    # Each test starts on new connections (its pool, its pinned readers and feeds): a test that
    # cuts or holds one from outside leaves nothing behind for the next.
    dispose_engines(app)


@pytest.fixture
def api(client: FlaskClient) -> Any:
    from tests.support import ApiClient

    return ApiClient(client)
