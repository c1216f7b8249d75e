"""Keeping the aggregate rows current: each changed hand's old settlement taken away and the
new one added, as atomic ``x = x + delta`` upserts, in the transaction of the change."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import TextClause, bindparam, select, text, update

from ...extensions import db
from ...persistence.league import (
    CONTRACT_COUNTERS,
    COUNTERS,
    PlayerCareerContractRow,
    PlayerCareerRow,
    SeasonPlayerContractRow,
    SeasonPlayerPeriodRow,
    SeasonPlayerRow,
)
from ...persistence.table_keeping import HandRow, TableRow
from ..locking import SeatState, TableState
from ..table_rules import TableRules
from ..writes import Write, run_writes
from .periods import SPANS, period_start
from .ratings import rebuild_ratings
from .tally import HAND_COUNTERS, tally_hand


class HandChange(NamedTuple):
    """One hand's stored record and settlement before and after a change (None: absent or
    void)."""

    record_before: Mapping[str, Any] | None
    settlement_before: Mapping[str, Any] | None
    record_after: Mapping[str, Any] | None
    settlement_after: Mapping[str, Any] | None


def sitting_day(table: TableRow | TableState) -> date:
    """The day a sitting counts for: the UTC date its table was opened."""
    opened = table.created_at
    if opened.tzinfo is not None:
        opened = opened.astimezone(UTC)
    return opened.date()


def _adding(
    model: Any,
    keys: Sequence[str],
    counters: Sequence[str],
    rows: list[dict[str, Any]],
    only_additions: bool,
) -> list[Write]:
    """The statements that add each row's counters to the row of its keys, creating it if
    missing.

    ``only_additions``: every row is the tally of hands added (nothing taken away), so a row
    made of it alone is a valid aggregate: one ``INSERT … ON CONFLICT DO UPDATE SET x = x +
    excluded.x``. Otherwise two statements: an ``INSERT … ON CONFLICT DO NOTHING`` of zero
    rows, then one atomic ``UPDATE … SET x = x + :x`` per row (a single upsert cannot carry a
    negative delta: the database checks its proposed row against the CHECK constraints before
    it finds the conflict). Rows go in key order, so two transactions touching the same rows
    on PostgreSQL lock them in the same order and cannot deadlock."""
    if not rows:
        return []
    rows.sort(key=lambda row: tuple(str(row[k]) for k in keys))
    # Core statements, run in the change's transaction (``services/writes.py``): the ORM layer
    # has nothing to add to them, and every hand recorded runs two to ten of these.
    columns = tuple(rows[0])
    upsert, insert_zeros = _multi_row_statements(
        model, tuple(keys), tuple(counters), columns, len(rows)
    )
    # All rows in one statement each (not an executemany: on PostgreSQL that would be one
    # round trip per row, see database.never_pipelined); its parameters named per row.
    names, sorted_names = _numbered_names(columns, len(rows))
    numbered = dict(zip(names, [row[c] for row in rows for c in columns], strict=True))
    if only_additions:
        return [Write(upsert, numbered, sorted_names)]
    add = _adding_to_one_row(model, tuple(keys), tuple(counters))
    return [
        Write(insert_zeros, numbered, sorted_names),
        Write(
            add,
            [
                {**{f"key_{k}": row[k] for k in keys}, **{f"add_{c}": row[c] for c in counters}}
                for row in rows
            ],
        ),
    ]


@lru_cache(maxsize=256)
def _numbered_names(columns: tuple[str, ...], rows: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The parameter names of ``rows`` rows of ``columns`` (``{column}_{row}``), row after
    row, and the same names sorted (``Write.keys``), made once per shape: a hand recorded names
    about fifty of them, and naming and sorting them on every hand cost more than binding
    them (docs/performance.md)."""
    names = tuple(f"{c}_{i}" for i in range(rows) for c in columns)
    return names, tuple(sorted(names))


