"""A tournament's followers: how long a hand takes to reach 20,000 people following its public
results from home, through the shipped nginx in front of one instance (issue 42).

    .venv/bin/python -m bench.tournament_followers [--followers 20000] [--tables 150]
        [--seconds 60] [--hand-every 60] [--measured 500] [--poll 0.75]

    DATABASE_URL: the database (default: SQLite in a temp dir, as ``make serve``); a PostgreSQL
    URL at 127.0.0.1 or localhost is used instead, its public schema dropped and re-created.

Sets up a tournament of ``--tables`` tables of four (its entrants checked in, the first series
drawn, its results published), starts the service as ``make serve`` does (gunicorn, 2 workers,
gunicorn.conf.py) and nginx with deploy/nginx.conf in front of it (both of its upstreams this
one instance), then for ``--seconds``:

- **the tables record**: each table a hand every ``--hand-every`` seconds on average (a random
  gap of half to one and a half times it; 150 tables every 60 s: 2.5 hands a second), through
  nginx, as the phones do; the time of each 201 is kept;
- **the followers poll** the public results (``GET /api/v1/public/results/{id}``) as the page
  does (``static/nights/results.js``): every ``--poll`` seconds (the page's period by default),
  ``Accept-Encoding: gzip, deflate, br`` as a browser. ``--measured`` of them are this
  program's own (asyncio, one kept-alive connection each, each on a phase of its own, with
  ``If-None-Match``), which note the moment each new ETag reaches them; the rest are **wrk**
  (C, one kept-alive connection each, a Lua script pausing ¾ to 1¼ of the period before each
  request), which makes the load but cannot tell one connection's answers from another's (no
  If-None-Match: each gets the whole answer every time, more bytes than a browser);
- **an observer** asks for the results every 0.1 s and parses them: which hands each ETag
  holds (each table's hands played).

Printed: for every hand recorded after the first 10 s and at least 5 s before the end, and
every measured follower, the time from the hand's 201 to that follower's first answer holding
it (p50, p99, max; the goal: p99 at most 2 s), the requests each kind of follower sent against
what it was asked to (the generators' own limit: a follower that could not send on time is
late, and then the service looks faster than it is), what reached the service (its workers'
CPU seconds), and every answer that was not 200 or 304 (wrk's non-2xx/3xx and socket errors
too). Exits 1 on any such answer or error, or a hand that never reached a follower; the goal
is judged in words (``held``, ``MISSED``): on a machine shared with other work it says as much
of the machine as of the service.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from bisect import bisect_left
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.tournament_followers")

import requests  # noqa: E402

from bench.capacity import cpu_seconds, database_from_environment, percentile  # noqa: E402
from bench.http import SERVICE_ENV  # noqa: E402
from service.api.public_results import POLL_SECONDS  # noqa: E402
from tests.api.test_league_server import Nginx  # noqa: E402
from tests.support import ApiClient, Gunicorn, migrated_app  # noqa: E402

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
GOAL_P99_SECONDS = 2.0
WARM_UP_SECONDS = 10.0
TAIL_SECONDS = 5.0
OBSERVER_EVERY = 0.1
ACCEPT_ENCODING = "gzip, deflate, br"
FIRST = ["Anna-Katharina", "María", "Jonas", "Lucía", "Friedrich", "Inés", "Kai", "Henrike"]
LAST = ["Berger", "García López", "Weber", "Fernández", "Baumann", "Navarro", "Lindner"]


# --- the tournament -------------------------------------------------------------------------


def set_up(api: ApiClient, tables: int) -> dict[str, Any]:
    """A tournament of ``tables`` tables of four, its first series drawn, its results
    published: its public id and its tables (number, id) with the admin token."""
    club = api.club("Skatfreunde Köln")
    admin = api.auth(club["admin_token"])
    client = api.client
    made = client.post(
        f"/api/v1/clubs/{club['id']}/tournaments",
        json={
            "name": "Preis-Solo 2026",
            "variant": "american",
            "table_sizes": [4],
            "hands_per_series": 200,
            "series": 3,
            "entry_fee_cents": 1500,
            "prizes": [{"per_mille": 500}, {"per_mille": 300}, {"per_mille": 200}],
        },
        headers=admin,
    )
    assert made.status_code == 201, made.json
    tournament = made.json
    for index in range(tables * 4):
        name = f"{FIRST[index % len(FIRST)]} {LAST[index % len(LAST)]} {index + 1}"
        entered = client.post(
            f"/api/v1/tournaments/{tournament['id']}/entrants",
            json={
                "name": name,
                "club": "SC Bonn",
                "display": "initial" if index % 2 else "full",
                "check_in": True,
            },
            headers=admin,
        )
        assert entered.status_code == 201, entered.json
    drawn = client.post(
        f"/api/v1/tournaments/{tournament['id']}/series", json={"seed": 42}, headers=admin
    )
    assert drawn.status_code == 201, drawn.json
    published = client.patch(
        f"/api/v1/tournaments/{tournament['id']}",
        json={"public_results": True, "public_prizes": True},
        headers=admin,
    )
    assert published.status_code == 200, published.json
    return {
        "public_id": published.json["public_id"],
        "admin": admin,
        "tables": [(t["number"], t["table_id"]) for t in drawn.json["tables"]],
    }


# --- the tables recording -------------------------------------------------------------------


def record(
    base: str, setup: dict[str, Any], seconds: float, every: float, seed: int
) -> tuple[list[tuple[int, int, float]], Counter[int]]:
    """Each table records a hand every ``every`` s on average until ``seconds`` have passed:
    (table number, its hands played after it, the 201's moment) for each, and the statuses."""
    rng = random.Random(seed)
    start = time.time()
    due = sorted(
        (start + rng.uniform(0, every), number, table_id) for number, table_id in setup["tables"]
    )
    done: list[tuple[int, int, float]] = []
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    session = requests.Session()
    session.mount("http://", requests.adapters.HTTPAdapter(pool_maxsize=16))

    def one(number: int, table_id: str) -> None:
        try:
            answer = session.post(
                f"{base}/api/v1/tables/{table_id}/hands",
                json=SOLO,
                headers={**setup["admin"], "Idempotency-Key": os.urandom(12).hex()},
                timeout=30,
            )
        except requests.RequestException:
            with lock:
                statuses[0] += 1
            return
        at = time.time()
        with lock:
            statuses[answer.status_code] += 1
            if answer.status_code == 201:
                done.append((number, answer.json()["number"], at))

    with ThreadPoolExecutor(8) as pool:
        while due and due[0][0] < start + seconds:
            at, number, table_id = due.pop(0)
            time.sleep(max(0.0, at - time.time()))
            pool.submit(one, number, table_id)
            due.append((at + every * rng.uniform(0.5, 1.5), number, table_id))
            due.sort()
    return done, statuses


# --- the observer ---------------------------------------------------------------------------


def observe(url: str, stop: threading.Event, seen: dict[str, dict[int, int]]) -> None:
    """Which hands each ETag holds: each table's hands played, as first seen."""
    session = requests.Session()
    while not stop.is_set():
        try:
            answer = session.get(url, headers={"Accept-Encoding": ACCEPT_ENCODING}, timeout=10)
            etag = answer.headers.get("ETag")
            if answer.status_code == 200 and etag and etag not in seen:
                seen[etag] = {t["table"]: t["hands_played"] for t in answer.json()["tables"]}
        except requests.RequestException:
            pass
        stop.wait(OBSERVER_EVERY)


# --- the measured followers (a process of their own) ----------------------------------------


async def follow(
    port: int,
    path: str,
    poll: float,
    until: float,
    rng: random.Random,
    got: list[tuple[float, str]],
    tally: dict[str, Any],
) -> None:
    """One follower: asks every ``poll`` s (If-None-Match its last ETag), noting each new
    ETag's arrival; how late each request went out, beside its plan. Its Host is the one wrk
    and the observer send: nginx keeps a copy per host (its cache key)."""
    etag = ""
    reader = writer = None
    planned = time.time() + rng.uniform(0, poll)
    while planned < until:
        await asyncio.sleep(max(0.0, planned - time.time()))
        tally["late"].append(time.time() - planned)
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            assert reader is not None
            asked = f"If-None-Match: {etag}\r\n" if etag else ""
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: application/json\r\n"
                f"Accept-Encoding: {ACCEPT_ENCODING}\r\n{asked}\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            headers = {}
            for line in head.decode("latin-1").split("\r\n")[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            if "content-length" in headers:
                await reader.readexactly(int(headers["content-length"]))
            elif headers.get("transfer-encoding") == "chunked":
                while True:
                    size = int((await reader.readline()).split(b";")[0], 16)
                    await reader.readexactly(size + 2)
                    if not size:
                        break
            tally["statuses"][status] += 1
            if status == 200 and headers.get("etag") != etag:
                etag = headers.get("etag", "")
                got.append((time.time(), etag))
            if headers.get("connection") == "close":
                writer.close()
                reader = writer = None
        except (OSError, asyncio.IncompleteReadError, ValueError):
            tally["errors"] += 1
            if writer is not None:
                writer.close()
            reader = writer = None
        planned += poll
    if writer is not None:
        writer.close()


def measured_process(
    port: int, path: str, count: int, poll: float, seconds: float, seed: int, out: Any
) -> None:
    async def run() -> dict[str, Any]:
        rng = random.Random(seed)
        until = time.time() + seconds
        tally: dict[str, Any] = {"statuses": Counter(), "errors": 0, "late": []}
        got: list[list[tuple[float, str]]] = [[] for _ in range(count)]
        await asyncio.gather(
            *(follow(port, path, poll, until, rng, got[i], tally) for i in range(count))
        )
        return {
            "got": got,
            "statuses": dict(tally["statuses"]),
            "errors": tally["errors"],
            "late": tally["late"],
        }

    out.send(asyncio.run(run()))
    out.close()


# --- wrk: the other followers ---------------------------------------------------------------

WRK_SCRIPT = """
wrk.method = "GET"
wrk.path = "{path}"
wrk.headers["Accept"] = "application/json"
wrk.headers["Accept-Encoding"] = "{encoding}"
local low, high = {low}, {high}
function setup(thread) math.randomseed(os.time() + tonumber(tostring(thread):match("0x%x+"))) end
function delay() return math.random(low, high) end
"""


def start_wrk(port: int, path: str, count: int, poll: float, seconds: float, tmp: Path) -> Any:
    if count <= 0:
        return None
    script = tmp / "followers.lua"
    ms = poll * 1000
    # Every connection starts at once: a pause of ¾ to 1¼ of the period spreads their phases
    # over the period within the warm-up (the measured followers each start on a phase of its
    # own and keep it).
    script.write_text(
        WRK_SCRIPT.format(
            path=path, encoding=ACCEPT_ENCODING, low=int(ms * 0.75), high=int(ms * 1.25)
        )
    )
    return subprocess.Popen(
        [
            "wrk",
            "-t1",
            f"-c{count}",
            f"-d{int(seconds)}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            f"http://127.0.0.1:{port}{path}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wrk_figures(output: str) -> dict[str, Any]:
    found: dict[str, Any] = {"requests": 0, "bad": 0, "socket_errors": 0}
    done = re.search(r"(\d+) requests in", output)
    if done:
        found["requests"] = int(done.group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if bad:
        found["bad"] = int(bad.group(1))
    errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    if errors:
        found["socket_errors"] = sum(int(n) for n in errors.groups())
        found["socket_errors_said"] = errors.group(0)
    return found


# --- the figures ----------------------------------------------------------------------------


def delays(
    hands: list[tuple[int, int, float]],
    seen: dict[str, dict[int, int]],
    got: list[list[tuple[float, str]]],
    window: tuple[float, float],
) -> tuple[list[float], int, int]:
    """Each (hand, measured follower)'s time from the 201 to the follower's first answer
    holding it; how many never reached it, and the ETags the observer did not see."""
    order = list(seen)  # the observer's order of first sight: the results only grow
    index = {etag: i for i, etag in enumerate(order)}
    counted = [(table, n, at) for table, n, at in hands if window[0] <= at <= window[1]]
    first_holding = []
    for table, n, at in counted:
        holding = next((i for i, e in enumerate(order) if seen[e].get(table, 0) >= n), None)
        first_holding.append((holding, at))
    out: list[float] = []
    unseen = missed_etags = 0
    for follower in got:
        times = [t for t, _ in follower]
        reached: list[int] = []
        best = -1
        for _, etag in follower:
            if etag not in index:
                missed_etags += 1
            best = max(best, index.get(etag, -1))
            reached.append(best)
        for holding, at in first_holding:
            if holding is None:
                unseen += 1
                continue
            # The first answer whose ETag (or an earlier one's) holds it: reached is monotone.
            i = bisect_left(reached, holding)
            if i == len(reached):
                unseen += 1
            else:
                out.append(times[i] - at)
    return out, unseen, missed_etags


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=20000)
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--hand-every", type=float, default=60.0)
    parser.add_argument("--measured", type=int, default=500)
    parser.add_argument("--poll", type=float, default=POLL_SECONDS)
    parser.add_argument("--pg", default=None, help="a PostgreSQL URL ('' for SQLite)")
    args = parser.parse_args(argv)
    nginx_binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx_binary).exists():
        sys.exit("nginx is missing: apt-get install nginx-light")
    measured = min(args.measured, args.followers)
    if args.followers > measured and not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    database = database_from_environment() if args.pg is None else (args.pg or None)
    tmp = Path(tempfile.mkdtemp(prefix="bench-followers-"))
    app = migrated_app(database, tmp)
    setup = set_up(ApiClient(app.test_client()), args.tables)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    # One token records at every table, and every follower is at 127.0.0.1 here.
    env = {**SERVICE_ENV, "SOLO_TRUSTED_PROXIES": "127.0.0.1"}
    path = f"/api/v1/public/results/{setup['public_id']}"
    print(
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (other programs share the machine)",
        flush=True,
    )
    print(
        f"{args.followers:,} followers ({measured:,} measured, {args.followers - measured:,} by "
        f"wrk) polling every {args.poll:g} s; {args.tables} tables of 4 recording a "
        f"hand every {args.hand_every:g} s on average ({args.tables / args.hand_every:.1f} "
        f"hands/s); {args.seconds:g} s; service on "
        f"{'PostgreSQL' if database else 'SQLite'}, 2 workers, behind deploy/nginx.conf",
        flush=True,
    )
    with Gunicorn(url, workers=2, ready_timeout=120, **env) as service:
        prefix = tmp / "nginx"
        prefix.mkdir()
        upstream = f"127.0.0.1:{service.port}"
        with Nginx(nginx_binary, prefix, [upstream, upstream]) as proxy:
            workers = service.worker_pids()
            cpu_before = sum(cpu_seconds(pid) for pid in workers)
            # The measured followers' process first: forked before this one has threads.
            receiving, sending = multiprocessing.Pipe(duplex=False)
            follower_process = multiprocessing.Process(
                target=measured_process,
                args=(proxy.port, path, measured, args.poll, args.seconds, 7, sending),
            )
            follower_process.start()
            stop = threading.Event()
            seen: dict[str, dict[int, int]] = {}
            observer = threading.Thread(
                target=observe, args=(proxy.url + path, stop, seen), daemon=True
            )
            observer.start()
            wrk = start_wrk(
                proxy.port, path, args.followers - measured, args.poll, args.seconds, tmp
            )
            started = time.time()
            hands, written = record(proxy.url, setup, args.seconds, args.hand_every, 3)
            followed = receiving.recv()
            follower_process.join()
            wrk_out = wrk.communicate()[0] if wrk else ""
            stop.set()
            observer.join()
            cpu = sum(cpu_seconds(pid) for pid in workers) - cpu_before
            load = os.getloadavg()
    shutil.rmtree(tmp, ignore_errors=True)
    window = (started + WARM_UP_SECONDS, started + args.seconds - TAIL_SECONDS)
    took, unseen, missed = delays(hands, seen, followed["got"], window)
    statuses = Counter({int(k): v for k, v in followed["statuses"].items()})
    asked = sum(statuses.values()) + followed["errors"]
    wrk_found = wrk_figures(wrk_out)
    target = args.followers / args.poll
    sent = asked + int(wrk_found["requests"])
    late = followed["late"]
    said_errors = f": {wrk_found['socket_errors_said']}" if wrk_found["socket_errors"] else ""
    print(
        f"hands recorded: {len(hands)} (statuses {dict(sorted(written.items()))}), "
        f"{sum(1 for *_, at in hands if window[0] <= at <= window[1])} counted; "
        f"results made and seen by the observer: {len(seen)} ETags",
        flush=True,
    )
    if took:
        p99 = percentile(took, 0.99)
        print(
            f"a hand's 201 → a measured follower's answer holding it: p50 "
            f"{percentile(took, 0.5):.2f} s, p99 {p99:.2f} s, max {max(took):.2f} s "
            f"({len(took):,} deliveries; never reached: {unseen}; ETags the observer missed: "
            f"{missed}) → goal p99 ≤ {GOAL_P99_SECONDS:g} s: "
            f"{'held' if p99 <= GOAL_P99_SECONDS else 'MISSED'}",
            flush=True,
        )
    else:
        print("no hand counted: run longer (--seconds)", flush=True)
    print(
        f"requests: {sent / args.seconds:,.0f}/s sent of the {target:,.0f}/s asked for "
        f"({sent / args.seconds / target:.2f}); measured followers {asked:,} (statuses "
        f"{dict(sorted(statuses.items()))}, errors {followed['errors']}; sent late by p50 "
        f"{percentile(late, 0.5) * 1000:.0f} ms, p99 {percentile(late, 0.99) * 1000:.0f} ms), "
        f"wrk {int(wrk_found['requests']):,} (non-2xx/3xx {wrk_found['bad']}, socket errors "
        f"{wrk_found['socket_errors']}{said_errors})",
        flush=True,
    )
    print(
        f"the service's workers: {cpu:.1f} CPU s in {args.seconds:g} s "
        f"({cpu / args.seconds:.2f} of a core); load average after "
        f"{' '.join(f'{x:.2f}' for x in load)}",
        flush=True,
    )
    bad = (
        sum(n for status, n in statuses.items() if status not in (200, 304))
        + followed["errors"]
        + int(wrk_found["bad"])
        + int(wrk_found["socket_errors"])
        + sum(n for status, n in written.items() if status != 201)
    )
    if wrk and wrk.returncode:
        print(f"wrk failed: {wrk_out[-500:]}", flush=True)
        bad += 1
    if bad:
        print(f"FAILED: {bad} answers other than 200/201/304, or errors", flush=True)
        return 1
    if unseen:
        print(f"FAILED: {unseen} deliveries never reached their follower", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
