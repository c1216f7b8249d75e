"""Club nights: start one, change who is present, draw each series' seats (opening its
tables), read it, close it. Who may do what is in docs/league.md: the club's admin token
writes; its read-only tokens, and the tokens of the night's own tables, read."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from ... import rules
from ...extensions import db
from ...i18n.marks import N_
from ...persistence.columns import NAME_MAX, aware, rfc3339, utcnow
from ...persistence.nights import (
    MAX_NIGHT_PLAYERS,
    SEED_MAX,
    ClubNightPlayerRow,
    ClubNightRow,
    ClubNightSeriesRow,
    ClubNightTableRow,
)
from ...persistence.table_keeping import ClubRow, PlayerRow, TableRow, TokenRow
from ...persistence.tournaments import TournamentRow
from ...rules import Phrase, RuleViolation, seat_draw
from .. import league, tables
from ..auth import (
    Principal,
    hash_token,
    issue_token,
    new_id,
    require_club_admin,
    revoke_tokens,
)
from ..clubs import get_club
from ..errors import Conflict, Forbidden, NameTaken, NotFound, TableClosed, conflict_on_duplicate
from ..locking import begin_write, lock_table
from ..outbox import record_change
from ..table_settings import UNSET


class NightClosed(Conflict):
    problem = "night-closed"


class NightTablesPending(Conflict):
    """A table of the night has not played the hands its series has."""

    problem = "night-tables-pending"


# --- reading --------------------------------------------------------------------------------


def _night(night_id: str) -> ClubNightRow:
    night = db.session.get(ClubNightRow, night_id)
    if night is None:
        raise NotFound(N_("No club night %(night)s."), values={"night": repr(night_id)})
    return night


def night_tables(night_id: str) -> list[tuple[ClubNightTableRow, TableRow]]:
    """The night's tables with their rows, by series and table number."""
    return [
        (link, table)
        for link, table in db.session.execute(
            select(ClubNightTableRow, TableRow)
            .join(TableRow, TableRow.id == ClubNightTableRow.table_id)
            .where(ClubNightTableRow.night_id == night_id)
            .order_by(ClubNightTableRow.series, ClubNightTableRow.number)
        )
    ]


def require_night_reader(principal: Principal, night: ClubNightRow) -> None:
    """The club's admin and read-only tokens, and the token of a table of the night."""
    if principal.reads_club(night.club_id):
        return
    if principal.kind == "table" and principal.club_id == night.club_id:
        found = db.session.scalar(
            select(ClubNightTableRow.table_id).where(
                ClubNightTableRow.night_id == night.id,
                ClubNightTableRow.table_id == principal.table_id,
            )
        )
        if found is not None:
            return
    raise Forbidden(
        N_(
            "This needs the club's admin or read-only token, or the token of one of the "
            "night's tables."
        )
    )


def readable_night(principal: Principal, night_id: str) -> ClubNightRow:
    night = _night(night_id)
    require_night_reader(principal, night)
    return night


def night_players(night_id: str) -> list[tuple[ClubNightPlayerRow, PlayerRow]]:
    """The night's players with their presence, by name."""
    return [
        (row, player)
        for row, player in db.session.execute(
            select(ClubNightPlayerRow, PlayerRow)
            .join(PlayerRow, PlayerRow.id == ClubNightPlayerRow.player_id)
            .where(ClubNightPlayerRow.night_id == night_id)
            .order_by(PlayerRow.name, PlayerRow.id)
        )
    ]


def _table_view(link: ClubNightTableRow, table: TableRow) -> dict[str, Any]:
    return {
        "number": link.number,
        "table_id": table.id,
        "name": table.name,
        "status": table.status,
        "hands_played": table.hands_played,
        "hands_limit": table.hands_limit,
        "series_ends_at": rfc3339(table.series_ends_at),
        "first_dealer": table.first_dealer,
        "dealer": table.state["dealer"],
        "seats": [{"seat": s.seat, "player_id": s.player_id, "name": s.name} for s in table.seats],
    }


