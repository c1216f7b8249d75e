"""The director's console of a tournament of many tables (``getTournamentConsole``): what one
read costs, and how many statements it runs, at 150 tables.

    .venv/bin/python -m bench.tournament_console [--tables 150] [--reads 30] [--pg URL]

Builds a tournament through the API (in-process, Flask's test client; SQLite in a temp dir
unless --pg): 4 × ``--tables`` entrants registered and checked in, the first series drawn at
tables of four, a hand recorded at every table, the series completed at a tenth of them, a
hand disputed at another tenth, two confirmations at a third tenth. Then reads the console
``--reads`` times with a stand-in stream hub (every token holds one stream) and prints the
median and the slowest read in milliseconds and the statements of one read, beside the same
for a tournament of 2 tables (the statements must be equal: one per kind, none per table).
Exits non-zero if a read fails or the counts differ.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if not __package__:
    sys.exit("Run from the project root: .venv/bin/python -m bench.tournament_console")

from sqlalchemy import event  # noqa: E402

from tests.support import ApiClient, migrated_app  # noqa: E402

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


class StandInHub:
    """The worker's stream hub as the console reads it: every token holds one stream."""

    def held(self, key: str) -> int:
        return 1 if key.startswith("token:") else 0


def build(client: Any, api: ApiClient, tables: int) -> tuple[str, dict[str, str]]:
    club = api.club(f"Club {tables}")
    admin = api.auth(club["admin_token"])
    created = client.post(
        f"/api/v1/clubs/{club['id']}/tournaments",
        json={
            "name": "Preis-Solo",
            "variant": "american",
            "table_sizes": [4],
            "hands_per_series": 2,
            "series": 2,
        },
        headers=admin,
    ).json
    url = f"/api/v1/tournaments/{created['id']}"
    link = api.auth(created["registration_token"])
    for n in range(4 * tables):
        entrant = client.post(f"{url}/registrations", json={"name": f"P {n}"}, headers=link).json
        answer = client.patch(
            f"{url}/entrants/{entrant['id']}", json={"status": "checked_in"}, headers=admin
        )
        assert answer.status_code == 200, answer.json
    series = client.post(f"{url}/series", json={"seed": 1}, headers=admin).json
    for index, table in enumerate(series["tables"]):
        hand_url = f"/api/v1/tables/{table['table_id']}/hands"
        assert client.post(hand_url, json=SOLO, headers=admin).status_code == 201
        if index % 10 in (0, 2):
            assert client.post(hand_url, json=SOLO, headers=admin).status_code == 201
        results = f"{url}/tables/{table['table_id']}"
        if index % 10 == 1:
            body = {"seat": 1, "hand": 1, "reason": "x"}
            assert client.post(f"{results}/disputes", json=body, headers=admin).status_code == 201
        if index % 10 == 2:
            for seat in (1, 2):
                # The director names no seat: the bench confirms with the table's token.
                token = client.post(
                    f"/api/v1/tables/{table['table_id']}/token", headers=admin
                ).json["table_token"]
                answer = client.post(
                    f"{results}/confirmations", json={"seat": seat}, headers=api.auth(token)
                )
                assert answer.status_code == 200, answer.json
    return url, admin


def read(client: Any, url: str, admin: dict[str, str], engine: Any) -> tuple[float, int]:
    seen: list[str] = []

    def note(*args: Any) -> None:
        seen.append(args[2])

    event.listen(engine, "before_cursor_execute", note)
    try:
        start = time.perf_counter()
        answer = client.get(
            f"{url}/console", headers=admin, environ_overrides={"solo.streams": StandInHub()}
        )
        took = time.perf_counter() - start
    finally:
        event.remove(engine, "before_cursor_execute", note)
    if answer.status_code != 200:
        sys.exit(f"console answered {answer.status_code}: {answer.json}")
    return took, len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--reads", type=int, default=30)
    parser.add_argument("--pg", default=None)
    args = parser.parse_args()
    from service.extensions import db

    with tempfile.TemporaryDirectory() as tmp:
        app = migrated_app(args.pg, Path(tmp), RATELIMIT_ENABLED=False)
        with app.app_context():
            engine = db.engine
        client = app.test_client()
        api = ApiClient(client)
        started = time.perf_counter()
        small = build(client, api, 2)
        large = build(client, api, args.tables)
        print(f"built in {time.perf_counter() - started:.1f} s")
        counts = []
        for tables, (url, admin) in ((2, small), (args.tables, large)):
            runs = [read(client, url, admin, engine) for _ in range(args.reads)]
            times = [t for t, _ in runs]
            counts.append(runs[-1][1])
            print(
                f"{tables:4d} tables: median {statistics.median(times) * 1000:7.1f} ms, "
                f"slowest {max(times) * 1000:7.1f} ms, {runs[-1][1]} statements a read"
            )
        if counts[0] != counts[1]:
            sys.exit(f"statements differ: {counts}")


if __name__ == "__main__":
    main()
