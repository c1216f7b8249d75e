"""Our reads against a peer's: I Hate Money 7.2.1 showing a project and its bills, in one run.

    python3 -m venv /tmp/ihm-venv && /tmp/ihm-venv/bin/pip install ihatemoney==7.2.1 gunicorn
    .venv/bin/python -m bench.peer_reads [--peer-venv /tmp/ihm-venv] [--seconds 5] [--rounds 3]

Four servers on SQLite, each in its own temporary directory, 2 gunicorn workers each, driven
by wrk (2 threads, 16 kept-alive connections, as bench/peer_writes.py):

  ours      the service as ``make serve`` runs it (gunicorn.conf.py: the threaded worker);
            ``TABLES`` tables of a season, each with ``HANDS`` random valid American hands,
            read with each table's token (the club's admin token for the standings), no
            ``If-None-Match``
  ours-sync the same database under gunicorn's sync workers
  peer      I Hate Money under gunicorn's sync workers with its default settings (SQLite's
            rollback journal); ``TABLES`` projects of four members, each with ``HANDS``
            bills, read with each project's bearer token
  peer-wal  the same on an SQLite file in WAL mode (its connections keep SQLite's default
            ``synchronous=FULL``: durable in WAL too): the peer at its best durable setting

What is read, ours beside the peer's that answers the same need:

  table     GET /api/v1/tables/{id}                    vs  project   GET /api/projects/{id}
  hands     GET /api/v1/tables/{id}/hands?page_size=40 vs  bills     GET /api/projects/{id}/bills
            (the pad's sheet; the peer's list is all of a project's bills, as many)
  standings GET /api/v1/seasons/{id}/standings         vs  project   (its members' balances)
                                                       and statistics GET …/statistics

Each server is warmed up first (every worker has read every table), then rounds go scenario
by scenario, ours and the peers' in turn, so that what else the machine does weighs on all
alike. No request asks for compression (none does on either side). Every answer is counted
by its status: anything but a 2xx or a 304 fails the run. Printed: each round's requests a
second with p50/p99, and the ratios ours/peer per round with their medians (target for the
hands: ≥ 5× the peer's bills list).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.peer_reads")

import requests  # noqa: E402

from bench.http import SERVICE_ENV, run_wrk, script  # noqa: E402
from bench.peer_writes import (  # noqa: E402
    FORM,
    OURS,
    PEER,
    PEERS,
    add_bill,
    peer_arguments,
    peer_bills,
    peer_project,
    peer_server,
    statuses_counted,
)
from bench.tables import random_hand  # noqa: E402
from tests.support import ApiClient, Gunicorn, migrated_app  # noqa: E402

TABLES = 10
HANDS = 40
HANDS_TARGET = 5.0

PAIRS = [
    ("table", "project"),
    ("hands", "bills"),
    ("standings", "project"),
    ("standings", "statistics"),
]


def gets(paths: list[str], headers: list[dict[str, str]]) -> str:
    """A wrk script reading a random one of ``paths`` with its headers, counting statuses."""
    return statuses_counted(script("GET", paths, headers, None))


def ours(tmp: Path) -> tuple[str, dict[str, str]]:
    """Our database: a club, a season and ``TABLES`` tables of it with ``HANDS`` hands each;
    its URL and the wrk script of each scenario."""
    app = migrated_app(None, tmp)
    api = ApiClient(app.test_client())
    club = api.club("Bench")
    admin = api.auth(club["admin_token"])
    season = api.client.post(
        f"/api/v1/clubs/{club['id']}/seasons",
        json={"name": "Winter", "variant": "american"},
        headers=admin,
    )
    assert season.status_code == 201, season.json
    rng = random.Random(7)
    tables = []
    for number in range(TABLES):
        opened = api.client.post(
            "/api/v1/tables",
            json={
                "club_id": club["id"],
                "name": f"Evening {number}",
                "variant": "american",
                "seats": api.players(club, 4),
                "first_dealer": 0,
                "season_id": season.json["id"],
            },
            headers=admin,
        )
        assert opened.status_code == 201, opened.json
        table = opened.json
        tables.append(table)
        for _ in range(HANDS):
            assert api.record(table, random_hand(rng)).status_code == 201
    auth = [api.auth(t["table_token"]) for t in tables]
    views = [f"/api/v1/tables/{t['id']}" for t in tables]
    standings = f"/api/v1/seasons/{season.json['id']}/standings"
    return app.config["SQLALCHEMY_DATABASE_URI"], {
        "table": gets(views, auth),
        "hands": gets([f"{v}/hands?page_size={HANDS}" for v in views], auth),
        "standings": gets([standings], [admin]),
    }


def peers(url: str) -> dict[str, str]:
    """``TABLES`` projects of the peer with ``HANDS`` bills each; the wrk script of each of
    its scenarios."""
    rng = random.Random(8)
    tokens, paths = [], []
    for number in range(TABLES):
        project = f"bench{number}"
        token, members = peer_project(url, project)
        for bill in peer_bills(rng, members, HANDS):
            add_bill(url, project, {**token, **FORM}, bill)
        tokens.append(token)
        paths.append(f"/api/projects/{project}")
    listed = requests.get(f"{url}{paths[0]}/bills", headers=tokens[0], timeout=30)
    assert listed.status_code == 200 and len(listed.json()) == HANDS, listed.text
    return {
        "project": gets(paths, tokens),
        "bills": gets([f"{p}/bills" for p in paths], tokens),
        "statistics": gets([f"{p}/statistics" for p in paths], tokens),
    }


def main() -> None:
    args = peer_arguments(__doc__.splitlines()[0], seconds=5, rounds=3)
    tmp = Path(tempfile.mkdtemp(prefix="bench-peer-reads-"))
    database, our_scripts = ours(tmp)
    print(
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (other programs share the machine)"
    )
    print(
        f"reads on SQLite, wrk -t2 -c16, {args.seconds} s a round, 2 workers each; {TABLES} "
        f"tables of {HANDS} hands (ours) and {TABLES} projects of {HANDS} bills ({PEER})"
    )
    print(
        f"{'round':>5} {'server':>9} {'read':>10} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'errors':>6} {'not 2xx/304':>11}"
    )
    rates: dict[tuple[str, str], list[float]] = {}
    failures = 0
    with contextlib.ExitStack() as servers:
        runs: list[tuple[str, str, str, str]] = []  # server, read, url, script
        for server, extra in OURS.items():
            service = servers.enter_context(Gunicorn(database, workers=2, **SERVICE_ENV, **extra))
            runs += [(server, name, service.url, lua) for name, lua in our_scripts.items()]
        for server, wal in PEERS.items():
            (tmp / server).mkdir()
            url = servers.enter_context(peer_server(args.peer_venv, tmp / server, wal=wal))
            runs += [(server, name, url, lua) for name, lua in peers(url).items()]
        for _, _, url, lua in runs:  # every worker reads every table once before timing
            run_wrk(url, lua, 1)
        order = ["table", "project", "hands", "bills", "standings", "statistics"]
        runs.sort(key=lambda run: order.index(run[1]))
        for round_number in range(1, args.rounds + 1):
            for server, name, url, lua in runs:
                figures = run_wrk(url, lua, args.seconds)
                rates.setdefault((server, name), []).append(figures["rps"])
                failures += int(figures["errors"] + figures["bad"])
                print(
                    f"{round_number:>5} {server:>9} {name:>10} {figures['rps']:7.0f} "
                    f"{figures['p50_us'] / 1000:7.2f} {figures['p99_us'] / 1000:7.2f} "
                    f"{figures['errors']:6d} {figures['bad']:11d}",
                    flush=True,
                )
    shutil.rmtree(tmp, ignore_errors=True)
    print(
        "median req/s: "
        + ", ".join(f"{s} {n} {statistics.median(r):.0f}" for (s, n), r in rates.items())
    )
    for (mine, theirs), server, peer in itertools.product(PAIRS, OURS, PEERS):
        ratios = [o / p for o, p in zip(rates[(server, mine)], rates[(peer, theirs)], strict=True)]
        median = statistics.median(ratios)
        target = (
            f" (target ≥ {HANDS_TARGET:g}: {'ok' if median >= HANDS_TARGET else 'MISS'})"
            if mine == "hands"
            else ""
        )
        print(
            f"{server} {mine}/{peer} {theirs} per round: "
            f"{', '.join(f'{r:.2f}' for r in ratios)}; median {median:.2f}{target}"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if failures:
        sys.exit(f"{failures} requests failed or answered other than 2xx/304")


if __name__ == "__main__":
    main()
