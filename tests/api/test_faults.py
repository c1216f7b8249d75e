"""Faults under load, against real gunicorn (2 workers) on the suite's database (SQLite, or
PostgreSQL with TEST_DATABASE_URL): phones each record a fixed number of hands with
Idempotency-Keys and retry on connection errors, as a phone on a flaky network would, while a
worker is SIGKILLed mid-stream, or the whole service is stopped and started again, or killed
outright — each fault when a given number of hands has been answered, so a slow machine makes
these tests slower, never red. Afterwards every hand is stored exactly once, under the number
it was answered with, and the balances are the sum of the stored hands' deltas, with players +
pool = 0."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests

from tests.support import Gunicorn

pytestmark = pytest.mark.slow

HANDS = [
    {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
    {"contract": "solo", "trump": "clubs", "declarer": 2, "tricks": 3},
    {"contract": "tout", "trump": "spades", "declarer": 3, "tricks": 8},
    {"kind": "misdeal"},
    {"contract": "solo", "trump": "diamonds", "declarer": 0, "tricks": 5},
]
TABLES = 3
PHONES_PER_TABLE = 2
HANDS_PER_PHONE = 12
ALL_HANDS = TABLES * PHONES_PER_TABLE * HANDS_PER_PHONE
NO_LIMITS = {"SOLO_RATELIMIT_ENABLED": "false"}  # rate limits are not what this is about


@dataclass
class Phone:
    """Records a number of hands on one table; retries a hand (same key, same body) on
    connection errors and 5xx, as the real client's outbox does."""

    base: str
    table: dict[str, Any]
    seed: int
    acked: dict[str, tuple[int, list[int]]] = field(default_factory=dict)
    bodies: dict[str, dict[str, Any]] = field(default_factory=dict)
    unsure: list[str] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    retries: int = 0

    def send(self, key: str, body: dict[str, Any], patience: float = 30.0) -> Any:
        deadline = time.monotonic() + patience
        pause = 0.05
        while True:
            try:
                response = requests.post(
                    f"{self.base}/api/v1/tables/{self.table['id']}/hands",
                    json=body,
                    headers={
                        "Authorization": f"Bearer {self.table['table_token']}",
                        "Idempotency-Key": key,
                    },
                    timeout=15,
                )
                if response.status_code < 500:
                    return response
                response.close()
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                return None
            self.retries += 1
            time.sleep(pause)
            pause = min(pause * 2, 0.5)

    def record(self, n: int) -> None:
        key = uuid.uuid4().hex
        body = HANDS[(self.seed + n) % len(HANDS)]
        self.bodies[key] = body
        response = self.send(key, body)
        if response is None:
            self.unsure.append(key)
            return
        with response:
            self.statuses.append(response.status_code)
            if response.status_code == 201:
                answer = response.json()
                self.acked[key] = (
                    answer["number"],
                    answer["settlement"]["deltas"] if answer["settlement"] else [0, 0, 0, 0],
                )

    def run(self, hands: int) -> None:
        for n in range(hands):
            self.record(n)


def _start_phones(base: str, tables: list[dict[str, Any]]) -> tuple[list[Phone], Any]:
    """Phones that each record ``HANDS_PER_PHONE`` hands; ``finish()`` waits for them all
    (bounded generously: a phone gives up on a hand after 30 s and sends it again later)."""
    phones = [
        Phone(base, table, seed)
        for seed, table in enumerate(t for t in tables for _ in range(PHONES_PER_TABLE))
    ]
    threads = [threading.Thread(target=phone.run, args=(HANDS_PER_PHONE,)) for phone in phones]
    for thread in threads:
        thread.start()

    def finish() -> None:
        deadline = time.monotonic() + 600
        for thread in threads:
            thread.join(timeout=max(deadline - time.monotonic(), 0))
        assert not any(thread.is_alive() for thread in threads), "phones still recording"

    return phones, finish


