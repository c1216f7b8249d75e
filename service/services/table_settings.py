"""A table's settings after it was opened: the season it counts for and the money it plays for.

Each change is a row of ``table_changes`` (the setting, before, after, when, which token, the
table version it made): ``GET /tables/{id}/history``. Who may change what (``docs/league.md``):

- the **season**: the club's admin token only, open table or closed. A table's token reads
  only its own season, so it may not move its table into another (or out of the league); the
  refusal comes before the season is looked up, so it tells nothing of the club's seasons.
  The standings and the ratings of both seasons follow in the same transaction.
- the **rate**: the admin token, or the table's token while the table is open (the players
  agree it at the table); once closed, the admin token only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import rfc3339, utcnow
from ..persistence.nights import ClubNightChangeRow
from ..persistence.table_keeping import TableChangeRow
from . import league
from .auth import Principal, require_table_access
from .errors import Forbidden
from .hands import check_version
from .locking import lock_table
from .outbox import record_change
from .tables import (
    club_currency,
    parse_rate,
    rate_of,
    rate_view,
    read_table,
    store_rate,
    table_view,
)

UNSET: Any = object()
"""``change_settings``' default for a setting the request leaves as it is."""


def change_settings(
    principal: Principal,
    table_id: str,
    *,
    season_id: str | None = UNSET,
    rate: Mapping[str, Any] | None = UNSET,
    if_match: int | None = None,
    commit: bool = True,
) -> dict[str, Any]:
    """Change the table's season and/or rate (a setting left ``UNSET`` stays); a change to
    what the table already has changes nothing (no history row, no new version).
    ``commit=False``: the caller changes several tables in one transaction (a club night's
    rate) and commits it."""
    table = lock_table(table_id)
    require_table_access(principal, table)
    check_version(table, if_match)
    changes: list[tuple[str, Any, Any]] = []
    if season_id is not UNSET and season_id != table.season_id:
        if not principal.is_admin:
            raise Forbidden(
                N_("Only the club's admin token changes which season a table counts for.")
            )
        league.check_season_for_table(table.club_id, table.variant, season_id)
        changes.append(("season", table.season_id, season_id))
        league.sitting_moved(table, season_id)
    if rate is not UNSET:
        new_rate = parse_rate(rate, table.variant, club_currency(table.club_id))
        before = rate_view(table)
        if rate_of(table) != new_rate:
            if table.status == "closed" and not principal.is_admin:
                raise Forbidden(N_("Only the club's admin token changes a closed table's rate."))
            store_rate(table, new_rate)
            changes.append(("rate", before, rate_view(table)))
    if changes:
        table.version += 1
        now = utcnow()
        for setting, before, after in changes:
            db.session.add(
                TableChangeRow(
                    table_id=table.id,
                    changed_at=now,
                    token_id=principal.token_id,
                    token_kind=principal.kind,
                    setting=setting,
                    before=before,
                    after=after,
                    version=table.version,
                )
            )
        record_change(
            table.club_id,
            "table.settings_changed",
            table.id,
            table.version,
            settings=[setting for setting, _, _ in changes],
        )
    if commit:
        db.session.commit()
    return table_view(table)


def change_view(row: TableChangeRow | ClubNightChangeRow) -> dict[str, Any]:
    """One row of a table's or a club night's history of settings, as the API answers it."""
    return {
        "setting": row.setting,
        "before": row.before,
        "after": row.after,
        "changed_at": rfc3339(row.changed_at),
        "changed_by": {"token_id": row.token_id, "kind": row.token_kind, "imported": row.imported},
        "version": row.version,
    }


def settings_history(principal: Principal, table_id: str) -> dict[str, Any]:
    """Every change of the table's season or rate, oldest first."""
    table = read_table(principal, table_id)
    rows = db.session.scalars(
        select(TableChangeRow)
        .where(TableChangeRow.table_id == table.id)
        .order_by(TableChangeRow.id)
    )
    return {
        "table_id": table.id,
        "changes": [change_view(row) for row in rows],
    }
