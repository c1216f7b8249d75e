"""What is known of a tournament's tables' results, read for many tables at once: one query per
kind of fact (the hands' stamps and last times, the re-seatings, the confirmations, the open
disputes, the tokens' streams), none per table. ``tournament_results`` writes them; the
standings (``tournaments``) read which tables' results count (docs/tournaments.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from ..extensions import db
from ..persistence.columns import rfc3339, utcnow
from ..persistence.nights import ClubNightSeriesRow, ClubNightTableRow
from ..persistence.table_keeping import HandRow, SeatingChangeRow, TableRow, TokenRow
from ..persistence.tournament_results import ConfirmationRow, DisputeRow
from ..persistence.tournaments import TournamentRow
from ..rules import tournament_results as result_rules

Streams = Callable[[str], int]
"""How many live streams this worker holds under a key (``StreamHub.held``)."""


def result_stamps(table_ids: Sequence[str]) -> dict[str, int]:
    """Each table's stamp: the sum of its hands' revisions and its re-seatings. Any change of
    its hands (one recorded, corrected or voided) or of its seating raises it, so a
    confirmation given at another stamp confirmed something else, and is void."""
    stamps = dict.fromkeys(table_ids, 0)
    if not table_ids:
        return stamps
    for table_id, revisions in db.session.execute(
        select(HandRow.table_id, func.sum(HandRow.revision))
        .where(HandRow.table_id.in_(table_ids))
        .group_by(HandRow.table_id)
    ):
        stamps[table_id] += int(revisions or 0)
    for table_id, count in db.session.execute(
        select(SeatingChangeRow.table_id, func.count())
        .where(SeatingChangeRow.table_id.in_(table_ids))
        .group_by(SeatingChangeRow.table_id)
    ):
        stamps[table_id] += int(count)
    return stamps


def _confirmations(stamps: Mapping[str, int]) -> dict[str, list[int | None]]:
    """The confirmations that stand, by table: those given at its stamp (seats; None: the
    director), in the order given."""
    found: dict[str, list[int | None]] = {table_id: [] for table_id in stamps}
    if not stamps:
        return found
    rows = db.session.execute(
        select(ConfirmationRow.table_id, ConfirmationRow.seat, ConfirmationRow.stamp)
        .where(ConfirmationRow.table_id.in_(list(stamps)))
        .order_by(ConfirmationRow.id)
    )
    for table_id, seat, stamp in rows:
        if stamp == stamps[table_id] and seat not in found[table_id]:
            found[table_id].append(seat)
    return found


def _disputes(table_ids: Sequence[str], resolved_too: bool) -> dict[str, list[DisputeRow]]:
    """Each table's open disputes, or all of them (``resolved_too``), the oldest first."""
    found: dict[str, list[DisputeRow]] = {table_id: [] for table_id in table_ids}
    if table_ids:
        query = select(DisputeRow).where(DisputeRow.table_id.in_(table_ids))
        if not resolved_too:
            query = query.where(DisputeRow.status == "open")
        for dispute in db.session.scalars(query.order_by(DisputeRow.opened_at, DisputeRow.id)):
            found[dispute.table_id].append(dispute)
    return found


def _last_hands(table_ids: Sequence[str]) -> dict[str, datetime]:
    if not table_ids:
        return {}
    return {
        table_id: at
        for table_id, at in db.session.execute(
            select(HandRow.table_id, func.max(HandRow.recorded_at))
            .where(HandRow.table_id.in_(table_ids))
            .group_by(HandRow.table_id)
        )
        if at is not None
    }


def _phones(table_ids: Sequence[str], streams: Streams | None) -> dict[str, int | None]:
    """The live streams this worker holds with each table's tokens (None: no stream hub
    answers here, as under the development server)."""
    if streams is None or not table_ids:
        return dict.fromkeys(table_ids)
    phones: dict[str, int | None] = dict.fromkeys(table_ids, 0)
    for token_id, table_id in db.session.execute(
        select(TokenRow.id, TokenRow.table_id).where(
            TokenRow.table_id.in_(table_ids), TokenRow.revoked_at.is_(None)
        )
    ):
        if table_id is not None:
            phones[table_id] = (phones[table_id] or 0) + streams(f"token:{token_id}")
    return phones


