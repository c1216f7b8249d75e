"""The club league: seasons, standings, player statistics and ratings.

Standings and statistics are read from aggregate rows (``service.persistence.league``) that
``hands_changed`` keeps current in the transaction of every hand recorded, corrected or voided:
the old settlement of each changed hand is taken away and the new one added, as atomic
``x = x + delta`` upserts. Nothing here sums hands on a request.

Dates: a sitting belongs to the day (UTC) its table was opened; standings ``from``/``to`` sum
the per-day rows of the days in range. Ratings: one openskill (Plackett-Luce) update per closed
sitting of a season, in the order the sittings were closed, every seated player ranked by his
balance at the table (equal balances share a rank); ``rating`` is ``mu - 3*sigma`` rounded to
2 decimals. Correcting a closed sitting replays the season's sittings in order.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date
from functools import lru_cache
from typing import Any, NamedTuple

from openskill.models import PlackettLuce
from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy import insert as core_insert
from sqlalchemy.dialects import postgresql, sqlite

from .. import rules
from ..extensions import db
from ..persistence.columns import rfc3339
from ..persistence.league import (
    CONTRACT_COUNTERS,
    COUNTERS,
    PlayerCareerContractRow,
    PlayerCareerRow,
    RatingHistoryRow,
    SeasonPlayerContractRow,
    SeasonPlayerDayRow,
    SeasonPlayerRow,
    SeasonRatingRow,
    SeasonRow,
)
from ..persistence.table_keeping import ClubRow, PlayerRow, SeatRow, TableRow
from ..rules import RuleViolation
from .auth import Principal, new_id
from .clubs import get_club
from .errors import Forbidden, NameTaken, NotFound, conflict_on_duplicate
from .league_tally import HAND_COUNTERS, tally_hand
from .locking import TableState

STANDING_COLUMNS: tuple[str, ...] = (
    "rank", "player_id", "name", "sittings", "hands", "net", "net_per_100_hands", "declared",
    "won", "lost", "solos_won", "touts_won", "betes_paid", "stamms_drawn", "errors", "rating",
)
RATING_MODEL = PlackettLuce()
RATING_DECIMALS = 2


class HandChange(NamedTuple):
    """One hand's stored record and settlement before and after a change (None: absent or
    void)."""

    record_before: Mapping[str, Any] | None
    settlement_before: Mapping[str, Any] | None
    record_after: Mapping[str, Any] | None
    settlement_after: Mapping[str, Any] | None


# --- seasons -----------------------------------------------------------------------------

def season_view(season: SeasonRow) -> dict[str, Any]:
    return {
        "id": season.id,
        "club_id": season.club_id,
        "name": season.name,
        "variant": season.variant,
        "units": rules.get_variant(season.variant).units,
        "starts_on": None if season.starts_on is None else season.starts_on.isoformat(),
        "ends_on": None if season.ends_on is None else season.ends_on.isoformat(),
        "created_at": rfc3339(season.created_at),
    }


class TableScope(NamedTuple):
    """What a table's token may read of its club's league: its season, its seated players."""

    season_id: str | None
    player_ids: frozenset[str]


def reader_scope(principal: Principal, club_id: str) -> TableScope | None:
    """Who may read the club's league (``docs/league.md``): its admin and read-only (viewer)
    tokens all of it (None: no limit); a table's token, while its table is open, only its
    own season and the players seated at it (the phones at the table show the standings);
    anyone else, and a closed table's token, nothing (Forbidden)."""
    if principal.club_id != club_id:
        raise Forbidden("This needs a token of this club: its admin or read-only token, or "
                        "the token of one of its open tables.")
    if principal.kind in ("admin", "viewer"):
        return None
    table = db.session.get(TableRow, principal.table_id)
    if table is None or table.status != "open":
        raise Forbidden("A table's token reads the league only while its table is open.")
    return TableScope(table.season_id, frozenset(s.player_id for s in table.seats))


def require_club_reader(principal: Principal, club_id: str) -> None:
    """The club's admin or read-only token (a table's token reads less: ``reader_scope``)."""
    if reader_scope(principal, club_id) is not None:
        raise Forbidden("A table's token reads only its own season and seated players.")


