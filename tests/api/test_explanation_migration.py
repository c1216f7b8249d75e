"""Migration 0005_explanation_seats: stored explanations number seats from 1, German tables carry
their preferred suit in the state; and back again on a downgrade. On a database of its own
(SQLite), since it moves the schema's revision."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from service.extensions import db
from tests.support import ApiClient, dispose_engines, migrated_app

MIGRATION = Path(__file__).resolve().parents[2] / "migrations/versions/0005_explanation_seats.py"


def _migration() -> Any:
    spec = importlib.util.spec_from_file_location("migration_0005", MIGRATION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Seat 0 deals next", "Seat 1 deals next"),
        ("Dealer (seat 3) stakes 2 into the pool", "Dealer (seat 4) stakes 2 into the pool"),
        (
            "Seats 0, 2, 3 and 4 each pay 1 chip to seat 1",
            "Seat 1, seat 3, seat 4 and seat 5 each pay 1 chip to seat 2",
        ),
        (
            "Seat 2 pays 1 chip to each of seats 0, 1, 3 and 4",
            "Seat 3 pays 1 chip to each of seat 1, seat 2, seat 4 and seat 5",
        ),
        (
            "Seats 1 and 3 score +4 each; the others score 0",
            "Seat 2 and seat 4 score +4 each; the others score 0",
        ),
        (
            "Game payments: seat 0 pays 7 to seat 1, seat 3 pays 7 to seat 2",
            "Game payments: seat 1 pays 7 to seat 2, seat 4 pays 7 to seat 3",
        ),
        (
            "The declaring side took 8 tricks with 5 needed: won",
            "The declaring side took 8 tricks with 5 needed: won",
        ),
        ("on seat 2's revoke", "on seat 3's revoke"),
    ],
)
def test_old_lines_are_renumbered_from_one_and_back(old: str, new: str) -> None:
    migration = _migration()
    assert migration.renumber(old, 1) == new
    assert migration.renumber(new, -1) == migration.renumber(migration.renumber(old, 1), -1)
    assert migration.renumber(migration.renumber(new, -1), 1) == new


def test_a_downgrade_and_an_upgrade_rewrite_the_stored_explanations(tmp_path: Path) -> None:
    import flask_migrate

    app: Flask = migrated_app(None, tmp_path)
    try:
        api = ApiClient(app.test_client())
        german = api.table(variant="german", options={"preferred_suit": "hearts"})
        hand = {"contract": "solo", "trump": "clubs", "declarer": 0, "tricks": 5}
        recorded = api.client.post(
            f"/api/v1/tables/{german['id']}/hands",
            json=hand,
            headers=api.auth(german["table_token"]),
        )
        assert recorded.status_code == 201, recorded.json
        lines = recorded.json["settlement"]["explanation"]
        assert (
            "Player 1 scores -6; the others score 0" in lines
            or "Player 1 scores +6; the others score 0" in lines
        )
        assert lines[-1] == "Player 2 deals next"

        # Down to the revision before this one only, and read the row itself: the code of today
        # expects the schema of today, which later migrations may have changed. Hands are kept
        # with explanation steps now, which carry no seat numbers as text (the migration leaves
        # them as they are); a hand stored before that kept its lines as text, seats from 0:
        # one is written so, and the upgrade renumbers it.
        old_lines = ["Seat 0 scores +6; the others score 0", "Seat 1 deals next"]
        with app.app_context():
            flask_migrate.downgrade(revision=_migration().down_revision)
            stored = db.session.execute(text("SELECT settlement FROM hands")).scalar_one()
            settlement = json.loads(stored) if isinstance(stored, str) else stored
            assert settlement["explanation"][-1] == {"code": "deals_next", "args": {"seat": 1}}
            db.session.execute(
                text("UPDATE hands SET settlement = :s"),
                {"s": json.dumps({**settlement, "explanation": old_lines})},
            )
            db.session.commit()
        token = api.auth(german["table_token"])

        with app.app_context():
            flask_migrate.upgrade()
        again = api.client.get(f"/api/v1/tables/{german['id']}/hands/1", headers=token).json
        assert again["settlement"]["explanation"] == [
            "Seat 1 scores +6; the others score 0",
            "Seat 2 deals next",
        ]
        table = api.client.get(f"/api/v1/tables/{german['id']}", headers=token).json
        assert table["couleur"] == "hearts"
    finally:
        dispose_engines(app)
