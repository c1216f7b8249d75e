"""Open tournaments in the club's export and import (``services/backup.py`` calls these).

A tournament is kept with what cannot be derived: its settings (the table sizes and options
its draws use, the fees, the cap, the prize table, the scoring, whether its registration is
open), its entrants with their status and times, and its tables' confirmations and disputes.
Its name, game, series and tables are its night's, which the file's nights carry; its
standings, prizes and cash sheet are read from the night's tables again.

A confirmation counts while the table's stamp (its hands' revisions and its re-seatings) is the
one it was given at; the file keeps, instead of the stamp, the changes made since
(``changes_since``: 0 while it stands), since the file holds the hands' revisions but not the
table's seating history: the import gives each the restored table's stamp less those changes,
so a confirmation that stood stands again, and one a change voided stays void. The tokens that
confirmed or resolved are named by their ids, as a hand's revisions name theirs.

The registration link is not in the file: the import issues a new one, as it issues a new
admin token, so that a link printed for the old club never registers anyone into the restored
one.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select

from .. import rules
from ..extensions import db
from ..persistence.columns import rfc3339
from ..persistence.tournament_results import ConfirmationRow, DisputeRow
from ..persistence.tournaments import EntrantRow, TournamentRow
from ..rules import RuleViolation
from ..rules import tournament as prize_rules
from . import tables
from .auth import new_id
from .table_results import result_stamps
from .tournaments import table_sizes_of


def export_tournaments(club_id: str) -> list[dict[str, Any]]:
    """The club's tournaments, oldest first, each with its entrants in registration order."""
    tournaments = db.session.scalars(
        select(TournamentRow)
        .where(TournamentRow.club_id == club_id)
        .order_by(TournamentRow.created_at, TournamentRow.id)
    ).all()
    entrants: dict[str, list[dict[str, Any]]] = {}
    for e in db.session.scalars(
        select(EntrantRow)
        .where(EntrantRow.tournament_id.in_([t.id for t in tournaments]))
        .order_by(EntrantRow.tournament_id, EntrantRow.number)
    ):
        entrants.setdefault(e.tournament_id, []).append(
            {
                "id": e.id,
                "number": e.number,
                "name": e.name,
                "club": e.club,
                "contact": e.contact,
                "display": e.display,
                "player_id": e.player_id,
                "status": e.status,
                "registered_at": rfc3339(e.registered_at),
                "checked_in_at": rfc3339(e.checked_in_at),
                "withdrawn_at": rfc3339(e.withdrawn_at),
            }
        )
    confirmations, disputes = _results(tournaments)
    return [
        {
            "id": t.id,
            "night_id": t.night_id,
            "options": t.options,
            "table_sizes": t.table_sizes,
            "entry_fee_cents": t.entry_fee_cents,
            "loss_fee_cents": t.loss_fee_cents,
            "currency": t.currency,
            "cap": t.cap,
            "prizes": t.prizes,
            "scoring": t.scoring,
            "registration_open": t.registration_open,
            "created_at": rfc3339(t.created_at),
            "entrants": entrants.get(t.id, []),
            "confirmations": confirmations.get(t.id, []),
            "disputes": disputes.get(t.id, []),
        }
        for t in tournaments
    ]


