"""The league's schema: the database refuses impossible aggregates, and migration 0002 keeps
every table, seat and hand of a database made at 0001."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, insert, text
from sqlalchemy.exc import IntegrityError

from service.extensions import db
from service.persistence.league import SeasonPlayerRow, SeasonRow
from tests.support import make_app


@pytest.fixture
def season_with_player(app, api):
    club = api.club()
    [player] = api.players(club, 1)
    with app.app_context():
        db.session.add(SeasonRow(id="s" * 32, club_id=club["id"], name="S", variant="american"))
        db.session.commit()
        db.session.remove()
    return "s" * 32, player


@pytest.mark.parametrize(
    "counters",
    [
        {"hands": -1},
        {"hands": 3, "declared": 2, "won": 2, "lost": 1},
        {"hands": 1, "declared": 2},
        {"hands": 2, "declared": 1, "won": 1, "solos_won": 2},
        {"hands": 0, "sittings": 1},
    ],
)
def test_the_database_refuses_impossible_season_counts(app, season_with_player, counters):
    season_id, player_id = season_with_player
    row = {
        "season_id": season_id,
        "player_id": player_id,
        "sittings": 0,
        "hands": 0,
        "net": 0,
        "declared": 0,
        "won": 0,
        "lost": 0,
        "solos_won": 0,
        "touts_won": 0,
        "betes_paid": 0,
        "stamms_drawn": 0,
        "errors": 0,
        **counters,
    }
    with app.app_context(), pytest.raises(IntegrityError), db.engine.begin() as connection:
        connection.execute(insert(SeasonPlayerRow).values(**row))


def test_the_database_refuses_a_season_that_ends_before_it_starts(app, api):
    club = api.club()
    with app.app_context(), pytest.raises(IntegrityError), db.engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO seasons (id, club_id, name, variant, starts_on, ends_on, "
                "created_at) VALUES ('x', :club, 'S', 'american', '2026-02-01', "
                "'2026-01-01', '2026-01-01 00:00:00')"
            ),
            {"club": club["id"]},
        )


SEED_0001 = [
    "INSERT INTO clubs VALUES ('c', 'Club', '2026-01-01 10:00:00')",
    *(f"INSERT INTO players VALUES ('p{i}', 'c', 'P{i}', '2026-01-01 10:00:00')" for i in range(4)),
    "INSERT INTO score_tables (id, club_id, name, variant, options, players, first_dealer, "
    "status, version, hands_recorded, hands_played, pool, state, created_at) VALUES "
    "('t', 'c', 'T', 'american', '{}', 4, 0, 'open', 2, 1, 1, 0, '{}', '2026-01-01 10:00:00')",
    *(f"INSERT INTO seats VALUES ('t', {i}, 'p{i}', 0)" for i in range(4)),
    "INSERT INTO hands (table_id, number, status, revision, dealer, record, state_before, "
    "state_after, settlement, recorded_at, updated_at) VALUES ('t', 1, 'recorded', 1, 0, '{}', "
    "'{}', '{}', '{}', '2026-01-01 10:00:00', '2026-01-01 10:00:00')",
    "INSERT INTO tokens VALUES ('k', 'table', 'c', 't', 'h', '2026-01-01 10:00:00')",
]


def _row_counts(url: str) -> dict[str, int]:
    engine = create_engine(url)
    with engine.connect() as connection:
        found = {
            name: connection.scalar(text(f"SELECT count(*) FROM {name}"))
            for name in ("score_tables", "seats", "hands", "tokens")
        }
    engine.dispose()
    return found


def test_migration_0002_keeps_every_row_of_a_sqlite_database_both_ways(tmp_path):
    import flask_migrate

    url = f"sqlite:///{tmp_path / 'old.db'}"
    app = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        flask_migrate.upgrade(revision="0001")
        with db.engine.begin() as connection:
            for statement in SEED_0001:
                connection.execute(text(statement))
        db.engine.dispose()
    expected = {"score_tables": 1, "seats": 4, "hands": 1, "tokens": 1}
    assert _row_counts(url) == expected
    with app.app_context():
        flask_migrate.upgrade()
        flask_migrate.check()
        db.engine.dispose()
    assert _row_counts(url) == expected
    with app.app_context():
        flask_migrate.downgrade(revision="0001")
        db.engine.dispose()
    assert _row_counts(url) == expected
