"""Re-seating a table: a wrong seating noticed after some hands, put right.

The players are the same; their order of play and/or the first dealer change. The hands were
played by players, not by seat numbers: a player tapped "Bernd" as declarer, and that hand
stays Bernd's. So every seat number in a stored hand record (the keys its variant describes
as seats, ``Variant.seat_keys``, and each error's ``seat``) is mapped to the seat its player
has now, and every hand is settled again in order
from a fresh start with the new first dealer (the dealers, stakes and everything that follows
from them move). Transfers, balances, pool, state and the league's aggregates follow.

What is kept where:
- each re-seating is a row of ``seating_changes`` (before, after, when, which token, how many
  hands settled again, the table version it made): ``GET /tables/{id}/seating/history``;
- a hand whose seat numbers change gets a new revision (same status, the record in the new
  seat numbers, by the re-seating's token): its history stays append-only, each revision in
  the seat numbers of the seating it was made under, and the last one is the hand as it
  stands (as a backup's import requires). A hand without seats in it (a misdeal) keeps its
  revision.

A closed table is not re-seated (its sitting is rated and settled up); a re-seating to the
seating the table already has changes nothing and answers ``resettled`` 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import rfc3339, utcnow
from ..persistence.table_keeping import (
    HandRevisionRow,
    HandRow,
    PlayerRow,
    SeatingChangeRow,
    SeatRow,
    TableRow,
)
from ..rules import Phrase, RuleViolation, Variant
from . import league
from .auth import Principal, require_table_access
from .errors import TableClosed
from .hands import (
    check_version,
    end_change,
    insert_rows,
    revision_values,
    settle_again,
    store_settled_again,
)
from .locking import SeatState, TableState, lock_table
from .outbox import record_change
from .table_rules import TableRules
from .tables import initial_table_state, read_table, table_view


def remap_seats(
    record: Mapping[str, Any], new_seat_of: Sequence[int], variant: Variant
) -> dict[str, Any]:
    """``record`` with every seat number ``s`` replaced by ``new_seat_of[s]``: the keys and
    the lists' items that ``variant`` describes as seats (``Variant.seat_keys``)."""
    seat_fields, seated_lists = variant.seat_keys()
    mapped = dict(record)
    for key in seat_fields:
        seat = mapped.get(key)
        if type(seat) is int and 0 <= seat < len(new_seat_of):
            mapped[key] = new_seat_of[seat]
    for key, item_key in seated_lists.items():
        items = mapped.get(key)
        if isinstance(items, list):
            mapped[key] = [
                {**item, item_key: new_seat_of[item[item_key]]}
                if isinstance(item, dict)
                and type(item.get(item_key)) is int
                and 0 <= item[item_key] < len(new_seat_of)
                else item
                for item in items
            ]
    return mapped


def _check_seating(table: TableRow, seats: Sequence[str], first_dealer: int) -> None:
    current = [s.player_id for s in table.seats]
    if len(seats) != len(current):
        raise RuleViolation(
            "seats", "must name the table's %(players)s players, each once", players=len(current)
        )
    for index, player_id in enumerate(seats):
        if player_id not in current:
            raise RuleViolation(
                f"seats.{index}",
                "player %(player)s does not sit at this table",
                player=repr(player_id),
            )
    if len(set(seats)) != len(seats):
        raise RuleViolation("seats", "a player can take only one seat")
    if not 0 <= first_dealer < len(current):
        raise RuleViolation(
            "first_dealer", "must be a seat from 0 to %(last)s", last=len(current) - 1
        )


