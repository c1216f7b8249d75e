"""Helpers shared by the API, stateful and end-to-end tests."""

from __future__ import annotations

import copy
import os
import weakref
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from service import create_app
from service.config import normalize_database_url


def tool_missing(reason: str) -> NoReturn:
    """A tool or server a test needs is not here: the test is skipped with the reason on a
    developer's machine, and fails in CI (``CI=true``), which installs every tool, so that a
    check nobody runs cannot pass unseen."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true requires it)", pytrace=False)
    pytest.skip(reason)


def reset_postgres(url: str) -> None:
    """Drop everything in the test database's public schema (it belongs to the tests)."""
    engine = create_engine(normalize_database_url(url))
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def database_url(pg_url: str | None, tmp: Path) -> str:
    if pg_url:
        reset_postgres(pg_url)
        return pg_url
    return f"sqlite:///{tmp / 'test.db'}"


T = TypeVar("T")


# The apps made in the body of the test being run (tests/conftest.py closes them when it
# ends); None outside a test's body.
made_by_test: list[Flask] | None = None


def make_app(config: dict[str, Any]) -> Flask:
    """``create_app`` for tests. An app made in a test's body has its pooled connections closed
    when the test ends; one made by a fixture, when the app is let go of (at the end of the
    fixture's scope, or at exit): an engine collected with its connections open would warn in
    whichever test happened to be running then, and PostgreSQL's connections would pile up."""
    from service.extensions import db

    app = create_app(config)
    with app.app_context():
        engines = list(db.engines.values())
    weakref.finalize(app, _dispose, engines)
    if made_by_test is not None:
        made_by_test.append(app)
    return app


def _dispose(engines: list[Any]) -> None:
    for engine in engines:
        engine.dispose()


def dispose_engines(app: Flask) -> None:
    """Close ``app``'s pooled connections now (a test that is done with its own app)."""
    from service.extensions import db

    with app.app_context():
        _dispose(list(db.engines.values()))


def wsgi_layer(app: Flask, kind: type[T]) -> T:
    """The layer of type ``kind`` among those wrapped around ``app``'s Flask WSGI app
    (AttributeError when there is none)."""
    layer: Any = app.wsgi_app
    while not isinstance(layer, kind):
        layer = layer.app
    return layer


class CallsPastLayer:
    """Counts the requests a fast path of ``app`` (its WSGI layer of type ``kind``) passes on
    to Flask; ``restore()`` takes the counter out again."""

    def __init__(self, app: Flask, kind: type[Any]) -> None:
        self.fast = wsgi_layer(app, kind)
        self.inner = self.fast.app
        self.count = 0

        def counted(environ: dict[str, Any], start_response: Any) -> Any:
            self.count += 1
            return self.inner(environ, start_response)

        self.fast.app = counted

    def restore(self) -> None:
        self.fast.app = self.inner


def migrated_app(pg_url: str | None, tmp: Path, **config: Any) -> Flask:
    import flask_migrate

    app = make_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(pg_url, tmp), **config}
    )
    with app.app_context():
        flask_migrate.upgrade()
    return app


def sqlite_of_its_own(tmp: Path) -> str:
    """The URL of a migrated SQLite database in ``tmp``, for a server whose test is about the
    server (its workers, sockets, gathering), not the database under test: such a test runs
    once, in the SQLite half of the suite (tests/databases.py)."""
    return str(migrated_app(None, tmp).config["SQLALCHEMY_DATABASE_URI"])


def wipe(app: Flask) -> None:
    from service.extensions import db

    with app.app_context():
        db.session.remove()
        with db.engine.begin() as connection:
            for table in reversed(db.metadata.sorted_tables):
                connection.execute(table.delete())


