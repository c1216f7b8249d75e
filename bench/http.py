"""The service against a bare Flask app under the same load, side by side in one run.

    .venv/bin/python -m bench.http [--seconds 10] [--pg URL | --no-pg]

Starts the service with gunicorn (gunicorn.conf.py, 2 workers) on SQLite in a temp dir and,
with the same gunicorn settings, bench/bare_app.py, whose endpoints only parse and return
JSON. wrk (Debian's package; 2 threads, 16 connections) drives each scenario for --seconds
against both, and the figures are printed with their ratios and the targets of the
performance issue:

  record   POST /api/v1/tables/{id}/hands, random valid American hands over 50 tables
           vs POST /echo                 target: ≥ 0.5× throughput, p99 ≤ 3× bare p99
  record+key  the same, each with an Idempotency-Key of its own, as the score pad sends
  read     GET /api/v1/tables/{id}       vs GET /item     target: ≥ 0.7×
  read304  the same with If-None-Match   vs GET /item     target: ≥ 0.9×
  preview  POST /api/v1/settlements/preview vs POST /echo target: ≥ 0.7×
  floor    the bare app's POST /store: the same hands, each stored with one INSERT and a
           durable commit in the same kind of database (bench/bare_app.py), vs POST /echo;
           the least any durable recording costs, so the record row can come near it, never
           past it. Printed with the record target, and the record row's share of it.

Then the service is measured again on PostgreSQL (--pg, by default the database bench_http
at 127.0.0.1:5432, created when missing; its public schema is dropped and re-created), the bare
app beside it again, unless --no-pg or no server answers. The service runs with its rate
limits on, the per-token write limit raised so that the load is never refused.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.http")

from bench.tables import random_hand  # noqa: E402
from tests.support import ApiClient, Gunicorn, migrated_app  # noqa: E402

TABLES = 50
DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/bench_http"
RECORD_TARGET = 0.5
RECORD_P99_LIMIT = 3.0
CONNECTIONS = 16
THREADS = 2

LUA_DONE = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "errors": %d, "bad": %d, ' ..
    '"kinds": {"connect": %d, "read": %d, "write": %d, "timeout": %d, "status": %d}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status,
    e.connect, e.read, e.write, e.timeout, e.status))
end
"""


def lua_list(items: list[str]) -> str:
    return "{" + ",".join(f"[==[{item}]==]" for item in items) + "}"


# A new Idempotency-Key for every request, as the score pad sends: unique across wrk's
# threads (each numbered by setup) and runs (the time the thread started).
LUA_KEYS = """
local threads = 0
setup = function(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end
local prefix, sent = "", 0
init = function(args)
  prefix = string.format("%d-%d-", os.time(), thread_number)
end
local function with_key(h)
  sent = sent + 1
  local copy = {}
  for k, v in pairs(h) do copy[k] = v end
  copy["Idempotency-Key"] = prefix .. sent
  return copy
end
"""


def script(
    method: str,
    paths: list[str],
    headers: list[dict[str, str]],
    bodies: list[str] | None,
    keyed: bool = False,
) -> str:
    """A wrk script that picks a random target (and body) for every request; ``keyed``: each
    with an Idempotency-Key of its own."""
    header_tables = ",".join(
        "{" + ",".join(f'["{k}"]=[==[{v}]==]' for k, v in h.items()) + "}" for h in headers
    )
    body_pick = "bodies[math.random(#bodies)]" if bodies else "nil"
    header_pick = "with_key(headers[i])" if keyed else "headers[i]"
    return f"""
math.randomseed(os.time())
local paths = {lua_list(paths)}
local headers = {{{header_tables}}}
local bodies = {lua_list(bodies or [])}
{LUA_KEYS if keyed else ""}
request = function()
  local i = math.random(#paths)
  return wrk.format("{method}", paths[i], {header_pick}, {body_pick})
end
{LUA_DONE}"""


