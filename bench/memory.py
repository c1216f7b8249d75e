"""Does a worker's memory stay flat as hands pile up?

    .venv/bin/python -m bench.memory [--hands 100000]

Records random valid American hands over 50 tables through the app in this process (the Flask
test client, SQLite in a temp dir), as one gunicorn worker would, and prints the resident set
size after 1,000 hands, every 10,000 and after HANDS, with the ratio (the performance issue's
target: within 1.2×). Each hand is followed by a read of its table, so the per-worker caches
(rendered tables, token digests) are filled as a real evening fills them.
"""

from __future__ import annotations

import argparse
import gc
import logging
import random
import sys
import tempfile
from pathlib import Path

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.memory")

from bench.tables import random_hand  # noqa: E402
from tests.support import ApiClient, migrated_app  # noqa: E402

TABLES = 50


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    args = parser.parse_args()
    logging.disable(logging.INFO)  # the access log would only measure the console
    app = migrated_app(None, Path(tempfile.mkdtemp()))
    api = ApiClient(app.test_client())
    club = api.club("Memory")
    tables = [api.table(club=club) for _ in range(TABLES)]
    rng = random.Random(5)
    baseline = None
    for recorded in range(1, args.hands + 1):
        table = rng.choice(tables)
        response = api.record(table, random_hand(rng))
        assert response.status_code == 201, response.json
        api.get_table(table)
        if recorded % 10_000 == 0 and baseline is not None and recorded < args.hands:
            gc.collect()
            print(f"after {recorded:>7,} hands: {rss_mib():7.1f} MiB", flush=True)
        if recorded == 1_000:
            gc.collect()
            baseline = rss_mib()
            print(f"after {recorded:>7,} hands: {baseline:7.1f} MiB", flush=True)
    gc.collect()
    final = rss_mib()
    assert baseline is not None, "record at least 1,000 hands"
    print(
        f"after {args.hands:>7,} hands: {final:7.1f} MiB  (ratio {final / baseline:.2f}, "
        f"target ≤ 1.2)"
    )


if __name__ == "__main__":
    main()
