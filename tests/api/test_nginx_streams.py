"""Two instances behind nginx (deploy/nginx.conf) deliver each other's events to the streams
held through it, on either database: on SQLite each worker hears the other instance's commits
through the database file (``PRAGMA data_version``, services/live_feed.py), on PostgreSQL through
``LISTEN``. (tests/api/test_league_server.py runs the whole league server, Redis included, on
PostgreSQL.) Skipped where nginx is missing, failed in CI."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.api.sse import Stream
from tests.api.test_league_server import SOLO, Nginx, _auth, _missing
from tests.support import Gunicorn

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def behind_nginx(app: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, ...]]:
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not shutil.which(binary):
        _missing("nginx is not installed (apt-get install nginx-light)")
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    env = {"SOLO_TRUSTED_PROXIES": "127.0.0.1"}
    with (
        Gunicorn(url, workers=2, **env) as a,
        Gunicorn(url, workers=2, **env) as b,
        Nginx(
            binary, tmp_path_factory.mktemp("nginx"), [f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"]
        ) as proxy,
    ):
        yield a, b, proxy


def test_streams_through_nginx_get_each_instances_hands_and_resume(behind_nginx, api):
    a, b, proxy = behind_nginx
    table = api.table()
    url = f"{proxy.url}/api/v1/tables/{table['id']}/events"
    streams = [Stream(url, _auth(table)) for _ in range(4)]  # nginx spreads them
    assert all(s.next().event == "ready" for s in streams)
    for number, instance in enumerate((a, b, a, b), start=1):
        written = requests.post(
            f"{instance.url}/api/v1/tables/{table['id']}/hands",
            json=SOLO,
            headers=_auth(table),
            timeout=30,
        )
        assert written.status_code == 201, written.text
        heard = [s.changes(1)[0] for s in streams]
        assert {e["data"]["hand"] for e in heard} == {number}
    last = heard[0]["id"]
    for stream in streams:
        stream.close()
    requests.post(
        f"{proxy.url}/api/v1/tables/{table['id']}/hands",
        json=SOLO,
        headers=_auth(table),
        timeout=30,
    ).raise_for_status()
    resumed = Stream(url, {**_auth(table), "Last-Event-ID": str(last)})
    assert [e["data"]["hand"] for e in resumed.changes(1)] == [5]
    resumed.close()
