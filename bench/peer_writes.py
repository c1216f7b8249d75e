"""Our writes against a peer's: I Hate Money 7.2.1 adding bills, interleaved in one run.

    python3 -m venv /tmp/ihm-venv && /tmp/ihm-venv/bin/pip install ihatemoney==7.2.1 gunicorn
    .venv/bin/python -m bench.peer_writes [--peer-venv /tmp/ihm-venv] [--seconds 8] [--rounds 4]

The peer is installed from PyPI into a virtualenv of its own (never into the project's, and
none of its code is kept here). Four servers on SQLite, each in its own temporary directory,
2 gunicorn workers each, all driven by wrk (2 threads, 16 kept-alive connections, as
bench/http.py and bench/writes.py):

  ours       the service as ``make serve`` runs it (gunicorn.conf.py: the threaded worker)
  ours-sync  the service under gunicorn's sync workers
  peer       I Hate Money 7.2.1 under gunicorn's sync workers, with its own default settings
             (SQLite's default rollback journal), adding a bill (``POST
             /api/projects/{id}/bills``, a form: date, what, payer, payed_for ×4, amount) with
             the project's bearer token (the API's cheapest way in: a signed token, no password
             hash per request)
  peer-wal   the same on a file in WAL mode: the peer at its best durable setting (its
             connections keep SQLite's ``synchronous=FULL``; the service syncs its WAL after
             each commit: both durable before they answer). Its threaded worker was slower
             than its sync workers, so sync workers are its best.

Ours records a random valid hand (``POST /api/v1/tables/{id}/hands``, JSON, with an
Idempotency-Key, over 50 tables) as the score pad sends it. The servers are started side by
side and warmed up, then rounds go ours, ours-sync, peer, peer-wal, ours, … (one loaded at a
time) so that what else the machine does weighs on all alike. Every answer is counted by its
status: a failed request or anything but a 2xx fails the run. Printed: each round's writes a
second and p50/p99, and per round the ratios of each of ours to each peer, with their medians
against their targets (≥ 3.5× the peer as it ships, ≥ 3× in WAL).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import requests

from bench.http import SERVICE_ENV, prepare, run_wrk, scenarios, script
from tests.support import Gunicorn

# Against the peer as it ships (SQLite's rollback journal), and at equal durability (the peer
# in WAL, as ours: its best durable setting), the goal of issue 38.
TARGETS = {"peer": 3.5, "peer-wal": 3.0}
PEER = "ihatemoney==7.2.1"
# Our servers, each a gunicorn of the service beside the others: the threaded worker as
# ``make serve`` runs it (gunicorn.conf.py), and gunicorn's sync workers.
OURS: dict[str, dict[str, str]] = {
    "ours": {},
    "ours-sync": {"GUNICORN_CMD_ARGS": "--worker-class sync"},
}
# The peer's servers, each under gunicorn's sync workers (its best: its threaded worker was
# slower still): its default rollback journal, and WAL (its best durable setting).
PEERS = {"peer": False, "peer-wal": True}

# Every answer's status counted in each wrk thread; ``done`` sums them (replacing
# bench/http.py's, with the same figures and the count of unexpected answers). The script's
# own ``setup`` (the Idempotency-Keys' thread numbers) still runs.
LUA_STATUSES = """
local counted_threads = {}
local earlier_setup = setup
setup = function(thread)
  if earlier_setup then earlier_setup(thread) end
  table.insert(counted_threads, thread)
end
unexpected = 0
response = function(status, headers, body)
  if not ((status >= 200 and status < 300) or status == 304) then
    unexpected = unexpected + 1
  end
end
done = function(summary, latency, requests)
  local e = summary.errors
  local bad = 0
  for _, thread in ipairs(counted_threads) do
    bad = bad + thread:get("unexpected")
  end
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "errors": %d, ' ..
    '"bad": %d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, bad))
