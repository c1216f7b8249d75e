"""An open tournament of 600 players at 150 tables through the API, as its day goes.

    .venv/bin/python -m bench.tournament_load [--players 600] [--waiting 20] [--series 2]
        [--hands 6] [--phones 32] [--pg URL]

Starts the service as ``make serve`` runs it (gunicorn with gunicorn.conf.py, 2 workers; SQLite
in a temporary directory, or the PostgreSQL at ``--pg``, whose public schema is dropped) and
drives one tournament of the American game at tables of four, over HTTP:

1. the director creates it (a cap of ``--players``, an entry fee of 10.00, three prizes);
2. ``--players`` + ``--waiting`` players register through its public link, ``--phones`` at a
   time (the last ``--waiting`` go on the waiting list);
3. the director checks in every player holding a place, one call each (two tablets at the
   door);
4. for each of ``--series`` series: the director draws it, then every table plays ``--hands``
   hands from two phones with its table's link (one records each hand with an
   Idempotency-Key, the other then reads the table and its sheet, as the pad does),
   ``--phones`` phones at a time across the tables;
5. the director reads the standings and the prize list with the cash sheet.

Checked as it goes (the run fails, printing why, on any of these): every answer is the one its
step expects (201 or 200, or 201 ``waiting`` for the last registrations); every checked-in
player is seated exactly once per series; every table's chips add up to nothing (its players'
balances and its pool, as the American game keeps them); every checked-in player is ranked;
the cash sheet takes each fee once and pays the prize list to the cent.

Printed: each step's wall time and its requests' p50, p99 and max latency, and their rate.
"""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.tournament_load")

from bench.http import SERVICE_ENV  # noqa: E402
from bench.tables import random_hand  # noqa: E402
from tests.support import Gunicorn, migrated_app  # noqa: E402

FIRST_NAMES = ["Anna-Katharina", "José María", "Friederike", "Lucía", "Jonas", "Inés", "Kai"]
LAST_NAMES = ["Berger", "Fernández-Castillo", "Moser-Lindqvist", "Weber", "Ortega", "Schäfer"]


class Refused(Exception):
    """An answer other than the step expects: the run fails with it."""


@dataclass
class Step:
    """One step's requests: their latencies (s) and statuses, and its wall time."""

    name: str
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    started: float = field(default_factory=time.perf_counter)
    seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, seconds: float, status: int) -> None:
        with self._lock:
            self.latencies.append(seconds)
            self.statuses[status] += 1

    def line(self) -> str:
        ms = sorted(1000 * s for s in self.latencies)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        return (
            f"{self.name:<34} {self.seconds:7.1f} s {len(ms):6} requests "
            f"{len(ms) / self.seconds:7.0f}/s  p50 {statistics.median(ms):7.1f} ms  "
            f"p99 {p99:7.1f} ms  max {ms[-1]:7.1f} ms  {dict(self.statuses)}"
        )


