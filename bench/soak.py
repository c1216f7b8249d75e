"""Soak: many tables keeping score at once against real gunicorn, then a check that nothing
was lost, doubled or mis-added.

    .venv/bin/python -m bench.soak [--seconds 300] [--tables 50] [--workers 2]

Starts gunicorn (``--workers``, 127.0.0.1, a free port, the repo's gunicorn.conf.py) on a fresh
SQLite database in a temporary folder (or ``--database-url``, which must be empty), opens one
club with ``--tables`` American Solo tables of four (set up in-process, before the clock
starts), then runs one phone per table for ``--seconds``: it records a hand (with an
Idempotency-Key, retrying on connection errors and 5xx the way a phone on a flaky network
would), then, while the next hand is played (a pause of ``--pause-min`` to ``--pause-max``
seconds, a fast table), polls the table every ``--poll`` seconds with ``If-None-Match``. Every
twentieth hand it corrects the previous one (``PUT`` with ``If-Match``).

A poll must never show the table older than the phone's own last write left it (a 304 for
an older ETag, or an older version, whichever worker answers): that is an error. Afterwards,
for every table: the hands listed are numbered 1…n with no gap, every hand answered 201 is
there exactly once under its number (a retry of its key replays it, nothing new), the balances
equal the sum of the current hands' deltas, and players + pool = 0. Prints counts and the
p50/p99 latency of writes, reads and all requests; exits 1 on any error, lost or doubled hand.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.soak")

import requests  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

RETRIES = 8
SUITS = ("clubs", "spades", "hearts", "diamonds")


def hand_palette() -> list[dict[str, Any]]:
    """Valid American Solo hands of a four-player table, checked against the rules here (a
    hand that the rules of this release refuse is left out rather than counted as an error)."""
    from service import rules

    candidates: list[dict[str, Any]] = [{"kind": "misdeal"}]
    for seat in range(4):
        candidates.append({"kind": "forfeit", "seat": seat})
        for trump in SUITS:
            for tricks in (3, 5, 6, 8):
                candidates.append(
                    {
                        "contract": "solo",
                        "trump": trump,
                        "declarer": seat,
                        "tricks": tricks,
                        "tout_after_five": tricks == 8,
                    }
                )
            candidates.append({"contract": "tout", "trump": trump, "declarer": seat, "tricks": 8})
            partner = (seat + 2) % 4
            for tricks in (4, 5, 7):
                candidates.append(
                    {
                        "contract": "simple",
                        "trump": trump,
                        "declarer": seat,
                        "called": {"rank": "ace", "suit": SUITS[(SUITS.index(trump) + 1) % 4]},
                        "partner": partner,
                        "tricks": tricks,
                    }
                )
            candidates.append(
                {
                    "contract": "solo",
                    "trump": trump,
                    "declarer": seat,
                    "tricks": 6,
                    "errors": [{"kind": "revoke", "seat": (seat + 1) % 4}],
                }
            )
    valid = []
    for hand in candidates:
        try:
            rules.preview("american", 4, None, None, hand)
        except rules.RuleViolation:
            continue
        valid.append(hand)
    if len(valid) < 10:
        raise SystemExit(f"only {len(valid)} of the soak's hands are valid under these rules")
    return valid


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    write_ms: list[float] = field(default_factory=list)
    read_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    not_modified: int = 0
    replays: int = 0

    def add(self, kind: str, ms: float) -> None:
        with self.lock:
            (self.write_ms if kind == "write" else self.read_ms).append(ms)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


@dataclass
class Phone:
    """One table's phone: records hands, polls between them, corrects now and then."""

    base: str
    table: dict[str, Any]
    palette: list[dict[str, Any]]
    stats: Stats
    rng: random.Random
    args: argparse.Namespace
    acked: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # key: number
    unsure: list[str] = field(default_factory=list)  # keys never answered (gave up)
    session: requests.Session = field(default_factory=requests.Session)
    etag: str | None = None
    # The newest version this phone's own writes produced: a poll must never show less (the
    # other worker, or a poll answered before Flask, included).
    written: int = 0

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.table['table_token']}"}

    def request(self, kind: str, method: str, path: str, **kwargs: Any) -> Any:
        """Send with retries on connection errors and 5xx (same body, same key): a phone."""
        for attempt in range(RETRIES):
            started = time.perf_counter()
            try:
                response = self.session.request(method, self.base + path, timeout=30, **kwargs)
            except requests.RequestException:
                response = None
            self.stats.add(kind, (time.perf_counter() - started) * 1000)
            if response is not None and response.status_code < 500:
                return response
            if response is not None:
                response.close()
            with self.stats.lock:
                self.stats.retries += 1
            time.sleep(min(0.2 * 2**attempt, 3))
        return None

    def record(self) -> None:
        key = uuid.uuid4().hex
        body = self.rng.choice(self.palette)
        path = f"/api/v1/tables/{self.table['id']}/hands"
        response = self.request(
            "write", "POST", path, json=body, headers={**self.auth, "Idempotency-Key": key}
        )
        if response is None:
            self.unsure.append(key)
            self.stats.error(f"{self.table['id']}: no answer to hand key {key}")
            return
        with response:
            if response.status_code != 201:
                self.stats.error(f"POST hand: {response.status_code} {response.text[:200]}")
                return
            answer = response.json()
        self.acked[key] = (answer["number"], body)
        self.written = max(self.written, answer["table"]["version"])
        if response.headers.get("Idempotent-Replayed"):
            with self.stats.lock:
                self.stats.replays += 1
        if answer["number"] % 20 == 0 and answer["number"] > 1:
            self.correct(answer["number"] - 1, answer["table"]["version"])

    def correct(self, number: int, version: int) -> None:
        body = self.rng.choice([h for h in self.palette if h.get("kind") != "forfeit"])
        response = self.request(
            "write",
            "PUT",
            f"/api/v1/tables/{self.table['id']}/hands/{number}",
            json=body,
            headers={**self.auth, "If-Match": f'"{version}"'},
        )
        if response is None:
            self.stats.error(f"PUT hand {number}: no answer")
            return
        with response:
            if response.status_code not in (200, 412):
                self.stats.error(f"PUT hand {number}: {response.status_code} {response.text[:200]}")
            elif response.status_code == 200:
                self.written = max(self.written, response.json()["table"]["version"])

    def poll(self) -> None:
        headers = dict(self.auth)
        if self.etag:
            headers["If-None-Match"] = self.etag
        response = self.request(
            "read", "GET", f"/api/v1/tables/{self.table['id']}", headers=headers
        )
        if response is None:
            self.stats.error("GET table: no answer")
            return
        sent = int(self.etag.strip('"')) if self.etag else 0
        with response:
            if response.status_code == 304:
                with self.stats.lock:
                    self.stats.not_modified += 1
                if sent < self.written:
                    self.stats.error(f"GET table: 304 for version {sent}, written {self.written}")
            elif response.status_code == 200:
                self.etag = response.headers.get("ETag")
                shown = response.json()["version"]
                if shown < self.written:
                    self.stats.error(f"GET table: version {shown} shown, {self.written} written")
            else:
                self.stats.error(f"GET table: {response.status_code} {response.text[:200]}")

    def run(self, deadline: float) -> None:
        time.sleep(self.rng.uniform(0, self.args.pause_max))  # tables do not start in step
        while time.monotonic() < deadline:
            self.record()
            pause_until = time.monotonic() + self.rng.uniform(
                self.args.pause_min, self.args.pause_max
            )
            while time.monotonic() < min(pause_until, deadline):
                time.sleep(min(self.args.poll, max(0.0, pause_until - time.monotonic())))
                if time.monotonic() < deadline:
                    self.poll()
        self.session.close()