def _results(
    tournaments: Sequence[TournamentRow],
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """The tournaments' confirmations and disputes, by tournament, in the order given."""
    ids = [t.id for t in tournaments]
    rows = db.session.scalars(
        select(ConfirmationRow)
        .where(ConfirmationRow.tournament_id.in_(ids))
        .order_by(ConfirmationRow.id)
    ).all()
    stamps = result_stamps(sorted({c.table_id for c in rows}))
    confirmations: dict[str, list[dict[str, Any]]] = {}
    for c in rows:
        confirmations.setdefault(c.tournament_id, []).append(
            {
                "table_id": c.table_id,
                "seat": c.seat,
                "changes_since": max(0, stamps[c.table_id] - c.stamp),
                "token_id": c.token_id,
                "confirmed_at": rfc3339(c.confirmed_at),
            }
        )
    disputes: dict[str, list[dict[str, Any]]] = {}
    for d in db.session.scalars(
        select(DisputeRow)
        .where(DisputeRow.tournament_id.in_(ids))
        .order_by(DisputeRow.opened_at, DisputeRow.id)
    ):
        disputes.setdefault(d.tournament_id, []).append(
            {
                "id": d.id,
                "table_id": d.table_id,
                "hand": d.hand,
                "seat": d.seat,
                "reason": d.reason,
                "status": d.status,
                "opened_at": rfc3339(d.opened_at),
                "resolved_at": rfc3339(d.resolved_at),
                "resolved_by": d.resolved_by,
            }
        )
    return confirmations, disputes


def _under(path: str, violation: RuleViolation) -> RuleViolation:
    """The violation of a rule checked on one tournament, named at its place in the file."""
    return RuleViolation(f"{path}.{violation.field}", violation.phrase)


def import_tournaments(
    club_id: str,
    tournaments: Sequence[Mapping[str, Any]],
    player_ids: Mapping[str, str],
    night_ids: Mapping[str, str],
    night_variants: Mapping[str, str],
    table_ids: Mapping[str, str],
    night_tables: Mapping[str, set[str]],
) -> dict[str, str]:
    """Store the document's tournaments under new ids (in the import's transaction), each
    checked as ``createTournament`` checks one and every reference checked against the file
    (a confirmation's or dispute's table one of its night's, ``night_tables``: the file's table
    ids by night); the new id of each tournament by its id in the file."""
    new_ids: dict[str, str] = {}
    hosted_nights: set[str] = set()
    for index, t in enumerate(tournaments):
        path = f"tournaments.{index}"
        if t["id"] in new_ids:
            raise RuleViolation(f"{path}.id", "%(value)s appears twice", value=repr(t["id"]))
        night_id = t["night_id"]
        if night_id not in night_ids:
            raise RuleViolation(f"{path}.night_id", "no such night in the file")
        if night_id in hosted_nights:
            raise RuleViolation(f"{path}.night_id", "the night plays one tournament only")
        hosted_nights.add(night_id)
        variant = rules.get_variant(night_variants[night_id])
        try:
            sizes = table_sizes_of(variant, t["table_sizes"])
            tables.check_table_options(variant, sizes, t["options"])
            prize_table = prize_rules.parse_prize_table(t["prizes"])
        except RuleViolation as violation:
            raise _under(path, violation) from None
        tournament = TournamentRow(
            id=new_id(),
            club_id=club_id,
            night_id=night_ids[night_id],
            options=dict(t["options"]),
            table_sizes=sizes,
            entry_fee_cents=t["entry_fee_cents"],
            loss_fee_cents=t["loss_fee_cents"],
            currency=t["currency"],
            cap=t["cap"],
            prizes=prize_rules.prize_table_json(prize_table),
            scoring=t["scoring"],
            registration_token=secrets.token_urlsafe(32),
            registration_open=t["registration_open"],
            version=1,
            created_at=t["created_at"],
        )
        db.session.add(tournament)
        db.session.flush()
        db.session.add_all(_entrants(tournament.id, t["entrants"], f"{path}.entrants", player_ids))
        ours = {table_ids[old]: old for old in night_tables.get(night_id, set())}
        db.session.add_all(
            _confirmations(tournament.id, t.get("confirmations", []), path, table_ids, ours)
        )
        db.session.add_all(_disputes(tournament.id, t.get("disputes", []), path, table_ids, ours))
        new_ids[t["id"]] = tournament.id
    db.session.flush()
    return new_ids


def _entrants(
    tournament_id: str,
    entrants: Sequence[Mapping[str, Any]],
    path: str,
    player_ids: Mapping[str, str],
) -> list[EntrantRow]:
    """The entrants' rows, each checked as the database's constraints would check it (so that a
    wrong file is 422 naming the place, never the database's refusal)."""
    rows = []
    seen_ids: set[str] = set()
    seen_players: set[str] = set()
    for index, e in enumerate(entrants):
        at = f"{path}.{index}"
        if e["id"] in seen_ids:
            raise RuleViolation(f"{at}.id", "%(value)s appears twice", value=repr(e["id"]))
        seen_ids.add(e["id"])
        if e["number"] != index + 1:
            raise RuleViolation(
                f"{at}.number",
                "entrants are numbered 1, 2, 3 … in the order they registered: expected %(number)s",
                number=index + 1,
            )
        player_id = e["player_id"]
        if player_id is not None:
            if player_id not in player_ids:
                raise RuleViolation(f"{at}.player_id", "no such player in the file")
            if player_id in seen_players:
                raise RuleViolation(f"{at}.player_id", "a player enters only once")
            seen_players.add(player_id)
        if e["status"] == "checked_in" and e["checked_in_at"] is None:
            raise RuleViolation(f"{at}.checked_in_at", "an entrant checked in has a time")
        if (e["status"] == "withdrawn") != (e["withdrawn_at"] is not None):
            raise RuleViolation(
                f"{at}.withdrawn_at", "a withdrawn entrant has a time, any other none"
            )
        rows.append(
            EntrantRow(
                id=new_id(),
                tournament_id=tournament_id,
                number=e["number"],
                name=e["name"],
                club=e["club"],
                contact=e["contact"],
                display=e["display"],
                player_id=None if player_id is None else player_ids[player_id],
                status=e["status"],
                registered_at=e["registered_at"],
                checked_in_at=e["checked_in_at"],
                withdrawn_at=e["withdrawn_at"],
            )
        )
    return rows


def _table_of(table_id: str, at: str, table_ids: Mapping[str, str], ours: Mapping[str, str]) -> str:
    """The restored id of a table the tournament's night played, or the violation naming
    ``at``."""
    new = table_ids.get(table_id)
    if new is None or new not in ours:
        raise RuleViolation(f"{at}.table_id", "no such table of the tournament's night in the file")
    return new


def _confirmations(
    tournament_id: str,
    confirmations: Sequence[Mapping[str, Any]],
    path: str,
    table_ids: Mapping[str, str],
    ours: Mapping[str, str],
) -> list[ConfirmationRow]:
    """The confirmations' rows, each at the restored table's stamp less the changes made
    since it (so that one that stood stands again, and one voided stays void)."""
    tables = [
        _table_of(c["table_id"], f"{path}.confirmations.{i}", table_ids, ours)
        for i, c in enumerate(confirmations)
    ]
    db.session.flush()  # the hands imported before count in the stamps
    stamps = result_stamps(sorted(set(tables)))
    return [
        ConfirmationRow(
            tournament_id=tournament_id,
            table_id=table_id,
            seat=c["seat"],
            stamp=stamps[table_id] - c["changes_since"],
            token_id=c["token_id"],
            confirmed_at=c["confirmed_at"],
        )
        for table_id, c in zip(tables, confirmations, strict=True)
    ]


def _disputes(
    tournament_id: str,
    disputes: Sequence[Mapping[str, Any]],
    path: str,
    table_ids: Mapping[str, str],
    ours: Mapping[str, str],
) -> list[DisputeRow]:
    """The disputes' rows under new ids, each checked as the database's constraints would."""
    rows = []
    seen: set[str] = set()
    for index, d in enumerate(disputes):
        at = f"{path}.disputes.{index}"
        if d["id"] in seen:
            raise RuleViolation(f"{at}.id", "%(value)s appears twice", value=repr(d["id"]))
        seen.add(d["id"])
        table_id = _table_of(d["table_id"], at, table_ids, ours)
        if (d["status"] == "open") != (d["resolved_at"] is None):
            raise RuleViolation(
                f"{at}.resolved_at", "a resolved dispute has a time, an open one none"
            )
        rows.append(
            DisputeRow(
                id=new_id(),
                tournament_id=tournament_id,
                table_id=table_id,
                hand=d["hand"],
                seat=d["seat"],
                reason=d["reason"],
                status=d["status"],
                opened_at=d["opened_at"],
                resolved_at=d["resolved_at"],
                resolved_by=d["resolved_by"],
            )
        )
    return rows
