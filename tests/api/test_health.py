"""Liveness and readiness apart (issue 40): ``/healthz`` answers while the worker does, asking
no database; ``/readyz`` says whether the instance can work now, naming each check — the
database answers and can take a write, its migrations are the code's, the change feed
listens — and answers 503 when one fails."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.support import migrated_app


def test_ready_on_the_database_under_test(client):
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.json
    assert ready.headers["Cache-Control"] == "no-store"
    checks = ready.json["checks"]
    assert {name: check["ok"] for name, check in checks.items()} == {
        "database": True,
        "migrations": True,
        "feed": True,
    }
    assert checks["migrations"]["detail"].startswith("at ")
    # Neither is rate limited: a load balancer polls them from one address.
    assert "RateLimit" not in ready.headers
    assert "RateLimit" not in client.get("/healthz").headers


def test_a_database_behind_the_code_is_not_ready_and_says_so(tmp_path: Path):
    app = migrated_app(None, tmp_path)
    client = app.test_client()
    assert client.get("/readyz").status_code == 200
    database = sqlite3.connect(tmp_path / "test.db")
    with database:
        (head,) = database.execute("SELECT version_num FROM alembic_version").fetchone()
        database.execute("UPDATE alembic_version SET version_num = '0001'")
    database.close()
    behind = client.get("/readyz")
    assert behind.status_code == 503
    assert behind.mimetype == "application/problem+json"
    assert behind.json["ready"] is False and "migrations" in behind.json["detail"]
    migrations = behind.json["checks"]["migrations"]
    assert migrations["ok"] is False
    assert migrations["detail"] == f"at 0001, the code needs {head}"
    assert behind.json["checks"]["database"]["ok"] is True
    # Alive all the same: nothing a restart would mend.
    assert client.get("/healthz").status_code == 200
