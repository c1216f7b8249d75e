"""How fast American Solo parses and settles a hand, against a JSON round trip of the same hand.

    .venv/bin/python -m bench.settle [--hands N] [--runs R] [--seed S]

Generates N random valid hand records (seeded ``random.Random``, all kinds, contracts, errors,
matadores and incidental touts, 3-5 players) with a random table state each, then times
``AMERICAN.parse_hand`` + ``AMERICAN.settle`` over all of them (the explanation is always
computed) and ``json.loads(json.dumps(hand))`` over the same hands, best of R runs each. The
target is a ratio of at most 2. Exits non-zero only if something crashes, not on a missed
target.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.settle")

from service.rules.american import AMERICAN  # noqa: E402

SUITS = ("clubs", "spades", "hearts", "diamonds")
CONTRACTS = ("simple", "forcee_simple", "forcee_partout", "solo", "tout")
TABLE_ERRORS = ("revoke", "lead_out_of_turn", "play_out_of_turn", "exposed_card")
OPTION_CHOICES = {
    "couleur_policy": ("fixed", "first_won"),
    "bete_on_lost_solo": ("any", "couleur_only"),
    "matadores": ("either_side", "declaring_side"),
    "incidental_tout": ("double", "literal"),
}
TARGET = 2.0
CHUNK = 500  # hands timed at a go, the two sides taking turns
Case = tuple[int, Any, Any, dict[str, Any]]  # players, options, state (parsed), hand record


def random_hand(rng: random.Random, players: int) -> dict[str, Any]:
    """A valid hand record as a client would send it."""
    roll = rng.random()
    if roll < 0.04:
        return {"kind": "forfeit", "seat": rng.randrange(players)}
    if roll < 0.08:
        return {"kind": "misdeal"}
    contract = rng.choice(CONTRACTS)
    trump = rng.choice(SUITS)
    declarer = rng.randrange(players)
    hand: dict[str, Any] = {
        "kind": "played",
        "contract": contract,
        "trump": trump,
        "declarer": declarer,
        "tricks": rng.randint(0, 8),
    }
    must_call = contract == "simple" or (contract == "forcee_simple" and players > 3)
    may_call = contract != "solo" and (must_call or rng.random() < 0.4)
    partner = None
    if may_call:
        if players == 3 or rng.random() < 0.1:
            partner = declarer  # the caller's own card: a lone game
        else:
            partner = rng.choice([s for s in range(players) if s != declarer])
        rank = "king" if rng.random() < 0.05 else "ace"
        hand["called"] = {"rank": rank, "suit": rng.choice([s for s in SUITS if s != trump])}
        hand["partner"] = partner
    if contract != "tout" and (hand["tricks"] == 8 or (hand["tricks"] >= 5 and rng.random() < 0.2)):
        hand["tout_after_five"] = True  # all eight tricks: the side led to the sixth
    if rng.random() < 0.3:
        side = rng.choice(("declarers", "defenders"))
        most = (6 if trump in ("clubs", "spades") else 7) + (2 if players == 5 else 0)
        if side == "declarers" and (partner is None or partner == declarer):
            most = min(most, 5)  # a lone declarer's 8 cards: the three higher and 5 more
        hand["matadores"] = {"side": side, "lower": rng.randint(0, most)}
    if rng.random() < 0.25:
        errors = []
        for _ in range(rng.randint(1, 3)):
            if partner is not None and partner != declarer and rng.random() < 0.15:
                errors.append({"kind": "unannounced_void", "seat": declarer})
            else:
                errors.append({"kind": rng.choice(TABLE_ERRORS), "seat": rng.randrange(players)})
        hand["errors"] = errors
    return hand


def random_table(rng: random.Random) -> tuple[int, dict[str, Any], dict[str, Any]]:
    players = rng.choice((3, 4, 5))
    options: dict[str, Any] = {"stake": rng.choice((2, 4)), "stamm": rng.choice((16, 20))}
    options.update({name: rng.choice(values) for name, values in OPTION_CHOICES.items()})
    state = {
        "pool": rng.randint(0, 60),
        "couleur": rng.choice(SUITS),
        "dealer": rng.randrange(players),
        "stake_due": rng.random() < 0.8,
        "first_game_won": rng.random() < 0.5,
    }
    return players, options, state


def best_of(
    runs: int, chunks: list[list[Case]], *works: Callable[[list[Case]], None]
) -> list[float]:
    """The best total time of ``runs`` runs of each work over all the chunks. Within a run the
    works take turns chunk by chunk, so a burst of load on a shared machine weighs on every
    side of the ratio alike."""
    best = [float("inf")] * len(works)
    for _ in range(runs):
        totals = [0.0] * len(works)
        for chunk in chunks:
            for i, work in enumerate(works):
                start = time.perf_counter()
                work(chunk)
                totals[i] += time.perf_counter() - start
        best = [min(b, t) for b, t in zip(best, totals, strict=True)]
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    cases: list[Case] = []
    for _ in range(args.hands):
        players, raw_options, raw_state = random_table(rng)
        options = AMERICAN.parse_options(raw_options)
        state = AMERICAN.parse_state(raw_state, players, options)
        cases.append((players, options, state, random_hand(rng, players)))

    parse_hand = AMERICAN.parse_hand
    settle = AMERICAN.settle
    loads, dumps = json.loads, json.dumps

    def settle_all(chunk: list[Case]) -> None:
        for players, options, state, hand in chunk:
            settle(players, options, state, parse_hand(hand, players, options))

    def round_trip_all(chunk: list[Case]) -> None:
        for _players, _options, _state, hand in chunk:
            loads(dumps(hand))

    settle_all(cases)  # once untimed: any crash shows here, before the figures
    chunks = [cases[i : i + CHUNK] for i in range(0, len(cases), CHUNK)]
    settle_time, json_time = best_of(args.runs, chunks, settle_all, round_trip_all)
    n = len(cases)
    ratio = settle_time / json_time
    print(f"hands: {n}, best of {args.runs} runs, Python {sys.version.split()[0]}")
    print(
        f"parse_hand + settle:         {n / settle_time:>10,.0f} hands/s "
        f"({settle_time / n * 1e6:.2f} us a hand)"
    )
    print(
        f"json.loads(json.dumps(hand)): {n / json_time:>10,.0f} hands/s "
        f"({json_time / n * 1e6:.2f} us a hand)"
    )
    verdict = "meets" if ratio <= TARGET else "misses"
    print(f"settle cost / JSON round-trip cost: {ratio:.2f} ({verdict} the target of {TARGET:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