def _series_views(night: ClubNightRow) -> list[dict[str, Any]]:
    drawn = db.session.scalars(
        select(ClubNightSeriesRow)
        .where(ClubNightSeriesRow.night_id == night.id)
        .order_by(ClubNightSeriesRow.number)
    ).all()
    by_series: dict[int, list[dict[str, Any]]] = {s.number: [] for s in drawn}
    for link, table in night_tables(night.id):
        by_series[link.series].append(_table_view(link, table))
    return [
        {
            "number": s.number,
            "seed": s.seed,
            "drawn_at": rfc3339(s.drawn_at),
            "tables": by_series[s.number],
        }
        for s in drawn
    ]


def tournament_of(night_id: str) -> str | None:
    """The id of the tournament that plays as the night, if one does."""
    return db.session.scalar(select(TournamentRow.id).where(TournamentRow.night_id == night_id))


def night_view(night: ClubNightRow) -> dict[str, Any]:
    series = _series_views(night)
    next_series = len(series) + 1
    return {
        "id": night.id,
        "club_id": night.club_id,
        "name": night.name,
        "variant": night.variant,
        "units": rules.get_variant(night.variant).units,
        "season_id": night.season_id,
        "tournament_id": tournament_of(night.id),
        "rate": tables.rate_view(night),
        "fee_basis": night.fee_basis or "series",
        "hands_per_series": night.hands_per_series,
        "series_planned": night.series_planned,
        "status": night.status,
        "version": night.version,
        "created_at": rfc3339(night.created_at),
        "closed_at": rfc3339(night.closed_at),
        "players": [
            {"player_id": p.id, "name": p.name, "present": row.present}
            for row, p in night_players(night.id)
        ],
        "series": series,
        "next_series": next_series
        if night.status == "open" and next_series <= night.series_planned
        else None,
    }


def get_night(principal: Principal, night_id: str) -> dict[str, Any]:
    return night_view(readable_night(principal, night_id))


def list_nights(principal: Principal, club_id: str) -> list[dict[str, Any]]:
    """The club's nights, newest first (admin or read-only token)."""
    if db.session.get(ClubRow, club_id) is None:
        raise NotFound(N_("No club %(club)s."), values={"club": repr(club_id)})
    league.require_club_reader(principal, club_id)
    rows = db.session.scalars(
        select(ClubNightRow)
        .where(ClubNightRow.club_id == club_id)
        .order_by(ClubNightRow.created_at.desc(), ClubNightRow.id)
    )
    return [night_view(n) for n in rows]


# --- writing --------------------------------------------------------------------------------


def lock_night(principal: Principal, night_id: str, *, closed_too: bool = False) -> ClubNightRow:
    """The open night (or a closed one too), locked for this transaction (its admin token
    only)."""
    begin_write()
    night = db.session.scalar(
        select(ClubNightRow).where(ClubNightRow.id == night_id).with_for_update()
    )
    if night is None:
        raise NotFound(N_("No club night %(night)s."), values={"night": repr(night_id)})
    require_club_admin(principal, night.club_id)
    if night.status == "closed" and not closed_too:
        raise NightClosed(N_("The club night is closed."))
    return night


def _club_players(club_id: str, field: str, ids: Sequence[str]) -> list[PlayerRow]:
    """The club's players of ``ids``, in order; RuleViolation naming ``field.i`` otherwise."""
    if len(set(ids)) != len(ids):
        raise RuleViolation(field, "a player is listed only once")
    found = {
        p.id: p
        for p in db.session.scalars(
            select(PlayerRow).where(PlayerRow.club_id == club_id, PlayerRow.id.in_(ids))
        )
    }
    players = []
    for index, player_id in enumerate(ids):
        player = found.get(player_id)
        if player is None:
            raise RuleViolation(
                f"{field}.{index}", "no player %(player)s in this club", player=repr(player_id)
            )
        if player.retired_at is not None:
            raise RuleViolation(
                f"{field}.{index}",
                "%(name)s is retired; bring the player back before seating them",
                name=player.name,
            )
        players.append(player)
    return players


