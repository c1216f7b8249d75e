"""Recording the next hand: settled from the table's current state only, so it costs the same at
hand 5 and at hand 500; planned (settled, answered, its statements bound) from the table read
without its lock, and only the planned statements run under the lock, one per table written
(``services/writes.py``); an Idempotency-Key answering a retry with the first answer."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, case, insert, select, update

from ...extensions import db
from ...i18n.marks import N_
from ...json_text import canonical_text
from ...metrics import HANDS_RECORDED
from ...persistence.columns import utcnow
from ...persistence.table_keeping import (
    HandRevisionRow,
    HandRow,
    IdempotencyKeyRow,
    SeatRow,
    TableRow,
    TransferRow,
)
from ...rules.replay import RECORDED, HandRefused, HandToSettle, SettledHand, replay
from .. import league, statements
from ..auth import Principal, require_table_access
from ..errors import (
    HandNumberTaken,
    IdempotencyKeyReused,
    SeriesOver,
    SessionOver,
    TableClosed,
    conflict_on_duplicate,
)
from ..locking import SeatState, TableState, lock_if_at_version, lock_table_state, read_table_state
from ..outbox import change_writes
from ..table_rules import TableRules
from ..tables import table_view
from ..writes import BoundWrites, Write
from .rows import (
    WriteConditions,
    check_version,
    hand_view,
    insert_into,
    revision_values,
    session_over,
    transfer_values,
)
from .tagged import untagged


def _request_hash(body: Any) -> str:
    canonical = canonical_text(body)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


_hands = HandRow.__table__
# The rows of a hand being recorded name it by its table and number (``of_table``,
# ``of_number``) instead of the id its insert would return: the statements need nothing
# read back between them.
_NEW_HAND = (
    select(_hands.c.id)
    .where(_hands.c.table_id == bindparam("of_table"), _hands.c.number == bindparam("of_number"))
    .scalar_subquery()
)
_INSERT_NEW_REVISION = insert(HandRevisionRow.__table__).inline().values(hand_id=_NEW_HAND)
_INSERT_NEW_TRANSFERS = insert(TransferRow.__table__).inline().values(hand_id=_NEW_HAND)
_keys = IdempotencyKeyRow.__table__
_FIRST_ANSWER = select(_keys.c.request_hash, _keys.c.response).where(
    _keys.c.table_id == bindparam("of_table"), _keys.c.key == bindparam("with_key")
)


_seats = SeatRow.__table__
_tables = TableRow.__table__


@cache
def _add_to_balances(players: int) -> Any:
    """``UPDATE seats SET balance = balance + CASE seat WHEN 0 THEN :delta_0 … END`` for one
    table: every seat in one statement, not one statement per seat."""
    return (
        update(_seats)
        .where(_seats.c.table_id == bindparam("of_table"))
        .values(
            balance=_seats.c.balance
            + case(
                *((_seats.c.seat == seat, bindparam(f"delta_{seat}")) for seat in range(players)),
                else_=0,
            )
        )
    )


_ADVANCE_TABLE = (
    update(_tables)
    .where(_tables.c.id == bindparam("of_table"))
    .values(
        state=bindparam("new_state"),
        pool=bindparam("new_pool"),
        hands_recorded=_tables.c.hands_recorded + 1,
        hands_played=_tables.c.hands_played + 1,
        version=_tables.c.version + 1,
    )
)


def _advance_table(
    table: TableState, deltas: Sequence[int], state_after: dict[str, Any], pool: int
) -> tuple[TableState, list[Write]]:
    """A hand was added: the table as it leaves it, and the two Core statements that move the
    seats' balances and the table's counters (``x = x + delta``)."""
    writes = []
    if any(deltas):
        writes.append(
            Write(
                _add_to_balances(len(deltas)),
                {"of_table": table.id, **{f"delta_{seat}": d for seat, d in enumerate(deltas)}},
            )
        )
    writes.append(
        Write(_ADVANCE_TABLE, {"of_table": table.id, "new_state": state_after, "new_pool": pool})
    )
    advanced = replace(
        table,
        state=state_after,
        pool=pool,
        hands_recorded=table.hands_recorded + 1,
        hands_played=table.hands_played + 1,
        version=table.version + 1,
        # Each seat made anew rather than by ``replace``, which looks its fields up each time.
        seats=tuple(
            [
                SeatState(seat.seat, seat.player_id, seat.name, seat.balance + deltas[seat.seat])
                for seat in table.seats
            ]
        ),
    )
    return advanced, writes


def _settled(table_rules: TableRules, state: Any, record: Any) -> SettledHand[None]:
    """The next hand settled from the table's current state (``rules.replay`` of one new
    record, read with every check); its RuleViolation as it is."""
    try:
        replayed = replay(
            table_rules.variant,
            table_rules.players,
            table_rules.options,
            state,
            (HandToSettle(None, RECORDED, record, stored=False),),
        )
    except HandRefused as refused:
        assert refused.violation is not None  # the session's end was checked before
        raise refused.violation from None
    return replayed.hands[0]


@dataclass(frozen=True, slots=True)
class _Replay:
    """The first answer to a request with this Idempotency-Key, to be sent again."""

    response: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Planned:
    """A hand settled from the table at ``version``: its answer and the statements that store
    it, run under the table's lock only while the table is still at that version."""

    version: int
    response: dict[str, Any]
    writes: BoundWrites
    number: int


