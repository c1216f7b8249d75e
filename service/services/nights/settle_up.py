"""A club night's settle-up in money as the API answers it, alone (``GET …/settle-up``) and
as CSV: the standings' money (``standings.night_standings``), so that its players come in the
standings' order, whichever way it is asked for."""

from __future__ import annotations

import csv
import io
from typing import Any

from .. import league
from ..auth import Principal
from .standings import night_standings


def night_settle_up(principal: Principal, night_id: str) -> dict[str, Any] | None:
    """The night's money (``money.night_money``; None: no rate) for a token that may read the
    night, its players in the standings' order: the same answer the standings carry."""
    money: dict[str, Any] | None = night_standings(principal, night_id)["money"]
    return money


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
                league.spreadsheet_safe(name),
                to_player,
                league.spreadsheet_safe(to_name) if to_name else "",
                cents,
                currency,
            ]
        )
    return out.getvalue()
