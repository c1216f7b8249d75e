"""Tables: open a sitting, show it, close it, settle up."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import select

from .. import rules
from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import rfc3339, utcnow
from ..persistence.nights import ClubNightRow, ClubNightTableRow
from ..persistence.table_keeping import ClubRow, PlayerRow, SeatRow, TableRow
from ..rules import Phrase, RuleViolation, Variant
from ..rules.base import party_object, with_parties
from ..rules.money import Rate, settle_in_money
from ..rules.settle_up import fewest_transfers, split_pool
from . import league, table_versions
from .auth import Principal, issue_token, new_id, require_table_access, require_table_reader
from .clubs import get_club
from .errors import NightTableIsTheDirectors, NotFound, TableClosed
from .locking import TableState, get_table, lock_table
from .outbox import record_change
from .spreadsheet import spreadsheet_safe
from .table_rules import TableRules

POOL_AT_CLOSE = ("split", "carry")
ROUNDING = "down-largest-remainder"
"""How a settle-up's money is rounded (``rules/money.py``): each amount down to the cent, the
cents this leaves one each to the largest fractions cut off, the lower seat first."""
MAX_STARTING_POOL = 1_000_000


def either(choices: Sequence[int]) -> Phrase | int:
    """``3 or 4 or 5``, its "or" worded in the reader's language."""
    if len(choices) == 1:
        return choices[0]
    return Phrase("%(some)s or %(last)s", some=either(choices[:-1]), last=choices[-1])


def _table_options(
    variant: Variant, players: int, raw: Mapping[str, Any] | None
) -> tuple[Any, dict[str, Any], bool]:
    raw = dict(raw or {})
    pool_at_close = raw.pop("pool_at_close", "split")
    starting_pool = raw.pop("starting_pool", 0)
    options = variant.parse_options(raw)
    has_pool = "pool" in variant.initial_state(players, options, 0).to_dict()
    stored = options.to_dict()
    if has_pool:
        if pool_at_close not in POOL_AT_CLOSE:
            raise RuleViolation("options.pool_at_close", "must be 'split' or 'carry'")
        if type(starting_pool) is not int or not 0 <= starting_pool <= MAX_STARTING_POOL:
            raise RuleViolation(
                "options.starting_pool",
                "must be a whole number of chips from 0 to %(most)s",
                most=MAX_STARTING_POOL,
            )
        if starting_pool and pool_at_close != "carry":
            raise RuleViolation(
                "options.starting_pool",
                "a starting pool is a pool carried by the club: it needs pool_at_close 'carry'",
            )
        stored.update(pool_at_close=pool_at_close, starting_pool=starting_pool)
    else:
        for name, given in (
            ("pool_at_close", pool_at_close != "split"),
            ("starting_pool", starting_pool != 0),
        ):
            if given:
                raise RuleViolation(
                    f"options.{name}", "%(variant)s keeps no pool", variant=Phrase(variant.title)
                )
    return options, stored, has_pool


def check_table_options(variant: Variant, sizes: Sequence[int], raw: Mapping[str, Any]) -> None:
    """RuleViolation naming ``options.…`` unless ``raw`` are options of a table of each of
    ``sizes`` (a tournament's, before any of its tables opens)."""
    for players in sizes:
        _table_options(variant, players, raw)


def _initial_state(
    variant: Variant,
    players: int,
    options: Any,
    has_pool: bool,
    stored: Mapping[str, Any],
    first_dealer: int,
) -> dict[str, Any]:
    state = variant.initial_state(players, options, first_dealer).to_dict()
    if has_pool:
        state["pool"] = stored.get("starting_pool", 0)
    return state


def initial_table_state(
    table_rules: TableRules, stored: Mapping[str, Any], first_dealer: int
) -> dict[str, Any]:
    """The state a table with these rules and stored options starts from (its pool: the
    starting pool), with ``first_dealer`` to deal."""
    return _initial_state(
        table_rules.variant,
        table_rules.players,
        table_rules.options,
        table_rules.has_pool,
        stored,
        first_dealer,
    )


