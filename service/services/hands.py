"""Hands: record, correct, void; their history and the ledger.

Every change runs in one transaction under the table's lock (``locking.lock_table``, or
``lock_table_state`` for recording, which reads without the ORM and writes with Core statements).
Recording settles only the new hand from the table's current state, so it costs the same at
hand 5 and at hand 500. A correction of hand k settles k and the later hands again in order,
and stops as soon as a later hand would start from the same state as before: from there on
nothing can change.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from types import SimpleNamespace
from typing import Any, NamedTuple, Protocol

from sqlalchemy import bindparam, case, delete, insert, select, update

from ..extensions import db
from ..persistence.columns import rfc3339, utcnow
from ..persistence.table_keeping import (
    HandRevisionRow,
    HandRow,
    IdempotencyKeyRow,
    SeatRow,
    TableRow,
    TransferRow,
)
from ..rules import POOL, RuleViolation, Settlement
from . import league
from .auth import Principal, require_table_access
from .errors import (
    Forbidden,
    HandAlreadyVoid,
    HandNumberTaken,
    IdempotencyKeyReused,
    NotFound,
    SessionOver,
    TableClosed,
    VersionMismatch,
    conflict_on_duplicate,
)
from .locking import TableState, lock_table, lock_table_state
from .pipelining import pipelined
from .tables import TableRules, read_table, table_view


@dataclass(frozen=True, slots=True)
class WriteConditions:
    """Optimistic-concurrency conditions a client may send with a write."""

    if_match: int | None = None
    expected_number: int | None = None
    idempotency_key: str | None = None


class HandFields(Protocol):
    """What ``hand_view`` reads: a ``HandRow``, or the values a hand was just inserted with."""

    number: int
    status: str
    revision: int
    dealer: int
    record: dict[str, Any]
    settlement: dict[str, Any] | None
    recorded_at: datetime
    updated_at: datetime


def hand_view(hand: HandFields) -> dict[str, Any]:
    return {
        "number": hand.number,
        "status": hand.status,
        "revision": hand.revision,
        "dealer": hand.dealer,
        "hand": hand.record,
        "settlement": hand.settlement,
        "recorded_at": rfc3339(hand.recorded_at),
        "updated_at": rfc3339(hand.updated_at),
    }


def _request_hash(body: Any) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def check_version(table: TableRow | TableState, if_match: int | None) -> None:
    if if_match is not None and if_match != table.version:
        raise VersionMismatch(
            f"The table is at version {table.version}, not {if_match}: reload it and try again.",
            table.version)


def transfer_values(hand: dict[str, Any], settlement: Settlement) -> list[dict[str, Any]]:
    """The rows of ``transfers`` for one settled hand, in the settlement's order; ``hand``
    names the hand: ``{"hand_id": …}``, or ``{"of_table": …, "of_number": …}`` for one being
    recorded (``_NEW_HAND``)."""
    return [{**hand, "position": position,
             "from_seat": None if t.source == POOL else t.source,
             "to_seat": None if t.target == POOL else t.target,
             "chips": t.chips, "reason": t.reason.value}
            for position, t in enumerate(settlement.transfers)]


def revision_values(hand: dict[str, Any], revision: int, status: str, record: dict[str, Any],
                     changed_at: Any, principal: Principal) -> dict[str, Any]:
    """A row of ``hand_revisions``: what the hand (named as in ``transfer_values``) became,
    when, and by which token."""
    return {**hand, "revision": revision, "status": status, "record": record,
            "changed_at": changed_at, "token_id": principal.token_id,
            "token_kind": principal.kind}


_hands = HandRow.__table__
# The rows of a hand being recorded name it by its table and number (``of_table``,
# ``of_number``) instead of the id its insert would return: then no statement waits for
# another's answer, and on PostgreSQL the hand and its rows go in one round trip.
_NEW_HAND = (select(_hands.c.id)
             .where(_hands.c.table_id == bindparam("of_table"),
                    _hands.c.number == bindparam("of_number"))
             .scalar_subquery())
_INSERT_NEW_REVISION = insert(HandRevisionRow.__table__).inline().values(hand_id=_NEW_HAND)
_INSERT_NEW_TRANSFERS = insert(TransferRow.__table__).inline().values(hand_id=_NEW_HAND)
_keys = IdempotencyKeyRow.__table__
_FIRST_ANSWER = select(_keys.c.request_hash, _keys.c.response).where(
    _keys.c.table_id == bindparam("of_table"), _keys.c.key == bindparam("with_key"))


def insert_rows(model: Any, rows: list[dict[str, Any]]) -> None:
    """Insert rows whose new ids nobody reads (hands being recorded, revisions, transfers,
    idempotency keys) with one Core statement: no ORM objects to build, track and flush."""
    if rows:
        db.session.connection().execute(_insert_into(model.__table__), rows)


@cache
def _insert_into(table: Any) -> Any:
    """One ``INSERT`` statement per table, built once: a new one would be compiled again, or
    at least have its cache key worked out, on every hand recorded. Inline: no ``RETURNING``
    of a new row's id, which nobody reads (and which a ``pipelined`` block cannot carry)."""
    return insert(table).inline()


