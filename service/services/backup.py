"""A club's full backup: export to one JSON document, import into a new club.

Revisions read from a file are stored as imported (``HandRevisionRow.imported``): the token
id and kind the file names are kept as the file's word, never taken for a token of this
service, whatever they say (a file's ``imported: false`` included).

The document holds what cannot be derived: the club's players, seasons and tables, every
hand record with all its revisions, the club nights (``services/nights/backup.py``) and the
open tournaments (``services/tournament_backup.py``).
Settlements, balances, aggregates and ratings are derived, so the import settles every
table's hands again in order, exactly as they were recorded; the balances in the document
are checked against that replay. Everything is imported in one
transaction: a document that is wrong anywhere imports nothing (422 naming the place).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select

from .. import rules
from ..database import for_an_import
from ..extensions import db
from ..persistence.columns import rfc3339, utcnow
from ..persistence.league import SeasonRow
from ..persistence.table_keeping import (
    ClubRow,
    HandRevisionRow,
    HandRow,
    PlayerRow,
    SeatRow,
    TableChangeRow,
    TableRow,
    TransferRow,
)
from ..rules import Phrase, RuleViolation, Settlement
from ..rules.replay import HandRefused, HandToSettle, replay
from . import league
from .auth import Principal, issue_token, new_id
from .clubs import club_view, read_club
from .hands import insert_rows, transfer_values
from .nights.backup import export_nights, import_nights
from .table_rules import TableRules
from .tables import (
    _table_options,
    either,
    parse_rate,
    rate_view,
    settle_up_view,
    store_rate,
)
from .tournament_backup import export_tournaments, import_tournaments

EXPORT_FORMAT = "solo-scorekeeper/club-export"
EXPORT_VERSION = 1


# --- export --------------------------------------------------------------------------------


def export_club(principal: Principal, club_id: str) -> dict[str, Any]:
    """Everything needed to rebuild the club elsewhere (admin or read-only token: a program
    that keeps a copy needs no token that could change the club)."""
    club = read_club(principal, club_id)
    players = db.session.scalars(
        select(PlayerRow)
        .where(PlayerRow.club_id == club_id)
        .order_by(PlayerRow.created_at, PlayerRow.id)
    ).all()
    seasons = db.session.scalars(
        select(SeasonRow)
        .where(SeasonRow.club_id == club_id)
        .order_by(SeasonRow.created_at, SeasonRow.id)
    ).all()
    tables = db.session.scalars(
        select(TableRow)
        .where(TableRow.club_id == club_id)
        .order_by(TableRow.created_at, TableRow.id)
    ).all()
    # Plain rows, not ORM objects: a big club has tens of thousands of hands.
    revisions: dict[int, list[dict[str, Any]]] = {}
    for (
        hand_id,
        number,
        status,
        record,
        changed_at,
        token_id,
        token_kind,
        imported,
    ) in db.session.execute(
        select(
            HandRevisionRow.hand_id,
            HandRevisionRow.revision,
            HandRevisionRow.status,
            HandRevisionRow.record,
            HandRevisionRow.changed_at,
            HandRevisionRow.token_id,
            HandRevisionRow.token_kind,
            HandRevisionRow.imported,
        )
        .join(HandRow, HandRow.id == HandRevisionRow.hand_id)
        .join(TableRow, TableRow.id == HandRow.table_id)
        .where(TableRow.club_id == club_id)
        .order_by(HandRevisionRow.hand_id, HandRevisionRow.revision)
    ):
        revisions.setdefault(hand_id, []).append(
            {
                "revision": number,
                "status": status,
                "hand": record,
                "changed_at": rfc3339(changed_at),
                "changed_by": {"token_id": token_id, "kind": token_kind, "imported": imported},
            }
        )
    hands: dict[str, list[dict[str, Any]]] = {}
    for (
        hand_id,
        table_id,
        number,
        status,
        revision,
        record,
        recorded_at,
        updated_at,
    ) in db.session.execute(
        select(
            HandRow.id,
            HandRow.table_id,
            HandRow.number,
            HandRow.status,
            HandRow.revision,
            HandRow.record,
            HandRow.recorded_at,
            HandRow.updated_at,
        )
        .join(TableRow, TableRow.id == HandRow.table_id)
        .where(TableRow.club_id == club_id)
        .order_by(HandRow.table_id, HandRow.number)
    ):
        hands.setdefault(table_id, []).append(
            {
                "number": number,
                "status": status,
                "revision": revision,
                "hand": record,
                "recorded_at": rfc3339(recorded_at),
                "updated_at": rfc3339(updated_at),
                "revisions": revisions.get(hand_id, []),
            }
        )
    changes: dict[str, list[dict[str, Any]]] = {}
    for change in db.session.scalars(
        select(TableChangeRow)
        .join(TableRow, TableRow.id == TableChangeRow.table_id)
        .where(TableRow.club_id == club_id)
        .order_by(TableChangeRow.table_id, TableChangeRow.id)
    ):
        changes.setdefault(change.table_id, []).append(
            {
                "setting": change.setting,
                "before": change.before,
                "after": change.after,
                "changed_at": rfc3339(change.changed_at),
                "changed_by": {
                    "token_id": change.token_id,
                    "kind": change.token_kind,
                    "imported": change.imported,
                },
            }
        )
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": rfc3339(utcnow()),
        "club": {
            "id": club.id,
            "name": club.name,
            "currency": club.currency,
            "created_at": rfc3339(club.created_at),
        },
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "created_at": rfc3339(p.created_at),
                "retired_at": rfc3339(p.retired_at),
            }
            for p in players
        ],
        "seasons": [
            {
                "id": s.id,
                "name": s.name,
                "variant": s.variant,
                "starts_on": None if s.starts_on is None else s.starts_on.isoformat(),
                "ends_on": None if s.ends_on is None else s.ends_on.isoformat(),
                "created_at": rfc3339(s.created_at),
            }
            for s in seasons
        ],
        "tables": [
            {
                "id": t.id,
                "name": t.name,
                "variant": t.variant,
                "options": t.options,
                "first_dealer": t.first_dealer,
                "season_id": t.season_id,
                "rate": rate_view(t),
                "status": t.status,
                "created_at": rfc3339(t.created_at),
                "closed_at": rfc3339(t.closed_at),
                "seats": [{"player_id": s.player_id, "balance": s.balance} for s in t.seats],
                "hands": hands.get(t.id, []),
                "changes": changes.get(t.id, []),
                # Derived (the import works it out again): for whoever reads the file.
                "money": settle_up_view(t)["money"],
            }
            for t in tables
        ],
        "nights": export_nights(club_id),
        "tournaments": export_tournaments(club_id),
    }


# --- import --------------------------------------------------------------------------------


def _unique(items: Sequence[Mapping[str, Any]], key: str, path: str) -> None:
    seen: set[Any] = set()
    for index, item in enumerate(items):
        if item[key] in seen:
            raise RuleViolation(
                f"{path}.{index}.{key}", "%(value)s appears twice", value=repr(item[key])
            )
        seen.add(item[key])


def import_club(document: Mapping[str, Any]) -> dict[str, Any]:
    """Restore an export (already checked against its schema) into a new club with new ids.

    Returns the new club with its admin token (shown this once only) and the new id of every
    player, season and table by its id in the document."""
    try:
        for_an_import(db.session.connection())  # its replays are not an idle session
        answer = _import(document)
    except Exception:
        db.session.rollback()
        raise
    db.session.commit()
    return answer


def _import(document: Mapping[str, Any]) -> dict[str, Any]:
    for key, path in (
        ("id", "players"),
        ("name", "players"),
        ("id", "seasons"),
        ("name", "seasons"),
        ("id", "tables"),
    ):
        _unique(document[path], key, path)
    club = ClubRow(
        id=new_id(), name=document["club"]["name"], currency=document["club"]["currency"]
    )
    db.session.add(club)
    db.session.flush()
    token = issue_token("admin", club.id)

    player_ids = {p["id"]: new_id() for p in document["players"]}
    db.session.add_all(
        PlayerRow(
            id=player_ids[p["id"]],
            club_id=club.id,
            name=p["name"],
            created_at=p["created_at"] or utcnow(),
            retired_at=p["retired_at"],
        )
        for p in document["players"]
    )
    season_ids: dict[str, str] = {}
    season_variants: dict[str, str] = {}
    for index, s in enumerate(document["seasons"]):
        path = f"seasons.{index}"
        variant = _variant(s["variant"], f"{path}.variant")
        if s["starts_on"] and s["ends_on"] and s["ends_on"] < s["starts_on"]:
            raise RuleViolation(f"{path}.ends_on", "must not be before starts_on")
        season_ids[s["id"]] = new_id()
        season_variants[s["id"]] = variant.name
        db.session.add(
            SeasonRow(
                id=season_ids[s["id"]],
                club_id=club.id,
                name=s["name"],
                variant=variant.name,
                starts_on=s["starts_on"],
                ends_on=s["ends_on"],
                created_at=s["created_at"],
            )
        )
    db.session.flush()

    table_ids: dict[str, str] = {}
    hands = 0
    closed: list[tuple[TableRow, datetime]] = []
    for index, t in enumerate(document["tables"]):
        table, closed_at = _import_table(
            club.id, club.currency, t, f"tables.{index}", player_ids, season_ids, season_variants
        )
        table_ids[t["id"]] = table.id
        hands += table.hands_recorded
        if closed_at is not None:
            closed.append((table, closed_at))
    # Closed last, so that the replay above never rebuilds ratings once per table.
    for table, closed_at in closed:
        table.status = "closed"
        table.closed_at = closed_at
    db.session.flush()
    for season_id in season_ids.values():
        league.rebuild_ratings(season_id)
    night_ids = import_nights(
        club.id,
        club.currency,
        document.get("nights", []),
        player_ids,
        season_ids,
        season_variants,
        table_ids,
        {t["id"]: t["variant"] for t in document["tables"]},
    )
    tournament_ids = import_tournaments(
        club.id,
        document.get("tournaments", []),
        player_ids,
        night_ids,
        {n["id"]: n["variant"] for n in document.get("nights", [])},
        table_ids,
        {
            n["id"]: {link["table_id"] for drawn in n["series"] for link in drawn["tables"]}
            for n in document.get("nights", [])
        },
    )
    return {
        **club_view(club),
        "admin_token": token,
        "imported": {
            "players": len(player_ids),
            "seasons": len(season_ids),
            "tables": len(table_ids),
            "hands": hands,
            "nights": len(night_ids),
            "tournaments": len(tournament_ids),
        },
        "ids": {
            "players": player_ids,
            "seasons": season_ids,
            "tables": table_ids,
            "nights": night_ids,
            "tournaments": tournament_ids,
        },
    }


def _variant(name: str, path: str) -> rules.Variant:
    try:
        return rules.get_variant(name)
    except RuleViolation as violation:
        raise RuleViolation(path, violation.phrase) from None


def _imported_setting(season_id: Any, season_ids: Mapping[str, str]) -> Any:
    """A season named in an imported change, by its new id (one no longer in the file: as
    the file says, which names no season here)."""
    if isinstance(season_id, str):
        return season_ids.get(season_id, season_id)
    return season_id


def _import_table(
    club_id: str,
    currency: str,
    t: Mapping[str, Any],
    path: str,
    player_ids: Mapping[str, str],
    season_ids: Mapping[str, str],
    season_variants: Mapping[str, str],
) -> tuple[TableRow, datetime | None]:
    variant = _variant(t["variant"], f"{path}.variant")
    seats = [s["player_id"] for s in t["seats"]]
    if len(seats) not in variant.player_counts:
        raise RuleViolation(
            f"{path}.seats",
            "%(variant)s is played by %(allowed)s players",
            variant=Phrase(variant.title),
            allowed=either(variant.player_counts),
        )
    for index, player in enumerate(seats):
        if player not in player_ids:
            raise RuleViolation(f"{path}.seats.{index}.player_id", "no such player in the file")
        if player in seats[:index]:
            raise RuleViolation(f"{path}.seats.{index}.player_id", "a player has one seat only")
    players = len(seats)
    if not 0 <= t["first_dealer"] < players:
        raise RuleViolation(
            f"{path}.first_dealer", "must be a seat from 0 to %(last)s", last=players - 1
        )
    season_id = t["season_id"]
    if season_id is not None:
        if season_id not in season_ids:
            raise RuleViolation(f"{path}.season_id", "no such season in the file")
        if season_variants[season_id] != variant.name:
            raise RuleViolation(f"{path}.season_id", "the season is of another variant")
    if (t["status"] == "closed") != (t["closed_at"] is not None):
        raise RuleViolation(
            f"{path}.closed_at", "a closed table has a closing time, an open one none"
        )
    try:
        options, stored, has_pool = _table_options(variant, players, t["options"])
    except RuleViolation as violation:
        raise RuleViolation(f"{path}.{violation.field}", violation.phrase) from None
    state = variant.initial_state(players, options, t["first_dealer"]).to_dict()
    pool = stored.get("starting_pool", 0)
    if has_pool:
        state["pool"] = pool
    table = TableRow(
        id=new_id(),
        club_id=club_id,
        name=t["name"],
        variant=variant.name,
        options=stored,
        players=players,
        first_dealer=t["first_dealer"],
        status="open",
        version=1,
        hands_recorded=0,
        hands_played=0,
        pool=pool,
        state=state,
        created_at=t["created_at"],
        season_id=None if season_id is None else season_ids[season_id],
    )
    try:
        store_rate(table, parse_rate(t["rate"], variant.name, currency))
    except RuleViolation as violation:
        raise RuleViolation(f"{path}.{violation.field}", violation.phrase) from None
    table.seats = [SeatRow(seat=i, player_id=player_ids[p], balance=0) for i, p in enumerate(seats)]
    db.session.add(table)
    db.session.flush()
    # The file's word for who changed the settings: kept, marked imported (as revisions are).
    db.session.add_all(
        TableChangeRow(
            table_id=table.id,
            changed_at=c["changed_at"],
            token_id=c["changed_by"]["token_id"],
            token_kind=c["changed_by"]["kind"],
            setting=c["setting"],
            before=_imported_setting(c["before"], season_ids)
            if c["setting"] == "season"
            else c["before"],
            after=_imported_setting(c["after"], season_ids)
            if c["setting"] == "season"
            else c["after"],
            version=0,
            imported=True,
        )
        for c in t["changes"]
    )
    _replay_hands(table, TableRules.of(table), t["hands"], f"{path}.hands")
    for index, seat in enumerate(t["seats"]):
        if seat["balance"] is not None and seat["balance"] != table.seats[index].balance:
            raise RuleViolation(
                f"{path}.seats.{index}.balance",
                "the hands give %(balance)s, not %(given)s",
                balance=table.seats[index].balance,
                given=seat["balance"],
            )
    return table, t["closed_at"]


def _replay_hands(
    table: TableRow, table_rules: TableRules, hands: Sequence[Mapping[str, Any]], path: str
) -> None:
    """Settle the hands in order from a fresh table through ``rules.replay``, as recording
    and corrections do; a document's hands are stored ones, read as they were taken."""
    variant, players, options = table_rules.variant, table.players, table_rules.options
    records: list[dict[str, Any]] = []
    revisions: list[list[dict[str, Any]]] = []
    for index, hand in enumerate(hands):
        where = f"{path}.{index}"
        if hand["number"] != index + 1:
            raise RuleViolation(
                f"{where}.number",
                "hands are numbered 1, 2, 3 …: expected %(number)s",
                number=index + 1,
            )
        records.append(_parsed(variant, hand["hand"], players, options, f"{where}.hand"))
        revisions.append(
            [
                _parsed(variant, r["hand"], players, options, f"{where}.revisions.{i}.hand")
                for i, r in enumerate(hand["revisions"])
            ]
        )
        _check_revisions(hand, records[-1], revisions[-1], where)
    try:
        replayed = replay(
            variant,
            players,
            options,
            variant.parse_state(table.state, players, options),
            (
                HandToSettle(index, hand["status"], record)
                for index, (hand, record) in enumerate(zip(hands, records, strict=True))
            ),
        )
    except HandRefused as refused:
        where = f"{path}.{refused.position}"
        if refused.violation is None:
            raise RuleViolation(
                f"{where}.status", "the session was over before this hand"
            ) from None
        raise RuleViolation(
            f"{where}.{refused.violation.field}", refused.violation.phrase
        ) from None
    rows: list[dict[str, Any]] = []
    settlements: list[Settlement | None] = []
    changes: list[league.HandChange] = []
    for settled in replayed.hands:
        hand = hands[settled.key]
        record = records[settled.key]
        settled_view = None if settled.settlement is None else settled.settlement.to_dict()
        rows.append(
            {
                "table_id": table.id,
                "number": hand["number"],
                "status": hand["status"],
                "revision": hand["revision"],
                "dealer": settled.state_before["dealer"],
                "record": record,
                "state_before": settled.state_before,
                "state_after": settled.state_after,
                "settlement": settled_view,
                "recorded_at": hand["recorded_at"],
                "updated_at": hand["updated_at"],
            }
        )
        settlements.append(settled.settlement)
        changes.append(league.HandChange(None, None, record, settled_view))
    if not rows:
        return
    hands_table = HandRow.__table__
    hand_ids = db.session.scalars(
        insert(hands_table).returning(hands_table.c.id, sort_by_parameter_order=True), rows
    ).all()
    insert_rows(
        HandRevisionRow,
        [
            {
                "hand_id": hand_id,
                "revision": r["revision"],
                "status": r["status"],
                "record": record,
                "changed_at": r["changed_at"],
                "token_id": r["changed_by"]["token_id"],
                "token_kind": r["changed_by"]["kind"],
                "imported": True,
            }
            for hand_id, hand, records in zip(hand_ids, hands, revisions, strict=True)
            for r, record in zip(hand["revisions"], records, strict=True)
        ],
    )
    transfers = [
        row
        for hand_id, settlement in zip(hand_ids, settlements, strict=True)
        if settlement is not None
        for row in transfer_values({"hand_id": hand_id}, settlement)
    ]
    insert_rows(TransferRow, transfers)
    league.hands_changed(table, changes)  # before the table's counters move, as it requires
    for seat_row in table.seats:
        seat_row.balance = replayed.totals[seat_row.seat]
    state_after = replayed.hands[-1].state_after
    table.state = state_after
    if table_rules.has_pool:
        table.pool = int(state_after["pool"])
    table.hands_recorded = len(rows)
    table.hands_played = replayed.played
    table.version = 1 + sum(h["revision"] for h in hands)


def _parsed(
    variant: rules.Variant, raw: Any, players: int, options: Any, path: str
) -> dict[str, Any]:
    """A stored record as the rules write it, or a RuleViolation under ``path``."""
    try:
        return variant.read_stored_hand(raw, players, options).to_dict()
    except RuleViolation as violation:
        field = violation.field.removeprefix("hand")
        raise RuleViolation(path + field, violation.phrase) from None


def _check_revisions(
    hand: Mapping[str, Any],
    record: Mapping[str, Any],
    revision_records: Sequence[Mapping[str, Any]],
    where: str,
) -> None:
    numbers = [r["revision"] for r in hand["revisions"]]
    if numbers != list(range(1, hand["revision"] + 1)):
        raise RuleViolation(
            f"{where}.revisions",
            "must be revisions 1 to %(last)s in order",
            last=hand["revision"],
        )
    if hand["revisions"][-1]["status"] != hand["status"] or revision_records[-1] != record:
        raise RuleViolation(
            f"{where}.revisions.{len(numbers) - 1}",
            "the last revision must be the hand as it stands",
        )
