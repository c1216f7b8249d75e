"""A hand is planned from the table read without its lock, and stored under the lock only if
the table is still at the version read (``services/writes.py``). These tests let another
phone's hand in between the read and the lock, deterministically: the plan must be made again
from the table as locked, never stored over the other hand."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import exc, text

from service.extensions import db
from service.services.hands import recording
from service.services.writes import BoundWrites, Write

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}


@pytest.fixture
def another_phone_first(monkeypatch: pytest.MonkeyPatch, app: Any) -> Any:
    """``between(table, hand, **headers)``: the next hand recorded through the API is, after
    its unlocked read and before its lock, overtaken by ``hand`` sent by another phone (another
    thread, its own session), which is answered 201 first."""
    answers: list[Any] = []
    lock_if_at_version = recording.lock_if_at_version

    def between(table: dict[str, Any], hand: dict[str, Any], **headers: str) -> list[Any]:
        def overtaken(table_id: str, version: int) -> bool:
            monkeypatch.setattr(recording, "lock_if_at_version", lock_if_at_version)
            client = app.test_client()
            with ThreadPoolExecutor(1) as other:
                answers.append(
                    other.submit(
                        client.post,
                        f"/api/v1/tables/{table['id']}/hands",
                        json=hand,
                        headers={"Authorization": f"Bearer {table['table_token']}", **headers},
                    ).result()
                )
            return lock_if_at_version(table_id, version)

        monkeypatch.setattr(recording, "lock_if_at_version", overtaken)
        return answers

    return between


def test_a_hand_overtaken_before_the_lock_is_settled_after_the_other(api, another_phone_first):
    """The hand is stored as if sent after the other phone's: numbered after it and settled
    from the table it left, exactly as the same two hands sent one after the other."""
    one_after_the_other = api.table()
    assert api.record(one_after_the_other, SOLO).status_code == 201
    expected = api.record(one_after_the_other, LOST_SOLO).json
    table = api.table()
    others = another_phone_first(table, SOLO)
    ours = api.record(table, LOST_SOLO)
    assert [a.status_code for a in others] == [201] and ours.status_code == 201, ours.json
    assert others[0].json["number"] == 1 and ours.json["number"] == 2
    assert ours.json["dealer"] == expected["dealer"]
    # The two tables' players differ only in their names, which the explanations use.
    assert (
        _renamed(ours.json["settlement"], ours.json["table"], expected["table"])
        == (expected["settlement"])
    )
    for field in ("pool", "dealer", "hands_played", "version"):
        assert ours.json["table"][field] == expected["table"][field]
    balances = [s["balance"] for s in ours.json["table"]["seats"]]
    assert balances == [s["balance"] for s in expected["table"]["seats"]]
    assert api.get_table(table)["version"] == ours.json["table"]["version"]


def test_an_expected_number_overtaken_before_the_lock_is_refused(api, another_phone_first):
    table = api.table()
    others = another_phone_first(table, SOLO)
    ours = api.record(table, {**LOST_SOLO, "expected_number": 1})
    assert [a.status_code for a in others] == [201]
    assert ours.status_code == 409, ours.json
    assert api.get_table(table)["hands_played"] == 1


def test_a_retry_overtaken_by_its_first_attempt_is_answered_its_first_answer(
    api, another_phone_first
):
    """The same Idempotency-Key and body: the first attempt commits between the retry's read
    and its lock. The retry is answered the first answer, and the hand is stored once."""
    table = api.table()
    others = another_phone_first(table, SOLO, **{"Idempotency-Key": "hand-1"})
    retry = api.record(table, SOLO, **{"Idempotency-Key": "hand-1"})
    assert [a.status_code for a in others] == [201]
    assert retry.status_code == 201 and retry.headers.get("Idempotent-Replayed") == "true"
    assert retry.json["number"] == 1
    assert api.get_table(table)["hands_played"] == 1


def test_bound_writes_raise_the_databases_errors_as_sqlalchemy_does(app, api):
    """A constraint the database enforces is an ``IntegrityError`` on either path (the hand's
    ``conflict_on_duplicate`` and the outages' handlers catch SQLAlchemy's errors)."""
    table = api.table()
    assert api.record(table, SOLO).status_code == 201
    with app.app_context():
        duplicate = text("INSERT INTO hands (table_id, number) VALUES (:table_id, 1)")
        writes = BoundWrites([Write(duplicate, {"table_id": table["id"]})])
        with pytest.raises(exc.IntegrityError):
            writes.run()
        db.session.rollback()


def test_a_planned_insert_names_every_column_it_fills(app):
    """On SQLite nothing computes a column's Python default on the way: a write that leaves
    one to it is refused when it is planned, not stored without it."""
    from service.persistence.table_keeping import IdempotencyKeyRow
    from service.services.hands.rows import insert_into

    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("the statements go through SQLAlchemy on PostgreSQL")
        row = {"table_id": "t", "key": "k", "request_hash": "h", "status_code": 201}
        with pytest.raises(ValueError, match="created_at"):
            BoundWrites([Write(insert_into(IdempotencyKeyRow.__table__), {**row, "response": {}})])


def _renamed(settlement: dict, table: dict, other: dict) -> dict:
    """``settlement`` of ``table`` with each seat's player's name put as ``other``'s seat has it
    (what the explanation calls each seat)."""
    renamed = dict(settlement)
    lines = []
    for line in settlement["explanation"]:
        for ours, theirs in zip(table["seats"], other["seats"], strict=True):
            line = line.replace(ours["name"], theirs["name"])
        lines.append(line)
    renamed["explanation"] = lines
    return renamed