def _wait_for_answers(phones: list[Phone], count: int, timeout: float = 120.0) -> None:
    """Until the phones have had ``count`` hands answered (or gave up on some)."""
    deadline = time.monotonic() + timeout
    while sum(len(p.acked) + len(p.unsure) for p in phones) < count:
        assert time.monotonic() < deadline, f"fewer than {count} hands answered in {timeout} s"
        time.sleep(0.02)


def _get(base: str, table: dict[str, Any], path: str, **params: Any) -> Any:
    with requests.get(
        f"{base}/api/v1/tables/{table['id']}{path}",
        params=params,
        headers={"Authorization": f"Bearer {table['table_token']}"},
        timeout=30,
    ) as response:
        assert response.status_code == 200, response.text
        return response.json()


def _verify(base: str, tables: list[dict[str, Any]], phones: list[Phone]) -> int:
    """Every acknowledged hand stored once under its number; the sums add up. Returns the
    number of hands stored."""
    # A phone that gave up on a hand sends it again once the service is back: it is then
    # answered (recorded now, or replayed if it was recorded before the answer got lost).
    for phone in phones:
        for key in phone.unsure:
            response = phone.send(key, phone.bodies[key])
            assert response is not None and response.status_code == 201
            with response:
                answer = response.json()
                phone.acked[key] = (
                    answer["number"],
                    answer["settlement"]["deltas"] if answer["settlement"] else [0, 0, 0, 0],
                )
    total = 0
    for table in tables:
        mine = [p for p in phones if p.table["id"] == table["id"]]
        acked = {key: value for p in mine for key, value in p.acked.items()}
        stored: list[dict[str, Any]] = []
        page = 1
        while True:
            batch = _get(base, table, "/hands", page=page, page_size=100)
            stored.extend(batch)
            if len(batch) < 100:
                break
            page += 1
        numbers = [hand["number"] for hand in stored]
        assert numbers == list(range(1, len(stored) + 1))
        # Exactly once: as many hands as keys answered 201, each key its own number …
        answered = sorted(number for number, _ in acked.values())
        assert answered == numbers, "a hand answered 201 is missing or one is doubled"
        by_number = {hand["number"]: hand for hand in stored}
        for key, (number, deltas) in acked.items():
            hand = by_number[number]
            assert (
                hand["settlement"]["deltas"] if hand["settlement"] else [0, 0, 0, 0]
            ) == deltas, f"hand {number} is not the one answered for key {key}"
        # … and retrying any key replays its answer and records nothing.
        owner = mine[0]
        for key, (number, _) in list(acked.items())[:10]:
            with owner.send(key, next(p.bodies[key] for p in mine if key in p.bodies)) as again:
                assert again.status_code == 201 and again.json()["number"] == number
                assert again.headers.get("Idempotent-Replayed") == "true"
        shown = _get(base, table, "")
        assert shown["hands_recorded"] == len(stored)
        sums = [0] * len(shown["seats"])
        for hand in stored:
            if hand["settlement"] is not None:
                for seat, delta in enumerate(hand["settlement"]["deltas"]):
                    sums[seat] += delta
        balances = [seat["balance"] for seat in shown["seats"]]
        assert balances == sums
        assert sum(balances) + shown["pool"] == 0
        assert len(_get(base, table, "/hands", page=1, page_size=100)) == min(len(stored), 100)
        total += len(stored)
    return total


