"""Recording the next hand: settled from the table's current state only, so it costs the same at
hand 5 and at hand 500; its writes go in as Core statements, one per table written, an
Idempotency-Key answering a retry with the first answer."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, case, insert, select, update

from ...extensions import db
from ...i18n.marks import N_
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
from .. import league
from ..auth import Principal, require_table_access
from ..errors import (
    HandNumberTaken,
    IdempotencyKeyReused,
    SessionOver,
    TableClosed,
    conflict_on_duplicate,
)
from ..locking import TableState, lock_table_state
from ..outbox import record_change
from ..tables import TableRules, table_view
from .rows import (
    WriteConditions,
    check_version,
    hand_view,
    insert_rows,
    revision_values,
    session_over,
    transfer_values,
)
from .tagged import untagged


def _request_hash(body: Any) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
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
) -> TableState:
    """A hand was added: move the seats' balances and the table's counters with two Core
    statements (``x = x + delta``), and answer the table as they left it."""
    connection = db.session.connection()
    if any(deltas):
        connection.execute(
            _add_to_balances(len(deltas)),
            {"of_table": table.id, **{f"delta_{seat}": d for seat, d in enumerate(deltas)}},
        )
    connection.execute(
        _ADVANCE_TABLE, {"of_table": table.id, "new_state": state_after, "new_pool": pool}
    )
    return replace(
        table,
        state=state_after,
        pool=pool,
        hands_recorded=table.hands_recorded + 1,
        hands_played=table.hands_played + 1,
        version=table.version + 1,
        seats=tuple(
            replace(seat, balance=seat.balance + deltas[seat.seat]) for seat in table.seats
        ),
    )


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


def record_hand(
    principal: Principal, table_id: str, body: dict[str, Any], conditions: WriteConditions
) -> tuple[dict[str, Any], bool]:
    """Settle and record the next hand. Returns the answer and whether it is a replay."""
    table = lock_table_state(table_id)
    require_table_access(principal, table)
    connection = db.session.connection()
    request_hash = None
    if conditions.idempotency_key is not None:
        request_hash = _request_hash(body)
        stored = connection.execute(
            _FIRST_ANSWER, {"of_table": table.id, "with_key": conditions.idempotency_key}
        ).first()
        if stored is not None:
            if stored.request_hash != request_hash:
                raise IdempotencyKeyReused(
                    N_("This Idempotency-Key was already used with another body.")
                )
            db.session.rollback()
            return stored.response, True
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
    taken = N_("Hand %(number)s was recorded by someone else.")
    pool = (
        settlement.pool_after
        if table_rules.has_pool and settlement.pool_after is not None
        else table.pool
    )
    new_hand = {"of_table": table.id, "of_number": number}
    # Core statements, not ORM objects (nothing to track and flush); the transfers in one
    # multi-row INSERT on PostgreSQL (database.never_pipelined).
    with conflict_on_duplicate(taken, values={"number": number}):
        insert_rows(HandRow, [values])
        connection.execute(
            _INSERT_NEW_REVISION,
            revision_values(new_hand, 1, "recorded", values["record"], now, principal),
        )
        transfers = transfer_values(new_hand, settlement)
        if transfers:
            connection.execute(_INSERT_NEW_TRANSFERS, transfers)
        league.hands_changed(
            table, [league.HandChange(None, None, values["record"], values["settlement"])]
        )
        table = _advance_table(table, settlement.deltas, values["state_after"], pool)
        record_change(table.club_id, "hand.recorded", table.id, table.version, hand=number)
        response = {
            **hand_view(SimpleNamespace(**values), table.variant),
            "table": table_view(table, table_rules),
        }
        if conditions.idempotency_key is not None:
            insert_rows(
                IdempotencyKeyRow,
                [
                    {
                        "table_id": table.id,
                        "key": conditions.idempotency_key,
                        "request_hash": request_hash,
                        "status_code": 201,
                        "response": response,
                    }
                ],
            )
    with conflict_on_duplicate(taken, values={"number": number}):
        db.session.commit()
    return response, False
