"""Open tournaments: hosted by a club, registered for through a public link, checked in on
the day, played in series as a club night of the host (the night's draw, tables, cards and
standings), and paid out by a prize table (docs/tournaments.md).

Who may do what: the host club's admin token runs it (creates, changes, lists and checks in
the entrants, draws, reads the cash sheet); its read-only tokens read the tournament and its
standings; the registration link's token registers, and reads nothing.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from babel.numbers import get_currency_precision
from sqlalchemy import func, select

from .. import rules
from ..extensions import db
from ..i18n import gettext
from ..i18n.marks import N_
from ..persistence.columns import NAME_MAX, rfc3339, utcnow
from ..persistence.nights import ClubNightRow
from ..persistence.table_keeping import ClubRow, HandRow, PlayerRow
from ..persistence.tournaments import ENTRANT_STATUSES, EntrantRow, TournamentRow
from ..rules import RuleViolation
from ..rules import tournament as prize_rules
from . import league, nights, spreadsheet, tables
from .auth import Principal, bearer_token, new_id, require_club_admin
from .errors import Conflict, Forbidden, NameTaken, NotFound, Unauthorized, conflict_on_duplicate
from .league.tally import HAND_COUNTERS, tally_hand
from .locking import begin_write
from .outbox import record_change
from .table_results import confirmed_tables
from .table_rules import TableRules
from .table_settings import change_settings

HOLDING_A_PLACE = ("registered", "checked_in")
LOST = HAND_COUNTERS.index("lost")
ROUNDING = "shares-largest-remainder-rest-to-host"
"""How the prizes are rounded (``rules.tournament``): the shares of the fees to the cent by the
largest remainder, what the prizes leave with the host; equal ranks split their places'."""


class RegistrationClosed(Conflict):
    problem = "registration-closed"


class NoPlaceFree(Conflict):
    """The tournament's cap is reached: an entrant waits for a place."""

    problem = "no-place-free"


# --- reading --------------------------------------------------------------------------------


def _tournament(tournament_id: str) -> TournamentRow:
    tournament = db.session.get(TournamentRow, tournament_id)
    if tournament is None:
        raise NotFound(
            N_("No tournament %(tournament)s."), values={"tournament": repr(tournament_id)}
        )
    return tournament


def _night_of(tournament: TournamentRow) -> ClubNightRow:
    night = db.session.get(ClubNightRow, tournament.night_id)
    assert night is not None  # a tournament's night goes only with it (cascade)
    return night


def readable_tournament(principal: Principal, tournament_id: str) -> TournamentRow:
    """The tournament, for its host club's admin or read-only token."""
    tournament = _tournament(tournament_id)
    if principal.club_id != tournament.club_id or principal.kind not in ("admin", "viewer"):
        raise Forbidden(N_("This needs the host club's admin or read-only token."))
    return tournament


def _counts(tournament_id: str) -> dict[str, int]:
    found = {
        status: count
        for status, count in db.session.execute(
            select(EntrantRow.status, func.count())
            .where(EntrantRow.tournament_id == tournament_id)
            .group_by(EntrantRow.status)
        )
    }
    return {status: found.get(status, 0) for status in ENTRANT_STATUSES}


def tournament_view(tournament: TournamentRow, principal: Principal) -> dict[str, Any]:
    night = _night_of(tournament)
    view = nights.night_view(night)
    return {
        "id": tournament.id,
        "club_id": tournament.club_id,
        "night_id": night.id,
        "name": night.name,
        "variant": night.variant,
        "units": view["units"],
        "options": tournament.options,
        "table_sizes": tournament.table_sizes,
        "hands_per_series": night.hands_per_series,
        "series_planned": night.series_planned,
        "series_drawn": len(view["series"]),
        "next_series": view["next_series"],
        "entry_fee_cents": tournament.entry_fee_cents,
        "loss_fee_cents": tournament.loss_fee_cents,
        "currency": tournament.currency,
        "cap": tournament.cap,
        "prizes": tournament.prizes,
        "scoring": tournament.scoring,
        "tie_breaks": list(prize_rules.TIE_BREAKS[tournament.scoring]),
        "season_id": night.season_id,
        "registration_open": tournament.registration_open,
        "registration_token": tournament.registration_token if principal.is_admin else None,
        **public_settings(tournament),
        "entrants": _counts(tournament.id),
        "status": night.status,
        "version": tournament.version,
        "created_at": rfc3339(tournament.created_at),
    }