def _wait_for_workers(server: Gunicorn, gone: int, timeout: float = 30.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = server.worker_pids()
        if len(pids) == server.workers and gone not in pids:
            return pids
        time.sleep(0.05)
    raise AssertionError("the arbiter did not replace the killed worker")


def test_sqlite_runs_in_wal_mode_with_full_sync_and_a_busy_timeout(app):
    from service.database import SqliteConnection
    from service.extensions import db

    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite pragmas")
    assert app.config["SQLITE_SYNCHRONOUS"] == "FULL"
    with app.app_context(), db.engine.connect() as connection:
        pragma = connection.exec_driver_sql
        assert pragma("PRAGMA journal_mode").scalar() == "wal"
        # FULL is SQLite's NORMAL plus the connection's own sync of the WAL after each commit
        # (tests/api/test_sqlite_durability.py shows when it happens).
        assert pragma("PRAGMA synchronous").scalar() == 1
        raw = connection.connection.dbapi_connection
        assert isinstance(raw, SqliteConnection) and raw.wal_path is not None
        assert pragma("PRAGMA busy_timeout").scalar() == 30_000
        assert pragma("PRAGMA foreign_keys").scalar() == 1


def test_connections_to_a_server_are_tested_as_they_leave_the_pool_and_sqlite_ones_not(app):
    from service import config

    class Stub:
        instance_path = "/tmp"

        def __init__(self) -> None:
            from flask import Config

            self.config = Config("/tmp")

    for url, pinged in (
        ("sqlite:////tmp/x.db", False),
        ("postgresql://postgres@127.0.0.1/test", True),
    ):
        stub = Stub()
        config.load(stub, {"SQLALCHEMY_DATABASE_URI": url})
        assert stub.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is pinged
    stub = Stub()  # an explicit choice is kept
    config.load(
        stub,
        {
            "SQLALCHEMY_DATABASE_URI": "sqlite://",
            "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        },
    )
    assert stub.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is True
    assert config.Defaults.SQLALCHEMY_ENGINE_OPTIONS == {}  # the defaults are not touched


def test_a_worker_killed_mid_stream_loses_and_doubles_nothing(app, client, api, capsys):
    tables = [api.table() for _ in range(TABLES)]
    with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=2, **NO_LIMITS) as server:
        phones, finish = _start_phones(server.url, tables)
        killed = []
        try:
            for answered in (ALL_HANDS // 8, ALL_HANDS * 3 // 8, ALL_HANDS * 5 // 8):
                _wait_for_answers(phones, answered)
                victim = server.worker_pids()[0]
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)
                _wait_for_workers(server, victim)
        finally:
            finish()
        stored = _verify(server.url, tables, phones)
    statuses = {s for p in phones for s in p.statuses}
    retries = sum(p.retries for p in phones)
    with capsys.disabled():
        print(
            f"\nfaults: {len(killed)} workers SIGKILLed, {stored} hands stored = "
            f"{sum(len(p.acked) for p in phones)} answered 201, {retries} retries"
        )
    assert statuses == {201}
    assert stored == ALL_HANDS  # every phone's every hand, once


def test_restarting_or_killing_the_whole_service_loses_nothing_acknowledged(
    app, client, api, capsys
):
    tables = [api.table() for _ in range(TABLES)]
    server = Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=2, **NO_LIMITS)
    server.start()
    try:
        phones, finish = _start_phones(server.url, tables)
        try:
            _wait_for_answers(phones, ALL_HANDS // 6)
            server.stop()  # SIGTERM: a graceful stop, as a deploy does
            server.start()
            _wait_for_answers(phones, ALL_HANDS // 2)
            workers = server.worker_pids()
            os.kill(server.process.pid, signal.SIGKILL)  # a crash: nothing graceful
            for pid in workers:
                os.kill(pid, signal.SIGKILL)
            server.process.wait()
            server.start()
        finally:
            finish()
        stored = _verify(server.url, tables, phones)
    finally:
        server.stop()
    retries = sum(p.retries for p in phones)
    with capsys.disabled():
        print(
            f"\nrestarts: stopped, started, killed (-9), started: {stored} hands stored = "
            f"{sum(len(p.acked) for p in phones)} answered 201, {retries} retries"
        )
    assert {s for p in phones for s in p.statuses} == {201}
    assert stored == ALL_HANDS
    assert retries > 0  # the phones did see the service go away
