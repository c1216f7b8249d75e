"""Club nights in the club's export and import (``services/backup.py`` calls these).

A night is kept with what cannot be derived: its settings and rate (with the rate's history),
its players and their presence, and each series' seed and tables (by the document's table
ids). Its standings and its money are read from the tables, which the import rebuilds from
their hands; the export shows the night's settle-up in money too, which the import ignores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select

from ... import rules
from ...extensions import db
from ...persistence.columns import rfc3339
from ...persistence.nights import (
    ClubNightChangeRow,
    ClubNightPlayerRow,
    ClubNightRow,
    ClubNightSeriesRow,
    ClubNightTableRow,
)
from ...persistence.table_keeping import TableRow
from ...rules import RuleViolation
from ..auth import new_id
from ..tables import parse_rate, rate_view, store_rate
from .standings import standings_of


def export_nights(club_id: str) -> list[dict[str, Any]]:
    """The club's nights, oldest first, as the export document has them."""
    nights = db.session.scalars(
        select(ClubNightRow)
        .where(ClubNightRow.club_id == club_id)
        .order_by(ClubNightRow.created_at, ClubNightRow.id)
    ).all()
    ids = [n.id for n in nights]
    players: dict[str, list[dict[str, Any]]] = {}
    for row in db.session.scalars(
        select(ClubNightPlayerRow)
        .where(ClubNightPlayerRow.night_id.in_(ids))
        .order_by(ClubNightPlayerRow.night_id, ClubNightPlayerRow.player_id)
    ):
        players.setdefault(row.night_id, []).append(
            {"player_id": row.player_id, "present": row.present}
        )
    tables: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for link in db.session.scalars(
        select(ClubNightTableRow)
        .where(ClubNightTableRow.night_id.in_(ids))
        .order_by(ClubNightTableRow.night_id, ClubNightTableRow.series, ClubNightTableRow.number)
    ):
        tables.setdefault((link.night_id, link.series), []).append(
            {
                "number": link.number,
                "table_id": link.table_id,
                "hands_limit": None,
                "series_ends_at": None,
            }
        )
    limits = {
        table_id: (limit, ends_at)
        for table_id, limit, ends_at in db.session.execute(
            select(TableRow.id, TableRow.hands_limit, TableRow.series_ends_at).where(
                TableRow.night_id.in_(ids)
            )
        )
    }
    for links in tables.values():
        for entry in links:
            limit, ends_at = limits.get(entry["table_id"], (None, None))
            entry["hands_limit"], entry["series_ends_at"] = limit, rfc3339(ends_at)
    changes: dict[str, list[dict[str, Any]]] = {}
    for change in db.session.scalars(
        select(ClubNightChangeRow)
        .where(ClubNightChangeRow.night_id.in_(ids))
        .order_by(ClubNightChangeRow.night_id, ClubNightChangeRow.id)
    ):
        changes.setdefault(change.night_id, []).append(
            {
                "setting": change.setting,
                "before": change.before,
                "after": change.after,
                "changed_at": rfc3339(change.changed_at),
                "changed_by": {
                    "token_id": change.token_id,
                    "kind": change.token_kind,
                    "imported": change.imported,
                },
            }
        )
    series: dict[str, list[dict[str, Any]]] = {}
    for drawn in db.session.scalars(
        select(ClubNightSeriesRow)
        .where(ClubNightSeriesRow.night_id.in_(ids))
        .order_by(ClubNightSeriesRow.night_id, ClubNightSeriesRow.number)
    ):
        series.setdefault(drawn.night_id, []).append(
            {
                "number": drawn.number,
                "seed": drawn.seed,
                "drawn_at": rfc3339(drawn.drawn_at),
                "tables": tables.get((drawn.night_id, drawn.number), []),
            }
        )
    return [
        {
            "id": n.id,
            "name": n.name,
            "variant": n.variant,
            "season_id": n.season_id,
            "hands_per_series": n.hands_per_series,
            "series_planned": n.series_planned,
            "status": n.status,
            "created_at": rfc3339(n.created_at),
            "closed_at": rfc3339(n.closed_at),
            "players": players.get(n.id, []),
            "series": series.get(n.id, []),
            "rate": rate_view(n),
            "fee_basis": n.fee_basis or "series",
            "changes": changes.get(n.id, []),
            "money": standings_of(n)["money"],
        }
        for n in nights
    ]