@lru_cache(maxsize=256)
def _multi_row_statements(
    model: Any,
    keys: tuple[str, ...],
    counters: tuple[str, ...],
    columns: tuple[str, ...],
    rows: int,
) -> tuple[TextClause, TextClause]:
    """The upsert and the insert of zero rows of ``_adding`` for ``rows`` rows of
    ``columns`` (parameters ``{column}_{row}``, typed as their columns), built once per shape:
    a hand has a row per player, so a few shapes serve every hand.

    Written as SQL text, in the form SQLite and PostgreSQL share (``INSERT … VALUES (…), (…)
    ON CONFLICT (keys) DO …``), because SQLAlchemy does not cache the compilation of a Core
    insert of several ``VALUES`` rows (it has no cache key): built as a construct, each
    upsert was compiled again on every hand, inside the writer lock, 1.5 ms of a hand's 2 ms
    there (docs/performance.md). A ``text()`` is cached like any other statement;
    tests/api/test_statement_cache.py checks that recording, correcting and voiding compile
    nothing after their first time."""
    table = model.__table__
    names = ", ".join(columns)
    values = ", ".join("(" + ", ".join(f":{c}_{i}" for c in columns) + ")" for i in range(rows))
    conflict = f"ON CONFLICT ({', '.join(keys)})"
    adding = ", ".join(f"{c} = {table.name}.{c} + excluded.{c}" for c in counters)
    upsert = f"INSERT INTO {table.name} ({names}) VALUES {values} {conflict} DO UPDATE SET {adding}"
    zero_rows = ", ".join(
        "(" + ", ".join([*(f":{k}_{i}" for k in keys), *("0" for _ in counters)]) + ")"
        for i in range(rows)
    )
    insert_zeros = (
        f"INSERT INTO {table.name} ({', '.join((*keys, *counters))}) VALUES {zero_rows} "
        f"{conflict} DO NOTHING"
    )

    def typed(sql: str, named: Sequence[str]) -> TextClause:
        return text(sql).bindparams(
            *(bindparam(f"{c}_{i}", type_=table.c[c].type) for i in range(rows) for c in named)
        )

    return typed(upsert, columns), typed(insert_zeros, keys)


@lru_cache(maxsize=32)
def _adding_to_one_row(model: Any, keys: tuple[str, ...], counters: tuple[str, ...]) -> Any:
    """``UPDATE … SET x = x + :add_x WHERE key = :key_k`` of ``_adding``, built once."""
    table = model.__table__
    return (
        update(table)
        .where(*(table.c[k] == bindparam(f"key_{k}") for k in keys))
        .values({c: table.c[c] + bindparam(f"add_{c}") for c in counters})
    )


def hands_changed(table: TableRow | TableState, changes: Iterable[HandChange]) -> None:
    """Move the league's aggregates by what ``changes`` did to hands of ``table``.

    Call it in the transaction of the change, before the table's own counters
    (``hands_played``, the seats' balances) move: they are read as the state before. A closed
    sitting of a season that changes has its season's ratings replayed."""
    tally = _tally(table, list(changes))
    run_writes(_aggregate_writes(table, tally))
    if table.season_id is not None and table.status == "closed" and tally.deltas:
        net = HAND_COUNTERS.index("net")
        balances = [s.balance + tally.per_seat[s.seat][net] for s in table.seats]
        rebuild_ratings(table.season_id, {table.id: (tally.hands_after, balances)})


def aggregate_writes(table: TableState, changes: Iterable[HandChange]) -> list[Write]:
    """The statements ``hands_changed`` would run for an open table, worked out without
    running any (a hand being recorded plans its writes before it takes the lock:
    ``services/writes.py``). A closed table's ratings are no part of it: nothing is recorded
    at a closed table."""
    if table.status != "open":
        raise ValueError("aggregate_writes plans the writes of an open table only")
    return _aggregate_writes(table, _tally(table, list(changes)))


class _Tally(NamedTuple):
    """What ``changes`` move, per seat (``HAND_COUNTERS``), per player, per (player, contract),
    and the table's hands played after them."""

    per_seat: list[list[int]]
    deltas: dict[str, dict[str, int]]
    mixes: dict[tuple[str, str], dict[str, int]]
    only_additions: bool
    hands_after: int