def _apply_deltas(table: TableRow, deltas: list[int] | tuple[int, ...], sign: int) -> None:
    for seat in table.seats:
        seat.balance += sign * deltas[seat.seat]


_seats = SeatRow.__table__
_tables = TableRow.__table__


@cache
def _add_to_balances(players: int) -> Any:
    """``UPDATE seats SET balance = balance + CASE seat WHEN 0 THEN :delta_0 … END`` for one
    table: every seat in one statement, not one statement per seat."""
    return (update(_seats).where(_seats.c.table_id == bindparam("of_table"))
            .values(balance=_seats.c.balance + case(
                *((_seats.c.seat == seat, bindparam(f"delta_{seat}")) for seat in range(players)),
                else_=0)))


_ADVANCE_TABLE = (update(_tables).where(_tables.c.id == bindparam("of_table"))
                  .values(state=bindparam("new_state"), pool=bindparam("new_pool"),
                          hands_recorded=_tables.c.hands_recorded + 1,
                          hands_played=_tables.c.hands_played + 1,
                          version=_tables.c.version + 1))


def _advance_table(table: TableState, deltas: Sequence[int], state_after: dict[str, Any],
                   pool: int) -> TableState:
    """A hand was added: move the seats' balances and the table's counters with two Core
    statements (``x = x + delta``), and answer the table as they left it."""
    connection = db.session.connection()
    if any(deltas):
        connection.execute(_add_to_balances(len(deltas)), {
            "of_table": table.id, **{f"delta_{seat}": d for seat, d in enumerate(deltas)}})
    connection.execute(_ADVANCE_TABLE, {"of_table": table.id, "new_state": state_after,
                                        "new_pool": pool})
    return replace(table, state=state_after, pool=pool, hands_recorded=table.hands_recorded + 1,
                   hands_played=table.hands_played + 1, version=table.version + 1,
                   seats=tuple(replace(seat, balance=seat.balance + deltas[seat.seat])
                               for seat in table.seats))


def _session_over(table_rules: TableRules, totals: tuple[int, ...], hands_played: int) -> bool:
    outcome = table_rules.variant.session_outcome(table_rules.options, totals, hands_played)
    return outcome is not None and outcome.over