def verify(phone: Phone, problems: list[str]) -> int:
    """Check one table after the run; returns the number of hands stored."""
    table_id = phone.table["id"]
    with phone.session as session:
        stored: list[dict[str, Any]] = []
        page = 1
        while True:
            response = session.get(
                f"{phone.base}/api/v1/tables/{table_id}/hands",
                params={"page": page, "page_size": 100},
                headers=phone.auth,
                timeout=30,
            )
            batch = response.json()
            response.close()
            stored.extend(batch)
            if len(batch) < 100:
                break
            page += 1
        shown = session.get(
            f"{phone.base}/api/v1/tables/{table_id}", headers=phone.auth, timeout=30
        )
        table = shown.json()
        shown.close()
        numbers = [h["number"] for h in stored]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"{table_id}: hand numbers {numbers[:5]}… are not 1…n")
        acked_numbers = sorted(n for n, _ in phone.acked.values())
        if len(set(acked_numbers)) != len(acked_numbers):
            problems.append(f"{table_id}: two keys answered with the same number")
        missing = set(acked_numbers) - set(numbers)
        if missing:
            problems.append(f"{table_id}: acknowledged hands {sorted(missing)} are lost")
        if len(numbers) > len(acked_numbers) + len(phone.unsure):
            problems.append(
                f"{table_id}: {len(numbers)} hands stored for "
                f"{len(acked_numbers)} acknowledged: doubled hands"
            )
        # Retrying every acknowledged key replays it and records nothing new.
        for key, (number, body) in list(phone.acked.items())[:5]:
            again = session.post(
                f"{phone.base}/api/v1/tables/{table_id}/hands",
                json=body,
                headers={**phone.auth, "Idempotency-Key": key},
                timeout=30,
            )
            if again.status_code != 201 or again.json()["number"] != number:
                problems.append(f"{table_id}: key {key} did not replay hand {number}")
            again.close()
        deltas = [0, 0, 0, 0]
        for hand in stored:
            if hand["settlement"] is not None:
                for seat, delta in enumerate(hand["settlement"]["deltas"]):
                    deltas[seat] += delta
        balances = [seat["balance"] for seat in table["seats"]]
        if balances != deltas:
            problems.append(f"{table_id}: balances {balances} but hands add up to {deltas}")
        if sum(balances) + table["pool"] != 0:
            problems.append(f"{table_id}: players {sum(balances)} + pool {table['pool']} != 0")
        if table["hands_recorded"] != len(stored):
            problems.append(
                f"{table_id}: hands_recorded {table['hands_recorded']} but {len(stored)} listed"
            )
    return len(stored)