def get_tournament(principal: Principal, tournament_id: str) -> dict[str, Any]:
    return tournament_view(readable_tournament(principal, tournament_id), principal)


def _changed(tournament: TournamentRow, changed: str | list[str], **data: Any) -> None:
    """The tournament's new version, and its club's event saying what changed (ids and
    statuses only: an entrant's name and contact never go into an event, which every reader of
    the club's changes sees)."""
    tournament.version += 1
    record_change(
        tournament.club_id, "tournament.changed", tournament=tournament.id, changed=changed, **data
    )


# --- the tournament's settings --------------------------------------------------------------


def public_settings(tournament: TournamentRow) -> dict[str, Any]:
    """The public results' settings, as the tournament's answers show them."""
    return {
        "public_results": tournament.public_results,
        "public_prizes": tournament.public_prizes,
        "public_id": tournament.public_id,
    }


def publish(tournament: TournamentRow, changes: Mapping[str, Any]) -> None:
    """The director publishes the results (``public_results``: their address, made at the
    first publishing, answers) or takes them back (404, the address kept for the next time);
    ``public_prizes``: whether they show the prize places."""
    if "public_results" in changes:
        tournament.public_results = changes["public_results"]
        if tournament.public_results and tournament.public_id is None:
            tournament.public_id = secrets.token_urlsafe(12)
    if "public_prizes" in changes:
        tournament.public_prizes = changes["public_prizes"]


def table_sizes_of(variant: rules.Variant, sizes: Sequence[int] | None) -> list[int]:
    """The table sizes a tournament's draws use, sorted (None: every size the game allows),
    or a RuleViolation naming ``table_sizes…``."""
    if sizes is None:
        return sorted(variant.player_counts)
    if not sizes:
        raise RuleViolation("table_sizes", "a tournament needs at least one table size")
    if len(set(sizes)) != len(sizes):
        raise RuleViolation("table_sizes", "each table size is listed only once")
    for index, size in enumerate(sizes):
        if size not in variant.player_counts:
            raise RuleViolation(
                f"table_sizes.{index}",
                "%(variant)s is played by %(allowed)s players",
                variant=rules.Phrase(variant.title),
                allowed=tables.either(variant.player_counts),
            )
    return sorted(sizes)


def create_tournament(
    principal: Principal, club_id: str, body: Mapping[str, Any]
) -> dict[str, Any]:
    """A new tournament hosted by the club (admin token), with its night (no series drawn
    yet) and its registration link, open."""
    begin_write()
    if db.session.get(ClubRow, club_id) is None:
        raise NotFound(N_("No club %(club)s."), values={"club": repr(club_id)})
    require_club_admin(principal, club_id)
    variant = rules.get_variant(body["variant"])
    sizes = table_sizes_of(variant, body["table_sizes"])
    options = dict(body["options"] or {})
    tables.check_table_options(variant, sizes, options)
    prize_table = prize_rules.parse_prize_table(body["prizes"])
    prize_rules.check_scoring(body["scoring"])
    league.check_season_for_table(club_id, variant.name, body["season_id"])
    night = nights.add_night(
        club_id,
        body["name"],
        variant.name,
        body["hands_per_series"],
        body["series"],
        body["season_id"],
    )
    tournament = TournamentRow(
        id=new_id(),
        club_id=club_id,
        night_id=night.id,
        options=options,
        table_sizes=sizes,
        entry_fee_cents=body["entry_fee_cents"],
        loss_fee_cents=body["loss_fee_cents"],
        currency=body["currency"] or tables.club_currency(club_id),
        cap=body["cap"],
        prizes=prize_rules.prize_table_json(prize_table),
        scoring=body["scoring"],
        registration_token=secrets.token_urlsafe(32),
        registration_open=True,
        version=1,
    )
    db.session.add(tournament)
    record_change(club_id, "tournament.created", tournament=tournament.id, night=night.id)
    db.session.commit()
    return tournament_view(tournament, principal)