def _new_players(club_id: str, names: Sequence[str], taken: set[str]) -> list[PlayerRow]:
    """New players of the club, added on the spot; RuleViolation naming ``new_players.i``
    for a name the club (or the list) has already."""
    existing = set(
        db.session.scalars(
            select(PlayerRow.name).where(PlayerRow.club_id == club_id, PlayerRow.name.in_(names))
        )
    )
    made = []
    for index, name in enumerate(names):
        if name in existing or name in taken:
            raise RuleViolation(
                f"new_players.{index}",
                "the club already has a player called %(name)s: list them by id",
                name=repr(name),
            )
        taken.add(name)
        made.append(PlayerRow(id=new_id(), club_id=club_id, name=name))
    db.session.add_all(made)
    return made


def _new_names_taken() -> Any:
    """A new player's name that another request gave the club meanwhile (PostgreSQL lets two
    such writes race to the unique name): 409, nothing stored."""
    return conflict_on_duplicate(
        N_("The club already has a player of a name in new_players; list them by id."),
        NameTaken,
    )


def add_night(
    club_id: str,
    name: str,
    variant: str,
    hands_per_series: int | None,
    series: int,
    season_id: str | None = None,
) -> ClubNightRow:
    """A new open night of the club (flushed, no players yet, no rate), for its caller's
    transaction: ``start_night``'s, or a tournament's, which plays as a night."""
    night = ClubNightRow(
        id=new_id(),
        club_id=club_id,
        name=name,
        variant=variant,
        season_id=season_id,
        hands_per_series=hands_per_series,
        series_planned=series,
        status="open",
        version=1,
    )
    db.session.add(night)
    db.session.flush()
    return night


def start_night(
    principal: Principal,
    club_id: str,
    name: str,
    variant_name: str,
    player_ids: Sequence[str],
    new_player_names: Sequence[str],
    hands_per_series: int | None,
    series: int,
    season_id: str | None,
    rate: Mapping[str, Any] | None = None,
    fee_basis: str = "series",
) -> dict[str, Any]:
    """A new club night of one game with the players present (the club's, and new ones
    added to the club on the spot) (admin token). Nothing is drawn yet. ``rate``: the money
    it plays for (``tables.parse_rate``; None: none), in the club's currency unless it names
    another; the tables its draws open carry it. ``fee_basis``: what its table fee is charged
    for (``rules.money.FEE_BASES``)."""
    begin_write()
    club = get_club(principal, club_id)
    variant = rules.get_variant(variant_name)
    league.check_season_for_table(club_id, variant.name, season_id)
    night_rate = tables.parse_rate(rate, variant.name, club.currency)
    if len(player_ids) + len(new_player_names) > MAX_NIGHT_PLAYERS:
        raise RuleViolation(
            "players", "a night seats at most %(most)s players", most=MAX_NIGHT_PLAYERS
        )
    if not player_ids and not new_player_names:
        raise RuleViolation("players", "a night needs players: list some, or new_players")
    present = _club_players(club_id, "players", player_ids)
    present += _new_players(club_id, new_player_names, set())
    night = add_night(club_id, name, variant.name, hands_per_series, series, season_id)
    night.fee_basis = fee_basis
    tables.store_rate(night, night_rate)
    db.session.add_all(
        ClubNightPlayerRow(night_id=night.id, player_id=p.id, present=True) for p in present
    )
    record_change(club_id, "night.started", night=night.id)
    with _new_names_taken():
        db.session.commit()
    return night_view(night)


