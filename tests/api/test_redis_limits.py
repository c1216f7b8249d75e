"""Rate limits shared in Redis (the real one at 127.0.0.1:6379): two service instances count
against one limit. Keys carry a prefix of this test's own, deleted afterwards; other users of
the same Redis are not touched."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from tests.support import make_app

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no Redis at {REDIS_URL}: {error}")
        pytest.skip(f"no Redis at {REDIS_URL}: {error}")
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
