"""What a page of a table's hands costs inside the app, against its size in bytes.

    .venv/bin/python -m bench.hand_pages [--hands 40] [--reads 300] [--pg URL]

A table of American Solo with ``--hands`` hands (random valid ones, a few corrected and one
voided, as an evening has), read as the pad's sheet reads it (``GET /api/v1/tables/{id}/hands``
with its table token) through the app's WSGI callable: no gunicorn, no sockets. For pages of 1,
10 and ``--hands`` hands: the median time of a read whose hands were rendered before (warm), of
one whose renderings were all dropped first (cold: each hand worded and dumped again), the
answer's bytes, and the warm time per KiB; and the table's view (``GET /api/v1/tables/{id}``,
kept per worker too) as the yardstick. The warm cost should grow with the bytes, not with
the hands' wording: its µs per KiB stays about the same from the small page to the large.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.tables import random_hand
from tests.support import ApiClient, migrated_app


def median_us(
    call: Callable[[], object], reads: int, before: Callable[[], None] | None = None
) -> float:
    times = []
    for _ in range(reads):
        if before is not None:
            before()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--pg", default=None, help="a PostgreSQL URL (its schema is dropped)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = migrated_app(args.pg, Path(tmp))
        client = app.test_client()
        api = ApiClient(client)
        table = api.table()
        rng = random.Random(5)
        for _ in range(args.hands):
            assert api.record(table, random_hand(rng)).status_code == 201
        auth = api.auth(table["table_token"])
        path = f"/api/v1/tables/{table['id']}/hands"
        for number in range(2, args.hands, 7):  # a few corrected, one voided
            changed = client.put(f"{path}/{number}", json=random_hand(rng), headers=auth)
            assert changed.status_code in (200, 422), changed.json
        if args.hands > 3:
            assert client.delete(f"{path}/3", headers=auth).status_code == 200

        def forget() -> None:
            app.extensions.pop("rendered_hands", None)

        print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}, load average {os.getloadavg()[0]:.2f}")
        view = f"/api/v1/tables/{table['id']}"
        table_us = median_us(lambda: client.get(view, headers=auth), args.reads)
        print(f"the table's view (GET {view.replace(table['id'], '{id}')}): {table_us:.0f} µs")
        print(f"{'hands':>5} {'bytes':>7} {'warm µs':>8} {'cold µs':>8} {'warm µs/KiB':>11}")
        for size in sorted({1, 10, args.hands}):
            url = f"{path}?page_size={size}"

            def read(url: str = url) -> bytes:
                answer = client.get(url, headers=auth)
                assert answer.status_code == 200, answer.status_code
                return answer.data

            body = read()
            warm = median_us(read, args.reads)
            cold = median_us(read, max(args.reads // 3, 10), before=forget)
            print(
                f"{size:5d} {len(body):7d} {warm:8.0f} {cold:8.0f} "
                f"{warm / (len(body) / 1024):11.0f}"
            )


if __name__ == "__main__":
    main()
