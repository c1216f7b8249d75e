"""How recording and correcting hands scale with the length of a table's history.

    .venv/bin/python -m bench.tables [--hands 500] [--pg postgresql://postgres@127.0.0.1/bench]

Records HANDS random valid American hands through the HTTP layer (Flask test client, real
database) and prints the median time to record hands 1-10 against the last ten, then the time
to correct hand 1 (a change that moves the pool, so every later hand is settled again) and one
that leaves the pool as it was (the re-settlement stops at hand 2). SQLite in a temp dir by
default; with --pg, a PostgreSQL database whose public schema it drops and re-creates.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.tables")

from tests.support import ApiClient, migrated_app  # noqa: E402

TRUMPS = ["clubs", "spades", "hearts", "diamonds"]


def random_hand(rng: random.Random) -> dict:
    """A valid American hand for 4 players: solos and simple games, won and lost."""
    declarer = rng.randrange(4)
    trump = rng.choice(TRUMPS)
    if rng.random() < 0.5:
        return _with_tricks(
            {"contract": "solo", "trump": trump, "declarer": declarer}, rng.randint(0, 8)
        )
    partner = rng.choice([s for s in range(4) if s != declarer])
    called = rng.choice([s for s in TRUMPS if s != trump])
    return _with_tricks(
        {
            "contract": "simple",
            "trump": trump,
            "declarer": declarer,
            "called": {"rank": "ace", "suit": called},
            "partner": partner,
        },
        rng.randint(0, 8),
    )


def _with_tricks(hand: dict, tricks: int) -> dict:
    """All eight tricks outside a tout means the side led to the sixth: the rulebook requires
    ``tout_after_five`` then (a hand without it is refused)."""
    return {**hand, "tricks": tricks, **({"tout_after_five": True} if tricks == 8 else {})}


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def run(database: str | None, hands: int) -> None:
    tmp = Path(tempfile.mkdtemp())
    app = migrated_app(database, tmp)
    api = ApiClient(app.test_client())
    table = api.table()
    rng = random.Random(7)
    durations = []
    for _ in range(hands):
        seconds, response = timed(lambda: api.record(table, random_hand(rng)))
        assert response.status_code == 201, response.json
        durations.append(seconds)
    early = statistics.median(durations[:10])
    late = statistics.median(durations[-10:])
    kind = "PostgreSQL" if database else "SQLite"
    print(
        f"[{kind}] record: hands 1-10 median {early * 1000:.2f} ms, "
        f"hands {hands - 9}-{hands} median {late * 1000:.2f} ms, ratio {late / early:.2f}"
    )

    url = f"/api/v1/tables/{table['id']}/hands/1"
    headers = api.auth(table["table_token"])
    first = api.client.get(url, headers=headers).json
    # Hand 1 was a lost solo that paid a bête; a won one pays none, so the pool differs and
    # the later hands are settled again.
    moving = {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 6}
    seconds, response = timed(lambda: api.client.put(url, json=moving, headers=headers))
    assert response.status_code == 200, response.json
    print(
        f"[{kind}] correct hand 1 of {hands} (moves the pool; "
        f"{response.json['resettled']} hands settled again): "
        f"{seconds * 1000:.1f} ms ({seconds / early:.1f}x one record)"
    )
    # The same record with the tricks changed but the same result leaves the state alone.
    same_state = {**moving, "tricks": 7}
    seconds, response = timed(lambda: api.client.put(url, json=same_state, headers=headers))
    assert response.status_code == 200, response.json
    print(
        f"[{kind}] correct hand 1 of {hands} (same state after it; "
        f"{response.json['resettled']} hands settled again): {seconds * 1000:.1f} ms"
    )
    # The worst case: hand 1 becomes a misdeal, so the same dealer deals again and every
    # later hand has another dealer; nothing converges and all of them are settled again.
    seconds, response = timed(
        lambda: api.client.put(url, json={"kind": "misdeal"}, headers=headers)
    )
    assert response.status_code == 200, response.json
    print(
        f"[{kind}] correct hand 1 of {hands} into a misdeal (shifts every dealer; "
        f"{response.json['resettled']} hands settled again): {seconds * 1000:.1f} ms"
    )
    api.client.put(url, json=first["hand"], headers=headers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    args = parser.parse_args()
    run(None, args.hands)
    if args.pg:
        run(args.pg, args.hands)


if __name__ == "__main__":
    main()