def open_table(
    principal: Principal,
    club_id: str,
    name: str,
    variant_name: str,
    seats: Sequence[str],
    first_dealer: int,
    raw_options: Mapping[str, Any] | None,
    season_id: str | None = None,
    rate: Mapping[str, Any] | None = None,
    *,
    commit: bool = True,
    night_id: str | None = None,
    hands_limit: int | None = None,
) -> dict[str, Any]:
    """Create a sitting and its table token (shown this once only); ``rate``: the money it
    plays for (``parse_rate``), in the club's currency unless it names another.
    ``commit=False``: the caller opens several tables in one transaction (a club night's
    draw) and commits it. ``night_id``, ``hands_limit``: a club night's table, and the most
    hands its series plays (None: no limit)."""
    club = get_club(principal, club_id)
    variant = rules.get_variant(variant_name)
    league.check_season_for_table(club_id, variant.name, season_id)
    table_rate = parse_rate(rate, variant.name, club.currency)
    if len(seats) not in variant.player_counts:
        raise RuleViolation(
            "seats",
            "%(variant)s is played by %(allowed)s players",
            variant=Phrase(variant.title),
            allowed=either(variant.player_counts),
        )
    players = len(seats)
    if len(set(seats)) != players:
        raise RuleViolation("seats", "a player can take only one seat")
    if not 0 <= first_dealer < players:
        raise RuleViolation("first_dealer", "must be a seat from 0 to %(last)s", last=players - 1)
    known = {
        pid: (name, retired)
        for pid, name, retired in db.session.execute(
            select(PlayerRow.id, PlayerRow.name, PlayerRow.retired_at).where(
                PlayerRow.club_id == club_id, PlayerRow.id.in_(seats)
            )
        )
    }
    for index, player_id in enumerate(seats):
        if player_id not in known:
            raise RuleViolation(
                f"seats.{index}", "no player %(player)s in this club", player=repr(player_id)
            )
        player_name, retired = known[player_id]
        if retired is not None:
            raise RuleViolation(
                f"seats.{index}",
                "%(name)s is retired; bring the player back before seating them",
                name=player_name,
            )
    options, stored, has_pool = _table_options(variant, players, raw_options)
    state = _initial_state(variant, players, options, has_pool, stored, first_dealer)
    pool = stored.get("starting_pool", 0)
    table = TableRow(
        id=new_id(),
        club_id=club_id,
        name=name,
        variant=variant.name,
        options=stored,
        players=players,
        first_dealer=first_dealer,
        status="open",
        version=1,
        hands_recorded=0,
        hands_played=0,
        pool=pool,
        state=state,
        season_id=season_id,
        night_id=night_id,
        hands_limit=hands_limit,
    )
    store_rate(table, table_rate)
    table.seats = [SeatRow(seat=i, player_id=pid, balance=0) for i, pid in enumerate(seats)]
    db.session.add(table)
    db.session.flush()
    token = issue_token("table", club_id, table.id)
    record_change(club_id, "table.opened", table.id, table.version)
    if commit:
        db.session.commit()
    return {**table_view(table), "table_token": token}


def table_view(
    table: TableRow | TableState, table_rules: TableRules | None = None
) -> dict[str, Any]:
    """The table as the API shows it; callers that already hold its rules pass them."""
    state = table.state
    table_rules = table_rules or TableRules.of(table)
    outcome = table_rules.variant.session_outcome(
        table_rules.options, tuple(s.balance for s in table.seats), table.hands_played
    )
    return {
        "id": table.id,
        "club_id": table.club_id,
        "name": table.name,
        "variant": table.variant,
        "units": table_rules.variant.units,
        "options": table.options,
        "seats": [
            {"seat": s.seat, "player_id": s.player_id, "name": s.name, "balance": s.balance}
            for s in table.seats
        ],
        "pool": table.pool if table_rules.has_pool else None,
        "couleur": state.get("couleur"),
        "dealer": state["dealer"],
        "stake_due": state.get("stake_due"),
        "tricks": table_rules.variant.trick_figures(table_rules.options),
        "hands_played": table.hands_played,
        "hands_recorded": table.hands_recorded,
        "next_number": table.hands_recorded + 1,
        "night_id": table.night_id,
        "hands_limit": table.hands_limit,
        "series_ends_at": rfc3339(table.series_ends_at),
        "version": table.version,
        "status": table.status,
        "season_id": table.season_id,
        "rate": rate_view(table),
        "session": None
        if outcome is None
        else {
            "over": outcome.over,
            "winners": list(outcome.winners),
            "reason": [step.to_dict() for step in outcome.reason],
        },
        "created_at": rfc3339(table.created_at),
        "closed_at": rfc3339(table.closed_at),
    }


def parse_rate(
    raw: Mapping[str, Any] | None, variant_name: str, default_currency: str
) -> Rate | None:
    """A table's rate from the API's ``rate`` object (None: no money); ``RuleViolation``
    naming the field. Point games default to settling in pairs; a chip game takes none."""
    if raw is None:
        return None
    units = rules.get_variant(variant_name).units
    settlement = raw.get("point_settlement")
    if units == "chips" and settlement is not None:
        raise RuleViolation(
            "rate.point_settlement",
            "%(variant)s settles chips, not points: leave it out",
            variant=Phrase(rules.get_variant(variant_name).title),
        )
    return Rate(
        cents=raw["cents"],
        per=raw.get("per", 1),
        currency=raw.get("currency") or default_currency,
        table_fee_cents=raw.get("table_fee_cents", 0),
        point_settlement=settlement or "pairs",
    )


