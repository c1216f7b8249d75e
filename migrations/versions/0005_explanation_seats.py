"""Stored explanations number seats from 1; German tables keep their preferred suit in the state

Revision ID: 0005_explanation_seats
Revises: 0004_league_admin
Create Date: 2026-12-01 21:45:00

Written by hand (a data migration). The rules' explanation lines used to name seats by their
0-based API number ("Seat 0 deals next", "Seats 0, 2 and 3 each pay ..."); they now number them
as the players do, from 1, each seat on its own ("Seat 1 deals next", "Seat 1, seat 3 and seat 4
each pay ..."), so that the pad can put each player's name in its place. The explanations kept
with every settled hand are rewritten the same way, so that old and new hands read alike.

German Solo's state now carries the preferred suit in force (``couleur``, shown as the table's
couleur); a table with a fixed ``preferred_suit`` gets it in its state.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0005_explanation_seats'
down_revision = '0004_league_admin'
branch_labels = None
depends_on = None

SUITS = ("clubs", "spades", "hearts", "diamonds")
# "seat 2", "Seat 0", "seats 0 and 3", "Seats 0, 2, 3 and 4" (the old forms), and "seat 1, seat 3
# and seat 4" (the new one: each seat matches on its own).
_SEATS = re.compile(r"\b([Ss])eats? (\d+(?:, \d+)*(?: and \d+)?)\b")
_NUMBER = re.compile(r"\d+")

hands = sa.table("hands", sa.column("id", sa.String), sa.column("settlement", sa.JSON))
tables = sa.table("score_tables", sa.column("id", sa.String), sa.column("variant", sa.String),
                  sa.column("options", sa.JSON), sa.column("state", sa.JSON))


def renumber(line: str, shift: int) -> str:
    """``line`` with every seat number moved by ``shift``, each seat named on its own."""
    def one(match: re.Match[str]) -> str:
        numbers = [str(int(n) + shift) for n in _NUMBER.findall(match.group(2))]
        seats = [f"seat {n}" for n in numbers]
        seats[0] = match.group(1) + seats[0][1:]
        return seats[0] if len(seats) == 1 else f"{', '.join(seats[:-1])} and {seats[-1]}"
    return _SEATS.sub(one, line)


def _rewrite_explanations(change: Callable[[str], str]) -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(hands.c.id, hands.c.settlement)
                              .where(hands.c.settlement.is_not(None))).all()
    for hand_id, settlement in rows:
        if not isinstance(settlement, dict) or not isinstance(settlement.get("explanation"),
                                                               list):
            continue
        lines = [change(line) if isinstance(line, str) else line
                 for line in settlement["explanation"]]
        if lines != settlement["explanation"]:
            connection.execute(hands.update().where(hands.c.id == hand_id)
                               .values(settlement={**settlement, "explanation": lines}))


def _german_states(update: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]) -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(tables.c.id, tables.c.options, tables.c.state)
                              .where(tables.c.variant == "german")).all()
    for table_id, options, state in rows:
        if isinstance(state, dict):
            new = update(options if isinstance(options, dict) else {}, state)
            if new != state:
                connection.execute(tables.update().where(tables.c.id == table_id)
                                   .values(state=new))


def _with_couleur(options: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    if "couleur" in state:
        return state
    preferred = options.get("preferred_suit")
    return {**state, "couleur": preferred if preferred in SUITS else None}


def _without_couleur(options: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "couleur"}


def upgrade():
    _rewrite_explanations(lambda line: renumber(line, 1))
    _german_states(_with_couleur)


def downgrade():
    _rewrite_explanations(lambda line: renumber(line, -1))
    _german_states(_without_couleur)
