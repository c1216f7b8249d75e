"""An open tournament's prizes, the host's cash sheet, place points and the ranking.

Pure: plain values in, plain values out, all money in whole cents (docs/tournaments.md).

**The prize table** pays places 1, 2, … in order; each place is a fixed amount (``cents``) or
a share of the money taken (``per_mille``, thousandths of the entry fees and the losses money
per lost game, docs/rules.md). The shares are paid to the
cent by the largest remainder: their exact sum is rounded down to the cent, each share is
rounded down, and the cents this leaves go one each to the shares whose cut-off fractions were
largest (the better place on a tie). What the prizes leave of the money taken, the cents cut
off included, remains with the host; fixed amounts beyond it are the host's to add.

**Equal ranks share their places' prizes**: players who share a rank after every tie-break
cover as many places as they are; the prizes of those places are summed and split evenly,
the cents left over one each to them in the ranking's order. Places nobody reached are not
paid (their prizes remain with the host). So the prize list sums exactly to the prizes of the
places reached.

**Place points** (a tournament's option, instead of the game's own result): every table is
worth the same. Its winner gets ``PLACE_POINTS_TOP`` (24), its last 0, the places between
evenly spaced (a table of 4: 24, 16, 8, 0; of 5: 24, 18, 12, 6, 0; of 3: 24, 12, 0); players
with equal results share the points of the places they cover, as their average (two first at
a table of 4: 20 each). 24 makes every such share a whole number at tables of 2 to 5.

**The ranking** orders by each line's strength (a tuple of the named tie-breaks, higher
better); lines equal in all of them share a rank ("1, 2, 2, 4").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Any

from .base import RuleViolation

MAX_PRIZE_PLACES = 100
MAX_PRIZE_CENTS = 100_000_000  # a million of a currency: no club's prize is more
PER_MILLE = 1000
PLACE_POINTS_TOP = 24
SCORINGS = ("result", "place_points")
"""How a tournament scores a series: the game's own ``result`` (chips or points at the table,
as the club night counts it), or ``place_points`` per table."""
TIE_BREAKS = {
    "result": ("total", "series_won", "best"),
    "place_points": ("total", "result", "series_won"),
}
"""The named rules that order a tournament's standings, in order (``docs/tournaments.md``):
``total`` (the score the tournament counts), ``series_won`` (first place at a table, equal
firsts each counting), ``best`` (the best single series played) and ``result`` (the game's own
result summed over the series)."""


@dataclass(frozen=True, slots=True)
class Prize:
    """One paid place: ``cents`` fixed, or ``per_mille`` thousandths of the fees taken."""

    cents: int | None = None
    per_mille: int | None = None


def parse_prize_table(raw: object) -> tuple[Prize, ...]:
    """The prize table from JSON-like values (a list, place 1 first, each ``{"cents": …}`` or
    ``{"per_mille": …}``), or a RuleViolation naming ``prizes.i.…``."""
    if not isinstance(raw, list):
        raise RuleViolation("prizes", "must be a list of places, the first place first")
    if len(raw) > MAX_PRIZE_PLACES:
        raise RuleViolation("prizes", "pays at most %(most)s places", most=MAX_PRIZE_PLACES)
    table = []
    shares = 0
    for index, place in enumerate(raw):
        field = f"prizes.{index}"
        if (
            not isinstance(place, dict)
            or len(place) != 1
            or not place.keys()
            <= {
                "cents",
                "per_mille",
            }
        ):
            raise RuleViolation(field, 'must be either {"cents": …} or {"per_mille": …}')
        ((kind, value),) = place.items()
        if kind == "cents":
            if type(value) is not int or not 0 <= value <= MAX_PRIZE_CENTS:
                raise RuleViolation(
                    f"{field}.cents",
                    "must be a whole number of cents from 0 to %(most)s",
                    most=MAX_PRIZE_CENTS,
                )
            table.append(Prize(cents=value))
        else:
            if type(value) is not int or not 0 <= value <= PER_MILLE:
                raise RuleViolation(
                    f"{field}.per_mille",
                    "must be a whole number from 0 to %(most)s",
                    most=PER_MILLE,
                )
            shares += value
            if shares > PER_MILLE:
                raise RuleViolation(f"{field}.per_mille", "the shares add up to more than 1000 ‰")
            table.append(Prize(per_mille=value))
    return tuple(table)


def prize_table_json(table: Sequence[Prize]) -> list[dict[str, int]]:
    """The prize table as ``parse_prize_table`` reads it."""
    return [
        {"cents": p.cents} if p.cents is not None else {"per_mille": p.per_mille or 0}
        for p in table
    ]


def prizes(table: Sequence[Prize], taken_cents: int) -> list[int]:
    """Each paid place's prize in cents for ``taken_cents`` (the money the shares divide:
    ``CashSheet.taken_cents``), by the module's rounding."""
    if taken_cents < 0:
        raise ValueError("the money taken is never negative")
    exact = [
        (i, Fraction(taken_cents * p.per_mille, PER_MILLE))
        for i, p in enumerate(table)
        if p.per_mille is not None
    ]
    paid = [p.cents or 0 for p in table]
    to_share = floor(sum((amount for _, amount in exact), Fraction(0)))
    for i, amount in exact:
        paid[i] = floor(amount)
    left = to_share - sum(paid[i] for i, _ in exact)
    by_fraction = sorted(exact, key=lambda e: (-(e[1] - floor(e[1])), e[0]))
    for i, _ in by_fraction[:left]:
        paid[i] += 1
    return paid