def lock_tournament(principal: Principal | None, tournament_id: str) -> TournamentRow:
    """The tournament, locked for this transaction: every change of it or of its entrants
    takes this lock first, so that the cap and the waiting list's order hold under races.
    ``principal``: its host's admin token (None: the registration link, checked by the
    caller)."""
    begin_write()
    tournament = db.session.scalar(
        select(TournamentRow).where(TournamentRow.id == tournament_id).with_for_update()
    )
    if tournament is None:
        raise NotFound(
            N_("No tournament %(tournament)s."), values={"tournament": repr(tournament_id)}
        )
    if principal is not None:
        require_club_admin(principal, tournament.club_id)
    return tournament


def update_tournament(
    principal: Principal, tournament_id: str, changes: Mapping[str, Any]
) -> dict[str, Any]:
    """Change the tournament (admin token): its name, cap, entry fee, prize table, scoring,
    whether registration is open, a new registration link (the old one stops); its game's
    settings (options, table sizes, hands per series, series) until its first draw. A cap
    raised moves the waiting list up."""
    tournament = lock_tournament(principal, tournament_id)
    night = _night_of(tournament)
    drawn = nights.night_view(night)["series"]
    variant = rules.get_variant(night.variant)
    game = ("options", "table_sizes", "hands_per_series", "series")
    for field in game:
        if field in changes and drawn:
            raise RuleViolation(field, "cannot change once the first series is drawn")
    if "name" in changes:
        night.name = changes["name"]
    if "table_sizes" in changes:
        tournament.table_sizes = table_sizes_of(variant, changes["table_sizes"])
    if "options" in changes:
        options = dict(changes["options"] or {})
        tables.check_table_options(variant, tournament.table_sizes, options)
        tournament.options = options
    if "hands_per_series" in changes:
        night.hands_per_series = changes["hands_per_series"]
    if "series" in changes:
        night.series_planned = changes["series"]
    if "entry_fee_cents" in changes:
        tournament.entry_fee_cents = changes["entry_fee_cents"]
    if "loss_fee_cents" in changes:
        tournament.loss_fee_cents = changes["loss_fee_cents"]
    if "prizes" in changes:
        table = prize_rules.parse_prize_table(changes["prizes"])
        tournament.prizes = prize_rules.prize_table_json(table)
    if "scoring" in changes:
        tournament.scoring = prize_rules.check_scoring(changes["scoring"])
    if "season_id" in changes:
        _count_in_season(principal, night, changes["season_id"])
    if "registration_open" in changes:
        tournament.registration_open = changes["registration_open"]
    if changes.get("new_registration_link"):
        tournament.registration_token = secrets.token_urlsafe(32)
    publish(tournament, changes)
    if "cap" in changes:
        holding = _holding_a_place(tournament.id)
        if changes["cap"] is not None and changes["cap"] < holding:
            raise RuleViolation(
                "cap",
                "must be at least the places held already (%(count)s): withdraw someone first",
                count=holding,
            )
        tournament.cap = changes["cap"]
        _move_up(tournament)
    said = sorted(
        "registration_link" if field == "new_registration_link" else field for field in changes
    )
    if said:
        _changed(tournament, said)
    night.version += 1
    db.session.commit()
    return tournament_view(tournament, principal)


def _count_in_season(principal: Principal, night: ClubNightRow, season_id: str | None) -> None:
    """The tournament's results counted in the host club's season ``season_id`` (None: in
    none), as the director chooses, before, during or after it: its night's season, which every
    table it draws opens in, and each table it drew already moved there as ``updateTable`` moves
    one (its change logged, the standings and ratings of both seasons following)."""
    if season_id == night.season_id:
        return
    league.check_season_for_table(night.club_id, night.variant, season_id)
    night.season_id = season_id
    for _, table in nights.night_tables(night.id):
        change_settings(principal, table.id, season_id=season_id, commit=False)


# --- entrants -------------------------------------------------------------------------------