def _tally(table: TableRow | TableState, changes: list[HandChange]) -> _Tally:
    players = table.players
    table_rules = TableRules.of(table)
    league_hand = table_rules.variant.league_hand
    only_additions = all(c.settlement_before is None for c in changes)
    per_seat = [[0] * len(HAND_COUNTERS) for _ in range(players)]
    contracts: dict[tuple[int, str], list[int]] = {}
    for change in changes:
        for sign, record, settlement in (
            (-1, change.record_before, change.settlement_before),
            (1, change.record_after, change.settlement_after),
        ):
            if settlement is None:
                continue
            hand = league_hand(record, players, table_rules.options, settlement.get("result"))
            for seat, tally in enumerate(tally_hand(hand, settlement, players)):
                counters = per_seat[seat]
                for index, value in enumerate(tally.counters):
                    counters[index] += sign * value
                if tally.contract is not None:
                    mix = contracts.setdefault((seat, tally.contract), [0, 0, 0])
                    mix[0] += sign
                    mix[1] += sign * (tally.outcome == "won")
                    mix[2] += sign * (tally.outcome == "lost")
    hands_delta = per_seat[0][HAND_COUNTERS.index("hands")]
    hands_after = table.hands_played + hands_delta
    sittings_delta = int(hands_after > 0) - int(table.hands_played > 0)

    player_of = {s.seat: s.player_id for s in table.seats}
    deltas: dict[str, dict[str, int]] = {}
    for seat, counters in enumerate(per_seat):
        delta = {"sittings": sittings_delta, **dict(zip(HAND_COUNTERS, counters, strict=True))}
        if any(delta.values()):
            deltas[player_of[seat]] = delta
    mixes = {
        (player_of[seat], contract): dict(zip(CONTRACT_COUNTERS, mix, strict=True))
        for (seat, contract), mix in contracts.items()
        if any(mix)
    }
    return _Tally(per_seat, deltas, mixes, only_additions, hands_after)


def _aggregate_writes(table: TableRow | TableState, tally: _Tally) -> list[Write]:
    deltas, mixes, only_additions = tally.deltas, tally.mixes, tally.only_additions
    variant = table.variant
    writes = _adding(
        PlayerCareerRow,
        ("player_id", "variant"),
        COUNTERS,
        [{"player_id": p, "variant": variant, **d} for p, d in deltas.items()],
        only_additions,
    )
    writes += _adding(
        PlayerCareerContractRow,
        ("player_id", "variant", "contract"),
        CONTRACT_COUNTERS,
        [{"player_id": p, "variant": variant, "contract": c, **d} for (p, c), d in mixes.items()],
        only_additions,
    )
    if table.season_id is None:
        return writes
    season_id = table.season_id
    day = sitting_day(table)
    writes += _adding(
        SeasonPlayerRow,
        ("season_id", "player_id"),
        COUNTERS,
        [{"season_id": season_id, "player_id": p, **d} for p, d in deltas.items()],
        only_additions,
    )
    # The sitting's day, month and year in one statement (services/league/periods.py).
    writes += _adding(
        SeasonPlayerPeriodRow,
        ("season_id", "span", "starts_on", "player_id"),
        COUNTERS,
        [
            {
                "season_id": season_id,
                "span": span,
                "starts_on": period_start(day, span),
                "player_id": p,
                **d,
            }
            for span in SPANS
            for p, d in deltas.items()
        ],
        only_additions,
    )
    writes += _adding(
        SeasonPlayerContractRow,
        ("season_id", "player_id", "contract"),
        CONTRACT_COUNTERS,
        [
            {"season_id": season_id, "player_id": p, "contract": c, **d}
            for (p, c), d in mixes.items()
        ],
        only_additions,
    )
    return writes


def sitting_moved(table: TableRow, season_id: str | None) -> None:
    """Move a sitting from its season to ``season_id`` (None: out of the league's seasons):
    every current hand is taken out of the old season's aggregates as counted, and counted
    again in the new season's, in the transaction of the change; the ratings of both seasons
    are replayed when the sitting is closed. Sets ``table.season_id``. The players' careers
    are taken away and added back alike, so they end where they were."""
    hands = list(
        db.session.execute(
            select(HandRow.record, HandRow.settlement)
            .where(HandRow.table_id == table.id, HandRow.settlement.is_not(None))
            .order_by(HandRow.number)
        )
    )
    hands_changed(
        table, [HandChange(record, settlement, None, None) for record, settlement in hands]
    )
    table.season_id = season_id
    db.session.flush()  # the new season's ratings are replayed from the rows as they are now
    moved = TableState(
        id=table.id,
        club_id=table.club_id,
        name=table.name,
        variant=table.variant,
        options=table.options,
        players=table.players,
        first_dealer=table.first_dealer,
        status=table.status,
        version=table.version,
        hands_recorded=table.hands_recorded,
        hands_played=0,
        pool=table.pool,
        state=table.state,
        created_at=table.created_at,
        closed_at=table.closed_at,
        season_id=season_id,
        seats=tuple(SeatState(s.seat, s.player_id, s.name, 0) for s in table.seats),
    )
    hands_changed(
        moved, [HandChange(None, None, record, settlement) for record, settlement in hands]
    )