def _since(at: datetime | None, now: datetime) -> float:
    if at is None:
        return 0.0
    if at.tzinfo is None:  # SQLite hands back naive UTC
        at = at.replace(tzinfo=now.tzinfo)
    return max(0.0, (now - at).total_seconds() / 60)


def results_of(
    linked: Sequence[tuple[ClubNightTableRow, TableRow]],
    drawn: Mapping[int, datetime],
    streams: Streams | None,
    stale_minutes: float,
    resolved_too: bool = False,
) -> list[dict[str, Any]]:
    """Each table's result as the console and the phones' answers show it: one query per
    kind of fact for all the tables, none per table. Its disputes are the open ones, or
    with ``resolved_too`` (a table's phone, which shows the director's outcome) all."""
    ids = [table.id for _, table in linked]
    stamps = result_stamps(ids)
    confirmations = _confirmations(stamps)
    disputes = _disputes(ids, resolved_too)
    last = _last_hands(ids)
    phones = _phones(ids, streams)
    now = utcnow()
    rows = []
    for link, table in linked:
        given = confirmations[table.id]
        result = result_rules.TableResult(
            played=table.hands_played,
            limit=table.hands_limit,
            closed=table.status == "closed",
            confirmed_by=frozenset(s for s in given if s is not None),
            director=None in given,
            open_disputes=sum(d.status == "open" for d in disputes[table.id]),
            idle_minutes=_since(last.get(table.id) or drawn.get(link.series), now),
        )
        rows.append(
            {
                "result": result,
                "table_id": table.id,
                "series": link.series,
                "number": link.number,
                "seats": [
                    {"seat": s.seat, "player_id": s.player_id, "name": s.name} for s in table.seats
                ],
                "hands_played": table.hands_played,
                "hands_limit": table.hands_limit,
                "scorer": result_rules.SCORER_SEAT,
                "confirmations_needed": result_rules.CONFIRMATIONS_NEEDED,
                "last_hand_at": rfc3339(last.get(table.id)),
                "phones": phones[table.id],
                "confirmations": given,
                "confirmed": result.confirmed,
                "state": result.state(stale_minutes),
                "disputes": [dispute_view(d, link.number) for d in disputes[table.id]],
            }
        )
    return rows


def dispute_view(dispute: DisputeRow, table_number: int) -> dict[str, Any]:
    return {
        "id": dispute.id,
        "table_id": dispute.table_id,
        "table": table_number,
        "hand": dispute.hand,
        "seat": dispute.seat,
        "reason": dispute.reason,
        "status": dispute.status,
        "opened_at": rfc3339(dispute.opened_at),
        "resolved_at": rfc3339(dispute.resolved_at),
    }


def public(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "result"}


def drawn_at(night_id: str) -> dict[int, datetime]:
    return {
        number: at
        for number, at in db.session.execute(
            select(ClubNightSeriesRow.number, ClubNightSeriesRow.drawn_at).where(
                ClubNightSeriesRow.night_id == night_id
            )
        )
    }


def linked_tables(
    night_id: str, series: int | None = None, table_id: str | None = None
) -> list[tuple[ClubNightTableRow, TableRow]]:
    """The night's tables (of one series, or one table) with their rows, by series and
    number; their seats load in one more statement for all of them (``selectin``)."""
    query = (
        select(ClubNightTableRow, TableRow)
        .join(TableRow, TableRow.id == ClubNightTableRow.table_id)
        .where(ClubNightTableRow.night_id == night_id)
        .order_by(ClubNightTableRow.series, ClubNightTableRow.number)
    )
    if series is not None:
        query = query.where(ClubNightTableRow.series == series)
    if table_id is not None:
        query = query.where(ClubNightTableRow.table_id == table_id)
    return [(link, table) for link, table in db.session.execute(query)]


def table_result(
    tournament: TournamentRow,
    table_id: str,
    streams: Streams | None = None,
    resolved_too: bool = False,
) -> dict[str, Any]:
    linked = linked_tables(tournament.night_id, table_id=table_id)
    drawn = drawn_at(tournament.night_id)
    return results_of(linked, drawn, streams, result_rules.STALE_MINUTES, resolved_too)[0]


def confirmed_tables(tournament: TournamentRow) -> set[tuple[int, int]]:
    """The (series, table number) of the tournament's tables whose result counts."""
    rows = results_of(linked_tables(tournament.night_id), {}, None, result_rules.STALE_MINUTES)
    return {(row["series"], row["number"]) for row in rows if row["confirmed"]}