end
"""


def statuses_counted(lua: str) -> str:
    """A wrk script that also counts its answers other than 2xx or 304 (``bad``) and its
    failed requests (``errors``): a benchmark fails on either."""
    return lua + LUA_STATUSES


PEER_MEMBERS = ["Anna", "Ben", "Cleo", "Dora"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def peer_server(venv: Path, tmp: Path, wal: bool = False) -> Iterator[str]:
    """I Hate Money under gunicorn (2 sync workers) on an SQLite file in ``tmp``; its URL.
    ``wal``: the file in SQLite's WAL mode (kept in the file; its connections keep SQLite's
    default ``synchronous=FULL``, durable in WAL), instead of its default rollback journal."""
    settings = tmp / "ihatemoney.cfg"
    settings.write_text(
        f'SQLALCHEMY_DATABASE_URI = "sqlite:///{tmp / "ihatemoney.db"}"\n'
        'SECRET_KEY = "bench-peer-writes"\n'
        "ACTIVATE_DEMO_PROJECT = False\n"
        "SESSION_COOKIE_SECURE = False\n"
    )
    (tmp / "gunicorn.conf.py").write_text("")  # not ours: gunicorn's defaults
    env = {**os.environ, "IHATEMONEY_SETTINGS_FILE_PATH": str(settings)}
    # Its app migrates its database when made: once here, not by two workers racing.
    subprocess.run(
        [str(venv / "bin" / "python"), "-c", "from ihatemoney.run import create_app; create_app()"],
        cwd=tmp,
        env=env,
        check=True,
        capture_output=True,
    )
    if wal:
        with contextlib.closing(sqlite3.connect(tmp / "ihatemoney.db")) as database:
            assert database.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    port = free_port()
    log = (tmp / "peer.log").open("wb")
    process = subprocess.Popen(
        [str(venv / "bin" / "gunicorn"), "--workers", "2", "--bind", f"127.0.0.1:{port}"]
        + ["ihatemoney.wsgi:application"],
        cwd=tmp,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                sys.exit("the peer exited: " + (tmp / "peer.log").read_text())
            try:
                requests.get(f"{url}/api/currencies", timeout=2)
                break
            except requests.RequestException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def peer_project(url: str, project_id: str) -> tuple[dict[str, str], list[int]]:
    """A project of the peer with four members: the headers of its bearer token (the API's
    cheapest way in: a signed token, no password hash per request) and its members' ids."""
    project = {
        "name": project_id,
        "id": project_id,
        "password": "bench-secret",
        "contact_email": "bench@example.com",
        "default_currency": "XXX",
    }
    made = requests.post(f"{url}/api/projects", data=project, timeout=30)
    made.raise_for_status()
    auth = (project_id, "bench-secret")
    members = []
    for name in PEER_MEMBERS:
        added = requests.post(
            f"{url}/api/projects/{project_id}/members", data={"name": name}, auth=auth, timeout=30
        )
        added.raise_for_status()
        members.append(int(added.json()))
    token = requests.get(f"{url}/api/projects/{project_id}/token", auth=auth, timeout=30)
    token.raise_for_status()
    return {"Authorization": f"Bearer {token.json()['token']}"}, members


def peer_bills(rng: random.Random, members: list[int], count: int) -> list[str]:
    """``count`` bills among ``members``, as the peer's API takes them (a form)."""
    return [
        urlencode(
            {
                "date": "2026-12-03",
                "what": f"round {n}",
                "payer": rng.choice(members),
                "payed_for": members,
                "amount": f"{rng.randrange(100, 10000) / 100:.2f}",
                "original_currency": "XXX",
            },
            doseq=True,
        )
        for n in range(count)
    ]


def add_bill(url: str, project_id: str, headers: dict[str, str], bill: str) -> None:
    added = requests.post(
        f"{url}/api/projects/{project_id}/bills", data=bill, headers=headers, timeout=30
    )
    if added.status_code != 201:
        sys.exit(f"the peer refused a bill: {added.status_code} {added.text}")


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def peer_script(url: str, rng: random.Random) -> str:
    """A project with four members, and the wrk script that adds bills to it."""
    token, members = peer_project(url, "bench")
    bills = peer_bills(rng, members, 200)
    headers = {**token, **FORM}
    add_bill(url, "bench", headers, bills[0])
    return statuses_counted(script("POST", ["/api/projects/bench/bills"], [headers], bills))