def change_presence(
    principal: Principal,
    night_id: str,
    arrived: Sequence[str],
    new_player_names: Sequence[str],
    left: Sequence[str],
) -> dict[str, Any]:
    """Late arrivals (the club's players, or new ones) and early leavers, between series:
    the next draw seats those present (admin token)."""
    night = lock_night(principal, night_id)
    _not_a_tournaments(night)
    both = set(arrived) & set(left)
    if both:
        raise RuleViolation(
            "left", "%(player)s cannot both arrive and leave", player=repr(sorted(both)[0])
        )
    rows = {row.player_id: row for row, _ in night_players(night.id)}
    for player in _club_players(night.club_id, "arrived", arrived):
        if player.id in rows:
            rows[player.id].present = True
        else:
            db.session.add(ClubNightPlayerRow(night_id=night.id, player_id=player.id, present=True))
    for player in _new_players(night.club_id, new_player_names, set()):
        db.session.add(ClubNightPlayerRow(night_id=night.id, player_id=player.id, present=True))
    with _new_names_taken():
        db.session.flush()
    if len(set(left)) != len(left):
        raise RuleViolation("left", "a player is listed only once")
    for index, player_id in enumerate(left):
        if player_id not in rows:
            raise RuleViolation(
                f"left.{index}",
                "no player %(player)s in this night",
                player=repr(player_id),
            )
        rows[player_id].present = False
    db.session.flush()
    count = db.session.scalar(
        select(db.func.count())
        .select_from(ClubNightPlayerRow)
        .where(ClubNightPlayerRow.night_id == night.id)
    )
    if (count or 0) > MAX_NIGHT_PLAYERS:
        raise RuleViolation(
            "arrived", "a night seats at most %(most)s players", most=MAX_NIGHT_PLAYERS
        )
    night.version += 1
    record_change(night.club_id, "night.changed", night=night.id, changed="presence")
    db.session.commit()
    return night_view(night)


def set_present(night: ClubNightRow, player_ids: Sequence[str]) -> None:
    """Exactly ``player_ids`` (the club's players) present for the next draw, the night's
    other players not (a tournament's check-in says who plays the next series)."""
    wanted = set(player_ids)
    rows = {row.player_id: row for row, _ in night_players(night.id)}
    for player_id, row in rows.items():
        row.present = player_id in wanted
    db.session.add_all(
        ClubNightPlayerRow(night_id=night.id, player_id=player_id, present=True)
        for player_id in sorted(wanted - rows.keys())
    )
    db.session.flush()


# What the admin may do instead of waiting, in the words of the admin screen's button beside
# the refusal (an API client reads `early: true` in the problem type's documentation).
_PENDING = {
    "draw": N_(
        "Table %(table)s of series %(series)s has played %(played)s of %(hands)s hands: let "
        "the tables finish, or end the series now anyway."
    ),
    "close": N_(
        "Table %(table)s of series %(series)s has played %(played)s of %(hands)s hands: let "
        "the tables finish, or close the night anyway."
    ),
}


def _pending(
    night: ClubNightRow,
    open_tables: Sequence[tuple[ClubNightTableRow, TableRow]],
    action: str,
) -> None:
    """NightTablesPending while a table has not played the hands of its series (its
    ``hands_limit``, which the director may have lengthened) (``action``: ``draw`` or
    ``close``, what the refusal offers to do anyway)."""
    short = [
        (link, t)
        for link, t in open_tables
        if t.hands_limit is not None and t.hands_played < t.hands_limit
    ]
    if short:
        link, table = short[0]
        raise NightTablesPending(
            _PENDING[action],
            values={
                "table": link.number,
                "series": link.series,
                "played": table.hands_played,
                "hands": table.hands_limit,
            },
        )


def _close_tables(
    principal: Principal, open_tables: Sequence[tuple[ClubNightTableRow, TableRow]]
) -> None:
    for _, table in open_tables:
        tables.close_table(principal, table.id, commit=False)


def _table_name(night: ClubNightRow, series: int, number: int) -> str:
    suffix = f" · {series}.{number}"
    return night.name[: NAME_MAX - len(suffix)] + suffix


def draw_series(
    principal: Principal, night_id: str, seed: int | None, early: bool = False
) -> dict[str, Any]:
    """Draw the next series (admin token): the previous series' tables are closed (refused
    while one has not played its hands, unless ``early``), the players present are seated
    at tables the game allows, avoiding earlier tablemates, and the tables are opened (in
    the night's season, if it has one). The answer is the series, with its seed."""
    night = lock_night(principal, night_id)
    _not_a_tournaments(night)
    return draw_locked(principal, night, seed, early)


def _not_a_tournaments(night: ClubNightRow) -> None:
    """A tournament's night is drawn, and its presence kept, by the tournament: its
    check-in says who is present."""
    tournament = tournament_of(night.id)
    if tournament is not None:
        raise Conflict(
            N_(
                "This night is the tournament %(tournament)s's: draw its series and check its "
                "players in through the tournament."
            ),
            values={"tournament": tournament},
        )