def require_player_reader(principal: Principal, player: PlayerRow) -> None:
    scope = reader_scope(principal, player.club_id)
    if scope is not None and player.id not in scope.player_ids:
        raise Forbidden("A table's token reads only the players seated at its table.")


def create_season(principal: Principal, club_id: str, name: str, variant_name: str,
                  starts_on: date | None, ends_on: date | None) -> dict[str, Any]:
    """A new season of one variant in the club (admin token)."""
    get_club(principal, club_id)
    variant = rules.get_variant(variant_name)
    if starts_on is not None and ends_on is not None and ends_on < starts_on:
        raise RuleViolation("ends_on", "must not be before starts_on")
    season = SeasonRow(id=new_id(), club_id=club_id, name=name, variant=variant.name,
                       starts_on=starts_on, ends_on=ends_on)
    db.session.add(season)
    with conflict_on_duplicate(f"The club already has a season called {name!r}.",
                               NameTaken):
        db.session.commit()
    return season_view(season)


def list_seasons(principal: Principal, club_id: str) -> list[dict[str, Any]]:
    """The club's seasons, newest first (a table's token sees its own season only)."""
    if db.session.get(ClubRow, club_id) is None:
        raise NotFound(f"No club {club_id!r}.")
    scope = reader_scope(principal, club_id)
    query = select(SeasonRow).where(SeasonRow.club_id == club_id)
    if scope is not None:
        query = query.where(SeasonRow.id == scope.season_id)
    rows = db.session.scalars(query.order_by(SeasonRow.created_at.desc(), SeasonRow.id))
    return [season_view(s) for s in rows]


def _readable_season(principal: Principal, season_id: str) -> SeasonRow:
    season = db.session.get(SeasonRow, season_id)
    if season is None:
        raise NotFound(f"No season {season_id!r}.")
    scope = reader_scope(principal, season.club_id)
    if scope is not None and scope.season_id != season.id:
        raise Forbidden("A table's token reads only the season its table plays in.")
    return season


def get_season(principal: Principal, season_id: str) -> dict[str, Any]:
    return season_view(_readable_season(principal, season_id))


def check_season_for_table(club_id: str, variant_name: str, season_id: str | None) -> None:
    """A table may join a season of its own club and variant; RuleViolation on ``season_id``."""
    if season_id is None:
        return
    season = db.session.get(SeasonRow, season_id)
    if season is None or season.club_id != club_id:
        raise RuleViolation("season_id", f"no season {season_id!r} in this club")
    if season.variant != variant_name:
        raise RuleViolation("season_id", f"the season is played in {season.variant}, "
                                         f"not {variant_name}")


# --- keeping the aggregates ----------------------------------------------------------------

def sitting_day(table: TableRow | TableState) -> date:
    """The day a sitting counts for: the UTC date its table was opened."""
    opened = table.created_at
    if opened.tzinfo is not None:
        opened = opened.astimezone(UTC)
    return opened.date()


def _upsert_adding(model: Any, keys: Sequence[str], counters: Sequence[str],
                   rows: list[dict[str, Any]], only_additions: bool) -> None:
    """Add each row's counters to the row of its keys, creating it if missing.

    ``only_additions``: every row is the tally of hands added (nothing taken away), so a row
    made of it alone is a valid aggregate: one ``INSERT … ON CONFLICT DO UPDATE SET x = x +
    excluded.x``. Otherwise two statements: an ``INSERT … ON CONFLICT DO NOTHING`` of zero
    rows, then one atomic ``UPDATE … SET x = x + :x`` per row (a single upsert cannot carry a
    negative delta: the database checks its proposed row against the CHECK constraints before
    it finds the conflict). Rows go in key order, so two transactions touching the same rows
    on PostgreSQL lock them in the same order and cannot deadlock."""
    if not rows:
        return
    rows.sort(key=lambda row: tuple(str(row[k]) for k in keys))
    # Core statements on the session's connection (same transaction): the ORM layer has
    # nothing to add to them, and every hand recorded runs two to ten of these.
    connection = db.session.connection()
    upsert, insert_zeros, add = _upsert_statements(model, tuple(keys), tuple(counters),
                                                   connection.dialect.name)
    if only_additions:
        connection.execute(upsert, rows)
        return
    zeros = [{**{k: row[k] for k in keys}, **dict.fromkeys(counters, 0)} for row in rows]
    connection.execute(insert_zeros, zeros)
    connection.execute(add, [{**{f"key_{k}": row[k] for k in keys},
                              **{f"add_{c}": row[c] for c in counters}} for row in rows])


