"""A club night's money: its rate (set when it starts, changed later and kept in its
history), which the tables its draws open carry, and its settle-up over all its tables.

The settle-up (docs/rules.md, "A club night's money"): each table settles in whole cents as
its own settle-up does, with its own rate; each player's cents are summed over the night's
tables, the pool's too (what the club gained or lost in the pools it keeps); then the fewest
payments clear the sums (``rules.money.settle_night_in_money``). A table without a rate in
the night's currency is left out, and listed as such.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from ... import rules
from ...extensions import db
from ...persistence.columns import utcnow
from ...persistence.nights import ClubNightChangeRow, ClubNightRow
from ...persistence.table_keeping import TableRow
from ...rules.money import TableMoney, settle_in_money, settle_night_in_money
from ..auth import Principal
from ..outbox import record_change
from ..spreadsheets import spreadsheet_safe
from ..table_settings import change_settings, change_view
from ..tables import club_currency, parse_rate, rate_of, rate_view, settle_up_view, store_rate
from .nights import lock_night, night_players, night_tables, night_view, readable_night

NIGHT_ROUNDING = "tables-down-largest-remainder"
"""How a night's money is rounded: each table to the cent as its own settle-up
(``tables.ROUNDING``), the night's amounts the sums of those whole cents."""


def change_rate(
    principal: Principal, night_id: str, raw: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Change the night's rate (admin token; None: no money), open night or closed. Each of
    its tables that still carries the night's previous rate takes the new one, with a row
    in the table's history; a table whose players agreed another rate keeps it. The change
    is kept in the night's history; the same rate again changes nothing."""
    night = lock_night(principal, night_id, closed_too=True)
    new_rate = parse_rate(raw, night.variant, club_currency(night.club_id))
    old_rate = rate_of(night)
    if new_rate == old_rate:
        db.session.commit()  # nothing to change: the night's lock goes
        return night_view(night)
    before = rate_view(night)
    store_rate(night, new_rate)
    after = rate_view(night)
    for _, table in night_tables(night.id):
        if rate_of(table) == old_rate:
            change_settings(principal, table.id, rate=after, commit=False)
    night.version += 1
    db.session.add(
        ClubNightChangeRow(
            night_id=night.id,
            changed_at=utcnow(),
            token_id=principal.token_id,
            token_kind=principal.kind,
            setting="rate",
            before=before,
            after=after,
            version=night.version,
        )
    )
    record_change(night.club_id, "night.changed", night=night.id, changed="rate")
    db.session.commit()
    return night_view(night)


def night_history(principal: Principal, night_id: str) -> dict[str, Any]:
    """Every change of the night's rate, oldest first."""
    night = readable_night(principal, night_id)
    rows = db.session.scalars(
        select(ClubNightChangeRow)
        .where(ClubNightChangeRow.night_id == night.id)
        .order_by(ClubNightChangeRow.id)
    )
    return {
        "night_id": night.id,
        "changes": [change_view(row) for row in rows],
    }


def night_money(night: ClubNightRow) -> dict[str, Any] | None:
    """The night's settle-up in money (None: the night has no rate)."""
    rate = rate_of(night)
    if rate is None:
        return None
    names = {p.id: p.name for _, p in night_players(night.id)}
    number: dict[str, int] = {}  # player id -> the night's party number of the player
    counted: list[TableMoney] = []
    left_out: list[dict[str, Any]] = []
    series_cents: dict[str, dict[int, int]] = {}
    for link, table in night_tables(night.id):
        table_rate_now = rate_of(table)
        if table_rate_now is None or table_rate_now.currency != rate.currency:
            left_out.append({"series": link.series, "number": link.number, "table_id": table.id})
            continue
        for seat in table.seats:
            number.setdefault(seat.player_id, len(number))
            names.setdefault(seat.player_id, seat.name)
        money = _table_money(table, number)
        counted.append(money)
        units = rules.get_variant(table.variant).units
        for party, cents in settle_in_money(money.balances, units, money.rate).nets:
            if party != "pool":
                player_id = table.seats[party].player_id
                series_cents.setdefault(player_id, {})[link.series] = cents
    units = rules.get_variant(night.variant).units
    settled = settle_night_in_money(counted, units, rate.currency)
    by_number = {n: player_id for player_id, n in number.items()}

    def party_view(value: Any) -> dict[str, Any]:
        if value == "pool":
            return {"player_id": None, "name": None, "party": "pool"}
        return {"player_id": by_number[value], "name": names[by_number[value]], "party": "player"}

    fees = dict(settled.fees)
    nets = dict(settled.nets)
    drawn = sorted({s for cents in series_cents.values() for s in cents})
    players = [
        {
            "player_id": player_id,
            "name": names[player_id],
            "cents": nets.get(n, 0),
            "fees_cents": fees.get(n, 0),
            "series": [
                {"series": s, "cents": series_cents[player_id][s]}
                for s in drawn
                if s in series_cents.get(player_id, {})
            ],
        }
        for player_id, n in sorted(number.items(), key=lambda item: (names[item[0]], item[0]))
    ]
    return {
        "night_id": night.id,
        "final": night.status == "closed",
        "currency": rate.currency,
        "rate": rate_view(night),
        "rounding": NIGHT_ROUNDING,
        "players": players,
        "pool_cents": nets.get("pool"),
        "transfers": [
            {"from": party_view(f), "to": party_view(t), "cents": cents}
            for f, t, cents in settled.transfers
        ],
        "fees_cents": sum(fees.values()),
        "tables_left_out": left_out,
    }


def _table_money(table: TableRow, number: Mapping[str, int]) -> TableMoney:
    view = settle_up_view(table)
    rate = rate_of(table)
    assert rate is not None
    return TableMoney(
        balances=tuple((n["party"], n["amount"]) for n in view["net"]),
        players=tuple(number[seat.player_id] for seat in table.seats),
        rate=rate,
    )


def night_settle_up(principal: Principal, night_id: str) -> dict[str, Any] | None:
    """``night_money`` for a token that may read the night."""
    return night_money(readable_night(principal, night_id))


NIGHT_SETTLE_UP_COLUMNS = (
    "kind",
    "player_id",
    "name",
    "to_player_id",
    "to_name",
    "cents",
    "currency",
)
"""The night's settle-up as CSV: one ``net`` line per player (and the ``pool`` when the club
keeps one), one ``payment`` per transfer, one ``fee`` per player who pays table fees."""


def night_settle_up_csv(principal: Principal, night_id: str) -> str | None:
    """``night_settle_up`` as RFC 4180 CSV (``NIGHT_SETTLE_UP_COLUMNS``), names spreadsheet-safe;
    None when the night has no rate."""
    money = night_settle_up(principal, night_id)
    if money is None:
        return None
    currency = money["currency"]
    rows: list[tuple[str, str, str, str, str, int]] = [
        ("net", p["player_id"], p["name"], "", "", p["cents"]) for p in money["players"]
    ]
    if money["pool_cents"] is not None:
        rows.append(("net", "pool", "pool", "", "", money["pool_cents"]))
    for transfer in money["transfers"]:
        source, target = transfer["from"], transfer["to"]
        rows.append(
            (
                "payment",
                source["player_id"] or "pool",
                source["name"] or "pool",
                target["player_id"] or "pool",
                target["name"] or "pool",
                transfer["cents"],
            )
        )
    rows += [
        ("fee", p["player_id"], p["name"], "club", "club", p["fees_cents"])
        for p in money["players"]
        if p["fees_cents"]
    ]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(NIGHT_SETTLE_UP_COLUMNS)
    for kind, player, name, to_player, to_name, cents in rows:
        writer.writerow(
            [
                kind,
                player,
                spreadsheet_safe(name),
                to_player,
                spreadsheet_safe(to_name) if to_name else "",
                cents,
                currency,
            ]
        )
    return out.getvalue()