def import_nights(
    club_id: str,
    currency: str,
    nights: Sequence[Mapping[str, Any]],
    player_ids: Mapping[str, str],
    season_ids: Mapping[str, str],
    season_variants: Mapping[str, str],
    table_ids: Mapping[str, str],
    table_variants: Mapping[str, str],
) -> dict[str, str]:
    """Store the document's nights under their new ids (in the import's transaction), every
    reference checked against the file; the new id of each night by its id in the file.
    A rate without a currency is in the club's ``currency``."""
    new_ids: dict[str, str] = {}
    used_tables: set[str] = set()
    for index, n in enumerate(nights):
        path = f"nights.{index}"
        if n["id"] in new_ids:
            raise RuleViolation(f"{path}.id", "%(value)s appears twice", value=repr(n["id"]))
        try:
            variant = rules.get_variant(n["variant"])
        except RuleViolation as violation:
            raise RuleViolation(f"{path}.variant", violation.phrase) from None
        season_id = n["season_id"]
        if season_id is not None:
            if season_id not in season_ids:
                raise RuleViolation(f"{path}.season_id", "no such season in the file")
            if season_variants[season_id] != variant.name:
                raise RuleViolation(f"{path}.season_id", "the season is of another variant")
        if (n["status"] == "closed") != (n["closed_at"] is not None):
            raise RuleViolation(
                f"{path}.closed_at", "a closed night has a closing time, an open one none"
            )
        if len(n["series"]) > n["series_planned"]:
            raise RuleViolation(f"{path}.series", "more series than series_planned")
        night = ClubNightRow(
            id=new_id(),
            club_id=club_id,
            name=n["name"],
            variant=variant.name,
            season_id=None if season_id is None else season_ids[season_id],
            hands_per_series=n["hands_per_series"],
            series_planned=n["series_planned"],
            status=n["status"],
            version=1,
            created_at=n["created_at"],
            closed_at=n["closed_at"],
            fee_basis=n.get("fee_basis", "series"),
        )
        try:
            store_rate(night, parse_rate(n["rate"], variant.name, currency))
        except RuleViolation as violation:
            raise RuleViolation(f"{path}.{violation.field}", violation.phrase) from None
        db.session.add(night)
        db.session.flush()
        # The file's word for who changed the rate: kept, marked imported (as a table's are).
        db.session.add_all(
            ClubNightChangeRow(
                night_id=night.id,
                changed_at=c["changed_at"],
                token_id=c["changed_by"]["token_id"],
                token_kind=c["changed_by"]["kind"],
                setting=c["setting"],
                before=c["before"],
                after=c["after"],
                version=0,
                imported=True,
            )
            for c in n["changes"]
        )
        seen_players: set[str] = set()
        for i, p in enumerate(n["players"]):
            where = f"{path}.players.{i}.player_id"
            if p["player_id"] not in player_ids:
                raise RuleViolation(where, "no such player in the file")
            if p["player_id"] in seen_players:
                raise RuleViolation(where, "a player is listed only once")
            seen_players.add(p["player_id"])
            db.session.add(
                ClubNightPlayerRow(
                    night_id=night.id, player_id=player_ids[p["player_id"]], present=p["present"]
                )
            )
        for s_index, drawn in enumerate(n["series"]):
            where = f"{path}.series.{s_index}"
            if drawn["number"] != s_index + 1:
                raise RuleViolation(
                    f"{where}.number",
                    "series are numbered 1, 2, 3 …: expected %(number)s",
                    number=s_index + 1,
                )
            db.session.add(
                ClubNightSeriesRow(
                    night_id=night.id,
                    number=drawn["number"],
                    seed=drawn["seed"],
                    drawn_at=drawn["drawn_at"],
                )
            )
            db.session.flush()
            for t_index, link in enumerate(drawn["tables"]):
                at = f"{where}.tables.{t_index}"
                if link["number"] != t_index + 1:
                    raise RuleViolation(
                        f"{at}.number",
                        "tables are numbered 1, 2, 3 …: expected %(number)s",
                        number=t_index + 1,
                    )
                table_id = link["table_id"]
                if table_id not in table_ids:
                    raise RuleViolation(f"{at}.table_id", "no such table in the file")
                if table_id in used_tables:
                    raise RuleViolation(f"{at}.table_id", "the table belongs to one night only")
                if table_variants[table_id] != variant.name:
                    raise RuleViolation(f"{at}.table_id", "the table plays another variant")
                used_tables.add(table_id)
                db.session.add(
                    ClubNightTableRow(
                        night_id=night.id,
                        series=drawn["number"],
                        number=link["number"],
                        table_id=table_ids[table_id],
                    )
                )
                table = db.session.get(TableRow, table_ids[table_id])
                assert table is not None  # imported above, in this transaction
                limit = link.get("hands_limit")
                table.night_id = night.id
                table.hands_limit = n["hands_per_series"] if limit is None else limit
                table.series_ends_at = link.get("series_ends_at")
        new_ids[n["id"]] = night.id
    db.session.flush()
    return new_ids
