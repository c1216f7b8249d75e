"""Migration 0017_series_length: a club night's tables learn their night and their series'
length, both ways, without a copy of the tables (two plain columns). On a database of its own
(SQLite), since it moves the schema's revision."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from sqlalchemy import inspect, text

from service.extensions import db
from tests.api.test_league import SOLO
from tests.support import ApiClient, migrated_app


def _limits() -> list[tuple[str | None, int | None, int]]:
    rows = db.session.execute(
        text("SELECT night_id, hands_limit, hands_played FROM score_tables ORDER BY id")
    ).all()
    db.session.remove()
    return [tuple(r) for r in rows]


def test_the_migration_gives_night_tables_their_night_and_length_both_ways(
    tmp_path: Path,
) -> None:
    import flask_migrate

    app: Flask = migrated_app(None, tmp_path)
    api = ApiClient(app.test_client())
    club = api.club()
    admin = api.auth(club["admin_token"])
    night = api.client.post(
        f"/api/v1/clubs/{club['id']}/nights",
        json={
            "name": "Spieleabend",
            "variant": "american",
            "players": api.players(club, 4),
            "hands_per_series": 1,
        },
        headers=admin,
    ).json
    drawn = api.client.post(f"/api/v1/nights/{night['id']}/series", json={}, headers=admin).json
    table_id = drawn["tables"][0]["table_id"]
    hands = f"/api/v1/tables/{table_id}/hands"
    assert api.client.post(hands, json=SOLO, headers=admin).status_code == 201
    with app.app_context():
        flask_migrate.downgrade(revision="0016_night_card_tokens")
        columns = {c["name"] for c in inspect(db.engine).get_columns("score_tables")}
        assert "hands_limit" not in columns and "night_id" not in columns
        # Before the limit, a table went on beyond its series' count.
        db.session.execute(text("UPDATE score_tables SET hands_recorded = 3, hands_played = 3"))
        db.session.commit()
        db.session.remove()
        flask_migrate.upgrade()
        flask_migrate.check()
        # The night's hands per series, or the hands played where the table went beyond it.
        assert _limits() == [(night["id"], 3, 3)]
        db.session.execute(
            text("UPDATE score_tables SET hands_recorded = 1, hands_played = 1, hands_limit = 1")
        )
        db.session.commit()
        db.session.remove()
    assert api.client.post(hands, json=SOLO, headers=admin).json["type"] == (
        "urn:solo:problem:series-over"
    )