@lru_cache(maxsize=32)
def _upsert_statements(model: Any, keys: tuple[str, ...], counters: tuple[str, ...],
                       dialect: str) -> tuple[Any, Any, Any]:
    """The statements of ``_upsert_adding``, built once (every hand recorded runs them)."""
    table = model.__table__
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    adding = insert(table)
    upsert = adding.on_conflict_do_update(
        index_elements=list(keys),
        set_={c: table.c[c] + adding.excluded[c] for c in counters})
    insert_zeros = insert(table).on_conflict_do_nothing(index_elements=list(keys))
    add = (update(table)
           .where(*(table.c[k] == bindparam(f"key_{k}") for k in keys))
           .values({c: table.c[c] + bindparam(f"add_{c}") for c in counters}))
    return upsert, insert_zeros, add


def hands_changed(table: TableRow | TableState, changes: Iterable[HandChange]) -> None:
    """Move the league's aggregates by what ``changes`` did to hands of ``table``.

    Call it in the transaction of the change, before the table's own counters
    (``hands_played``, the seats' balances) move: they are read as the state before. A closed
    sitting of a season that changes has its season's ratings replayed."""
    players = table.players
    changes = list(changes)
    only_additions = all(c.settlement_before is None for c in changes)
    per_seat = [[0] * len(HAND_COUNTERS) for _ in range(players)]
    contracts: dict[tuple[int, str], list[int]] = {}
    for change in changes:
        for sign, record, settlement in ((-1, change.record_before, change.settlement_before),
                                         (1, change.record_after, change.settlement_after)):
            if settlement is None:
                continue
            for seat, tally in enumerate(tally_hand(record, settlement, players)):
                counters = per_seat[seat]
                for index, value in enumerate(tally.counters):
                    counters[index] += sign * value
                if tally.contract is not None:
                    mix = contracts.setdefault((seat, tally.contract), [0, 0, 0])
                    mix[0] += sign
                    mix[1] += sign * (tally.outcome == "won")
                    mix[2] += sign * (tally.outcome == "lost")
    hands_delta = per_seat[0][HAND_COUNTERS.index("hands")]
    hands_after = table.hands_played + hands_delta
    sittings_delta = int(hands_after > 0) - int(table.hands_played > 0)

    player_of = {s.seat: s.player_id for s in table.seats}
    deltas: dict[str, dict[str, int]] = {}
    for seat, counters in enumerate(per_seat):
        delta = {"sittings": sittings_delta, **dict(zip(HAND_COUNTERS, counters, strict=True))}
        if any(delta.values()):
            deltas[player_of[seat]] = delta
    mixes = {(player_of[seat], contract): dict(zip(CONTRACT_COUNTERS, mix, strict=True))
             for (seat, contract), mix in contracts.items() if any(mix)}

    variant = table.variant
    _upsert_adding(PlayerCareerRow, ("player_id", "variant"), COUNTERS,
                   [{"player_id": p, "variant": variant, **d} for p, d in deltas.items()],
                   only_additions)
    _upsert_adding(PlayerCareerContractRow, ("player_id", "variant", "contract"),
                   CONTRACT_COUNTERS,
                   [{"player_id": p, "variant": variant, "contract": c, **d}
                    for (p, c), d in mixes.items()], only_additions)
    if table.season_id is None:
        return
    season_id = table.season_id
    day = sitting_day(table)
    _upsert_adding(SeasonPlayerRow, ("season_id", "player_id"), COUNTERS,
                   [{"season_id": season_id, "player_id": p, **d} for p, d in deltas.items()],
                   only_additions)
    _upsert_adding(SeasonPlayerDayRow, ("season_id", "day", "player_id"), COUNTERS,
                   [{"season_id": season_id, "day": day, "player_id": p, **d}
                    for p, d in deltas.items()], only_additions)
    _upsert_adding(SeasonPlayerContractRow, ("season_id", "player_id", "contract"),
                   CONTRACT_COUNTERS,
                   [{"season_id": season_id, "player_id": p, "contract": c, **d}
                    for (p, c), d in mixes.items()], only_additions)
    if table.status == "closed" and deltas:
        net = HAND_COUNTERS.index("net")
        balances = [s.balance + per_seat[s.seat][net] for s in table.seats]
        rebuild_ratings(season_id, {table.id: (hands_after, balances)})