def _holding_a_place(tournament_id: str) -> int:
    return (
        db.session.scalar(
            select(func.count())
            .select_from(EntrantRow)
            .where(
                EntrantRow.tournament_id == tournament_id, EntrantRow.status.in_(HOLDING_A_PLACE)
            )
        )
        or 0
    )


def _place_free(tournament: TournamentRow) -> bool:
    return tournament.cap is None or _holding_a_place(tournament.id) < tournament.cap


def _move_up(tournament: TournamentRow) -> None:
    """The first of the waiting list take the places free, in the order they registered."""
    while _place_free(tournament):
        first = db.session.scalar(
            select(EntrantRow)
            .where(EntrantRow.tournament_id == tournament.id, EntrantRow.status == "waiting")
            .order_by(EntrantRow.number)
            .limit(1)
        )
        if first is None:
            return
        first.status = "registered"
        db.session.flush()


def _next_number(tournament_id: str) -> int:
    last = db.session.scalar(
        select(func.max(EntrantRow.number)).where(EntrantRow.tournament_id == tournament_id)
    )
    return (last or 0) + 1


def _waiting_positions(tournament_id: str) -> dict[str, int]:
    waiting = db.session.scalars(
        select(EntrantRow.id)
        .where(EntrantRow.tournament_id == tournament_id, EntrantRow.status == "waiting")
        .order_by(EntrantRow.number)
    )
    return {entrant_id: position for position, entrant_id in enumerate(waiting, start=1)}


def entrant_view(
    entrant: EntrantRow, waiting: Mapping[str, int], *, contact: bool
) -> dict[str, Any]:
    return {
        "id": entrant.id,
        "number": entrant.number,
        "name": entrant.name,
        "display_name": prize_rules.display_name(entrant.name, entrant.display),
        "display": entrant.display,
        "club": entrant.club,
        "contact": entrant.contact if contact else None,
        "player_id": entrant.player_id,
        "status": entrant.status,
        "waiting_position": waiting.get(entrant.id),
        "registered_at": rfc3339(entrant.registered_at),
        "checked_in_at": rfc3339(entrant.checked_in_at),
        "withdrawn_at": rfc3339(entrant.withdrawn_at),
    }


def _enter(
    tournament: TournamentRow, entry: Mapping[str, Any], player_id: str | None
) -> EntrantRow:
    """A new entrant: a place while the cap allows, the waiting list's end otherwise."""
    if player_id is not None:
        player = db.session.get(PlayerRow, player_id)
        if player is None or player.club_id != tournament.club_id:
            raise RuleViolation(
                "player_id", "no player %(player)s in this club", player=repr(player_id)
            )
        entered = db.session.scalar(
            select(EntrantRow.id).where(
                EntrantRow.tournament_id == tournament.id, EntrantRow.player_id == player_id
            )
        )
        if entered is not None:
            raise RuleViolation("player_id", "%(name)s has entered already", name=player.name)
    entrant = EntrantRow(
        id=new_id(),
        tournament_id=tournament.id,
        number=_next_number(tournament.id),
        name=entry["name"],
        club=entry["club"],
        contact=entry["contact"],
        display=entry["display"],
        player_id=player_id,
        status="registered" if _place_free(tournament) else "waiting",
        registered_at=utcnow(),
    )
    db.session.add(entrant)
    db.session.flush()
    return entrant


def _require_link(tournament: TournamentRow, authorization: str | None) -> None:
    """Unauthorized unless ``authorization`` carries the tournament's registration link."""
    token = bearer_token(authorization)
    if token is None or not hmac.compare_digest(
        token.encode(), tournament.registration_token.encode()
    ):
        raise Unauthorized(
            N_("This is not the tournament's registration link: ask its director for the link.")
        )


def registration_scope(tournament_id: str, authorization: str | None) -> str:
    """Who registers, for the Idempotency-Key's scope: the holders of the tournament's
    current link (Unauthorized for anyone else, NotFound for no tournament)."""
    _require_link(_tournament(tournament_id), authorization)
    return f"link:{tournament_id}"  # within the 40 characters of a key's scope