def draw_locked(
    principal: Principal,
    night: ClubNightRow,
    seed: int | None,
    early: bool = False,
    *,
    allowed: Sequence[int] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``draw_series`` of a night already locked: at tables of the ``allowed`` sizes (None:
    every size the game allows), each opened with ``options`` (a tournament's)."""
    drawn = night_view(night)["series"]
    number = len(drawn) + 1
    if number > night.series_planned:
        raise Conflict(
            N_("All %(count)s series of the night are drawn: close the night."),
            values={"count": night.series_planned},
        )
    earlier = night_tables(night.id)
    still_open = [(link, t) for link, t in earlier if t.status == "open"]
    if not early:
        _pending(night, still_open, "draw")
    variant = rules.get_variant(night.variant)
    present = [p for row, p in night_players(night.id) if row.present]
    for player in present:
        if player.retired_at is not None:
            raise RuleViolation(
                "present",
                "%(name)s is retired: mark the player as gone, or bring the player back",
                name=player.name,
            )
    if seed is None:
        seed = secrets.randbelow(SEED_MAX + 1)
    history = seat_draw.pair_history(tuple(s.player_id for s in t.seats) for _, t in earlier)
    sizes = variant.player_counts if allowed is None else tuple(allowed)
    try:
        result = seat_draw.draw([p.id for p in present], sizes, seed, history)
    except seat_draw.DrawRefused as refused:
        raise RuleViolation(
            "present",
            "%(count)s players present cannot be seated at tables of %(allowed)s players "
            "(%(variant)s): someone must join or leave",
            count=refused.players,
            allowed=tables.either(refused.allowed),
            variant=Phrase(variant.title),
        ) from None
    _close_tables(principal, still_open)
    db.session.add(ClubNightSeriesRow(night_id=night.id, number=number, seed=seed))
    db.session.flush()
    for drawn_table in result.tables:
        opened = tables.open_table(
            principal,
            night.club_id,
            _table_name(night, number, drawn_table.number),
            night.variant,
            drawn_table.seats,
            drawn_table.first_dealer,
            options,
            night.season_id,
            tables.rate_view(night),
            commit=False,
            night_id=night.id,
            hands_limit=night.hands_per_series,
        )
        db.session.add(
            ClubNightTableRow(
                night_id=night.id,
                series=number,
                number=drawn_table.number,
                table_id=opened["id"],
                card_token=opened["table_token"],  # the one link of its card (series_links)
            )
        )
    night.version += 1
    record_change(night.club_id, "night.series_drawn", night=night.id, series=number)
    db.session.commit()
    # This draw's series, by its number: another draw may have committed the next one since.
    series = next(s for s in _series_views(night) if s["number"] == number)
    return {**series, "night_id": night.id, "repeats": result.repeats}


def change_series(
    principal: Principal,
    night_id: str,
    number: int,
    *,
    hands: int | None = None,
    table: int | None = None,
    ends_at: datetime | None | object = UNSET,
    end: bool = False,
) -> dict[str, Any]:
    """Change series ``number`` (admin token), on its open tables or only its table ``table``:
    its length (``hands``: they play that many in all, more or fewer than before, though never
    fewer than a table has played), its clock (``ends_at``: when it is to end, each table's
    phones showing it with the hands left; None: no clock), or ``end`` it now (each table's
    length becomes the hands it has recorded: none starts another). The answer is the series,
    as in the night's view."""
    if hands is None and ends_at is UNSET and not end:
        raise RuleViolation("hands", "give the series' hands, its clock (ends_at) or end")
    if end and hands is not None:
        raise RuleViolation("end", "ends the series at the hands recorded: not with hands")
    night = lock_night(principal, night_id)
    # Compared in Python, not in SQL: a path's number may be beyond the database's integers.
    linked = [(link, t) for link, t in night_tables(night.id) if link.series == number]
    if not linked:
        raise NotFound(N_("The night has no series %(series)s."), values={"series": number})
    if table is not None:
        linked = [(link, t) for link, t in linked if link.number == table]
        if not linked:
            raise RuleViolation(
                "table", "series %(series)s has no table %(table)s", series=number, table=table
            )
    # Each table locked (as a hand's writer locks it) and read again under its lock.
    locked = [(link, lock_table(t.id)) for link, t in linked]
    still_open = [(link, t) for link, t in locked if t.status == "open"]
    if not still_open:
        raise TableClosed(N_("The series' tables are closed: they play no more hands."))
    if isinstance(ends_at, datetime):
        ends_at = ends_at.astimezone(UTC)
        if ends_at < min(aware(t.created_at) for _, t in still_open):
            raise RuleViolation("ends_at", "must not be before the series was drawn")
    for link, row in still_open:
        if hands is not None and hands < row.hands_played:
            raise RuleViolation(
                "hands",
                "table %(table)s has played %(played)s hands already: the series cannot be shorter",
                table=link.number,
                played=row.hands_played,
            )
    for _, row in still_open:
        changed = []
        limit = row.hands_played if end else hands
        if limit is not None and row.hands_limit != limit:
            row.hands_limit = limit
            changed.append("hands_limit")
        kept = None if row.series_ends_at is None else aware(row.series_ends_at)
        if ends_at is not UNSET and kept != ends_at:
            row.series_ends_at = ends_at  # type: ignore[assignment]  # a datetime or None here
            changed.append("series_ends_at")
        if changed:
            row.version += 1
            record_change(
                row.club_id, "table.settings_changed", row.id, row.version, settings=changed
            )
    night.version += 1
    record_change(night.club_id, "night.changed", night=night.id, changed="series")
    db.session.commit()
    return {
        **next(s for s in _series_views(night) if s["number"] == number),
        "night_id": night.id,
    }


def close_night(principal: Principal, night_id: str, early: bool = False) -> dict[str, Any]:
    """Close the night and its open tables (admin token); refused while a table has not
    played its series' hands, unless ``early``."""
    night = lock_night(principal, night_id)
    still_open = [(link, t) for link, t in night_tables(night.id) if t.status == "open"]
    if not early:
        _pending(night, still_open, "close")
    _close_tables(principal, still_open)
    night.status = "closed"
    night.closed_at = utcnow()
    night.version += 1
    record_change(night.club_id, "night.closed", night=night.id)
    db.session.commit()
    return night_view(night)


def _live_card_token(link: ClubNightTableRow, table: TableRow) -> str | None:
    """The card's kept token while it still opens its table (not revoked: ``POST
    /tables/{id}/token`` may have renewed the table's link since), else None."""
    if link.card_token is None:
        return None
    alive = db.session.scalar(
        select(TokenRow.id).where(
            TokenRow.token_hash == hash_token(link.card_token),
            TokenRow.table_id == table.id,
            TokenRow.revoked_at.is_(None),
        )
    )
    return link.card_token if alive is not None else None


def series_links(
    principal: Principal, night_id: str, number: int, *, renew: bool = False
) -> list[dict[str, Any]]:
    """The link (table token) of each open table of series ``number``, for its card and the
    admin screen (admin token). One link per table: the one its draw made, kept with the
    table's place in the night, so that the admin screen, the printed cards and a reprint
    (before or after hands are recorded) show the same one and no phone is locked out. A
    table whose kept link no longer works (renewed on its own, or a night drawn before links
    were kept) gets a new one, kept in its turn. ``renew``: every open table of the series
    gets a new link and the previous ones stop working (a lost card, a link that leaked; the
    phones there must scan again). Each entry: the table (as in the night's view), its
    token."""
    night = lock_night(principal, night_id)
    linked = [(link, t) for link, t in night_tables(night.id) if link.series == number]
    if not linked:
        raise NotFound(N_("The night has no series %(series)s."), values={"series": number})
    if all(t.status == "closed" for _, t in linked):
        raise TableClosed(N_("The series' tables are closed: they need no new links."))
    links = []
    for link, table in linked:
        if table.status == "closed":
            continue
        token = None if renew else _live_card_token(link, table)
        if token is None:
            if renew:
                revoke_tokens(TokenRow.table_id == table.id)
            token = issue_token("table", night.club_id, table.id)
            link.card_token = token
        links.append({**_table_view(link, table), "series": number, "table_token": token})
    db.session.commit()
    return links