def store_rate(table: TableRow | ClubNightRow, rate: Rate | None) -> None:
    """Write ``rate`` into the table's (or club night's) columns (None: clear them)."""
    points = rules.get_variant(table.variant).units == "points"
    table.rate_cents = None if rate is None else rate.cents
    table.rate_per = None if rate is None else rate.per
    table.currency = None if rate is None else rate.currency
    table.table_fee_cents = None if rate is None else rate.table_fee_cents
    table.point_settlement = None if rate is None or not points else rate.point_settlement


def club_currency(club_id: str) -> str:
    currency = db.session.scalar(select(ClubRow.currency).where(ClubRow.id == club_id))
    return currency or "EUR"


def rate_of(table: TableRow | TableState | ClubNightRow) -> Rate | None:
    """The table's (or club night's) rate, read back from its columns."""
    if table.rate_cents is None or table.rate_per is None or table.currency is None:
        return None
    return Rate(
        table.rate_cents,
        table.rate_per,
        table.currency,
        table.table_fee_cents or 0,
        table.point_settlement or "pairs",
    )


def rate_view(table: TableRow | TableState | ClubNightRow) -> dict[str, Any] | None:
    """The table's ``rate`` as the API shows it (``point_settlement`` null for chip games)."""
    rate = rate_of(table)
    if rate is None:
        return None
    return {
        "cents": rate.cents,
        "per": rate.per,
        "currency": rate.currency,
        "table_fee_cents": rate.table_fee_cents,
        "point_settlement": table.point_settlement,
    }


def table_version(
    principal: Principal,
    table_id: str,
    read: Callable[[str], table_versions.VersionRow | None] | None = None,
) -> table_versions.VersionRow:
    """The table's id, club and current version, read without loading the table, for a token
    that may read it (else NotFound or Forbidden): a phone polling with ``If-None-Match``
    usually needs nothing more, and a rendered view is keyed by it. ``read`` reads the row (by
    default strictly, on the app's reader: ``table_versions.reader_for``). The one lookup of a
    table's version, in Flask's views and before Flask (``middleware/early.py``)."""
    if read is None:
        row = table_versions.reader_for(db.engine).read(table_id, strict=True)
    else:
        row = read(table_id)
    if row is None:
        raise NotFound(N_("No table %(table)s."), values={"table": repr(table_id)})
    require_table_reader(principal, row)
    return row


def read_table(principal: Principal, table_id: str) -> TableRow:
    """The table with its seats, for a token that may read it (its club's admin and
    read-only tokens, its own token)."""
    table = get_table(table_id)
    require_table_reader(principal, table)
    return table


def _night_table_is_the_directors(principal: Principal, table_id: str) -> None:
    """A club night's table is closed by its director (the club's admin token: the next draw,
    or closing the night), never by a phone at the table: a series must not end without the
    director knowing (``NightTableIsTheDirectors``, 403)."""
    if principal.kind == "admin":
        return
    found = db.session.execute(
        select(ClubNightTableRow.number, ClubNightTableRow.series, ClubNightRow.name)
        .join(ClubNightRow, ClubNightRow.id == ClubNightTableRow.night_id)
        .where(ClubNightTableRow.table_id == table_id)
    ).first()
    if found is not None:
        raise NightTableIsTheDirectors(
            N_(
                "Table %(table)s of series %(series)s belongs to the club night “%(night)s”: "
                "the director closes it, with the next draw or when closing the night. Ask "
                "the director."
            ),
            values={"table": found.number, "series": found.series, "night": found.name},
        )


def close_table(principal: Principal, table_id: str, *, commit: bool = True) -> dict[str, Any]:
    """End the sitting: no more hands; corrections then need the admin token.
    ``commit=False``: the caller closes several tables in one transaction (a club night)."""
    table = lock_table(table_id)
    require_table_access(principal, table)
    if table.status == "closed":
        raise TableClosed(N_("The table is already closed."))
    _night_table_is_the_directors(principal, table_id)
    table.status = "closed"
    table.closed_at = utcnow()
    table.version += 1
    league.sitting_closed(table)
    record_change(table.club_id, "table.closed", table.id, table.version)
    if commit:
        db.session.commit()
    return table_view(table)


def settle_up(principal: Principal, table_id: str) -> dict[str, Any]:
    """The cash transfers that clear every balance, with the pool per ``pool_at_close``."""
    return settle_up_view(read_table(principal, table_id))


