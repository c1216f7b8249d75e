"""A club night's settle-up in money as the API answers it, alone (``GET …/settle-up``) and
as CSV: the standings' money (``standings.night_standings``), so that its players come in the
standings' order, whichever way it is asked for."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from babel.numbers import get_currency_precision

from ...i18n import gettext
from ...i18n.marks import N_
from .. import spreadsheet
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


def night_settle_up_csv(principal: Principal, night_id: str, language: str = "en") -> str | None:
    """``night_settle_up`` as CSV in ``language`` (``NIGHT_SETTLE_UP_COLUMNS``, in words but in
    English; ``spreadsheet.csv_text``); None when the night has no rate."""
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
    lines = ([*row, currency] for row in rows)
    return spreadsheet.csv_text(_header(NIGHT_SETTLE_UP_COLUMNS, language), lines, language)


# The columns in German and Spanish words (English keeps the API's names, which programs read).
_COLUMN_WORDS = {
    "kind": N_("Kind"),
    "player_id": N_("Player id"),
    "name": N_("Name"),
    "to_player_id": N_("To player id"),
    "to_name": N_("To"),
    "cents": N_("Cents"),
    "currency": N_("Currency"),
    "rank": N_("Rank"),
    "total": N_("Total"),
    "pool_chips": N_("Pool share"),
    "money": N_("Money"),
    "fees": N_("Table fees"),
}


def _header(columns: Sequence[str], language: str) -> list[str]:
    if language == "en":
        return list(columns)
    return [
        gettext(N_("S%(number)s"), language, number=c.removeprefix("series_"))
        if c.startswith("series_")
        else gettext(_COLUMN_WORDS[c], language)
        for c in columns
    ]


def night_standings_csv(principal: Principal, night_id: str, language: str = "en") -> str:
    """The night's standings (and money, when it plays for it) as CSV in ``language``
    (``spreadsheet.csv_text``): rank, player, each series' result, the total, and with a rate
    the pool's chips, the money and the table fees as amounts of the currency ("-0.15")."""
    board = night_standings(principal, night_id)
    money = board["money"]
    series = [f"series_{s['number']}" for s in board["night"]["series"]]
    columns = ["rank", "player_id", "name", *series, "total"]
    if money:
        columns += ["pool_chips", "money", "fees", "currency"]
        places = Decimal(10) ** -get_currency_precision(money["currency"])
        fees = {p["player_id"]: p["fees_cents"] for p in money["players"]}

    def amount(cents: int) -> Decimal:
        return (Decimal(cents) * places).quantize(places)

    rows = []
    for line in board["standings"]:
        row: list[Any] = [line["rank"], line["player_id"], line["name"]]
        row += [None if r is None else r["result"] for r in line["series"]]
        row.append(line["total"])
        if money:
            row += [
                line["pool_chips"],
                amount(line["cents"]),
                amount(fees.get(line["player_id"], 0)),
                money["currency"],
            ]
        rows.append(row)
    return spreadsheet.csv_text(_header(columns, language), rows, language)