def register(
    tournament_id: str, authorization: str | None, entry: Mapping[str, Any]
) -> dict[str, Any]:
    """A player registers through the tournament's public link (its token, no club's): a
    place while the cap allows, the waiting list otherwise. The answer is the entry, with its
    place on the waiting list."""
    tournament = lock_tournament(None, tournament_id)
    _require_link(tournament, authorization)
    if not tournament.registration_open or _night_of(tournament).status == "closed":
        raise RegistrationClosed(N_("Registration for this tournament is closed."))
    entrant = _enter(tournament, entry, None)
    _changed(tournament, "entrants", entrant=entrant.id, status=entrant.status)
    db.session.commit()
    return entrant_view(entrant, _waiting_positions(tournament.id), contact=True)


def add_entrant(
    principal: Principal,
    tournament_id: str,
    entry: Mapping[str, Any],
    player_id: str | None,
    check_in: bool,
) -> dict[str, Any]:
    """The director enters a player (admin token): a member picked from the host club's
    players (``player_id``) or a guest; ``check_in``: a late entry on the day, checked in at
    once (refused, nothing stored, when no place is free)."""
    tournament = lock_tournament(principal, tournament_id)
    entrant = _enter(tournament, entry, player_id)
    if check_in:
        _check_in(tournament, entrant)
    _changed(tournament, "entrants", entrant=entrant.id, status=entrant.status)
    db.session.commit()
    return entrant_view(entrant, _waiting_positions(tournament.id), contact=True)


def list_entrants(
    principal: Principal, tournament_id: str, status: str | None
) -> list[dict[str, Any]]:
    """The entrants in the order they registered (admin token), or those of one ``status``."""
    tournament = _tournament(tournament_id)
    require_club_admin(principal, tournament.club_id)
    query = select(EntrantRow).where(EntrantRow.tournament_id == tournament.id)
    if status is not None:
        query = query.where(EntrantRow.status == status)
    waiting = _waiting_positions(tournament.id)
    return [
        entrant_view(e, waiting, contact=True)
        for e in db.session.scalars(query.order_by(EntrantRow.number))
    ]


def _guest_name(club_id: str, entrant: EntrantRow) -> str:
    """The host club's name for a guest: the guest's own, or, where a player of the club has
    it already, with the guest's club (or a number) beside it."""
    base = entrant.name
    candidates = [base]
    if entrant.club:
        candidates.append(f"{base} ({entrant.club})")
    candidates += [f"{base} ({n})" for n in range(2, 1000)]
    for candidate in candidates:
        if len(candidate) > NAME_MAX:
            suffix = candidate[len(base) :]
            candidate = base[: NAME_MAX - len(suffix)] + suffix
        taken = db.session.scalar(
            select(PlayerRow.id).where(PlayerRow.club_id == club_id, PlayerRow.name == candidate)
        )
        if taken is None:
            return candidate
    raise Conflict(N_("The host club has too many players of this name."))


def _check_in(tournament: TournamentRow, entrant: EntrantRow) -> None:
    """Check the entrant in (the fee taken): a guest becomes a player of the host club."""
    if entrant.status == "checked_in":
        return
    if entrant.status != "registered" and not _place_free(tournament):
        raise NoPlaceFree(
            N_(
                "No place is free: every place of the cap (%(cap)s) is held. Raise the cap, "
                "or withdraw someone."
            ),
            values={"cap": tournament.cap},
        )
    if entrant.player_id is None:
        player = PlayerRow(
            id=new_id(), club_id=tournament.club_id, name=_guest_name(tournament.club_id, entrant)
        )
        db.session.add(player)
        # A name that another request gave the host club meanwhile (PostgreSQL lets two such
        # writes race to the unique name): 409, nothing stored.
        with conflict_on_duplicate(
            N_("The host club was given a player of this name meanwhile: try again."), NameTaken
        ):
            db.session.flush()
        entrant.player_id = player.id
    entrant.status = "checked_in"
    entrant.checked_in_at = utcnow()
    entrant.withdrawn_at = None
    db.session.flush()


def check_in_locked(tournament: TournamentRow, entrant: EntrantRow) -> None:
    """Check the entrant in, the tournament locked already (``lock_tournament``): a
    substitute seated by the director (``tournament_results.seat_entrant``)."""
    _check_in(tournament, entrant)