def shared_ranks(strengths: Sequence[tuple[Any, ...]]) -> list[int]:
    """The rank of each of ``strengths``, already in order (strongest first): equal
    strengths share the rank of the first of them ("1, 2, 2, 4")."""
    ranks: list[int] = []
    for position, strength in enumerate(strengths, start=1):
        same = ranks and strengths[position - 2] == strength
        ranks.append(ranks[-1] if same else position)
    return ranks


def prize_list(ranks: Sequence[int], paid: Sequence[int]) -> list[int]:
    """Each ranked player's prize (``ranks`` in the ranking's order, ``paid`` each place's
    prize): players sharing a rank split the prizes of the places they cover."""
    amounts = [0] * len(ranks)
    start = 0
    while start < len(ranks):
        end = start
        while end < len(ranks) and ranks[end] == ranks[start]:
            end += 1
        group = end - start
        pot = sum(paid[place] for place in range(start, end) if place < len(paid))
        share, left = divmod(pot, group)
        for offset in range(group):
            amounts[start + offset] = share + (1 if offset < left else 0)
        start = end
    return amounts


@dataclass(frozen=True, slots=True)
class CashSheet:
    """The host's cash: ``fees_cents`` taken (``paying`` players × ``entry_fee_cents``),
    ``losses_cents`` taken (``lost_games`` × ``loss_fee_cents``), ``prizes_cents`` paid out,
    and what ``remains_cents`` (negative: the host adds it)."""

    entry_fee_cents: int
    paying: int
    fees_cents: int
    loss_fee_cents: int
    lost_games: int
    losses_cents: int
    prizes_cents: int
    remains_cents: int

    @property
    def taken_cents(self) -> int:
        """What the prize table's shares divide: the fees and the losses money."""
        return self.fees_cents + self.losses_cents


def cash_sheet(
    entry_fee_cents: int,
    paying: int,
    prizes_paid: Sequence[int],
    loss_fee_cents: int = 0,
    lost_games: int = 0,
) -> CashSheet:
    fees = entry_fee_cents * paying
    losses = loss_fee_cents * lost_games
    paid = sum(prizes_paid)
    return CashSheet(
        entry_fee_cents,
        paying,
        fees,
        loss_fee_cents,
        lost_games,
        losses,
        paid,
        fees + losses - paid,
    )


def place_points(results: Sequence[int]) -> list[int]:
    """Each seat's place points at one table from its results (the module's rule)."""
    seats = len(results)
    if seats < 2:
        return [PLACE_POINTS_TOP] * seats
    points = []
    for mine in results:
        beaten = sum(1 for other in results if other < mine)
        tied = sum(1 for other in results if other == mine) - 1
        # The average of the places covered: (beaten + tied / 2) steps above the last.
        points.append(PLACE_POINTS_TOP * (2 * beaten + tied) // (2 * (seats - 1)))
    return points


def check_scoring(scoring: object) -> str:
    if scoring not in SCORINGS:
        raise RuleViolation("scoring", "must be 'result' or 'place_points'")
    return str(scoring)


def strength(line: Mapping[str, Any], scoring: str) -> tuple[int, ...]:
    """A standings line's strength under ``scoring``'s tie-breaks (``TIE_BREAKS``); a missing
    ``best`` (no series played) counts as 0."""
    return tuple(line[rule] or 0 for rule in TIE_BREAKS[scoring])


NAME_PARTICLES = frozenset(
    ("de", "del", "della", "der", "den", "des", "la", "las", "los", "le", "les", "van", "von")
    + ("zu", "zum", "zur", "da", "das", "do", "dos", "di", "du", "y", "ten", "ter", "vom")
)
"""Words that join a name to the next (compared in lower case): "Ludwig van Beethoven"'s
family name is "van Beethoven", its initial B."""


def display_name(name: str, display: str) -> str:
    """An entrant's name as the public results show it, as chosen at registration: ``full``,
    or ``initial``: the first name and the initial of the family name, particles skipped.

    After the first word, the name falls into parts: each a word, with the particles before it
    ("de los Ángeles"). A part that begins with a particle and is followed by another part
    still belongs to the given name ("María de los Ángeles Fernández": "María F."); of the
    family name the first part counts ("María García López": "María G."; "Ludwig van
    Beethoven": "Ludwig B."; "Anna-Katharina Berger": "Anna-Katharina B."). A name of one word,
    or of particles alone after the first, is shown whole either way. The registration page
    shows this function's answer (``previewDisplayNames``): the rule lives here only."""
    words = name.split()
    if display != "initial" or len(words) < 2:
        return name
    parts: list[tuple[bool, str]] = []  # (begins with a particle, its word)
    leading = False
    for word in words[1:]:
        if word.casefold() in NAME_PARTICLES:
            leading = True
            continue
        parts.append((leading, word))
        leading = False
    while len(parts) > 1 and parts[0][0]:
        parts.pop(0)
    if not parts:
        return name
    return f"{words[0]} {parts[0][1][0]}."
