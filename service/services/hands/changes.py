"""Correcting and voiding a hand: hand k and the later hands settled again in order, stopping
as soon as a later hand would start from the same state as before; a dry run rolls back."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from sqlalchemy import delete, select

from ...extensions import db
from ...i18n.marks import N_
from ...persistence.columns import utcnow
from ...persistence.table_keeping import (
    HandRevisionRow,
    HandRow,
    TableRow,
    TransferRow,
)
from ...rules import Phrase, RuleViolation, Settlement
from ...rules.replay import HandRefused, HandToSettle, replay
from .. import league
from ..auth import Principal, require_table_access
from ..errors import (
    Forbidden,
    HandAlreadyVoid,
)
from ..locking import lock_table
from ..outbox import record_change
from ..table_rules import TableRules
from ..tables import table_view
from .rows import (
    apply_deltas,
    check_version,
    hand_view,
    insert_rows,
    load_hand,
    revision_values,
    transfer_values,
)
from .tagged import untagged


def _prepare_correction(
    principal: Principal, table_id: str, number: int, if_match: int | None
) -> tuple[TableRow, HandRow]:
    table = lock_table(table_id)
    require_table_access(principal, table)
    if table.status == "closed" and not principal.is_admin:
        raise Forbidden(N_("The table is closed: only the club's admin token can correct it."))
    check_version(table, if_match)
    return table, load_hand(table, number)


def end_change(dry_run: bool) -> None:
    """Commit a change, or for a dry run roll it back: the answer was worked out by the very
    same code, and nothing of it stays (no revision, no version, no league aggregates; no
    table-version notification either, PostgreSQL sends those on commit only)."""
    if dry_run:
        db.session.rollback()
    else:
        db.session.commit()


def correct_hand(
    principal: Principal,
    table_id: str,
    number: int,
    body: dict[str, Any],
    if_match: int | None = None,
    dry_run: bool = False,
) -> dict[str, Any]:
    """Replace hand ``number``'s record and settle it and every later hand again
    (``dry_run``: answer the same, and store nothing)."""
    table, hand = _prepare_correction(principal, table_id, number, if_match)
    table_rules = TableRules.of(table)
    record = table_rules.variant.parse_hand(
        untagged(body, table.variant), table.players, table_rules.options
    ).to_dict()
    resettled = _resettle_from(table, table_rules, hand, "recorded", record, principal)
    answer = {
        **hand_view(hand, table.variant),
        "resettled": resettled,
        "table": table_view(table, table_rules),
    }
    end_change(dry_run)
    return answer


def void_hand(
    principal: Principal,
    table_id: str,
    number: int,
    if_match: int | None = None,
    dry_run: bool = False,
) -> dict[str, Any]:
    """Void hand ``number``: it keeps its number, moves nothing, and later hands follow
    (``dry_run``: answer the same, and store nothing)."""
    table, hand = _prepare_correction(principal, table_id, number, if_match)
    if hand.status == "void":
        raise HandAlreadyVoid(N_("Hand %(number)s is already void."), values={"number": number})
    table_rules = TableRules.of(table)
    resettled = _resettle_from(table, table_rules, hand, "void", hand.record, principal)
    answer = {
        **hand_view(hand, table.variant),
        "resettled": resettled,
        "table": table_view(table, table_rules),
    }
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


def settle_again(
    table_rules: TableRules,
    hands: Iterable[HandRow],
    state_raw: dict[str, Any],
    totals: list[int],
    played: int,
    replaced: Callable[[HandRow], tuple[str, dict[str, Any]] | None],
    stop_when_unchanged: bool,
    change: Phrase,
    own_errors: HandRow | None = None,
) -> list[Resettled]:
    """Settle ``hands`` again in order from ``state_raw``, with the totals and hands played
    before the first of them, through ``rules.replay`` (``totals`` is updated in place).

    ``replaced(hand)`` gives a hand's new status and record, or None to keep them. With
    ``stop_when_unchanged``, the run stops at the first kept hand that starts from the same
    state as before: from there on nothing can change. A hand the change makes invalid, or
    that would come after the session ended, refuses the change (RuleViolation naming it as
    "this ``change``"); ``own_errors`` is the hand whose own violations are raised as they are
    (the corrected one, read with every check; the others are stored hands, read as they were
    taken)."""
    variant, players, options = table_rules.variant, table_rules.players, table_rules.options

    def to_settle() -> Iterator[HandToSettle[HandRow]]:
        for h in hands:
            new = replaced(h)
            status, record = new or (h.status, h.record)
            yield HandToSettle(
                h,
                status,
                record,
                stored=h is not own_errors,
                state_before=h.state_before if new is None else None,
            )

    try:
        replayed = replay(
            variant,
            players,
            options,
            variant.parse_state(state_raw, players, options),
            to_settle(),
            totals=totals,
            played=played,
            stop_when_unchanged=stop_when_unchanged,
        )
    except HandRefused as refused:
        h = refused.key
        if refused.violation is None:
            raise RuleViolation(
                "hand",
                "this %(change)s would end the session before hand "
                "%(number)s; void the later hands first",
                change=change,
                number=h.number,
            ) from None
        if h is own_errors:
            raise refused.violation from None
        raise RuleViolation(
            "hand",
            "this %(change)s would make hand %(number)s invalid: %(field)s: %(problem)s",
            change=change,
            number=h.number,
            field=refused.violation.field,
            problem=refused.violation.phrase,
        ) from None
    totals[:] = replayed.totals
    return [
        Resettled(r.key, r.status, dict(r.record), r.state_before, r.settlement)
        for r in replayed.hands
    ]


def store_settled_again(pending: Sequence[Resettled]) -> list[dict[str, Any]]:
    """Write each hand's new starting state, dealer and settlement, and its transfers anew
    (one DELETE per few hundred hands, not one per hand: each statement would flush the
    session first, and a long run would pay that hundreds of times)."""
    hand_ids = [r.hand.id for r in pending]
    for start in range(0, len(hand_ids), 500):
        db.session.execute(
            delete(TransferRow).where(TransferRow.hand_id.in_(hand_ids[start : start + 500]))
        )
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


def _resettle_from(
    table: TableRow,
    table_rules: TableRules,
    changed: HandRow,
    status: str,
    record: dict[str, Any],
    principal: Principal,
) -> int:
    """Apply the change to ``changed`` and settle it and the later hands again, in order.

    Returns how many hands were settled again (the changed one included)."""
    has_targets = (
        table_rules.variant.session_outcome(
            table_rules.options, tuple(s.balance for s in table.seats), 0
        )
        is not None
    )
    if has_targets:
        # The session can end (Spanish targets): every later hand must be checked against the
        # new totals, so all of them are loaded, and the totals before the change found.
        later: Iterable[HandRow] = list(
            db.session.scalars(
                select(HandRow)
                .where(HandRow.table_id == table.id, HandRow.number >= changed.number)
                .order_by(HandRow.number)
            )
        )
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

    pending = settle_again(
        table_rules,
        later,
        changed.state_before,
        totals,
        played,
        lambda h: (status, record) if h is changed else None,
        stop_when_unchanged=not has_targets,
        change=Phrase("correction"),
        own_errors=changed,
    )
    league.hands_changed(
        table,
        [
            league.HandChange(
                r.hand.record,
                r.hand.settlement,
                r.record,
                None if r.settlement is None else r.settlement.to_dict(),
            )
            for r in pending
        ],
    )
    for r in pending:
        if r.hand.settlement is not None:
            apply_deltas(table, r.hand.settlement["deltas"], -1)
            table.hands_played -= 1
        if r.settlement is not None:
            apply_deltas(table, r.settlement.deltas, 1)
            table.hands_played += 1
    store_settled_again(pending)
    now = utcnow()
    changed.status = status
    changed.record = record
    changed.revision += 1
    changed.updated_at = now
    insert_rows(
        HandRevisionRow,
        [
            revision_values(
                {"hand_id": changed.id}, changed.revision, status, record, now, principal
            )
        ],
    )
    last = pending[-1].hand
    if last.number == table.hands_recorded:
        table.state = last.state_after
        if table_rules.has_pool:
            table.pool = int(last.state_after["pool"])
    table.version += 1
    record_change(
        table.club_id,
        "hand.voided" if status == "void" else "hand.corrected",
        table.id,
        table.version,
        hand=changed.number,
        resettled=len(pending),
    )
    return len(pending)


RESETTLE_BATCH = 64


def _hands_from(table_id: str, number: int) -> Iterator[HandRow]:
    """Hands ``number`` and later in order, loaded a batch at a time: a correction usually
    stops after a few hands, and need not load a long history."""
    while True:
        batch = list(
            db.session.scalars(
                select(HandRow)
                .where(HandRow.table_id == table_id, HandRow.number >= number)
                .order_by(HandRow.number)
                .limit(RESETTLE_BATCH)
            )
        )
        yield from batch
        if len(batch) < RESETTLE_BATCH:
            return
        number = batch[-1].number + 1
