"""Lighthouse's mobile metrics of a table's first screen: a git ref's pad against this tree's.

    npm install --prefix /tmp/lh-lcp lighthouse@12
    .venv/bin/python -m bench.lighthouse [--base main] [--tree REF] [--rounds 5]
        [--language en] [--lighthouse /tmp/lh-lcp/node_modules/.bin/lighthouse] [--reports DIR]

Two servers as ``make serve`` runs them (gunicorn with gunicorn.conf.py: its threaded worker, 2
workers, SQLite), each in a temporary directory of its own: ``base``, the code of a git ref
(``main`` by default, unpacked with ``git archive``), and ``tree``, this working tree (or
another ref's code, ``--tree``). Each
gets the same table: four players with long names and six random valid American hands (one
seed). Lighthouse 12 (its mobile preset with its default simulated throttling: 150 ms round
trips, 1.6 Mbit/s, the CPU slowed 4×; performance only) opens the table's link as that
tree's pad shares it — ``/?table=<id>&token=<token>`` where the service answers it with the
table's first screen in the page, else ``/#table=<id>&token=<token>`` — in Debian's Chromium
(``CHROME_PATH``, else /usr/bin/chromium) on a fresh profile: cold, nothing cached, no service
worker. One run of each server first, not counted (a worker compresses the pad's files on its
first request); then rounds, the two servers in turn, the order alternating, so that what else
the machine does weighs on both alike.

Printed: each run's LCP, FCP and TBT (ms), the LCP's phases as Lighthouse splits them and its
element; then the medians, and tree/base for each (lower is better; the goal of issue 37 is
an LCP of at most 1,200 ms). The run fails if a request of either page is answered other than
2xx (or 304, a poll's), or if a page never read its table (the first kind of link brings
the read with the page); it is skipped, saying why, where
lighthouse or Chromium is missing. ``--reports DIR`` keeps each counted run's report (Lighthouse's
JSON: its critical request chains, network requests, main-thread tasks) as
``DIR/<round>-<base|tree>.json``. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.lighthouse")

import requests  # noqa: E402

from bench.tables import random_hand  # noqa: E402
from tests.support import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_LIGHTHOUSE = Path("/tmp/lh-lcp/node_modules/.bin/lighthouse")
NAMES = ("Anna-Katharina Berger", "Carla Moser-Lindqvist", "Jonas Weber", "Marta Ruiz")
HANDS = 6
SEED = 37
GOAL_LCP_MS = 1200
METRICS = ("LCP", "FCP", "TBT")
AUDITS = {
    "LCP": "largest-contentful-paint",
    "FCP": "first-contentful-paint",
    "TBT": "total-blocking-time",
}
LIGHTHOUSE_TIMEOUT_S = 300


@dataclass
class Server:
    """One gunicorn serving one tree's code on its own SQLite database, with its table."""

    label: str
    tree: Path
    work: Path
    port: int = field(default_factory=free_port)
    process: Any = None
    table_url: str = ""
    table_id: str = ""
    runs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        return {**os.environ, "DATABASE_URL": f"sqlite:///{self.work / 'solo.db'}"}

    def start(self) -> None:
        subprocess.run(
            [sys.executable, "-m", "flask", "--app", "wsgi", "db", "upgrade"],
            cwd=self.tree,
            env=self.env(),
            check=True,
            capture_output=True,
        )
        self.log = (self.work / "gunicorn.log").open("wb")
        # gunicorn reads ./gunicorn.conf.py: the tree's own settings, as `make serve`.
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--workers",
                "2",
                "--bind",
                f"127.0.0.1:{self.port}",
                "wsgi:app",
            ],
            cwd=self.tree,
            env=self.env(),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(requests.ConnectionError):
                if requests.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{self.label}: the server did not start ({self.work})")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None:
            self.log.close()

    def set_table(self) -> None:
        """A club, four players, a table and its hands, through the public API."""
        http = requests.Session()

        def call(method: str, path: str, token: str | None = None, **kw: Any) -> Any:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            if method == "POST":
                headers["Idempotency-Key"] = uuid.uuid4().hex
            answer = http.request(
                method, f"{self.url}/api/v1{path}", headers=headers, timeout=10, **kw
            )
            if not answer.ok:
                raise SystemExit(f"{self.label}: {method} {path} answered {answer.status_code}")
            return answer.json()

        club = call("POST", "/clubs", json={"name": "Thursday Club"})
        admin = club["admin_token"]
        seats = [
            call("POST", f"/clubs/{club['id']}/players", admin, json={"name": n})["id"]
            for n in NAMES
        ]
        body = {
            "club_id": club["id"],
            "name": "Table 1",
            "variant": "american",
            "seats": seats,
            "first_dealer": 0,
        }
        table = call("POST", "/tables", admin, json=body)
        rng = random.Random(SEED)
        for _ in range(HANDS):
            call(
                "POST", f"/tables/{table['id']}/hands", table["table_token"], json=random_hand(rng)
            )
        self.table_id = table["id"]
        self.table_url = self.table_link(table["id"], table["table_token"])

    def table_link(self, table_id: str, token: str) -> str:
        """The table's link as this tree's pad shares it: ``/?table=<id>&token=<token>`` where
        the service answers that with the table's first screen in the page, else the older
        ``/#table=<id>&token=<token>``."""
        query = f"{self.url}/?table={table_id}&token={token}"
        page = requests.get(query, timeout=10)
        if page.ok and 'id="first-reads"' in page.text:
            return query
        return f"{self.url}/#table={table_id}&token={token}"


