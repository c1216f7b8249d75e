"""Rate limits shared in Redis: two service instances count against one limit (the real Redis
at 127.0.0.1:6379; keys carry a prefix of this test's own, deleted afterwards; other users of
the same Redis are not touched); a Redis that hangs (a redis-server of the test's own, stopped
with SIGSTOP) is waited on boundedly, the limits count in memory meanwhile and in Redis again
once it answers."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from service.middleware.limits import EXTENSION, StoreBreaker
from tests.support import Gunicorn, free_port, make_app, tool_missing

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        tool_missing(f"no Redis at {REDIS_URL}: {error}")
    prefix = f"solo-test-{uuid.uuid4().hex[:12]}"
    try:
        yield prefix
    finally:
        for key in client.scan_iter(match=f"{prefix}*"):
            client.delete(key)
        client.close()


def test_two_instances_share_one_limit_in_redis(app, client, redis_prefix):
    import redis

    config = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": REDIS_URL,
        "RATELIMIT_KEY_PREFIX": redis_prefix,
        "RATELIMIT_CLUB_CREATION": "3 per hour",
    }
    instances = [make_app(config).test_client() for _ in range(2)]
    address = {"REMOTE_ADDR": "192.0.2.77"}
    statuses = [
        instances[n % 2]
        .post("/api/v1/clubs", json={"name": f"Club {n}"}, environ_base=address)
        .status_code
        for n in range(4)
    ]
    assert statuses == [201, 201, 201, 429]  # the fourth, on either instance, is refused
    refused = instances[0].post("/api/v1/clubs", json={"name": "One more"}, environ_base=address)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    # Another address has its own count.
    assert (
        instances[1]
        .post(
            "/api/v1/clubs", json={"name": "Elsewhere"}, environ_base={"REMOTE_ADDR": "192.0.2.78"}
        )
        .status_code
        == 201
    )
    # The counters are in Redis, under this prefix.
    with redis.Redis.from_url(REDIS_URL) as store:
        assert list(store.scan_iter(match=f"{redis_prefix}*")), "no counter in Redis"


class RedisServer:
    """A redis-server of the test's own on a free port, nothing saved: stopped with SIGSTOP it
    hangs as a partitioned or frozen Redis does (connections are taken, nothing answered)."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        if self.binary is None:
            tool_missing("redis-server is not installed")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def __enter__(self) -> RedisServer:
        import redis

        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.client = redis.Redis.from_url(self.url, socket_timeout=2)
        deadline = time.monotonic() + 20
        while True:
            try:
                self.client.ping()
                return self
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        self.process.send_signal(signal.SIGCONT)  # a stopped process cannot end
        self.process.terminate()
        self.process.wait(timeout=10)
        self.client.close()

    def keys(self) -> int:
        return int(self.client.dbsize())


def _store(server: Gunicorn) -> dict[str, str]:
    health = requests.get(server.url + "/healthz", timeout=10)
    assert health.status_code == 200
    return health.json()["rate_limits"]


