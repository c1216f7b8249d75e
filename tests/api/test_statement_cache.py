"""The writes of a table compile their SQL once: after a first hand recorded, corrected and
voided, the same writes on another table of the same shape run only statements from
SQLAlchemy's compiled cache. A statement with no cache key is compiled again on every call,
on SQLite inside the writer lock that every worker's writes queue on: the league's multi-row
upserts did exactly that, 1.5 ms of the 2 ms a hand held the lock (docs/performance.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine.default import CACHE_HIT

from service.extensions import db
from service.services.statements import compiled_for
from tests.api.test_league import LOST_SOLO, SOLO, League


class CompiledStatements:
    """Each compiled statement the app's engine runs, with whether it came from the cache."""

    def __init__(self, app: Flask) -> None:
        with app.app_context():
            self.engine = db.engine
        self.seen: list[tuple[str, bool]] = []
        event.listen(self.engine, "before_cursor_execute", self._note)

    def _note(self, _c: Any, _cur: Any, statement: str, _p: Any, context: Any, _m: Any) -> None:
        if context is not None and context.compiled is not None:
            self.seen.append((statement.split("\n")[0][:80], context.cache_hit is CACHE_HIT))

    def remove(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._note)


@pytest.fixture
def compiled(app: Flask) -> Iterator[CompiledStatements]:
    statements = CompiledStatements(app)
    yield statements
    statements.remove()


def _play(league: League, client: Any) -> None:
    """A table of the season: two hands recorded, the first corrected, the second voided."""
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO, LOST_SOLO)
    auth = league.api.auth(table["table_token"])
    url = f"/api/v1/tables/{table['id']}"
    corrected = client.put(f"{url}/hands/1", json={**SOLO, "tricks": 2}, headers=auth)
    assert corrected.status_code == 200, corrected.json
    voided = client.delete(f"{url}/hands/2", headers=auth)
    assert voided.status_code == 200, voided.json


def test_a_tables_writes_are_compiled_once(
    app: Flask, api: Any, client: Any, compiled: CompiledStatements
) -> None:
    league = League(api, client)
    _play(league, client)  # the first time: compiled, and kept
    compiled.seen.clear()
    bound_before = compiled_for.cache_info()
    _play(league, client)
    statements = [statement for statement, _ in compiled.seen]
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # The planned writes (the hand's rows, the league's upserts, the outbox) go straight
        # to sqlite3, each compiled once per process (services/writes.py).
        bound_after = compiled_for.cache_info()
        assert bound_after.misses == bound_before.misses
        assert bound_after.hits - bound_before.hits >= 10
    else:
        assert any(s.startswith("INSERT INTO player_careers") for s in statements)
        assert any(s.startswith("INSERT INTO season_player_periods") for s in statements)
    assert statements
    assert [statement for statement, hit in compiled.seen if not hit] == []