SETTLE_UP_COLUMNS = (
    "kind",
    "from",
    "from_name",
    "to",
    "to_name",
    "units",
    "amount",
    "cents",
    "currency",
)
"""The settle-up's CSV: one line per ``net`` (each party: its chips or points, and its money),
``payment`` (in money when the table has a rate, else in chips), ``pool_share`` and ``fee``."""


def settle_up_csv(principal: Principal, table_id: str) -> str:
    """``settle_up`` as RFC 4180 CSV (``SETTLE_UP_COLUMNS``), names spreadsheet-safe."""
    table = read_table(principal, table_id)
    view = settle_up_view(table)
    names: dict[Any, str] = {s.seat: s.name for s in table.seats}
    names.update(pool="pool", club="club")
    money = view["money"]
    units = view["units"]
    currency = money["currency"] if money else ""
    cents = {n["party"]: n["cents"] for n in money["net"]} if money else {}
    rows: list[tuple[str, Any, Any, str, int | str, int | str]] = [
        ("net", n["party"], "", units, n["amount"], cents.get(n["party"], "")) for n in view["net"]
    ]
    if money:
        rows += [("payment", x["from"], x["to"], "", "", x["cents"]) for x in money["transfers"]]
        rows += [("fee", x["from"], x["to"], "", "", x["cents"]) for x in money["fees"]]
    else:
        rows += [("payment", x["from"], x["to"], units, x["amount"], "") for x in view["transfers"]]
    rows += [("pool_share", x["from"], x["to"], units, x["chips"], "") for x in view["pool_shares"]]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(SETTLE_UP_COLUMNS)
    for kind, source, target, unit, amount, money_cents in rows:
        writer.writerow(
            [
                kind,
                source,
                spreadsheet_safe(names[source]),
                target,
                "" if target == "" else spreadsheet_safe(names[target]),
                unit,
                amount,
                money_cents,
                currency if money_cents != "" else "",
            ]
        )
    return out.getvalue()


def pool_at_close(table: TableRow) -> tuple[str | None, list[int]]:
    """What becomes of the table's pool at its close (``pool_at_close``: ``split``, ``carry``,
    None for a game without one) and the chips each seat's share of it is (all 0 unless
    split): what its settle-up, in chips and in money, adds to each seat's balance."""
    table_rules = TableRules.of(table)
    policy = table.options.get("pool_at_close") if table_rules.has_pool else None
    if policy == "split":
        return policy, split_pool(table.pool, table.players)
    return policy, [0] * table.players


def settle_up_view(table: TableRow) -> dict[str, Any]:
    """``settle_up`` of a table already read (the export shows every table's)."""
    table_rules = TableRules.of(table)
    balances = [s.balance for s in table.seats]
    parties: list[tuple[rules.base.Party, int]] = []
    pool_shares: list[dict[str, Any]] = []
    policy, shares = pool_at_close(table)
    if policy == "split":
        pool_shares = [
            {"from": "pool", "to": seat, "chips": chips}
            for seat, chips in enumerate(shares)
            if chips
        ]
        parties = [(seat, b + shares[seat]) for seat, b in enumerate(balances)]
    elif policy == "carry":
        # The club keeps the pool; what it gained this sitting the players owe it.
        gained = table.pool - table.options.get("starting_pool", 0)
        parties = [*enumerate(balances), ("pool", gained)]
    else:
        parties = list(enumerate(balances))
    # Points games (Spanish, German Solo) are not zero-sum and move no cash: their settle-up
    # is the final score sheet, with nobody paying anybody.
    units = table_rules.variant.units
    transfers = fewest_transfers(parties) if units == "chips" else []
    rate = rate_of(table)
    money = None
    if rate is not None:
        settled = settle_in_money(parties, units, rate)
        money = {
            "currency": settled.currency,
            "rate": rate_view(table),
            "rounding": ROUNDING,
            # The parties as objects too, as the settle-up shows them: the export has these
            # lists without the settle-up's schema (docs/api.md "Transfers' parties").
            "net": [{"party": p, "holder": party_object(p), "cents": c} for p, c in settled.nets],
            "transfers": [
                {**with_parties({"from": f, "to": t}), "cents": c} for f, t, c in settled.transfers
            ],
            "fees": [
                {**with_parties({"from": seat, "to": "club"}), "cents": c}
                for seat, c in settled.fees
            ],
        }
    return {
        "table_id": table.id,
        "final": table.status == "closed",
        "units": table_rules.variant.units,
        "pool_at_close": policy,
        "pool": table.pool if table_rules.has_pool else None,
        "pool_shares": pool_shares,
        "net": [{"party": p, "amount": a} for p, a in parties],
        "transfers": [{"from": f, "to": t, "amount": c} for f, t, c in transfers],
        "money": money,
    }
