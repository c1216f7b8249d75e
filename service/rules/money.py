"""The money at the end of a sitting: a table's rate turns its final balances into who pays
whom, in whole minor units (cents) of a currency.

Pure. A **rate** is ``cents`` minor units per ``per`` chips or points (``1`` per ``2`` is half
a cent a point), in ``currency``, with an optional ``table_fee_cents`` each player pays the
club, and for point games the way the scores are settled (``docs/rules.md``):

- ``pairs`` (the Decision): every two players settle the difference of their scores, so a
  player gets ``Σ_j (s_i − s_j) = n·s_i − Σ s`` points' worth;
- ``average``: each player settles against the table's average, ``s_i − Σ s / n``.

Chip games (American Solo, Solo 66) move chips between players and the pool, which already
sum to zero: each party's chips are worth ``chips · cents / per``.

**Rounding.** The exact amounts are rationals. Each is rounded down to the cent; that leaves a
few cents (fewer than there are parties) for the amounts to sum to zero again, and they go one
each to the amounts whose cut-off fractions were largest, the party listed first (the lower
seat) on a tie. So every amount is less than a cent from its exact value, the amounts sum to
zero in cents, and the same balances always give the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor

from .base import Party, RuleViolation
from .settle_up import fewest_transfers

POINT_SETTLEMENTS = ("pairs", "average")
MAX_RATE_CENTS = 1_000_000  # ten thousand of a currency per unit: no table plays for more
MAX_RATE_PER = 1_000
MAX_TABLE_FEE_CENTS = 1_000_000


@dataclass(frozen=True, slots=True)
class Rate:
    """``cents`` minor units of ``currency`` per ``per`` chips or points; each player pays
    ``table_fee_cents`` to the club; point games settle by ``point_settlement``."""

    cents: int
    per: int
    currency: str
    table_fee_cents: int = 0
    point_settlement: str = "pairs"

    def __post_init__(self) -> None:
        if type(self.cents) is not int or not 0 <= self.cents <= MAX_RATE_CENTS:
            raise RuleViolation(
                "rate.cents",
                "must be a whole number of cents from 0 to %(most)s",
                most=MAX_RATE_CENTS,
            )
        if type(self.per) is not int or not 1 <= self.per <= MAX_RATE_PER:
            raise RuleViolation(
                "rate.per", "must be a whole number from 1 to %(most)s", most=MAX_RATE_PER
            )
        if type(self.table_fee_cents) is not int or not (
            0 <= self.table_fee_cents <= MAX_TABLE_FEE_CENTS
        ):
            raise RuleViolation(
                "rate.table_fee_cents",
                "must be a whole number of cents from 0 to %(most)s",
                most=MAX_TABLE_FEE_CENTS,
            )
        if self.point_settlement not in POINT_SETTLEMENTS:
            raise RuleViolation("rate.point_settlement", "must be 'pairs' or 'average'")
        if not (len(self.currency) == 3 and self.currency.isascii() and self.currency.isupper()):
            raise RuleViolation("rate.currency", "must be an ISO 4217 code such as EUR")


@dataclass(frozen=True, slots=True)
class MoneySettleUp:
    """Each party's money (``nets``: cents, summing to zero), the fewest payments that clear
    them (``transfers``: payer, payee, cents, each positive), and the fees each seat pays the
    club (``fees``: seat, cents; none when the table charges no fee)."""

    currency: str
    nets: tuple[tuple[Party, int], ...]
    transfers: tuple[tuple[Party, Party, int], ...]
    fees: tuple[tuple[int, int], ...]


def exact_amounts(
    balances: Sequence[tuple[Party, int]], units: str, rate: Rate
) -> list[tuple[Party, Fraction]]:
    """Each party's exact money in cents, before rounding.

    ``units`` ``chips``: ``balances`` are the parties' chips (seats and the pool), summing to
    zero. ``points``: they are the seats' scores, settled by ``rate.point_settlement``."""
    value = Fraction(rate.cents, rate.per)
    if units == "chips":
        if sum(b for _, b in balances) != 0:
            raise ValueError("chip balances do not sum to zero")
        return [(party, chips * value) for party, chips in balances]
    players = len(balances)
    total = sum(b for _, b in balances)
    if rate.point_settlement == "pairs":
        return [(party, (players * score - total) * value) for party, score in balances]
    return [(party, (score - Fraction(total, players)) * value) for party, score in balances]