def record_hand(
    principal: Principal, table_id: str, body: dict[str, Any], conditions: WriteConditions
) -> tuple[dict[str, Any], bool]:
    """Settle and record the next hand. Returns the answer and whether it is a replay.

    The hand is settled and its rows worked out from the table as last committed, read
    without the lock (``services/writes.py`` says why); then the lock is taken, and if the
    table is still at the version read, the planned statements are all that runs under it.
    If another write came first, the hand is planned again from the table as locked. An answer
    that writes nothing (a refusal, a replay) stands as of the version read: the request
    takes its place before the write that came first."""
    # Every statement runs on the driver (on SQLite): no session around them
    # (``statements.driver_transaction``).
    with statements.driver_transaction() as commit:
        table = read_table_state(table_id)
        require_table_access(principal, table)
        plan = _plan(principal, table, body, conditions)
        if isinstance(plan, _Planned) and not lock_if_at_version(table.id, plan.version):
            plan = _plan(principal, lock_table_state(table_id), body, conditions)
        if isinstance(plan, _Replay):
            db.session.rollback()
            return plan.response, True
        taken = N_("Hand %(number)s was recorded by someone else.")
        with conflict_on_duplicate(taken, values={"number": plan.number}):
            plan.writes.run()
            commit()
    HANDS_RECORDED.inc()
    return plan.response, False


def _plan(
    principal: Principal, table: TableState, body: dict[str, Any], conditions: WriteConditions
) -> _Planned | _Replay:
    """The hand settled from ``table`` and its writes, or the first answer to its
    Idempotency-Key; the refusals as errors. Writes nothing."""
    request_hash = None
    if conditions.idempotency_key is not None:
        request_hash = _request_hash(body)
        found = statements.rows(
            _FIRST_ANSWER, {"of_table": table.id, "with_key": conditions.idempotency_key}
        )
        stored = found[0] if found else None
        if stored is not None:
            if stored.request_hash != request_hash:
                raise IdempotencyKeyReused(
                    N_("This Idempotency-Key was already used with another body.")
                )
            return _Replay(stored.response)
    if table.status != "open":
        raise TableClosed(N_("The table is closed: no more hands can be recorded."))
    check_version(table, conditions.if_match)
    number = table.hands_recorded + 1
    if conditions.expected_number is not None and conditions.expected_number != number:
        raise HandNumberTaken(
            N_("Hand %(taken)s is taken; the next hand is %(number)s."),
            number,
            values={"taken": conditions.expected_number, "number": number},
        )
    table_rules = TableRules.of(table)
    totals = tuple(s.balance for s in table.seats)
    if session_over(table_rules, totals, table.hands_played):
        raise SessionOver(N_("The session is over: its target was reached."))
    if table.hands_limit is not None and table.hands_played >= table.hands_limit:
        raise SeriesOver(
            N_(
                "The series is over: this table has played its %(hands)s hands. The night's "
                "director may lengthen the series."
            ),
            values={"hands": table.hands_limit},
        )

    state = table_rules.state(table.state)
    hand = _settled(table_rules, state, untagged(body, table.variant))
    settlement = hand.settlement
    assert settlement is not None  # a hand recorded now is a recorded one
    now = utcnow()
    values = {
        "table_id": table.id,
        "number": number,
        "status": "recorded",
        "revision": 1,
        "dealer": state.dealer,
        "record": dict(hand.record),
        "state_before": table.state,
        "state_after": settlement.state_after.to_dict(),
        "settlement": settlement.to_dict(),
        "recorded_at": now,
        "updated_at": now,
    }
    pool = (
        settlement.pool_after
        if table_rules.has_pool and settlement.pool_after is not None
        else table.pool
    )
    new_hand = {"of_table": table.id, "of_number": number}
    # Core statements, not ORM objects (nothing to track and flush); the transfers in one
    # multi-row INSERT on PostgreSQL (database.never_pipelined).
    writes = [
        Write(insert_into(HandRow.__table__), values),
        Write(
            _INSERT_NEW_REVISION,
            revision_values(new_hand, 1, "recorded", values["record"], now, principal),
        ),
    ]
    transfers = transfer_values(new_hand, settlement)
    if transfers:
        writes.append(Write(_INSERT_NEW_TRANSFERS, transfers))
    writes += league.aggregate_writes(
        table, [league.HandChange(None, None, values["record"], values["settlement"])]
    )
    advanced, advancing = _advance_table(table, settlement.deltas, values["state_after"], pool)
    writes += advancing
    writes += change_writes(table.club_id, "hand.recorded", table.id, advanced.version, hand=number)
    response = {
        **hand_view(SimpleNamespace(**values), table.variant),
        "table": table_view(advanced, table_rules),
    }
    if conditions.idempotency_key is not None:
        key_row = {
            "table_id": table.id,
            "key": conditions.idempotency_key,
            "request_hash": request_hash,
            "status_code": 201,
            "response": response,
            "created_at": now,
        }
        writes.append(Write(insert_into(IdempotencyKeyRow.__table__), key_row))
    return _Planned(table.version, response, BoundWrites(writes), number)