# --- ratings -------------------------------------------------------------------------------

def competition_ranks(scores: Sequence[int]) -> list[int]:
    """Standard competition ranks ("1224"), highest score first; equal scores share a rank."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def _rate_sitting(ratings: dict[str, tuple[float, float, int]], players: Sequence[str],
                  balances: Sequence[int], table_id: str,
                  history: list[dict[str, Any]]) -> None:
    """Rate one sitting into ``ratings``, and append each player's new rating to
    ``history`` (rows of ``season_rating_history`` without the season)."""
    teams = []
    for player in players:
        mu, sigma, _ = ratings.get(player, (RATING_MODEL.mu, RATING_MODEL.sigma, 0))
        teams.append([RATING_MODEL.rating(mu=mu, sigma=sigma)])
    ranks: list[float] = list(competition_ranks(balances))
    rated = RATING_MODEL.rate(teams, ranks=ranks)
    for player, [rating] in zip(players, rated, strict=True):
        sitting = ratings.get(player, (0, 0, 0))[2] + 1
        ratings[player] = (rating.mu, rating.sigma, sitting)
        history.append({"player_id": player, "sitting": sitting, "table_id": table_id,
                        "mu": rating.mu, "sigma": rating.sigma})


def _lock_season(season_id: str) -> None:
    """Serialise rating updates of one season (PostgreSQL; SQLite writers are serial)."""
    db.session.execute(select(SeasonRow.id).where(SeasonRow.id == season_id).with_for_update())


def _store_ratings(season_id: str, ratings: Mapping[str, tuple[float, float, int]],
                   history: Sequence[Mapping[str, Any]]) -> None:
    """Write ratings over whatever the season's rows held for these players, and add the
    rows of their history."""
    if history:
        db.session.execute(core_insert(RatingHistoryRow),
                           [{"season_id": season_id, **row} for row in history])
    rows = [{"season_id": season_id, "player_id": p, "mu": mu, "sigma": sigma, "sittings": n}
            for p, (mu, sigma, n) in sorted(ratings.items())]
    if not rows:
        return
    dialect = db.session.connection().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(SeasonRatingRow).values(rows)
    statement = statement.on_conflict_do_update(
        index_elements=["season_id", "player_id"],
        set_={name: statement.excluded[name] for name in ("mu", "sigma", "sittings")})
    db.session.execute(statement)


def sitting_closed(table: TableRow) -> None:
    """Rate a sitting of a season that has just been closed (in the closing transaction)."""
    if table.season_id is None or table.hands_played == 0:
        return
    _lock_season(table.season_id)
    players = [s.player_id for s in table.seats]
    ratings = {p: (mu, sigma, n) for p, mu, sigma, n in db.session.execute(
        select(SeasonRatingRow.player_id, SeasonRatingRow.mu, SeasonRatingRow.sigma,
               SeasonRatingRow.sittings)
        .where(SeasonRatingRow.season_id == table.season_id,
               SeasonRatingRow.player_id.in_(players)))}
    history: list[dict[str, Any]] = []
    _rate_sitting(ratings, players, [s.balance for s in table.seats], table.id, history)
    _store_ratings(table.season_id, ratings, history)


def rebuild_ratings(season_id: str,
                    adjusted: Mapping[str, tuple[int, Sequence[int]]] | None = None) -> None:
    """Replay every closed sitting of the season in the order they were closed.

    ``adjusted`` gives, per table id, hands played and balances by seat to use instead of the
    stored ones (a correction whose balances are not written yet)."""
    _lock_season(season_id)
    adjusted = adjusted or {}
    sittings = db.session.execute(
        select(TableRow.id, TableRow.hands_played).where(
            TableRow.season_id == season_id, TableRow.status == "closed")
        .order_by(TableRow.closed_at, TableRow.id)).all()
    seats: dict[str, list[tuple[str, int]]] = {}
    for table_id, player_id, balance in db.session.execute(
            select(SeatRow.table_id, SeatRow.player_id, SeatRow.balance)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(TableRow.season_id == season_id, TableRow.status == "closed")
            .order_by(SeatRow.table_id, SeatRow.seat)):
        seats.setdefault(table_id, []).append((player_id, balance))
    ratings: dict[str, tuple[float, float, int]] = {}
    history: list[dict[str, Any]] = []
    for table_id, hands_played in sittings:
        players = [p for p, _ in seats[table_id]]
        balances = [b for _, b in seats[table_id]]
        if table_id in adjusted:
            hands_played, balances = adjusted[table_id][0], list(adjusted[table_id][1])
        if hands_played:
            _rate_sitting(ratings, players, balances, table_id, history)
    db.session.execute(delete(SeasonRatingRow).where(SeasonRatingRow.season_id == season_id))
    db.session.execute(delete(RatingHistoryRow).where(RatingHistoryRow.season_id == season_id))
    _store_ratings(season_id, ratings, history)


def shown_rating(mu: float | None, sigma: float | None) -> float | None:
    """What the standings show: ``mu - 3*sigma``, 2 decimals; None before the first rating."""
    if mu is None or sigma is None:
        return None
    return round(mu - 3 * sigma, RATING_DECIMALS)


# --- standings -----------------------------------------------------------------------------

def _per_100(net: int, hands: int) -> float | None:
    return round(net * 100 / hands, 2) if hands else None


def _rank_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sort by net, then more games won as declarer, then fewer lost; ties share a rank."""
    def strength(row: Mapping[str, Any]) -> tuple[int, int, int]:
        return (row["net"], row["won"], -row["lost"])

    rows.sort(key=lambda r: (*(-v for v in strength(r)), r["name"], r["player_id"]))
    previous: tuple[int, int, int] | None = None
    rank = 0
    for position, row in enumerate(rows, start=1):
        if strength(row) != previous:
            rank, previous = position, strength(row)
        row["rank"] = rank
    return [{column: row[column] for column in STANDING_COLUMNS} for row in rows]