class Client:
    """requests with a kept-alive session per thread, each answer timed into a step."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._local = threading.local()

    def call(
        self,
        step: Step,
        method: str,
        path: str,
        token: str | None,
        expect: Iterable[int],
        **kwargs: Any,
    ) -> Any:
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        answer = session.request(method, self.url + path, headers=headers, timeout=60, **kwargs)
        step.note(time.perf_counter() - started, answer.status_code)
        if answer.status_code not in set(expect):
            raise Refused(f"{method} {path}: {answer.status_code} {answer.text[:300]}")
        return answer.json() if answer.content else None


def in_parallel(phones: int, jobs: list[Callable[[], Any]]) -> list[Any]:
    with ThreadPoolExecutor(phones) as pool:
        return [future.result() for future in [pool.submit(job) for job in jobs]]


def run(url: str, args: argparse.Namespace, rng: random.Random) -> list[Step]:
    client = Client(url)
    steps: list[Step] = []

    def step(name: str) -> Step:
        if steps:
            steps[-1].seconds = time.perf_counter() - steps[-1].started
        steps.append(Step(name))
        return steps[-1]

    setup = step("the club and the tournament")
    club = client.call(setup, "POST", "/api/v1/clubs", None, [201], json={"name": "SC Köln"})
    admin = club["admin_token"]
    tournament = client.call(
        setup,
        "POST",
        f"/api/v1/clubs/{club['id']}/tournaments",
        admin,
        [201],
        json={
            "name": "Preis-Solo 2026",
            "variant": "american",
            "table_sizes": [4],
            "series": args.series,
            "hands_per_series": args.hands,
            "cap": args.players,
            "entry_fee_cents": 1000,
            "prizes": [{"per_mille": 400}, {"per_mille": 250}, {"cents": 5000}],
        },
    )
    tid, link = tournament["id"], tournament["registration_token"]

    registering = step(f"{args.players + args.waiting} registrations (link)")

    entries = [
        {
            "name": f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)} {number}",
            "club": "SC Bonn",
            "display": rng.choice(["full", "initial"]),
        }
        for number in range(args.players + args.waiting)
    ]

    def register(number: int) -> dict[str, Any]:
        return client.call(
            registering,
            "POST",
            f"/api/v1/tournaments/{tid}/registrations",
            link,
            [201],
            json=entries[number],
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )

    # One after another for the order of the waiting list, then the rest side by side.
    entrants = in_parallel(args.phones, [lambda n=n: register(n) for n in range(args.players)])
    entrants += [register(args.players + n) for n in range(args.waiting)]
    statuses = Counter(e["status"] for e in entrants)
    if statuses != Counter({"registered": args.players}) + Counter({"waiting": args.waiting}):
        raise Refused(f"registrations: {dict(statuses)}")

    checking_in = step(f"{args.players} check-ins (2 tablets)")
    in_parallel(
        2,
        [
            lambda e=e: client.call(
                checking_in,
                "PATCH",
                f"/api/v1/tournaments/{tid}/entrants/{e['id']}",
                admin,
                [200],
                json={"status": "checked_in"},
            )
            for e in entrants
            if e["status"] == "registered"
        ],
    )
    listed = client.call(
        checking_in, "GET", f"/api/v1/tournaments/{tid}/entrants?status=checked_in", admin, [200]
    )
    players = {e["player_id"] for e in listed}
    if len(players) != args.players:
        raise Refused(f"{len(players)} checked in, not {args.players}")

    for number in range(1, args.series + 1):
        drawing = step(f"series {number}: the draw")
        series = client.call(
            drawing, "POST", f"/api/v1/tournaments/{tid}/series", admin, [201], json={}
        )
        seated = [s["player_id"] for t in series["tables"] for s in t["seats"]]
        if sorted(seated) != sorted(players):
            raise Refused(f"series {number}: not every player seated exactly once")
        links = {
            t["table_id"]: client.call(
                drawing, "POST", f"/api/v1/tables/{t['table_id']}/token", admin, [200, 201]
            )["table_token"]
            for t in series["tables"]
        }
        playing = step(f"series {number}: {len(links)} tables × {args.hands} hands")
        tables = [(table, token, random.Random(rng.random())) for table, token in links.items()]
        in_parallel(
            args.phones,
            [
                lambda table=table, token=token, dealt=dealt, playing=playing: play_table(
                    client, playing, table, token, args.hands, dealt
                )
                for table, token, dealt in tables
            ],
        )

    results = step("standings and prizes")
    standings = client.call(results, "GET", f"/api/v1/tournaments/{tid}/standings", admin, [200])
    ranked = {line["player_id"] for line in standings["standings"]}
    if ranked != players:
        raise Refused(f"standings rank {len(ranked)} of {len(players)} players")
    prizes = client.call(results, "GET", f"/api/v1/tournaments/{tid}/prizes", admin, [200])
    sheet = prizes["cash_sheet"]
    paid = sum(p["cents"] for p in prizes["prize_list"])
    if sheet["fees_cents"] != 1000 * args.players or sheet["prizes_cents"] != paid:
        raise Refused(f"cash sheet {sheet} against {paid} paid")
    if sheet["fees_cents"] + sheet["losses_cents"] != paid + sheet["remains_cents"]:
        raise Refused(f"cash sheet does not add up: {sheet}")
    results.seconds = time.perf_counter() - results.started
    return steps


def play_table(
    client: Client, step: Step, table_id: str, token: str, hands: int, rng: random.Random
) -> None:
    """Two phones at one table: one records each hand, the other then reads the table and its
    sheet; at the end the table's chips must add up to nothing."""
    path = f"/api/v1/tables/{table_id}"
    for _ in range(hands):
        hand = {"variant": "american", **random_hand(rng)}
        client.call(
            step,
            "POST",
            f"{path}/hands",
            token,
            [201],
            json=hand,
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        client.call(step, "GET", path, token, [200])
        client.call(step, "GET", f"{path}/hands?page=1&page_size=100", token, [200])
    table = client.call(step, "GET", path, token, [200])
    chips = sum(seat["balance"] for seat in table["seats"]) + table["pool"]
    if chips != 0:
        raise Refused(f"table {table_id}: the chips add up to {chips}, not 0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600, help="a multiple of 4")
    parser.add_argument("--waiting", type=int, default=20)
    parser.add_argument("--series", type=int, default=2)
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--phones", type=int, default=32)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    args = parser.parse_args()
    if args.players % 4:
        parser.error("--players: a multiple of 4 (tables of four)")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="tournament-load-"))
    try:
        database = migrated_app(args.pg, tmp).config["SQLALCHEMY_DATABASE_URI"]
        with Gunicorn(database, workers=2, **SERVICE_ENV) as service:
            started = time.perf_counter()
            try:
                steps = run(service.url, args, random.Random(7))
            except Refused as refused:
                sys.exit(f"FAILED: {refused}")
            whole = time.perf_counter() - started
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(
        f"a tournament of {args.players} players (+{args.waiting} waiting), "
        f"{args.players // 4} tables, {args.series} series of {args.hands} hands, "
        f"{args.phones} phones at a time, {'PostgreSQL' if args.pg else 'SQLite'}, 2 workers"
    )
    for done in steps:
        print(done.line())
    total = sum(len(s.latencies) for s in steps)
    print(f"in all {total} requests in {whole:.1f} s; every answer as expected")


if __name__ == "__main__":
    main()
