"""A tournament's tables' results: confirmed on the table's phones by two players other than
the scorer (or by the director), disputed hand by hand and resolved by the director through
the hands' correction path, and the director's console over the current series' tables; the
director's moves and substitutes between series (docs/tournaments.md).

Who may do what: a table's own token confirms and disputes at its table; the host club's admin
token (the director) confirms any table, resolves disputes, reads the console and moves players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import utcnow
from ..persistence.nights import ClubNightPlayerRow, ClubNightTableRow
from ..persistence.table_keeping import (
    PlayerRow,
    SeatingChangeRow,
    SeatRow,
    TableRow,
)
from ..persistence.tournament_results import ConfirmationRow, DisputeRow
from ..persistence.tournaments import EntrantRow, TournamentRow
from ..rules import RuleViolation
from ..rules import tournament_results as result_rules
from . import hands, tournaments
from .auth import Principal, new_id, require_club_admin, require_table_access
from .errors import Conflict, NotFound
from .locking import begin_write, lock_table
from .outbox import record_change
from .table_results import (
    Streams,
    dispute_view,
    drawn_at,
    linked_tables,
    public,
    result_stamps,
    results_of,
    table_result,
)


class SeriesNotComplete(Conflict):
    problem = "series-not-complete"


class ResultDisputed(Conflict):
    problem = "result-disputed"


class DisputeClosed(Conflict):
    problem = "dispute-closed"


class SeriesStarted(Conflict):
    problem = "series-started"


# --- the table's phones: confirm, dispute ---------------------------------------------------


def _tournament_and_link(
    tournament_id: str, table_id: str
) -> tuple[TournamentRow, ClubNightTableRow]:
    tournament = db.session.get(TournamentRow, tournament_id)
    if tournament is None:
        raise NotFound(
            N_("No tournament %(tournament)s."), values={"tournament": repr(tournament_id)}
        )
    link = db.session.scalar(
        select(ClubNightTableRow).where(
            ClubNightTableRow.night_id == tournament.night_id,
            ClubNightTableRow.table_id == table_id,
        )
    )
    if link is None:
        raise NotFound(
            N_("The tournament has no table %(table)s."), values={"table": repr(table_id)}
        )
    return tournament, link


def _tournament_table(
    principal: Principal, tournament_id: str, table_id: str
) -> tuple[TournamentRow, ClubNightTableRow, TableRow]:
    """The tournament, its table ``table_id`` locked (as a hand's writer locks it), for the
    table's own token or the host's admin."""
    begin_write()
    tournament, link = _tournament_and_link(tournament_id, table_id)
    table = lock_table(table_id)
    require_table_access(principal, table)
    return tournament, link, table


def _seat_of(principal: Principal, seat: int | None) -> int | None:
    """The seat a phone names (required), or None for the director (who names none)."""
    if principal.is_admin:
        if seat is not None:
            raise RuleViolation("seat", "the director confirms as the director: name no seat")
        return None
    if seat is None:
        raise RuleViolation("seat", "name the seat of the player who confirms")
    return seat


def result_for_table(
    principal: Principal, tournament_id: str, table_id: str, streams: Streams | None = None
) -> dict[str, Any]:
    """The table's result as its phones show it (its own token, or the host's admin): the
    confirmations that stand, the scorer's seat, and every dispute of the table with its
    outcome (the console lists the open ones)."""
    tournament, _ = _tournament_and_link(tournament_id, table_id)
    table = db.session.get(TableRow, table_id)
    assert table is not None  # linked to the night
    require_table_access(principal, table)
    return public(table_result(tournament, table_id, streams, resolved_too=True))


def confirm(
    principal: Principal,
    tournament_id: str,
    table_id: str,
    seat: int | None,
    streams: Streams | None = None,
) -> dict[str, Any]:
    """A seated player other than the scorer (the table's token, naming the seat), or the
    director (admin token, no seat), confirms the table's complete series as it stands. A
    confirmation already given, or one more once the result counts, stores nothing."""
    tournament, link, table = _tournament_table(principal, tournament_id, table_id)
    seat = _seat_of(principal, seat)
    if seat is not None:
        result_rules.check_confirming_seat(seat, table.players)
    before = results_of([(link, table)], {}, None, result_rules.STALE_MINUTES)[0]
    result: result_rules.TableResult = before["result"]
    stamp = result_stamps([table.id])[table.id]
    if result.open_disputes:
        raise ResultDisputed(
            N_("A hand of this table is disputed: the director resolves it first.")
        )
    if not result.complete:
        raise SeriesNotComplete(
            N_("The table has played %(played)s of %(hands)s hands: confirm at the series' end."),
            values={"played": table.hands_played, "hands": table.hands_limit},
        )
    added = not result.confirmed and seat not in before["confirmations"]
    if added:
        db.session.add(
            ConfirmationRow(
                tournament_id=tournament.id,
                table_id=table.id,
                seat=seat,
                stamp=stamp,
                token_id=principal.token_id,
                confirmed_at=utcnow(),
            )
        )
        db.session.flush()
    # The answer, read once with the new confirmation: the event says whether it counts now.
    after = table_result(tournament, table.id, streams)
    if added:
        record_change(
            table.club_id,
            "tournament.confirmed",
            table.id,
            table.version,
            tournament=tournament.id,
            series=link.series,
            table=link.number,
            seat=seat,
            confirmed=after["confirmed"],
        )
    db.session.commit()
    return public(after)


def dispute(
    principal: Principal, tournament_id: str, table_id: str, body: Mapping[str, Any]
) -> dict[str, Any]:
    """A seated player (the table's token, naming the seat; or the director) disputes hand
    ``hand`` with a short reason: the table's result cannot be confirmed until the director
    resolves it. One open dispute per hand."""
    tournament, link, table = _tournament_table(principal, tournament_id, table_id)
    result_rules.check_disputing_seat(body["seat"], table.players)
    if not 1 <= body["hand"] <= table.hands_recorded:
        raise RuleViolation("hand", "the table has hands 1 to %(last)s", last=table.hands_recorded)
    already = db.session.scalar(
        select(DisputeRow.id).where(
            DisputeRow.table_id == table.id,
            DisputeRow.hand == body["hand"],
            DisputeRow.status == "open",
        )
    )
    if already is not None:
        raise ResultDisputed(
            N_("Hand %(hand)s is disputed already (%(dispute)s): the director resolves it."),
            values={"hand": body["hand"], "dispute": already},
        )
    row = DisputeRow(
        id=new_id(),
        tournament_id=tournament.id,
        table_id=table.id,
        hand=body["hand"],
        seat=body["seat"],
        reason=body["reason"],
        status="open",
        opened_at=utcnow(),
    )
    db.session.add(row)
    db.session.flush()
    record_change(
        table.club_id,
        "tournament.disputed",
        table.id,
        table.version,
        tournament=tournament.id,
        dispute=row.id,
        hand=row.hand,
    )
    db.session.commit()
    return dispute_view(row, link.number)


# --- the director: resolve, console, moves --------------------------------------------------


def resolve(
    principal: Principal,
    tournament_id: str,
    dispute_id: str,
    body: Mapping[str, Any],
    streams: Streams | None = None,
) -> dict[str, Any]:
    """The director resolves an open dispute (admin token): ``corrected`` (the hand replaced
    by ``hand``) or ``voided`` through the hands' own correction path, so that the hand's
    history names the director's token as the change's author; or ``rejected``. The answer is
    the table's result: a correction voids the confirmations given before it."""
    tournament = tournaments.lock_tournament(principal, tournament_id)
    row = db.session.get(DisputeRow, dispute_id)
    if row is None or row.tournament_id != tournament.id:
        raise NotFound(
            N_("The tournament has no dispute %(dispute)s."), values={"dispute": repr(dispute_id)}
        )
    if row.status != "open":
        raise DisputeClosed(N_("The director has resolved this dispute already."))
    outcome = body["outcome"]
    if outcome == "corrected" and body.get("hand") is None:
        raise RuleViolation("hand", "a correction needs the hand as it should be")
    if outcome != "corrected" and body.get("hand") is not None:
        raise RuleViolation("hand", "only a correction takes a hand")
    row.status = outcome
    row.resolved_at = utcnow()
    row.resolved_by = principal.token_id
    table = lock_table(row.table_id)
    record_change(
        tournament.club_id,
        "tournament.dispute_resolved",
        table.id,
        table.version,
        tournament=tournament.id,
        dispute=row.id,
        hand=row.hand,
        outcome=outcome,
    )
    db.session.flush()
    if outcome == "corrected":
        hands.correct_hand(principal, row.table_id, row.hand, dict(body["hand"]))  # commits
    elif outcome == "voided":
        hands.void_hand(principal, row.table_id, row.hand)  # commits
    else:
        db.session.commit()
    return public(table_result(tournament, row.table_id, streams))


def readable_by_director(principal: Principal, tournament_id: str) -> TournamentRow:
    tournament = db.session.get(TournamentRow, tournament_id)
    if tournament is None:
        raise NotFound(
            N_("No tournament %(tournament)s."), values={"tournament": repr(tournament_id)}
        )
    require_club_admin(principal, tournament.club_id)
    return tournament


def _console_of(
    tournament: TournamentRow, streams: Streams | None, stale_minutes: float
) -> dict[str, Any]:
    drawn = drawn_at(tournament.night_id)
    series = max(drawn) if drawn else None
    linked = linked_tables(tournament.night_id, series=series) if series is not None else []
    rows = {row["number"]: row for row in results_of(linked, drawn, streams, stale_minutes)}
    order = result_rules.console_order(
        [(number, row["result"]) for number, row in rows.items()], stale_minutes
    )
    counts = dict.fromkeys(result_rules.STATES, 0)
    for row in rows.values():
        counts[row["state"]] += 1
    return {
        "tournament_id": tournament.id,
        "series": series,
        "stale_minutes": stale_minutes,
        "counts": counts,
        "tables": [public(rows[number]) for number in order],
    }


def console(
    principal: Principal,
    tournament_id: str,
    streams: Streams | None,
    stale_minutes: float = result_rules.STALE_MINUTES,
) -> dict[str, Any]:
    """The director's console (admin token): each table of the current series, what needs
    the director first (``rules.tournament_results.console_order``)."""
    tournament = readable_by_director(principal, tournament_id)
    return _console_of(tournament, streams, stale_minutes)


def _seat_at(
    linked: Sequence[tuple[ClubNightTableRow, TableRow]], number: int, seat: int
) -> tuple[ClubNightTableRow, TableRow]:
    for link, table in linked:
        if link.number == number:
            if not 0 <= seat < table.players:
                raise RuleViolation(
                    "seat",
                    "table %(table)s has seats 0 to %(last)s",
                    table=number,
                    last=table.players - 1,
                )
            return link, table
    raise RuleViolation("table", "the series has no table %(table)s", table=number)


def seat_entrant(
    principal: Principal,
    tournament_id: str,
    body: Mapping[str, Any],
    streams: Streams | None = None,
) -> dict[str, Any]:
    """Between series (admin token): seat entrant ``entrant_id`` at ``seat`` of table
    ``table`` of the series drawn last, before its first hand there. An entrant seated in
    the series moves, and the one sitting there takes the mover's place (a swap); an
    entrant not seated (a new or waiting one, checked in now) substitutes for a withdrawn
    one. The answer is the console."""
    tournament = tournaments.lock_tournament(principal, tournament_id)
    drawn = drawn_at(tournament.night_id)
    if not drawn:
        raise RuleViolation("table", "no series is drawn yet")
    series = max(drawn)
    linked = linked_tables(tournament.night_id, series=series)
    entrant = db.session.get(EntrantRow, body["entrant_id"])
    if entrant is None or entrant.tournament_id != tournament.id:
        raise RuleViolation(
            "entrant_id", "no entrant %(entrant)s", entrant=repr(body["entrant_id"])
        )
    link, target = _seat_at(linked, body["table"], body["seat"])
    sitting_id = target.seats[body["seat"]].player_id
    sitting = db.session.scalar(
        select(EntrantRow).where(
            EntrantRow.tournament_id == tournament.id, EntrantRow.player_id == sitting_id
        )
    )
    mover = next(
        (
            (other_link, table, seat.seat)
            for other_link, table in linked
            for seat in table.seats
            if entrant.player_id is not None and seat.player_id == entrant.player_id
        ),
        None,
    )
    if mover is None:  # a substitute
        if entrant.status == "withdrawn":
            raise RuleViolation(
                "entrant_id", "%(name)s has withdrawn: enter them again first", name=entrant.name
            )
        if sitting is not None and sitting.status != "withdrawn":
            raise RuleViolation(
                "seat",
                "%(name)s sits there and has not withdrawn: a substitute takes a withdrawn "
                "player's seat",
                name=sitting.name,
            )
    elif mover[1].id == target.id and mover[2] == body["seat"]:
        return _console_of(tournament, streams, result_rules.STALE_MINUTES)  # there already
    changed = {target.id: target} if mover is None else {target.id: target, mover[1].id: mover[1]}
    locked = {table_id: lock_table(table_id) for table_id in sorted(changed)}
    for table in locked.values():
        if table.hands_recorded:
            raise SeriesStarted(
                N_("The table has played its first hand: seats move only before it."),
            )
        if table.status != "open":
            raise SeriesStarted(N_("The table is closed."))
    if mover is None:
        tournaments.check_in_locked(tournament, entrant)
        assert entrant.player_id is not None
        if db.session.get(ClubNightPlayerRow, (tournament.night_id, entrant.player_id)) is None:
            db.session.add(
                ClubNightPlayerRow(
                    night_id=tournament.night_id, player_id=entrant.player_id, present=True
                )
            )
    seats = {table_id: [s.player_id for s in table.seats] for table_id, table in locked.items()}
    if mover is None:
        assert entrant.player_id is not None
        seats[target.id][body["seat"]] = entrant.player_id
    else:
        assert entrant.player_id is not None  # seated, so checked in
        seats[mover[1].id][mover[2]] = sitting_id
        seats[target.id][body["seat"]] = entrant.player_id
    for table_id, table in locked.items():
        _rewrite_seats(principal, table, seats[table_id])
    tournament.version += 1
    db.session.commit()
    return _console_of(tournament, streams, result_rules.STALE_MINUTES)


def _rewrite_seats(principal: Principal, table: TableRow, seats: list[str]) -> None:
    """The table (no hand played) seated anew: its seats rewritten (a player sits at a table
    once: a swap in place would break that half-way), kept in its seating history, a new
    version and a ``table.reseated`` event for its phones."""
    before = [s.player_id for s in table.seats]
    players = {
        p.id: p for p in db.session.scalars(select(PlayerRow).where(PlayerRow.id.in_(seats)))
    }
    table.seats.clear()
    db.session.flush()
    table.seats = [
        SeatRow(seat=seat, player_id=pid, balance=0, player=players[pid])
        for seat, pid in enumerate(seats)
    ]
    table.version += 1
    db.session.add(
        SeatingChangeRow(
            table_id=table.id,
            changed_at=utcnow(),
            token_id=principal.token_id,
            token_kind=principal.kind,
            seats_before=before,
            first_dealer_before=table.first_dealer,
            seats_after=list(seats),
            first_dealer_after=table.first_dealer,
            resettled=0,
            version=table.version,
        )
    )
    db.session.flush()
    record_change(table.club_id, "table.reseated", table.id, table.version, resettled=0)
