"""Who pays whom at the end of a sitting: the fewest cash transfers that clear all balances.

Pure. Parties are seat numbers or ``"pool"``; a positive balance is owed to its party.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from .base import Party

# Exact search over subsets is 3^n; beyond this many parties the greedy answer is used.
EXACT_LIMIT = 12


def split_pool(pool: int, seats: int) -> list[int]:
    """Share ``pool`` evenly; the remainder goes one chip each to the lowest seat numbers."""
    share, remainder = divmod(pool, seats)
    return [share + (1 if seat < remainder else 0) for seat in range(seats)]


def fewest_transfers(balances: Sequence[tuple[Party, int]]) -> list[tuple[Party, Party, int]]:
    """Transfers ``(payer, payee, chips)`` that bring every balance to zero.

    The number of transfers is the number of parties with a non-zero balance minus the most
    groups they can be split into that each sum to zero (exact up to ``EXACT_LIMIT``
    parties). Within a group the largest debtor pays the largest creditor, ties broken by
    the order given, so the answer is deterministic.
    """
    if sum(b for _, b in balances) != 0:
        raise ValueError("balances do not sum to zero")
    open_parties = [(p, b) for p, b in balances if b != 0]
    groups = _zero_sum_groups([b for _, b in open_parties])
    transfers: list[tuple[Party, Party, int]] = []
    for group in groups:
        transfers.extend(_settle_group([open_parties[i] for i in group]))
    return transfers


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    n = len(amounts)
    if n == 0:
        return []
    if n > EXACT_LIMIT:
        return [list(range(n))]
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]

    @cache
    def best(mask: int) -> tuple[int, tuple[int, ...]]:
        # Most zero-sum groups that partition ``mask`` (whose sum is zero); the group holding
        # the lowest member is chosen first so the search is canonical.
        if mask == 0:
            return 0, ()
        low = mask & -mask
        rest = mask ^ low
        choice: tuple[int, tuple[int, ...]] = (1, (mask,))
        sub = rest
        while sub:
            group = sub | low
            if group != mask and sums[group] == 0:
                count, parts = best(mask ^ group)
                if count + 1 > choice[0]:
                    choice = (count + 1, (group, *parts))
            sub = (sub - 1) & rest
        return choice

    _, masks = best(full)
    return [[i for i in range(n) if m >> i & 1] for m in masks]


def _settle_group(members: list[tuple[Party, int]]) -> list[tuple[Party, Party, int]]:
    order = {party: index for index, (party, _) in enumerate(members)}
    owes = {p: -b for p, b in members if b < 0}  # what each debtor has still to pay
    gets = {p: b for p, b in members if b > 0}  # what each creditor has still to get
    transfers: list[tuple[Party, Party, int]] = []
    while owes and gets:
        # The largest debt pays the largest claim; ties go to the party listed first.
        debtor = min(owes, key=lambda p: (-owes[p], order[p]))
        creditor = min(gets, key=lambda p: (-gets[p], order[p]))
        chips = min(owes[debtor], gets[creditor])
        transfers.append((debtor, creditor, chips))
        owes[debtor] -= chips
        gets[creditor] -= chips
        owes = {p: left for p, left in owes.items() if left}
        gets = {p: left for p, left in gets.items() if left}
    return transfers