def reseat(
    principal: Principal,
    table_id: str,
    seats: Sequence[str],
    first_dealer: int,
    if_match: int | None = None,
    dry_run: bool = False,
) -> dict[str, Any]:
    """Seat the table's players in the order ``seats`` with ``first_dealer`` dealing the first
    hand, and settle every hand again (``dry_run``: answer the same, and store nothing)."""
    table = lock_table(table_id)
    require_table_access(principal, table)
    if table.status == "closed":
        raise TableClosed(N_("The table is closed: its seating can no longer change."))
    check_version(table, if_match)
    _check_seating(table, seats, first_dealer)
    table_rules = TableRules.of(table)
    before, dealer_before = [s.player_id for s in table.seats], table.first_dealer
    if list(seats) == before and first_dealer == dealer_before:
        answer = {**table_view(table, table_rules), "resettled": 0}
        end_change(dry_run)
        return answer

    new_seat_of = [list(seats).index(player_id) for player_id in before]
    hands = list(
        db.session.scalars(
            select(HandRow).where(HandRow.table_id == table.id).order_by(HandRow.number)
        )
    )
    remapped = {h.id: remap_seats(h.record, new_seat_of, table_rules.variant) for h in hands}
    start = initial_table_state(table_rules, table.options, first_dealer)
    players = table.players
    pending = settle_again(
        table_rules,
        hands,
        start,
        [0] * players,
        0,
        lambda h: (h.status, remapped[h.id]),
        stop_when_unchanged=False,
        change=Phrase("seating"),
    )

    # The league counts per player: take every hand away as it was counted (old seats), then
    # count it again as it is now (new seats, new settlements).
    league.hands_changed(
        table, [league.HandChange(h.record, h.settlement, None, None) for h in hands]
    )
    names = {s.player_id: s.name for s in table.seats}
    balances = [0] * players
    for r in pending:
        if r.settlement is not None:
            for seat, delta in enumerate(r.settlement.deltas):
                balances[seat] += delta
    played = sum(1 for r in pending if r.settlement is not None)
    reseated = TableState(
        id=table.id,
        club_id=table.club_id,
        name=table.name,
        variant=table.variant,
        options=table.options,
        players=players,
        first_dealer=first_dealer,
        status=table.status,
        version=table.version,
        hands_recorded=table.hands_recorded,
        hands_played=0,
        pool=table.pool,
        state=table.state,
        created_at=table.created_at,
        closed_at=table.closed_at,
        season_id=table.season_id,
        seats=tuple(SeatState(seat, pid, names[pid], 0) for seat, pid in enumerate(seats)),
    )
    league.hands_changed(
        reseated,
        [
            league.HandChange(
                None, None, r.record, None if r.settlement is None else r.settlement.to_dict()
            )
            for r in pending
        ],
    )

    # Seats are rewritten, not updated in place: a player may sit at a table only once
    # (UNIQUE (table_id, player_id)), and a swap would break that half-way.
    table.seats.clear()
    db.session.flush()
    table.seats = [
        SeatRow(seat=seat, player_id=pid, balance=balances[seat]) for seat, pid in enumerate(seats)
    ]
    now = utcnow()
    revisions = []
    for r in pending:
        if r.record != r.hand.record:
            r.hand.record = r.record
            r.hand.revision += 1
            r.hand.updated_at = now
            revisions.append(
                revision_values(
                    {"hand_id": r.hand.id}, r.hand.revision, r.status, r.record, now, principal
                )
            )
    insert_rows(HandRevisionRow, revisions)
    store_settled_again(pending)
    table.first_dealer = first_dealer
    table.hands_played = played
    table.state = pending[-1].hand.state_after if pending else start
    if table_rules.has_pool:
        table.pool = int(table.state["pool"])
    table.version += 1
    db.session.add(
        SeatingChangeRow(
            table_id=table.id,
            changed_at=now,
            token_id=principal.token_id,
            token_kind=principal.kind,
            seats_before=before,
            first_dealer_before=dealer_before,
            seats_after=list(seats),
            first_dealer_after=first_dealer,
            resettled=len(pending),
            version=table.version,
        )
    )
    db.session.flush()
    record_change(table.club_id, "table.reseated", table.id, table.version, resettled=len(pending))
    answer = {**table_view(table, table_rules), "resettled": len(pending)}
    end_change(dry_run)
    return answer


def _seat_view(seats: Sequence[str], names: Mapping[str, str]) -> list[dict[str, Any]]:
    return [{"seat": seat, "player_id": pid, "name": names[pid]} for seat, pid in enumerate(seats)]


def _names(player_ids: Sequence[str]) -> dict[str, str]:
    return dict(
        db.session.execute(
            select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(list(player_ids)))
        ).all()
    )


def seating(principal: Principal, table_id: str) -> dict[str, Any]:
    """The table's seating now: what ``PUT …/seating`` takes, with the players' names."""
    table = read_table(principal, table_id)
    return {
        "table_id": table.id,
        "first_dealer": table.first_dealer,
        "seats": [{"seat": s.seat, "player_id": s.player_id, "name": s.name} for s in table.seats],
    }


def seating_history(principal: Principal, table_id: str) -> dict[str, Any]:
    """Every re-seating of the table, oldest first, with the seating now."""
    table = read_table(principal, table_id)
    changes = list(
        db.session.scalars(
            select(SeatingChangeRow)
            .where(SeatingChangeRow.table_id == table.id)
            .order_by(SeatingChangeRow.id)
        )
    )
    names = _names(sorted({s.player_id for s in table.seats}))
    return {
        **seating(principal, table_id),
        "changes": [
            {
                "changed_at": rfc3339(c.changed_at),
                "changed_by": {"token_id": c.token_id, "kind": c.token_kind},
                "before": {
                    "seats": _seat_view(c.seats_before, names),
                    "first_dealer": c.first_dealer_before,
                },
                "after": {
                    "seats": _seat_view(c.seats_after, names),
                    "first_dealer": c.first_dealer_after,
                },
                "resettled": c.resettled,
                "version": c.version,
            }
            for c in changes
        ],
    }