def unpack(ref: str, into: Path) -> Path:
    """The tree of git ref ``ref`` (``git archive``), unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref],
        check=True,
        capture_output=True,
    ).stdout
    tree = into / "tree"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def lighthouse(binary: Path, chrome: str, server: Server, language: str) -> dict[str, Any]:
    """One cold Lighthouse run of the server's table page: its report (LHR) as a dict."""
    flags = f"--headless=new --no-sandbox --lang={language} --accept-lang={language}"
    done = subprocess.run(
        [
            str(binary),
            server.table_url,
            "--quiet",
            "--only-categories=performance",
            "--output=json",
            "--output-path=stdout",
            f"--chrome-flags={flags}",
        ],
        env={**os.environ, "CHROME_PATH": chrome},
        capture_output=True,
        timeout=LIGHTHOUSE_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{server.label}: lighthouse failed: {done.stderr.decode()[-2000:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    if report.get("runtimeError"):
        raise SystemExit(f"{server.label}: lighthouse: {report['runtimeError']}")
    return report


def answered(status: int) -> bool:
    """A success, or a 304 (a poll's answer to its If-None-Match)."""
    return 200 <= status < 300 or status == 304


def checked(report: dict[str, Any], server: Server) -> dict[str, Any]:
    """The run's figures; fails on any answer of the server other than 2xx or 304, or a page that
    never read its table."""
    requests_made = report["audits"]["network-requests"]["details"]["items"]
    ours = [r for r in requests_made if r["url"].startswith(server.url)]
    bad = [f"{r['statusCode']} {r['url']}" for r in ours if not answered(r["statusCode"])]
    if bad:
        raise SystemExit(f"{server.label}: answers other than 2xx or 304: {bad}")
    table_read = f"{server.url}/api/v1/tables/{server.table_id}"
    came_with_the_page = "?table=" in server.table_url  # its answer in the page (table_link)
    if not came_with_the_page and not any(r["url"] == table_read for r in ours):
        raise SystemExit(f"{server.label}: the page never read its table")
    audits = report["audits"]
    run = {name: audits[audit]["numericValue"] for name, audit in AUDITS.items()}
    run["element"], run["phases"] = _lcp_element(audits.get("largest-contentful-paint-element"))
    run["requests"] = len(ours)
    return run


def _lcp_element(audit: dict[str, Any] | None) -> tuple[str, dict[str, float]]:
    """The LCP element's label and the LCP's phases (TTFB, load delay, load time, render
    delay: Lighthouse 12 names those that apply)."""
    label, phases = "?", {}
    for table in ((audit or {}).get("details") or {}).get("items", []):
        for item in table.get("items", []):
            if "node" in item:
                label = item["node"].get("nodeLabel", "?")
            elif "phase" in item:
                phases[item["phase"]] = item["timing"]
    return label, phases


def _line(server: Server, run: dict[str, Any]) -> str:
    phases = ", ".join(f"{k} {v:.0f}" for k, v in run["phases"].items())
    figures = "  ".join(f"{m} {run[m]:6.0f}" for m in METRICS)
    return (
        f"  {server.label:5} {figures}  ({phases}; {run['requests']} requests) {run['element']!r}"
    )


def find_lighthouse(given: str | None) -> Path | None:
    for candidate in (
        given,
        os.environ.get("LIGHTHOUSE"),
        str(DEFAULT_LIGHTHOUSE),
        shutil.which("lighthouse"),
    ):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


@contextlib.contextmanager
def servers(base: str, tree: str | None) -> Iterator[list[Server]]:
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as tmp:
        work = Path(tmp)
        (work / "base").mkdir()
        (work / "tree").mkdir()
        both = [
            Server("base", unpack(base, work / "base"), work / "base"),
            Server("tree", unpack(tree, work / "tree") if tree else ROOT, work / "tree"),
        ]
        try:
            for server in both:
                server.start()
                server.set_table()
            yield both
        finally:
            for server in both:
                server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the git ref to compare with (main)")
    parser.add_argument("--tree", help="a git ref to measure instead of the working tree")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--language", default="en", choices=("en", "de", "es"))
    parser.add_argument("--lighthouse", help="the lighthouse command (npm's, installed apart)")
    parser.add_argument("--reports", type=Path, help="a folder to keep each run's JSON report in")
    args = parser.parse_args(argv)

    binary = find_lighthouse(args.lighthouse)
    if binary is None:
        print(
            "skipped: lighthouse not found (npm install --prefix /tmp/lh-lcp lighthouse@12, "
            "or --lighthouse PATH)"
        )
        return 0
    chrome = os.environ.get("CHROME_PATH") or "/usr/bin/chromium"
    if not Path(chrome).is_file():
        print(f"skipped: no Chromium at {chrome} (apt-get install chromium, or CHROME_PATH)")
        return 0

    with servers(args.base, args.tree) as both:
        measured = args.tree or f"the working tree ({ROOT})"
        print(f"base = {args.base}, tree = {measured}; {args.rounds} rounds, {args.language}")
        for server in both:  # not counted: each worker compresses the pad's files once
            checked(lighthouse(binary, chrome, server, args.language), server)
        for round_ in range(args.rounds):
            print(f"round {round_ + 1}")
            for server in both if round_ % 2 == 0 else both[::-1]:
                report = lighthouse(binary, chrome, server, args.language)
                if args.reports:
                    args.reports.mkdir(parents=True, exist_ok=True)
                    path = args.reports / f"{round_ + 1}-{server.label}.json"
                    path.write_text(json.dumps(report))
                run = checked(report, server)
                server.runs.append(run)
                print(_line(server, run), flush=True)
        base, tree = both
        print(f"medians of {args.rounds} runs (ms):")
        for metric in METRICS:
            old = statistics.median(r[metric] for r in base.runs)
            new = statistics.median(r[metric] for r in tree.runs)
            ratio = f"{new / old:.2f}" if old else "-"
            print(f"  {metric}: base {old:6.0f}  tree {new:6.0f}  tree/base {ratio}")
        lcp = statistics.median(r["LCP"] for r in tree.runs)
        verdict = "met" if lcp <= GOAL_LCP_MS else "missed"
        print(f"goal: the tree's LCP at most {GOAL_LCP_MS} ms: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