def change_entrant(
    principal: Principal, tournament_id: str, entrant_id: str, status: str
) -> dict[str, Any]:
    """The director checks an entrant in (one call per player), takes a check-in back
    (``registered``), or withdraws the entry (between series: the next draw leaves it out,
    its series so far stay in the standings); a withdrawal from a place moves the first of the
    waiting list up (admin token)."""
    tournament = lock_tournament(principal, tournament_id)
    entrant = db.session.get(EntrantRow, entrant_id)
    if entrant is None or entrant.tournament_id != tournament.id:
        raise NotFound(
            N_("The tournament has no entrant %(entrant)s."), values={"entrant": repr(entrant_id)}
        )
    if status == "checked_in":
        _check_in(tournament, entrant)
    elif status == "withdrawn":
        if entrant.status != "withdrawn":
            entrant.status = "withdrawn"
            entrant.withdrawn_at = utcnow()
            db.session.flush()
            _move_up(tournament)
    elif entrant.status == "checked_in":  # "registered": the check-in taken back
        entrant.status = "registered"
        entrant.checked_in_at = None
    elif entrant.status == "withdrawn":  # "registered": entered again, at the list's end
        # Both read before any change: a query's autoflush must not write half of it.
        number, free = _next_number(tournament.id), _place_free(tournament)
        entrant.number = number
        entrant.status = "registered" if free else "waiting"
        entrant.withdrawn_at = None
        entrant.checked_in_at = None
    _changed(tournament, "entrants", entrant=entrant.id, status=entrant.status)
    db.session.commit()
    return entrant_view(entrant, _waiting_positions(tournament.id), contact=True)


# --- series ---------------------------------------------------------------------------------


def draw_series(
    principal: Principal, tournament_id: str, seed: int | None, early: bool = False
) -> dict[str, Any]:
    """Draw the tournament's next series (admin token): the entrants checked in are seated,
    by the club night's draw (reproducible from its seed, avoiding earlier tablemates), at
    tables of the tournament's sizes, each opened with its options."""
    tournament = lock_tournament(principal, tournament_id)
    night = nights.lock_night(principal, tournament.night_id)
    playing = db.session.scalars(
        select(EntrantRow.player_id).where(
            EntrantRow.tournament_id == tournament.id, EntrantRow.status == "checked_in"
        )
    ).all()
    nights.set_present(night, [p for p in playing if p is not None])
    _changed(tournament, "series")
    return {
        **nights.draw_locked(
            principal,
            night,
            seed,
            early,
            allowed=tournament.table_sizes,
            options=tournament.options,
        ),
        "tournament_id": tournament.id,
    }


# --- standings, prizes, cash ----------------------------------------------------------------


def _entrants_by_player(tournament_id: str) -> dict[str, EntrantRow]:
    return {
        e.player_id: e
        for e in db.session.scalars(
            select(EntrantRow).where(
                EntrantRow.tournament_id == tournament_id, EntrantRow.player_id.is_not(None)
            )
        )
        if e.player_id is not None
    }