def standings(principal: Principal, season_id: str, date_from: date | None = None,
              date_to: date | None = None, min_hands: int = 0) -> dict[str, Any]:
    """The season's ranked rows, read from the aggregates; with ``date_from``/``date_to``,
    only sittings opened on those days (inclusive) count. Players with fewer than
    ``min_hands`` hands (and those with none) are left out."""
    season = _readable_season(principal, season_id)
    if date_from is not None and date_to is not None and date_to < date_from:
        raise RuleViolation("to", "must not be before from")
    least = max(min_hands, 1)
    rating = (SeasonRatingRow.mu, SeasonRatingRow.sigma)
    rating_join = ((SeasonRatingRow.season_id == season_id)
                   & (SeasonRatingRow.player_id == PlayerRow.id))
    if date_from is None and date_to is None:
        source = SeasonPlayerRow
        query = (select(PlayerRow.id, PlayerRow.name, *(getattr(source, c) for c in COUNTERS),
                        *rating)
                 .join(source, source.player_id == PlayerRow.id)
                 .where(source.season_id == season_id, source.hands >= least))
    else:
        days = SeasonPlayerDayRow
        conditions = [days.season_id == season_id]
        if date_from is not None:
            conditions.append(days.day >= date_from)
        if date_to is not None:
            conditions.append(days.day <= date_to)
        summed = (select(days.player_id,
                         *(func.sum(getattr(days, c)).label(c) for c in COUNTERS))
                  .where(*conditions).group_by(days.player_id)
                  .having(func.sum(days.hands) >= least).subquery())
        query = (select(PlayerRow.id, PlayerRow.name, *(summed.c[c] for c in COUNTERS), *rating)
                 .join(summed, summed.c.player_id == PlayerRow.id))
    query = query.outerjoin(SeasonRatingRow, rating_join)
    rows = []
    for found in db.session.execute(query):
        row = dict(zip(("player_id", "name", *COUNTERS), found[:2 + len(COUNTERS)], strict=True))
        for column in COUNTERS:
            row[column] = int(row[column])  # SUM() may come back as Decimal on PostgreSQL
        row["net_per_100_hands"] = _per_100(row["net"], row["hands"])
        row["rating"] = shown_rating(found.mu, found.sigma)
        rows.append(row)
    return {
        "season_id": season.id,
        "variant": season.variant,
        "units": rules.get_variant(season.variant).units,
        "from": None if date_from is None else date_from.isoformat(),
        "to": None if date_to is None else date_to.isoformat(),
        "min_hands": min_hands,
        "rows": _rank_rows(rows),
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return) gets a leading ``'`` (OWASP's CSV injection advice), so
    it shows as the text it is. Numbers are ours, and stay numbers (a net of -5 is -5)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def standings_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """RFC 4180 CSV: a header of ``STANDING_COLUMNS``, then one line per row; None is empty.
    Text that a spreadsheet would take for a formula is neutralised (``spreadsheet_safe``);
    everything else reads back to exactly the JSON rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(STANDING_COLUMNS)
    for row in rows:
        writer.writerow(["" if row[c] is None else spreadsheet_safe(row[c])
                         for c in STANDING_COLUMNS])
    return out.getvalue()


# --- player statistics ---------------------------------------------------------------------

def _win_rate(won: int, declared: int) -> float | None:
    return round(won / declared, 4) if declared else None


def _with_rates(counters: Mapping[str, int]) -> dict[str, Any]:
    shown: dict[str, float | None] = {c: counters[c] for c in COUNTERS}
    shown["net_per_100_hands"] = _per_100(counters["net"], counters["hands"])
    shown["win_rate"] = _win_rate(counters["won"], counters["declared"])
    return shown


def _contract_mix(rows: Iterable[Any]) -> list[dict[str, Any]]:
    mix = [{"contract": r.contract, "declared": r.declared, "won": r.won, "lost": r.lost,
            "win_rate": _win_rate(r.won, r.declared)} for r in rows if r.declared]
    return sorted(mix, key=lambda m: (-m["declared"], m["contract"]))


def _counters_of(row: Any) -> dict[str, int]:
    return {c: getattr(row, c) for c in COUNTERS}


def player_stats(principal: Principal, player_id: str) -> dict[str, Any]:
    """A player's career per variant and each of his seasons, with the contract mix and win
    rates (games won as declarer over games declared)."""
    player = db.session.get(PlayerRow, player_id)
    if player is None:
        raise NotFound(f"No player {player_id!r}.")
    require_player_reader(principal, player)
    career_mix: dict[str, list[Any]] = {}
    for row in db.session.scalars(select(PlayerCareerContractRow).where(
            PlayerCareerContractRow.player_id == player_id)):
        career_mix.setdefault(row.variant, []).append(row)
    career = [{"variant": row.variant, "units": rules.get_variant(row.variant).units,
               **_with_rates(_counters_of(row)),
               "contracts": _contract_mix(career_mix.get(row.variant, []))}
              for row in db.session.scalars(
                  select(PlayerCareerRow).where(PlayerCareerRow.player_id == player_id,
                                                PlayerCareerRow.hands > 0)
                  .order_by(PlayerCareerRow.variant))]
    season_mix: dict[str, list[Any]] = {}
    for season_row in db.session.scalars(select(SeasonPlayerContractRow).where(
            SeasonPlayerContractRow.player_id == player_id)):
        season_mix.setdefault(season_row.season_id, []).append(season_row)
    seasons = []
    for totals, season, mu, sigma, rated in db.session.execute(
            select(SeasonPlayerRow, SeasonRow, SeasonRatingRow.mu, SeasonRatingRow.sigma,
                   SeasonRatingRow.sittings)
            .join(SeasonRow, SeasonRow.id == SeasonPlayerRow.season_id)
            .outerjoin(SeasonRatingRow,
                       (SeasonRatingRow.season_id == SeasonPlayerRow.season_id)
                       & (SeasonRatingRow.player_id == SeasonPlayerRow.player_id))
            .where(SeasonPlayerRow.player_id == player_id, SeasonPlayerRow.hands > 0)
            .order_by(SeasonRow.created_at, SeasonRow.id)):
        seasons.append({"season_id": season.id, "name": season.name,
                        "variant": season.variant,
                        "units": rules.get_variant(season.variant).units,
                        **_with_rates(_counters_of(totals)),
                        "rating": shown_rating(mu, sigma), "rated_sittings": rated or 0,
                        "contracts": _contract_mix(season_mix.get(season.id, []))})
    return {"player_id": player.id, "name": player.name, "club_id": player.club_id,
            "career": career, "seasons": seasons}