def peer_arguments(description: str, seconds: int, rounds: int) -> argparse.Namespace:
    """The command line of a bench against the peer (``--peer-venv``, ``--seconds``,
    ``--rounds``), once wrk and the peer are known to be there."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--peer-venv", type=Path, default=Path("/tmp/ihm-venv"))
    parser.add_argument("--seconds", type=int, default=seconds)
    parser.add_argument("--rounds", type=int, default=rounds)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed: apt-get install wrk")
    if not (args.peer_venv / "bin" / "gunicorn").exists():
        sys.exit(f"no peer at {args.peer_venv}: install {PEER} and gunicorn there (see above)")
    return args


def main() -> None:
    args = peer_arguments(__doc__.splitlines()[0], seconds=8, rounds=4)
    tmp = Path(tempfile.mkdtemp(prefix="bench-peer-"))
    url, tables = prepare(None, tmp)
    data = scenarios(tables, random.Random(11))
    paths = [f"/api/v1/tables/{t['id']}/hands" for t in tables]
    ours_lua = statuses_counted(script("POST", paths, data["auth"], data["hands"], keyed=True))
    print(
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load average before: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (other programs share the machine)"
    )
    print(
        f"writes on SQLite, wrk -t2 -c16, {args.seconds} s a round, 2 workers each: ours "
        f"(a hand) under the threaded and the sync workers, the peer ({PEER}, a bill) on its "
        "default journal and on WAL"
    )
    print(
        f"{'round':>5} {'server':>9} {'writes/s':>9} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} "
        f"{'not 2xx':>7}"
    )
    rates: dict[str, list[float]] = {name: [] for name in [*OURS, *PEERS]}
    failures = 0
    with contextlib.ExitStack() as servers:
        targets = {
            name: (
                servers.enter_context(Gunicorn(url, workers=2, **SERVICE_ENV, **extra)).url,
                ours_lua,
            )
            for name, extra in OURS.items()
        }
        for name, wal in PEERS.items():
            (tmp / name).mkdir()
            peer_url = servers.enter_context(peer_server(args.peer_venv, tmp / name, wal=wal))
            targets[name] = (peer_url, peer_script(peer_url, random.Random(12)))
        for target, lua in targets.values():  # each worker's first requests load the app
            run_wrk(target, lua, 1)
        for round_number, name in itertools.product(range(1, args.rounds + 1), targets):
            target, lua = targets[name]
            figures = run_wrk(target, lua, args.seconds)
            rates[name].append(figures["rps"])
            failures += int(figures["errors"] + figures["bad"])
            print(
                f"{round_number:>5} {name:>9} {figures['rps']:9.0f} "
                f"{figures['p50_us'] / 1000:7.2f} {figures['p99_us'] / 1000:7.2f} "
                f"{figures['errors']:6d} {figures['bad']:7d}",
                flush=True,
            )
    shutil.rmtree(tmp, ignore_errors=True)
    print(
        "median writes/s: "
        + ", ".join(f"{name} {statistics.median(rate):.0f}" for name, rate in rates.items())
    )
    for name, peer in itertools.product(OURS, PEERS):
        ratios = [o / p for o, p in zip(rates[name], rates[peer], strict=True)]
        median, target = statistics.median(ratios), TARGETS[peer]
        print(
            f"{name}/{peer} per round: {', '.join(f'{r:.2f}' for r in ratios)}; median "
            f"{median:.2f} (target ≥ {target:g}: {'ok' if median >= target else 'MISS'})"
        )
    ours = [t / s for t, s in zip(rates["ours"], rates["ours-sync"], strict=True)]
    print(
        f"ours/ours-sync per round: {', '.join(f'{r:.2f}' for r in ours)}; median "
        f"{statistics.median(ours):.2f}"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if failures:
        sys.exit(f"{failures} requests failed or answered other than 2xx")


if __name__ == "__main__":
    main()