def record_hand(principal: Principal, table_id: str, body: dict[str, Any],
                conditions: WriteConditions) -> tuple[dict[str, Any], bool]:
    """Settle and record the next hand. Returns the answer and whether it is a replay."""
    table = lock_table_state(table_id)
    require_table_access(principal, table)
    connection = db.session.connection()
    request_hash = None
    if conditions.idempotency_key is not None:
        request_hash = _request_hash(body)
        stored = connection.execute(_FIRST_ANSWER, {
            "of_table": table.id, "with_key": conditions.idempotency_key}).first()
        if stored is not None:
            if stored.request_hash != request_hash:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was already used with another body.")
            db.session.rollback()
            return stored.response, True
    if table.status != "open":
        raise TableClosed("The table is closed: no more hands can be recorded.")
    check_version(table, conditions.if_match)
    number = table.hands_recorded + 1
    if conditions.expected_number is not None and conditions.expected_number != number:
        raise HandNumberTaken(
            f"Hand {conditions.expected_number} is taken; the next hand is {number}.", number)
    table_rules = TableRules.of(table)
    totals = tuple(s.balance for s in table.seats)
    if _session_over(table_rules, totals, table.hands_played):
        raise SessionOver("The session is over: its target was reached.")

    state = table_rules.state(table.state)
    hand = table_rules.variant.parse_hand(body, table.players, table_rules.options)
    settlement = table_rules.variant.settle(table.players, table_rules.options, state, hand)
    now = utcnow()
    values = {"table_id": table.id, "number": number, "status": "recorded", "revision": 1,
              "dealer": state.dealer, "record": hand.to_dict(), "state_before": table.state,
              "state_after": settlement.state_after.to_dict(),
              "settlement": settlement.to_dict(), "recorded_at": now, "updated_at": now}
    taken = f"Hand {number} was recorded by someone else."
    pool = (settlement.pool_after if table_rules.has_pool and settlement.pool_after is not None
            else table.pool)
    new_hand = {"of_table": table.id, "of_number": number}
    # Core statements, not ORM objects (nothing to track and flush), none of which needs
    # another's answer: on PostgreSQL they all go in one round trip.
    with conflict_on_duplicate(taken), pipelined(connection):
        insert_rows(HandRow, [values])
        connection.execute(_INSERT_NEW_REVISION, revision_values(
            new_hand, 1, "recorded", values["record"], now, principal))
        transfers = transfer_values(new_hand, settlement)
        if transfers:
            connection.execute(_INSERT_NEW_TRANSFERS, transfers)
        league.hands_changed(table, [league.HandChange(None, None, values["record"],
                                                       values["settlement"])])
        table = _advance_table(table, settlement.deltas, values["state_after"], pool)
        response = {**hand_view(SimpleNamespace(**values)),
                    "table": table_view(table, table_rules)}
        if conditions.idempotency_key is not None:
            insert_rows(IdempotencyKeyRow, [{
                "table_id": table.id, "key": conditions.idempotency_key,
                "request_hash": request_hash, "status_code": 201, "response": response}])
    with conflict_on_duplicate(taken):
        db.session.commit()
    return response, False


def _load_hand(table: TableRow, number: int) -> HandRow:
    hand = db.session.execute(
        select(HandRow).where(HandRow.table_id == table.id, HandRow.number == number)
    ).scalar_one_or_none()
    if hand is None:
        raise NotFound(f"Table {table.id!r} has no hand {number}.")
    return hand


def _prepare_correction(principal: Principal, table_id: str, number: int,
                        if_match: int | None) -> tuple[TableRow, HandRow]:
    table = lock_table(table_id)
    require_table_access(principal, table)
    if table.status == "closed" and not principal.is_admin:
        raise Forbidden("The table is closed: only the club's admin token can correct it.")
    check_version(table, if_match)
    return table, _load_hand(table, number)


def end_change(dry_run: bool) -> None:
    """Commit a change, or for a dry run roll it back: the answer was worked out by the very
    same code, and nothing of it stays (no revision, no version, no league aggregates; no
    table-version notification either, PostgreSQL sends those on commit only)."""
    if dry_run:
        db.session.rollback()
    else:
        db.session.commit()


def correct_hand(principal: Principal, table_id: str, number: int, body: dict[str, Any],
                 if_match: int | None = None, dry_run: bool = False) -> dict[str, Any]:
    """Replace hand ``number``'s record and settle it and every later hand again
    (``dry_run``: answer the same, and store nothing)."""
    table, hand = _prepare_correction(principal, table_id, number, if_match)
    table_rules = TableRules.of(table)
    record = table_rules.variant.parse_hand(body, table.players, table_rules.options).to_dict()
    resettled = _resettle_from(table, table_rules, hand, "recorded", record, principal)
    answer = {**hand_view(hand), "resettled": resettled, "table": table_view(table, table_rules)}
    end_change(dry_run)
    return answer


def void_hand(principal: Principal, table_id: str, number: int,
              if_match: int | None = None, dry_run: bool = False) -> dict[str, Any]:
    """Void hand ``number``: it keeps its number, moves nothing, and later hands follow
    (``dry_run``: answer the same, and store nothing)."""
    table, hand = _prepare_correction(principal, table_id, number, if_match)
    if hand.status == "void":
        raise HandAlreadyVoid(f"Hand {number} is already void.")
    table_rules = TableRules.of(table)
    resettled = _resettle_from(table, table_rules, hand, "void", hand.record, principal)
    answer = {**hand_view(hand), "resettled": resettled, "table": table_view(table, table_rules)}
    end_change(dry_run)
    return answer