def run_wrk(url: str, lua: str, seconds: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as fh:
        fh.write(lua)
    output = subprocess.run(
        ["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s", "-s", fh.name, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    Path(fh.name).unlink()
    figures = json.loads(output.strip().splitlines()[-1])
    figures["rps"] = figures["requests"] / (figures["duration_us"] / 1e6)
    return figures


def prepare(database: str | None, tmp: Path) -> tuple[str, list[dict]]:
    app = migrated_app(database, tmp)
    api = ApiClient(app.test_client())
    club = api.club("Bench")
    tables = [api.table(club=club) for _ in range(TABLES)]
    rng = random.Random(3)
    for table in tables:  # a little history, as a real evening has
        for _ in range(5):
            api.record(table, random_hand(rng))
    return app.config["SQLALCHEMY_DATABASE_URI"], tables


def scenarios(tables: list[dict], rng: random.Random) -> dict[str, tuple[str, ...]]:
    auth = [
        {"Authorization": f"Bearer {t['table_token']}", "Content-Type": "application/json"}
        for t in tables
    ]
    hands = [json.dumps(random_hand(rng)) for _ in range(500)]
    previews = [
        json.dumps(
            {
                "variant": "american",
                "players": 4,
                "state": {"pool": rng.randrange(40), "dealer": rng.randrange(4)},
                "hand": random_hand(rng),
            }
        )
        for _ in range(500)
    ]
    return {"hands": hands, "previews": previews, "auth": auth}


# The service keeps its rate limits on, raised so that the load is never refused: the limiter's
# cost is part of every request's cost, as in production.
SERVICE_ENV = {
    "SOLO_RATELIMIT_WRITES_PER_TOKEN": "10000000 per minute",
    # One load generator on 127.0.0.1 stands for many clubs' addresses, and polls hard.
    "SOLO_RATELIMIT_READS_PER_ADDRESS": "",  # off
    "SOLO_RATELIMIT_READS_PER_TOKEN": "",
    # wrk is one phone (one address, one User-Agent), and its previews are dry runs.
    "SOLO_RATELIMIT_READS_PER_PHONE": "",
    "SOLO_RATELIMIT_UNCHANGED_WRITES_PER_PHONE": "",
}


@dataclass(frozen=True)
class Case:
    name: str
    service_lua: str
    bare_lua: str
    target: float
    on_bare: bool = False  # service_lua drives the bare app too (the floor)


def cases(service_url: str, tables: list[dict]) -> list[Case]:
    """The four scenarios, each with its bare counterpart and the issue's throughput target."""
    import requests

    data = scenarios(tables, random.Random(11))
    json_header = [{"Content-Type": "application/json"}]
    table_paths = [f"/api/v1/tables/{t['id']}" for t in tables]
    etags = [
        requests.get(service_url + p, headers=h, timeout=10).headers["ETag"]
        for p, h in zip(table_paths, data["auth"], strict=True)
    ]
    bare_get = script("GET", ["/item"], json_header, None)
    hand_paths = [f"{p}/hands" for p in table_paths]
    bare_echo = script("POST", ["/echo"], json_header, data["hands"])
    return [
        Case("read", script("GET", table_paths, data["auth"], None), bare_get, 0.7),
        Case(
            "read304",
            script(
                "GET",
                table_paths,
                [{**h, "If-None-Match": e} for h, e in zip(data["auth"], etags, strict=True)],
                None,
            ),
            bare_get,
            0.9,
        ),
        Case(
            "preview",
            script("POST", ["/api/v1/settlements/preview"], json_header, data["previews"]),
            script("POST", ["/echo"], json_header, data["previews"]),
            0.7,
        ),
        Case(
            "record",
            script("POST", hand_paths, data["auth"], data["hands"]),
            bare_echo,
            RECORD_TARGET,
        ),
        Case(
            "record+key",
            script("POST", hand_paths, data["auth"], data["hands"], keyed=True),
            bare_echo,
            RECORD_TARGET,
        ),
        Case(
            "floor",
            script("POST", ["/store"], json_header, data["hands"]),
            bare_echo,
            RECORD_TARGET,
            on_bare=True,
        ),
    ]


def measure(
    service: Gunicorn, bare: Gunicorn, tables: list[dict], seconds: int, label: str
) -> list[tuple[str, dict, dict, float]]:
    results = []
    for case in cases(service.url, tables):
        bare_figures = run_wrk(bare.url, case.bare_lua, seconds)
        service_figures = run_wrk(
            bare.url if case.on_bare else service.url, case.service_lua, seconds
        )
        results.append((f"{label} {case.name}", service_figures, bare_figures, case.target))
        report(results[-1:], header=len(results) == 1)
    return results


def report(results: list[tuple[str, dict, dict, float]], header: bool = True) -> None:
    if header:
        print(
            f"{'scenario':20} {'rps':>7} {'bare rps':>8} {'ratio':>6} {'target':>6} "
            f"{'p50 ms':>7} {'p99 ms':>7} {'bare p99':>8} {'p99 ×':>6} {'errors':>6}"
        )
    for name, svc, bare, target in results:
        ratio = svc["rps"] / bare["rps"]
        p99_ratio = svc["p99_us"] / max(bare["p99_us"], 1)
        met = ratio >= target and (target != RECORD_TARGET or p99_ratio <= RECORD_P99_LIMIT)
        print(
            f"{name:20} {svc['rps']:7.0f} {bare['rps']:8.0f} {ratio:6.2f} "
            f"{'≥' + str(target):>6} {svc['p50_us'] / 1000:7.2f} {svc['p99_us'] / 1000:7.2f} "
            f"{bare['p99_us'] / 1000:8.2f} {p99_ratio:6.2f} "
            f"{svc['errors'] + svc['bad']:6d} {'ok' if met else 'MISS'}",
            flush=True,
        )
        if svc["errors"] + svc["bad"]:
            kinds = ", ".join(f"{n} {kind}" for kind, n in svc["kinds"].items() if n)
            print(f"{'':20} errors: {kinds} (status: answers other than 2xx/3xx)", flush=True)
    figures = {name: svc for name, svc, _bare, _target in results}
    for name, svc in figures.items():
        database, _, scenario = name.partition(" ")
        floor = figures.get(f"{database} floor")
        if scenario.startswith("record") and floor is not None:
            print(
                f"{name:20} {svc['rps'] / floor['rps']:.2f} of the floor's rps, p99 "
                f"{svc['p99_us'] / max(floor['p99_us'], 1):.2f}× the floor's",
                flush=True,
            )


def ensure_postgres_database(url: str) -> bool:
    """True when the server answers; creates the database when it is missing."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import OperationalError

    from service.config import normalize_database_url

    target = make_url(normalize_database_url(url))
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            exists = connection.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :d"), {"d": target.database}
            ).first()
            if exists is None:
                connection.execute(text(f'CREATE DATABASE "{target.database}"'))
    except OperationalError:
        return False
    finally:
        admin.dispose()
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument(
        "--pg",
        default=DEFAULT_PG,
        help="a PostgreSQL URL whose public schema may be dropped (created when "
        f"missing; default {DEFAULT_PG}); skipped if no server answers",
    )
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed: apt-get install wrk")
    databases: list[str | None] = [None]
    if not args.no_pg:
        if ensure_postgres_database(args.pg):
            databases.append(args.pg)
        else:
            print(f"(no PostgreSQL answers at {args.pg}: SQLite only)")
    results = []
    for database in databases:
        tmp = Path(tempfile.mkdtemp())
        url, tables = prepare(database, tmp)
        label = "postgresql" if database else "sqlite"
        # The bare app's /store writes to its own SQLite file, or to the same PostgreSQL.
        bare_database = url if database else f"sqlite:///{tmp / 'bare.db'}"
        with (
            Gunicorn(url, workers=2, **SERVICE_ENV) as service,
            Gunicorn(
                bare_database, workers=2, app="bench.bare_app:app", ready_path="/item"
            ) as bare,
        ):
            results += measure(service, bare, tables, args.seconds, label)
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    report(results)


if __name__ == "__main__":
    main()
