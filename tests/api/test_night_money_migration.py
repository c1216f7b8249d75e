"""Migration 0013_night_money keeps every club night, its players, series and table links, both
ways, and its rate's columns and history come and go with it. On a database of its own
(SQLite: its table copy is the risky part), since it moves the schema's revision; the same
test was run by hand on a PostgreSQL database of its own."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from sqlalchemy import inspect, text

from service.extensions import db
from tests.support import ApiClient, migrated_app

ROWS = ("club_nights", "club_night_players", "club_night_series", "club_night_tables", "players")


def _counts() -> dict[str, int]:
    """The rows of each table, read in a transaction of their own (ended at once: on
    PostgreSQL an open one would hold the ALTER TABLE of the migration up)."""
    counts = {name: db.session.scalar(text(f"SELECT count(*) FROM {name}")) for name in ROWS}
    db.session.remove()
    return counts


def test_the_migration_keeps_every_night_both_ways(tmp_path: Path) -> None:
    import flask_migrate

    app: Flask = migrated_app(None, tmp_path)
    api = ApiClient(app.test_client())
    club = api.club()
    admin = api.auth(club["admin_token"])
    players = api.players(club, 8)
    started = api.client.post(
        f"/api/v1/clubs/{club['id']}/nights",
        json={
            "name": "Spieleabend",
            "variant": "american",
            "players": players,
            "rate": {"cents": 5},
        },
        headers=admin,
    )
    assert started.status_code == 201, started.json
    night = started.json
    drawn = api.client.post(f"/api/v1/nights/{night['id']}/series", json={}, headers=admin)
    assert drawn.status_code == 201
    changed = api.client.patch(
        f"/api/v1/nights/{night['id']}", json={"rate": {"cents": 10}}, headers=admin
    )
    assert changed.status_code == 200
    with app.app_context():
        before = _counts()
        assert before["club_night_tables"] == 2 and before["club_night_players"] == 8
        flask_migrate.downgrade(revision="0012_webhooks")
        assert _counts() == before
        columns = {c["name"] for c in inspect(db.engine).get_columns("club_nights")}
        assert "rate_cents" not in columns
        assert "club_night_changes" not in inspect(db.engine).get_table_names()
        flask_migrate.upgrade()
        flask_migrate.check()
        assert _counts() == before
    # Back up, the night plays for no money (its rate went with the downgrade); the foreign
    # keys hold, and it is drawn and changed as before.
    again = api.client.get(f"/api/v1/nights/{night['id']}", headers=admin).json
    assert again["rate"] is None and len(again["series"]) == 1
    renewed = api.client.patch(
        f"/api/v1/nights/{night['id']}", json={"rate": {"cents": 3}}, headers=admin
    )
    assert renewed.status_code == 200 and renewed.json["rate"]["cents"] == 3