def standings_of(tournament: TournamentRow) -> dict[str, Any]:
    """The tournament's standings as of now: each entrant who has played (or is checked in)
    with the series played (the night's, from its tables; each says whether its table's
    result is confirmed), the total under the tournament's scoring, ranked by its named
    tie-breaks."""
    night = _night_of(tournament)
    night_standings = nights.standings_of(night)
    entrants = _entrants_by_player(tournament.id)
    confirmed = confirmed_tables(tournament)
    scoring = tournament.scoring
    # Each table's place points, from its players' results there (the game's own).
    at_table: dict[tuple[int, int], list[tuple[str, int]]] = {}
    for night_line in night_standings["standings"]:
        for result in night_line["series"]:
            if result is not None:
                key = (result["series"], result["table"])
                at_table.setdefault(key, []).append((night_line["player_id"], result["result"]))
    points: dict[tuple[int, int, str], int] = {}
    for (number, table), seated in at_table.items():
        earned = prize_rules.place_points([result for _, result in seated])
        for (player_id, _), player_points in zip(seated, earned, strict=True):
            points[(number, table, player_id)] = player_points
    lines = []
    for night_line in night_standings["standings"]:
        entrant = entrants.get(night_line["player_id"])
        if entrant is None:
            continue  # a player of the night who is no entrant: none, but for safety
        series: list[dict[str, Any] | None] = []
        for result in night_line["series"]:
            if result is None:
                series.append(None)
                continue
            at_its_table = points[(result["series"], result["table"], night_line["player_id"])]
            series.append(
                {
                    **result,
                    "place_points": at_its_table,
                    "confirmed": (result["series"], result["table"]) in confirmed,
                }
            )
        place_points = sum(s["place_points"] for s in series if s is not None)
        lines.append(
            {
                "entrant_id": entrant.id,
                "player_id": night_line["player_id"],
                "name": entrant.name,
                "display_name": prize_rules.display_name(entrant.name, entrant.display),
                "club": entrant.club,
                "status": entrant.status,
                "total": place_points if scoring == "place_points" else night_line["total"],
                "result": night_line["total"],
                "place_points": place_points,
                "series_won": night_line["series_won"],
                "best": night_line["best"],
                "series": series,
            }
        )
    lines.sort(
        key=lambda line: (
            tuple(-v for v in prize_rules.strength(line, scoring)),
            line["name"],
            line["entrant_id"],
        )
    )
    ranks = prize_rules.shared_ranks([prize_rules.strength(line, scoring) for line in lines])
    for line, rank in zip(lines, ranks, strict=True):
        line["rank"] = rank
    return {
        "tournament_id": tournament.id,
        "status": night.status,
        "units": night_standings["units"],
        "scoring": scoring,
        "tie_breaks": list(prize_rules.TIE_BREAKS[scoring]),
        "standings": lines,
        # The night's own standings (its series and tables' progress), for the public results;
        # the answers' schemas leave it out.
        "night": night_standings["night"],
    }


def tournament_standings(principal: Principal, tournament_id: str) -> dict[str, Any]:
    return standings_of(readable_tournament(principal, tournament_id))


def lost_games(night_id: str) -> dict[str, int]:
    """Each player's games lost as declarer at the night's tables, as the league counts them
    (``league.tally``'s ``lost``: the declarer's only; drawn and void hands none)."""
    lost: dict[str, int] = {}
    for _, table in nights.night_tables(night_id):
        table_rules = TableRules.of(table)
        player_of = {seat.seat: seat.player_id for seat in table.seats}
        recorded = db.session.scalars(
            select(HandRow).where(HandRow.table_id == table.id, HandRow.status == "recorded")
        )
        for hand in recorded:
            settlement = hand.settlement or {}
            league_hand = table_rules.variant.league_hand(
                hand.record, table.players, table_rules.options, settlement.get("result")
            )
            for seat, tally in enumerate(tally_hand(league_hand, settlement, table.players)):
                if tally.counters[LOST]:
                    lost[player_of[seat]] = lost.get(player_of[seat], 0) + tally.counters[LOST]
    return lost


def prizes_and_cash(principal: Principal, tournament_id: str) -> dict[str, Any]:
    """The prize list (the standings' ranks with the prize table's amounts for the money
    taken) and the host's cash sheet (admin token). ``final`` once the night is closed."""
    tournament = _tournament(tournament_id)
    require_club_admin(principal, tournament.club_id)
    return prizes_of(tournament)