def test_a_hung_redis_is_waited_on_boundedly_and_the_limits_fall_back(app, client, api, capsys):
    table = api.table()
    phone = api.auth(table["table_token"])
    poll = f"/api/v1/tables/{table['id']}"
    # The hands go to tables of their own: one table takes only a few writers per worker at a
    # time (SOLO_TABLE_WRITERS_PER_WORKER), which is not what this test is about.
    others = [api.table() for _ in range(8)]
    with (
        RedisServer() as store,
        Gunicorn(
            app.config["SQLALCHEMY_DATABASE_URI"],
            workers=1,
            SOLO_RATELIMIT_ENABLED="true",
            SOLO_RATELIMIT_STORAGE_URI=store.url,
            SOLO_RATELIMIT_STORAGE_RETRY_SECONDS="1",
            SOLO_RATELIMIT_WRITES_PER_TOKEN="1000 per minute",
        ) as server,
    ):
        assert _store(server)["store"] == "shared"
        assert requests.get(server.url + poll, headers=phone, timeout=10).status_code == 200
        assert store.keys() > 0  # counted in Redis

        store.process.send_signal(signal.SIGSTOP)
        try:
            # Every request carrying a token is answered, each within a generous bound (a hung
            # call would hold it for good): 24 reads and 8 hands from 8 threads at once.
            waits: list[float] = []

            def read(_: int) -> int:
                answer = requests.get(server.url + poll, headers=phone, timeout=20)
                waits.append(answer.elapsed.total_seconds())
                return answer.status_code

            def write(number: int) -> int:
                other = others[number]
                answer = requests.post(
                    f"{server.url}/api/v1/tables/{other['id']}/hands",
                    json=SOLO,
                    headers=api.auth(other["table_token"]),
                    timeout=20,
                )
                waits.append(answer.elapsed.total_seconds())
                return answer.status_code

            with ThreadPoolExecutor(8) as pool:
                reads = list(pool.map(read, range(24)))
                writes = list(pool.map(write, range(8)))
            assert reads == [200] * 24 and writes == [201] * 8
            with capsys.disabled():  # reported, never asserted: it depends on the machine
                print(
                    f"\nRedis stopped: 32 requests answered, the slowest in {max(waits):.2f} s, "
                    f"{sum(w > 0.2 for w in waits)} took over 0.2 s"
                )
            health = _store(server)
            assert health["store"] == "local" and "shared store failed" in health["reason"]
        finally:
            store.process.send_signal(signal.SIGCONT)

        # Redis answers again: within a generous bound the worker counts there again.
        deadline = time.monotonic() + 30
        while _store(server)["store"] != "shared":
            assert time.monotonic() < deadline, "the shared store was not used again"
            time.sleep(0.2)
        before = store.keys()
        other = api.table()  # a new token: new counters, in Redis
        answer = requests.get(
            f"{server.url}/api/v1/tables/{other['id']}",
            headers=api.auth(other["table_token"]),
            timeout=10,
        )
        assert answer.status_code == 200 and answer.headers["RateLimit"]
        assert store.keys() > before


class _HungStorage:
    """A limiter whose every call fails as a hung Redis's does (after its timeout)."""

    def __init__(self) -> None:
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        def hung(*_: object) -> None:
            self.calls += 1
            raise TimeoutError("Timeout reading from socket")

        return hung


def test_after_one_failure_the_store_is_left_alone_then_probed_once(app, client, api):
    limited = make_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "RATELIMIT_ENABLED": True,
            "RATELIMIT_STORAGE_RETRY_SECONDS": 3600,
        }
    )
    limits = limited.extensions[EXTENSION]
    hung = _HungStorage()
    limits._limiter = hung
    table = api.table()
    phone = api.auth(table["table_token"])
    http = limited.test_client()
    for _ in range(10):
        assert http.get(f"/api/v1/tables/{table['id']}", headers=phone).status_code == 200
    assert hung.calls == 1  # the first call failed; nothing after it waited on the store
    assert http.get("/healthz").json["rate_limits"]["store"] == "local"
    # Once the breaker's time is up, one request probes the store; it fails again: left alone.
    limits.breaker._open_until = 0.0
    for _ in range(5):
        assert http.get(f"/api/v1/tables/{table['id']}", headers=phone).status_code == 200
    assert hung.calls == 2


def test_the_breaker_waits_a_jittered_time():
    waits = set()
    for _ in range(20):
        breaker = StoreBreaker(10.0)
        started = time.monotonic()
        breaker.failed(TimeoutError("hung"))
        assert not breaker.allows()
        assert breaker._open_until is not None
        wait = breaker._open_until - started
        assert 5.0 <= wait <= 15.0 + 1.0
        waits.add(round(wait, 3))
    assert len(waits) > 1  # not one moment for every worker


def test_a_dead_redis_is_reported_and_counted_around(app, client, api):
    """Nothing listens at the storage's address: requests are answered, counted in memory
    (the limit still holds), and /healthz says so without naming the address."""
    port = free_port()
    dead = make_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "RATELIMIT_ENABLED": True,
            "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{port}/0",
            "RATELIMIT_WRITES_PER_TOKEN": "3 per minute",
        }
    ).test_client()
    table = api.table()
    phone = api.auth(table["table_token"])
    hands = f"/api/v1/tables/{table['id']}/hands"
    statuses = [dead.post(hands, json=SOLO, headers=phone).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    health = dead.get("/healthz")
    assert health.status_code == 200
    store = health.json["rate_limits"]
    assert store["store"] == "local" and "shared store failed" in store["reason"]
    assert str(port) not in store["reason"]