class ApiClient:
    """A thin client that makes a club, players and tables in one call each."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self._players_made = 0

    def club(self, name: str = "Club") -> dict[str, Any]:
        response = self.client.post("/api/v1/clubs", json={"name": name})
        assert response.status_code == 201, response.json
        return response.json

    def players(self, club: dict[str, Any], count: int) -> list[str]:
        ids = []
        for _ in range(count):
            self._players_made += 1
            response = self.client.post(
                f"/api/v1/clubs/{club['id']}/players",
                json={"name": f"Player {self._players_made}"},
                headers=self.auth(club["admin_token"]),
            )
            assert response.status_code == 201, response.json
            ids.append(response.json["id"])
        return ids

    def table(
        self,
        players: int = 4,
        variant: str = "american",
        first_dealer: int = 0,
        options: dict[str, Any] | None = None,
        club: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        club = club or self.club()
        seats = self.players(club, players)
        response = self.client.post(
            "/api/v1/tables",
            json={
                "club_id": club["id"],
                "name": "Thursday",
                "variant": variant,
                "seats": seats,
                "first_dealer": first_dealer,
                "options": options or {},
            },
            headers=self.auth(club["admin_token"]),
        )
        assert response.status_code == 201, response.json
        return {**response.json, "admin_token": club["admin_token"]}

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def record(self, table: dict[str, Any], hand: dict[str, Any], **headers: str) -> Any:
        return self.client.post(
            f"/api/v1/tables/{table['id']}/hands",
            json=hand,
            headers={**self.auth(table["table_token"]), **headers},
        )

    def get_table(self, table: dict[str, Any]) -> dict[str, Any]:
        response = self.client.get(
            f"/api/v1/tables/{table['id']}", headers=self.auth(table["table_token"])
        )
        assert response.status_code == 200
        return response.json


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Gunicorn:
    """A real gunicorn serving the app on 127.0.0.1, for tests that need several workers."""

    def __init__(
        self,
        database_url: str,
        workers: int = 2,
        app: str = "wsgi:app",
        ready_path: str = "/healthz",
        ready_timeout: float = 30.0,
        **env: str,
    ) -> None:
        self.ready_path = ready_path
        self.ready_timeout = ready_timeout
        self.database_url = database_url
        self.workers = workers
        self.app = app
        self.env = env
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: Any = None

    def __enter__(self) -> Gunicorn:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        import os
        import subprocess
        import sys
        import tempfile

        root = Path(__file__).resolve().parents[1]
        env = {**os.environ, "DATABASE_URL": self.database_url, **self.env}
        # The server's output goes to a file: an unread pipe fills up and stalls the workers.
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in stop()
            "w+b", prefix="gunicorn-", suffix=".log"
        )
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--workers",
                str(self.workers),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--graceful-timeout",
                "5",
                self.app,
            ],
            cwd=root,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.wait_ready(self.ready_timeout)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def wait_ready(self, timeout: float = 30.0) -> None:
        import time

        import requests

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("gunicorn exited: " + self.output())
            try:
                answered = requests.get(self.url + self.ready_path, timeout=1).status_code
            except requests.RequestException:
                answered = None
            # Each worker listens once its app is loaded (service/http_worker.py): ready
            # when every one of them does, not the first alone.
            if answered == 200 and self.listening() >= self.expected_listeners():
                return
            time.sleep(0.1)
        raise TimeoutError("gunicorn did not answer")

    def expected_listeners(self) -> int:
        """One listening socket per worker (``reuse_port``), or the arbiter's one."""
        shared = self.env.get("WEB_REUSE_PORT", os.environ.get("WEB_REUSE_PORT", "1")) == "0"
        return 1 if shared else self.workers

    def listening(self) -> int:
        """The sockets listening on the server's port (``/proc/net/tcp``, IPv4)."""
        count = 0
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == self.port:
                count += 1
        return count

    def worker_pids(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except Exception:
                self.process.kill()
                self.process.wait()
        if getattr(self, "log", None) is not None:
            self.log.close()


def forget_spent_tickets(app: Flask) -> None:
    """Forget every stream ticket spent (``live.spend_ticket``): for a test that opens one
    stream with the same ticket in two apps on one database, as if each had its own."""
    from sqlalchemy import delete

    from service.extensions import db
    from service.persistence.table_keeping import SpentTicketRow

    with app.app_context():
        db.session.execute(delete(SpentTicketRow))
        db.session.commit()


def inlined(document: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI ``document`` with its shared answers and parameters written out where
    they are referred to (``api/openapi.py``'s ``share`` writes each once): for tests that
    read an operation's answers and parameters by name. Headers and schemas stay references."""
    document = copy.deepcopy(document)
    components = document.get("components", {})

    def resolve(node: Any, kind: str) -> Any:
        if isinstance(node, dict) and "$ref" in node:
            prefix = f"#/components/{kind}/"
            if node["$ref"].startswith(prefix):
                # A reference's own `description` overrides the component's (OpenAPI 3.1).
                own = {key: value for key, value in node.items() if key != "$ref"}
                return {**copy.deepcopy(components[kind][node["$ref"][len(prefix) :]]), **own}
        return node

    for item in document["paths"].values():
        for key, operation in item.items():
            if key == "parameters":
                item[key] = [resolve(p, "parameters") for p in operation]
                continue
            if not isinstance(operation, dict):
                continue
            if "parameters" in operation:
                operation["parameters"] = [
                    resolve(p, "parameters") for p in operation["parameters"]
                ]
            responses = operation.get("responses", {})
            for status, response in list(responses.items()):
                responses[status] = resolve(response, "responses")
    return document


def as_shown(key: str, expected: Any) -> Any:
    """A worked example's settlement value (tests/data/settlements.json) as an answer shows it:
    transfers with their parties as objects too (``from_party``/``to_party``, docs/api.md
    "Transfers' parties")."""
    from service.rules.base import with_parties

    return [with_parties(t) for t in expected] if key == "transfers" else expected
