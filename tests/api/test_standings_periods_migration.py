"""Migration 0014_standings_periods: the season's day rows become day, month and year rows, and
back again on a downgrade, with every filtered standing read the same before and after. On
the database under test (its SQL for a month's and a year's first day differs between SQLite
and PostgreSQL); it moves the schema's revision and leaves it at the head."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Flask
from sqlalchemy import inspect, text, update

from service.extensions import db
from service.persistence.table_keeping import TableRow
from tests.support import ApiClient

OPENED = (datetime(2025, 12, 30, 20, tzinfo=UTC), datetime(2026, 1, 5, 20, tzinfo=UTC))
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
RANGES = (
    {},
    {"from": "2025-12-01", "to": "2025-12-31"},
    {"from": "2026-01-01", "to": "2026-12-31"},
    {"from": "2025-12-30", "to": "2026-01-05"},
    {"to": "2026-01-04"},
)


def _rows(span: str) -> int:
    found = db.session.scalar(
        text("SELECT count(*) FROM season_player_periods WHERE span = :span"), {"span": span}
    )
    db.session.remove()  # no transaction left open to hold the migration's DDL up
    return int(found)


def test_the_migration_keeps_every_filtered_standing_both_ways(app: Flask, client) -> None:
    import flask_migrate

    api = ApiClient(client)
    club = api.club()
    admin = api.auth(club["admin_token"])
    players = api.players(club, 4)
    season = client.post(
        f"/api/v1/clubs/{club['id']}/seasons",
        json={"name": "Winter", "variant": "american"},
        headers=admin,
    ).json
    for opened in OPENED:
        table = client.post(
            "/api/v1/tables",
            json={
                "club_id": club["id"],
                "name": "Evening",
                "variant": "american",
                "seats": players,
                "season_id": season["id"],
            },
            headers=admin,
        ).json
        with app.app_context():
            db.session.execute(
                update(TableRow).where(TableRow.id == table["id"]).values(created_at=opened)
            )
            db.session.commit()
            db.session.remove()
        assert api.record(table, SOLO).status_code == 201

    def standings() -> list[dict]:
        read = []
        for query in RANGES:
            answer = client.get(
                f"/api/v1/seasons/{season['id']}/standings", query_string=query, headers=admin
            )
            assert answer.status_code == 200, answer.json
            read.append(answer.json["rows"])
        return read

    before = standings()
    assert [len(rows) for rows in before] == [4, 4, 4, 4, 4]
    with app.app_context():
        assert (_rows("day"), _rows("month"), _rows("year")) == (8, 8, 8)
        flask_migrate.downgrade(revision="0013_night_money")
        tables = inspect(db.engine).get_table_names()
        assert "season_player_periods" not in tables and "season_player_days" in tables
        days = db.session.scalar(text("SELECT count(*) FROM season_player_days"))
        db.session.remove()
        assert days == 8
        flask_migrate.upgrade()
        flask_migrate.check()
        # Made again from the days: two months and two years, a row for each player in each.
        assert (_rows("day"), _rows("month"), _rows("year")) == (8, 8, 8)
    assert standings() == before
