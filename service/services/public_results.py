"""A tournament's public results (issue 42): published by its director, read by anyone with
their address, no token; followed live by its players' families and friends from home.

One function makes them (``results_of``), from the tournament's own standings
(``tournaments.standings_of``, the night's tables' progress with them) and, when the director
shows them, its prize places (``tournaments.prizes_of``). Nothing of a player beyond what he
agreed to at registration: his name as he chose it shown (``display``), his rank, series and
total; no contact, no club, no id.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import rfc3339
from ..persistence.table_keeping import HandRow
from ..persistence.tournaments import TournamentRow
from . import tournaments
from .errors import NotFound


def published(public_id: str) -> TournamentRow:
    """The tournament whose results are published at ``public_id`` (NotFound for none, and
    for results taken back: the address says nothing then)."""
    tournament = db.session.scalar(
        select(TournamentRow).where(
            TournamentRow.public_id == public_id, TournamentRow.public_results.is_(True)
        )
    )
    if tournament is None:
        raise NotFound(N_("No results are published at this address."))
    return tournament


def _last_hands(table_ids: list[str]) -> dict[str, Any]:
    """Each table's last hand recorded: when."""
    if not table_ids:
        return {}
    return {
        table_id: last
        for table_id, last in db.session.execute(
            select(HandRow.table_id, func.max(HandRow.recorded_at))
            .where(HandRow.table_id.in_(table_ids), HandRow.status == "recorded")
            .group_by(HandRow.table_id)
        )
    }


def results_of(tournament: TournamentRow) -> dict[str, Any]:
    """The public results as of now: the standings per series and in total (ranked by the
    tournament's tie-breaks), each table's progress in the current series, the hands recorded
    in all, and the prize places when the director shows them."""
    standings = tournaments.standings_of(tournament)
    night = standings["night"]
    earned = "place_points" if standings["scoring"] == "place_points" else "result"
    prize_of: dict[str, int] = {}
    prizes = None
    if tournament.public_prizes:
        paid = tournaments.prizes_of(tournament, standings)
        prize_of = {line["entrant_id"]: line["cents"] for line in paid["prize_list"]}
        prizes = {"currency": paid["currency"], "final": paid["final"], "places": paid["places"]}
    every_table = [t for series in night["series"] for t in series["tables"]]
    last = _last_hands([t["table_id"] for t in every_table])
    current: dict[str, Any] = night["series"][-1] if night["series"] else {"tables": []}
    return {
        "name": night["name"],
        "variant": night["variant"],
        "units": standings["units"],
        "scoring": standings["scoring"],
        "tie_breaks": standings["tie_breaks"],
        "status": night["status"],
        "hands_per_series": night["hands_per_series"],
        "series_planned": night["series_planned"],
        "series_drawn": len(night["series"]),
        "hands_recorded": sum(t["hands_played"] for t in every_table),
        "last_hand_at": rfc3339(max(last.values())) if last else None,
        "standings": [
            {
                "rank": line["rank"],
                "name": line["display_name"],  # as the entrant chose (rules.display_name)
                "withdrawn": line["status"] == "withdrawn",
                "series": [None if s is None else s[earned] for s in line["series"]],
                "total": line["total"],
                "prize_cents": prize_of.get(line["entrant_id"], 0) if prizes else None,
            }
            for line in standings["standings"]
        ],
        "tables": [
            {
                "series": current["number"],
                "table": table["number"],
                "hands_played": table["hands_played"],
                "hands_limit": table["hands_limit"],
                "done": table["done"],
                "last_hand_at": rfc3339(last.get(table["table_id"])),
            }
            for table in current["tables"]
        ],
        "prizes": prizes,
    }


def public_results(public_id: str) -> dict[str, Any]:
    return results_of(published(public_id))