class Resettled(NamedTuple):
    """A hand as it is settled again: its status and record from now on, the state it starts
    from, and its new settlement (None: void)."""

    hand: HandRow
    status: str
    record: dict[str, Any]
    state_before: dict[str, Any]
    settlement: Settlement | None


def settle_again(table_rules: TableRules, hands: Iterable[HandRow], state_raw: dict[str, Any],
                 totals: list[int], played: int,
                 replaced: Callable[[HandRow], tuple[str, dict[str, Any]] | None],
                 stop_when_unchanged: bool, change: str,
                 own_errors: HandRow | None = None) -> list[Resettled]:
    """Settle ``hands`` again in order from ``state_raw``, with the totals and hands played
    before the first of them (``totals`` is updated in place).

    ``replaced(hand)`` gives a hand's new status and record, or None to keep them. With
    ``stop_when_unchanged``, the run stops at the first kept hand that starts from the same
    state as before: from there on nothing can change. A hand the change makes invalid, or
    that would come after the session ended, refuses the change (RuleViolation naming it as
    "this ``change``"); ``own_errors`` is the hand whose own violations are raised as they are
    (the corrected one)."""
    variant, players, options = table_rules.variant, table_rules.players, table_rules.options
    pending: list[Resettled] = []
    for h in hands:
        new = replaced(h)
        if new is None and stop_when_unchanged and h.state_before == state_raw:
            break  # same starting state as before: this hand and all later ones stand
        h_status, h_record = new or (h.status, h.record)
        settlement = None
        if h_status == "recorded":
            if _session_over(table_rules, tuple(totals), played):
                raise RuleViolation("hand", f"this {change} would end the session before hand "
                                            f"{h.number}; void the later hands first")
            try:
                parsed = variant.parse_hand(h_record, players, options)
                settlement = variant.settle(players, options,
                                            variant.parse_state(state_raw, players, options),
                                            parsed)
            except RuleViolation as violation:
                if h is own_errors:
                    raise
                raise RuleViolation("hand", f"this {change} would make hand {h.number} "
                                            f"invalid: {violation}") from None
            for seat, d in enumerate(settlement.deltas):
                totals[seat] += d
            played += 1
        pending.append(Resettled(h, h_status, h_record, state_raw, settlement))
        state_raw = settlement.state_after.to_dict() if settlement else state_raw
    return pending


def store_settled_again(pending: Sequence[Resettled]) -> list[dict[str, Any]]:
    """Write each hand's new starting state, dealer and settlement, and its transfers anew
    (one DELETE per few hundred hands, not one per hand: each statement would flush the
    session first, and a long run would pay that hundreds of times)."""
    hand_ids = [r.hand.id for r in pending]
    for start in range(0, len(hand_ids), 500):
        db.session.execute(delete(TransferRow).where(
            TransferRow.hand_id.in_(hand_ids[start:start + 500])))
    transfers: list[dict[str, Any]] = []
    for h, _, _, before, settlement in pending:
        h.state_before = before
        h.dealer = before["dealer"]
        if settlement is None:
            h.settlement = None
            h.state_after = before
        else:
            h.settlement = settlement.to_dict()
            h.state_after = settlement.state_after.to_dict()
            transfers += transfer_values({"hand_id": h.id}, settlement)
    insert_rows(TransferRow, transfers)
    return transfers