def setup(database_url: str, tables: int) -> list[dict[str, Any]]:
    """One club with ``tables`` tables of four, made in-process on the soak's database."""
    import flask_migrate

    from service import create_app
    from tests.support import ApiClient

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": database_url, "RATELIMIT_ENABLED": False, "ACCESS_LOG": False}
    )
    with app.app_context():
        flask_migrate.upgrade()
    api = ApiClient(app.test_client())
    club = api.club("Soak club")
    made = [api.table(club=club) for _ in range(tables)]
    from service.extensions import db

    with app.app_context():
        db.engine.dispose()
    return made


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(base: str, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("gunicorn exited before it answered")
        try:
            with requests.get(base + "/healthz", timeout=1) as response:
                if response.status_code == 200:
                    return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise SystemExit("gunicorn did not answer")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pause-min", type=float, default=3.0)
    parser.add_argument("--pause-max", type=float, default=12.0)
    parser.add_argument("--poll", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="solo-soak-"))
    database_url = args.database_url or f"sqlite:///{workdir / 'soak.db'}"
    palette = hand_palette()
    tables = setup(database_url, args.tables)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = workdir / "access.log"
    env = {**os.environ, "DATABASE_URL": database_url}
    with open(log_path, "wb") as access_log, open(workdir / "gunicorn.log", "wb") as errors:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--workers",
                str(args.workers),
                "--bind",
                f"127.0.0.1:{port}",
                "wsgi:app",
            ],
            cwd=ROOT,
            env=env,
            stdout=access_log,
            stderr=errors,
        )
        try:
            wait_ready(base, server)
            stats = Stats()
            master = random.Random(args.seed)
            phones = [
                Phone(base, table, palette, stats, random.Random(master.random()), args)
                for table in tables
            ]
            print(
                f"soak: {len(phones)} tables, {args.workers} gunicorn workers, "
                f"{args.seconds:.0f} s, pauses {args.pause_min}-{args.pause_max} s, "
                f"polling every {args.poll} s, database {database_url}",
                flush=True,
            )
            started = time.monotonic()
            deadline = started + args.seconds
            threads = [threading.Thread(target=p.run, args=(deadline,)) for p in phones]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - started
            problems: list[str] = []
            stored = sum(verify(phone, problems) for phone in phones)
        finally:
            server.terminate()
            server.wait(timeout=30)

    acked = sum(len(p.acked) for p in phones)
    unsure = sum(len(p.unsure) for p in phones)
    requests_made = len(stats.write_ms) + len(stats.read_ms)
    every = stats.write_ms + stats.read_ms
    with open(log_path, encoding="utf-8") as fh:
        logged = sum(1 for line in fh if line.startswith('{"ts"') and '"access"' in line)
    report = {
        "seconds": round(elapsed, 1),
        "tables": len(phones),
        "workers": args.workers,
        "hands_acknowledged": acked,
        "hands_stored": stored,
        "hands_unanswered": unsure,
        "requests": requests_made,
        "writes": len(stats.write_ms),
        "reads": len(stats.read_ms),
        "requests_per_s": round(requests_made / elapsed, 1),
        "not_modified": stats.not_modified,
        "retries": stats.retries,
        "replays": stats.replays,
        "errors": len(stats.errors),
        "problems": len(problems),
        "access_log_lines": logged,
        "write_ms": {
            "p50": round(percentile(stats.write_ms, 50), 1),
            "p99": round(percentile(stats.write_ms, 99), 1),
        },
        "read_ms": {
            "p50": round(percentile(stats.read_ms, 50), 1),
            "p99": round(percentile(stats.read_ms, 99), 1),
        },
        "all_ms": {"p50": round(percentile(every, 50), 1), "p99": round(percentile(every, 99), 1)},
    }
    print(json.dumps(report, indent=2))
    for line in (stats.errors + problems)[:20]:
        print("  " + line)
    ok = not stats.errors and not problems and acked == stored and not unsure
    print("soak: OK" if ok else "soak: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
