"""GET /tables/{id} answers from a body rendered once per (table, version): never a stale one."""

from __future__ import annotations

from typing import Any

from flask import Flask

from service.extensions import db
from service.middleware.rendered import RenderedViews
from service.schemas.tables import TableSchema
from service.services import tables as table_service
from tests.support import ApiClient, make_app

SOLO_WON = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


def test_a_read_after_another_worker_wrote_shows_the_new_version(app: Flask, api: Any) -> None:
    table = api.table()
    before = api.get_table(table)  # rendered and kept by this app (one worker)
    # A second app on the same database stands for the other gunicorn worker.
    other = ApiClient(
        make_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
        ).test_client()
    )
    recorded = other.record(table, SOLO_WON)
    assert recorded.status_code == 201
    after = api.get_table(table)
    assert after["version"] == before["version"] + 1
    assert after == recorded.json["table"]
    assert [s["balance"] for s in after["seats"]] != [s["balance"] for s in before["seats"]]


def test_the_rendered_body_is_the_schema_dump_of_the_view(app: Flask, api: Any) -> None:
    table = api.table()
    api.record(table, SOLO_WON)
    response = api.client.get(
        f"/api/v1/tables/{table['id']}", headers=api.auth(table["table_token"])
    )
    again = api.client.get(f"/api/v1/tables/{table['id']}", headers=api.auth(table["table_token"]))
    assert response.headers["ETag"] == '"2"' == again.headers["ETag"]
    assert response.content_type == "application/json"
    assert response.data == again.data
    with app.app_context():
        row = table_service.get_table(table["id"])
        assert response.json == TableSchema().dump(table_service.table_view(row))
        db.session.remove()


def test_a_forbidden_or_missing_table_is_refused_before_any_cached_body(api: Any) -> None:
    table = api.table()
    other = api.table()
    api.get_table(table)  # now rendered
    wrong = api.client.get(f"/api/v1/tables/{table['id']}", headers=api.auth(other["table_token"]))
    assert wrong.status_code == 403
    missing = api.client.get("/api/v1/tables/nope", headers=api.auth(table["table_token"]))
    assert missing.status_code == 404


def test_an_older_version_never_replaces_a_newer_body() -> None:
    views = RenderedViews(size=2)
    views.put("t", 5, "en", b"five")
    views.put("t", 4, "en", b"four")
    assert views.get("t", 5, "en") == b"five"
    assert views.get("t", 4, "en") is None


def test_the_cache_stays_within_its_size() -> None:
    views = RenderedViews(size=2)
    for number in range(5):
        views.put(f"t{number}", 1, "en", b"x")
    assert len(views._bodies) <= 2
    assert views.get("t4", 1, "en") == b"x"


def test_the_version_check_returns_its_connection_to_the_pool_as_it_found_it(
    app: Flask, api: Any
) -> None:
    table = api.table()
    with app.app_context():
        # As it found it: the app's pool is the session's, and lives across tests.
        found = db.engine.pool.checkedout()
    for _ in range(3):
        assert api.get_table(table)["version"] == 1
    missing = api.client.get("/api/v1/tables/nope", headers=api.auth(table["table_token"]))
    assert missing.status_code == 404
    with app.app_context():
        assert db.engine.pool.checkedout() == found
        raw = db.engine.raw_connection()
        try:
            if db.engine.dialect.name == "postgresql":  # back out of autocommit
                assert raw.driver_connection.autocommit is False
            cursor = raw.cursor()  # and usable by the next request
            cursor.execute("SELECT 1")
            assert cursor.fetchone()[0] == 1
        finally:
            raw.close()