def prizes_of(
    tournament: TournamentRow, standings: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``prizes_and_cash`` of a tournament already read (and of its ``standings``, when they
    are made already: the public results)."""
    paying = (
        db.session.scalar(
            select(func.count())
            .select_from(EntrantRow)
            .where(EntrantRow.tournament_id == tournament.id, EntrantRow.checked_in_at.is_not(None))
        )
        or 0
    )
    standings = standings_of(tournament) if standings is None else standings
    lines = standings["standings"]
    lost = lost_games(tournament.night_id) if tournament.loss_fee_cents else {}
    taken = prize_rules.cash_sheet(
        tournament.entry_fee_cents, paying, (), tournament.loss_fee_cents, sum(lost.values())
    ).taken_cents
    paid = prize_rules.prizes(prize_rules.parse_prize_table(tournament.prizes), taken)
    amounts = prize_rules.prize_list([line["rank"] for line in lines], paid)
    sheet = prize_rules.cash_sheet(
        tournament.entry_fee_cents,
        paying,
        amounts,
        tournament.loss_fee_cents,
        sum(lost.values()),
    )
    return {
        "tournament_id": tournament.id,
        "currency": tournament.currency,
        "final": standings["status"] == "closed",
        "rounding": ROUNDING,
        "places": [{"place": place, "cents": cents} for place, cents in enumerate(paid, start=1)],
        "prize_list": [
            {
                "rank": line["rank"],
                "entrant_id": line["entrant_id"],
                "name": line["name"],
                "club": line["club"],
                "cents": cents,
            }
            for line, cents in zip(lines, amounts, strict=True)
            if cents
        ],
        "losses": [
            {
                "entrant_id": line["entrant_id"],
                "name": line["name"],
                "lost_games": lost[line["player_id"]],
                "cents": lost[line["player_id"]] * tournament.loss_fee_cents,
            }
            for line in lines
            if lost.get(line["player_id"])
        ],
        "cash_sheet": {
            "entry_fee_cents": sheet.entry_fee_cents,
            "paying": sheet.paying,
            "fees_cents": sheet.fees_cents,
            "loss_fee_cents": sheet.loss_fee_cents,
            "lost_games": sheet.lost_games,
            "losses_cents": sheet.losses_cents,
            "prizes_cents": sheet.prizes_cents,
            "remains_cents": sheet.remains_cents,
        },
    }


# The ranking's columns in German and Spanish (English: their API names).
_RANKING_WORDS = {
    "rank": N_("Rank"),
    "name": N_("Player"),
    "club": N_("Club"),
    "total": N_("Total"),
    "prize": N_("Prize"),
    "currency": N_("Currency"),
}


def ranking_csv(principal: Principal, tournament_id: str, language: str = "en") -> str:
    """The ranking list with its prizes as CSV in ``language`` (``spreadsheet.csv_text``):
    rank, name, club, each series' total under the scoring, the total, the prize as an amount
    of the currency ("12.50"; 0 for none) and the currency (admin token, as the prizes)."""
    paid = prizes_and_cash(principal, tournament_id)
    board = standings_of(_tournament(tournament_id))
    drawn = max((len(line["series"]) for line in board["standings"]), default=0)
    columns = ["rank", "name", "club", *(f"series_{n}" for n in range(1, drawn + 1))]
    columns += ["total", "prize", "currency"]
    header = (
        columns
        if language == "en"
        else [
            gettext(N_("S%(number)s"), language, number=c.removeprefix("series_"))
            if c.startswith("series_")
            else gettext(_RANKING_WORDS[c], language)
            for c in columns
        ]
    )
    places = Decimal(10) ** -get_currency_precision(paid["currency"])
    prizes = {line["entrant_id"]: line["cents"] for line in paid["prize_list"]}
    counted = "place_points" if board["scoring"] == "place_points" else "result"
    rows = [
        [
            line["rank"],
            line["name"],
            line["club"],
            *(None if s is None else s[counted] for s in line["series"]),
            line["total"],
            (Decimal(prizes.get(line["entrant_id"], 0)) * places).quantize(places),
            paid["currency"],
        ]
        for line in board["standings"]
    ]
    return spreadsheet.csv_text(header, rows, language)


def list_tournaments(principal: Principal, club_id: str) -> list[dict[str, Any]]:
    """The club's tournaments, the newest first (its admin or read-only token)."""
    if principal.club_id != club_id or principal.kind not in ("admin", "viewer"):
        raise Forbidden(N_("This needs the host club's admin or read-only token."))
    hosted = db.session.scalars(
        select(TournamentRow)
        .where(TournamentRow.club_id == club_id)
        .order_by(TournamentRow.created_at.desc(), TournamentRow.id)
    )
    return [tournament_view(tournament, principal) for tournament in hosted]