def _resettle_from(table: TableRow, table_rules: TableRules, changed: HandRow, status: str,
                   record: dict[str, Any], principal: Principal) -> int:
    """Apply the change to ``changed`` and settle it and the later hands again, in order.

    Returns how many hands were settled again (the changed one included)."""
    has_targets = table_rules.variant.session_outcome(
        table_rules.options, tuple(s.balance for s in table.seats), 0) is not None
    if has_targets:
        # The session can end (Spanish targets): every later hand must be checked against the
        # new totals, so all of them are loaded, and the totals before the change found.
        later: Iterable[HandRow] = list(db.session.scalars(
            select(HandRow).where(HandRow.table_id == table.id,
                                  HandRow.number >= changed.number).order_by(HandRow.number)))
    else:
        later = _hands_from(table.id, changed.number)
    totals = [s.balance for s in table.seats]
    played = table.hands_played
    if has_targets:
        for h in later:
            if h.settlement is not None:
                played -= 1
                for seat, d in enumerate(h.settlement["deltas"]):
                    totals[seat] -= d

    pending = settle_again(table_rules, later, changed.state_before, totals, played,
                           lambda h: (status, record) if h is changed else None,
                           stop_when_unchanged=not has_targets, change="correction",
                           own_errors=changed)
    league.hands_changed(table, [
        league.HandChange(r.hand.record, r.hand.settlement, r.record,
                          None if r.settlement is None else r.settlement.to_dict())
        for r in pending])
    for r in pending:
        if r.hand.settlement is not None:
            _apply_deltas(table, r.hand.settlement["deltas"], -1)
            table.hands_played -= 1
        if r.settlement is not None:
            _apply_deltas(table, r.settlement.deltas, 1)
            table.hands_played += 1
    store_settled_again(pending)
    now = utcnow()
    changed.status = status
    changed.record = record
    changed.revision += 1
    changed.updated_at = now
    insert_rows(HandRevisionRow, [revision_values({"hand_id": changed.id}, changed.revision,
                                                   status, record, now, principal)])
    last = pending[-1].hand
    if last.number == table.hands_recorded:
        table.state = last.state_after
        if table_rules.has_pool:
            table.pool = int(last.state_after["pool"])
    table.version += 1
    return len(pending)


RESETTLE_BATCH = 64


def _hands_from(table_id: str, number: int) -> Iterator[HandRow]:
    """Hands ``number`` and later in order, loaded a batch at a time: a correction usually
    stops after a few hands, and need not load a long history."""
    while True:
        batch = list(db.session.scalars(
            select(HandRow).where(HandRow.table_id == table_id, HandRow.number >= number)
            .order_by(HandRow.number).limit(RESETTLE_BATCH)))
        yield from batch
        if len(batch) < RESETTLE_BATCH:
            return
        number = batch[-1].number + 1


def list_hands(principal: Principal, table_id: str, page: int, page_size: int
               ) -> tuple[list[dict[str, Any]], int]:
    table = read_table(principal, table_id)
    offset = (page - 1) * page_size
    if offset >= table.hands_recorded:  # past the last hand (and past what SQL can offset)
        return [], table.hands_recorded
    rows = db.session.scalars(
        select(HandRow).where(HandRow.table_id == table.id).order_by(HandRow.number)
        .offset(offset).limit(page_size))
    return [hand_view(h) for h in rows], table.hands_recorded


def get_hand(principal: Principal, table_id: str, number: int) -> dict[str, Any]:
    table = read_table(principal, table_id)
    return hand_view(_load_hand(table, number))


def hand_history(principal: Principal, table_id: str, number: int) -> dict[str, Any]:
    table = read_table(principal, table_id)
    hand = _load_hand(table, number)
    revisions = db.session.scalars(
        select(HandRevisionRow).where(HandRevisionRow.hand_id == hand.id)
        .order_by(HandRevisionRow.revision))
    return {
        "number": hand.number,
        "current_revision": hand.revision,
        "revisions": [{"revision": r.revision, "status": r.status, "hand": r.record,
                       "changed_at": rfc3339(r.changed_at),
                       "changed_by": {"token_id": r.token_id, "kind": r.token_kind,
                                      "imported": r.imported}}
                      for r in revisions],
    }


def ledger(principal: Principal, table_id: str) -> dict[str, Any]:
    table = read_table(principal, table_id)
    rows = db.session.execute(
        select(HandRow.number, TransferRow.from_seat, TransferRow.to_seat, TransferRow.chips,
               TransferRow.reason)
        .join(TransferRow, TransferRow.hand_id == HandRow.id)
        .where(HandRow.table_id == table.id)
        .order_by(HandRow.number, TransferRow.position))
    entries = [{"hand": n, "from": POOL if f is None else f, "to": POOL if t is None else t,
                "chips": c, "reason": r} for n, f, t, c, r in rows]
    return {"table_id": table.id, "count": len(entries), "transfers": entries}