def round_to_zero_sum(amounts: Sequence[tuple[Party, Fraction]]) -> list[tuple[Party, int]]:
    """Whole cents for exact ``amounts`` that sum to zero: each rounded down, and the cents
    left over one each to the largest fractions cut off (the party listed first on a tie)."""
    if sum(a for _, a in amounts) != 0:
        raise ValueError("amounts do not sum to zero")
    floors = [floor(a) for _, a in amounts]
    left_over = -sum(floors)
    by_fraction = sorted(range(len(amounts)), key=lambda i: (-(amounts[i][1] - floors[i]), i))
    for index in by_fraction[:left_over]:
        floors[index] += 1
    return [(party, cents) for (party, _), cents in zip(amounts, floors, strict=True)]


def settle_in_money(balances: Sequence[tuple[Party, int]], units: str, rate: Rate) -> MoneySettleUp:
    """Who pays whom in money for a table's final ``balances`` (see ``exact_amounts``)."""
    nets = round_to_zero_sum(exact_amounts(balances, units, rate))
    transfers = fewest_transfers(nets)
    fees = tuple(
        (party, rate.table_fee_cents)
        for party, _ in balances
        if isinstance(party, int) and rate.table_fee_cents > 0
    )
    return MoneySettleUp(rate.currency, tuple(nets), tuple(transfers), fees)


@dataclass(frozen=True, slots=True)
class TableMoney:
    """One table of a club night: its parties' final ``balances`` (the seats, and the pool
    when the club keeps it, as the table's own settle-up has them), the night's party of each
    seat (``players[seat]``), and the table's ``rate``."""

    balances: tuple[tuple[Party, int], ...]
    players: tuple[int, ...]
    rate: Rate


FEE_BASES = ("series", "night", "table")
"""What a club night's table fee is charged for: each player at each series' table
(``series``: each table's fee from each of its seats), each player once for the evening
(``night``: the night's fee from everyone who played), or each table, shared by its players
(``table``: the table's fee split evenly, the cents left over one each to the lowest seats)."""


def night_fees(tables: Sequence[TableMoney], basis: str, night_fee_cents: int) -> dict[int, int]:
    """Each player's table fees over the night (by the night's party number), charged per
    ``basis`` (``FEE_BASES``); ``night_fee_cents`` is the fee of a ``night`` basis, the others
    take each table's own."""
    if basis not in FEE_BASES:
        raise ValueError(f"no fee basis {basis!r}")
    fees: dict[int, int] = {}
    for table in tables:
        seats = len(table.players)
        if basis == "night":
            shares = [0] * seats  # charged once below
        elif basis == "table":
            share, left = divmod(table.rate.table_fee_cents, seats)
            shares = [share + (1 if seat < left else 0) for seat in range(seats)]
        else:
            shares = [table.rate.table_fee_cents] * seats
        for seat, cents in enumerate(shares):
            fees[table.players[seat]] = fees.get(table.players[seat], 0) + cents
    if basis == "night":
        fees = {player: night_fee_cents for player in fees}
    return {player: cents for player, cents in fees.items() if cents}


def settle_night_in_money(
    tables: Sequence[TableMoney],
    units: str,
    currency: str,
    fee_basis: str = "series",
    night_fee_cents: int = 0,
) -> MoneySettleUp:
    """Who pays whom in money for a whole club night: each table settled in whole cents as
    its own settle-up does (``settle_in_money``, so a player's night is the sum of what his
    tables showed him), each party's cents summed over the tables, then the fewest payments
    for the sums. The nets are by the night's party (a player's number, or ``"pool"``: what
    the club gained or lost in the pools it keeps), numbers first, and sum to zero; ``fees``
    each player's table fees, charged per ``fee_basis`` (``night_fees``). Every table must be
    in ``currency``."""
    nets: dict[Party, int] = {}
    for table in tables:
        if table.rate.currency != currency:
            raise ValueError(f"a table in {table.rate.currency}, not {currency}")
        settled = settle_in_money(table.balances, units, table.rate)
        for party, cents in settled.nets:
            key: Party = party if party == "pool" else table.players[party]
            nets[key] = nets.get(key, 0) + cents
    fees = night_fees(tables, fee_basis, night_fee_cents)
    players = sorted(party for party in nets if isinstance(party, int))
    ordered: list[tuple[Party, int]] = [(player, nets[player]) for player in players]
    if "pool" in nets:
        ordered.append(("pool", nets["pool"]))
    return MoneySettleUp(
        currency, tuple(ordered), tuple(fewest_transfers(ordered)), tuple(sorted(fees.items()))
    )
