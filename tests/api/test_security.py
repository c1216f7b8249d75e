"""Security headers on every answer, request ids, the JSON access log (with no token in it),
CORS off unless configured, and what real gunicorn shows of itself."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from service.middleware.security import ACCESS_LOGGER, CONTENT_SECURITY_POLICY
from tests.support import Gunicorn, make_app

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
STRICT = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def _assert_hardened(response) -> None:
    headers = response.headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert re.fullmatch(r"[A-Za-z0-9._-]{1,128}", headers["X-Request-Id"])


def test_the_policy_is_the_strict_one():
    assert CONTENT_SECURITY_POLICY == STRICT


@pytest.mark.parametrize(
    "method, path, body, status",
    [
        ("get", "/healthz", None, 200),
        ("get", "/openapi.json", None, 200),
        ("get", "/openapi.yaml", None, 200),
        ("get", "/docs/assets/swagger-ui.css", None, 200),
        ("get", "/api/v1/variants", None, 200),
        (
            "post",
            "/api/v1/settlements/preview",
            {"variant": "american", "players": 4, "hand": SOLO},
            200,
        ),
        ("post", "/api/v1/settlements/preview", {"variant": "american"}, 422),
        ("post", "/api/v1/clubs", {"name": "Club"}, 201),
        ("get", "/api/v1/tables/nope", None, 401),
        ("get", "/no/such/page", None, 404),
        ("delete", "/api/v1/variants", None, 405),
    ],
)
def test_every_answer_carries_the_security_headers(client, method, path, body, status):
    response = getattr(client, method)(path, json=body)
    response.close()  # the asset is a file
    assert response.status_code == status
    _assert_hardened(response)
    assert response.headers["Content-Security-Policy"] == STRICT


def test_errors_carry_them_too(client):
    response = client.post("/api/v1/clubs", data="{not json", content_type="application/json")
    assert response.status_code == 400
    _assert_hardened(response)
    response = client.post("/api/v1/clubs", data="x" * (65 * 1024), content_type="application/json")
    assert response.status_code == 413
    _assert_hardened(response)


def test_the_docs_page_may_run_its_one_inline_script_and_nothing_else(client):
    response = client.get("/docs")
    assert response.status_code == 200
    _assert_hardened(response)
    html = response.get_data()
    scripts = re.findall(rb"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 1  # flask-smorest's template: the one inline script
    digest = base64.b64encode(hashlib.sha256(scripts[0]).digest()).decode()
    csp = response.headers["Content-Security-Policy"]
    assert f"script-src 'self' 'sha256-{digest}';" in csp
    # Everything else is the strict policy, word for word.
    assert csp.replace(f" 'sha256-{digest}'", "") == STRICT
    # Swagger UI's own code and styles come from this server, not a CDN.
    for asset in re.findall(rb'(?:src|href)="([^"]+)"', html):
        assert asset.startswith(b"/docs/assets/"), asset


def test_token_answers_are_never_cached(api, client):
    club = api.club()
    response = client.post("/api/v1/clubs", json={"name": "Another"})
    assert response.headers["Cache-Control"] == "no-store"
    table = api.table(club=club)
    seats = [s["player_id"] for s in table["seats"]]
    response = client.post(
        "/api/v1/tables",
        json={"club_id": club["id"], "name": "Friday", "variant": "american", "seats": seats},
        headers=api.auth(club["admin_token"]),
    )
    assert response.status_code == 201
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("given", ["abc-123", "A.b_c-9", "x" * 128])
def test_a_sane_request_id_is_echoed(client, given):
    response = client.get("/healthz", headers={"X-Request-Id": given})
    assert response.headers["X-Request-Id"] == given


@pytest.mark.parametrize(
    "given", ["", "x" * 129, "has space", "semi;colon", "tab\there", "ünïcode", "new\nline"]
)
def test_an_insane_request_id_is_replaced(client, given):
    try:
        response = client.get("/healthz", headers={"X-Request-Id": given})
    except ValueError:  # the test client itself refuses a header with a newline
        return
    rid = response.headers["X-Request-Id"]
    assert rid != given
    assert re.fullmatch(r"[0-9a-f]{32}", rid)


def test_every_request_gets_its_own_id(client):
    ids = {client.get("/healthz").headers["X-Request-Id"] for _ in range(20)}
    assert len(ids) == 20


def _access_lines(caplog) -> list[dict]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == ACCESS_LOGGER]


def test_one_json_access_line_per_request(client, caplog):
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    response = client.get(
        "/api/v1/variants?secret=query",
        headers={"X-Request-Id": "r-1"},
        environ_base={"REMOTE_ADDR": "203.0.113.9"},
    )
    assert response.status_code == 200
    client.get("/no/such/page")
    lines = _access_lines(caplog)
    assert len(lines) == 2
    line = lines[0]
    assert set(line) == {
        "ts",
        "event",
        "method",
        "path",
        "status",
        "duration_ms",
        "request_id",
        "remote_addr",
    }
    assert line["method"] == "GET" and line["path"] == "/api/v1/variants"  # no query string
    assert line["status"] == 200 and line["request_id"] == "r-1"
    assert line["remote_addr"] == "203.0.113.9"
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["ts"].endswith("Z")
    assert lines[1]["status"] == 404


def test_access_line_escapes_what_the_path_carries(client, caplog):
    """The line is written field by field: quotes, backslashes, control characters and
    non-ASCII letters in a path must come out as JSON that reads back to the same path."""
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    client.get("/no/such/%22q%22%5C%C3%A4%01%7B")
    client.get("/no/such/page", environ_base={"REMOTE_ADDR": None})
    first, second = _access_lines(caplog)
    assert first["path"] == '/no/such/"q"\\ä\x01{' and first["status"] == 404
    assert second["remote_addr"] is None


def test_no_token_ever_reaches_the_logs(api, client, caplog):
    """Tokens travel in answers (club and table creation), in Authorization headers, and can be
    sent anywhere by a confused client: none of them may show up in any log record."""
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    club = api.club()
    table = api.table(club=club)
    admin, phone = club["admin_token"], table["table_token"]
    auth = {"Authorization": f"Bearer {phone}"}
    assert api.record(table, SOLO, **{"Idempotency-Key": "k1"}).status_code == 201
    client.get(f"/api/v1/tables/{table['id']}", headers=auth)
    client.put(f"/api/v1/tables/{table['id']}/hands/1", json=SOLO, headers=auth)
    client.delete(f"/api/v1/tables/{table['id']}/hands/1", headers=auth)
    client.get(f"/api/v1/clubs/{club['id']}", headers={"Authorization": f"Bearer {admin}"})
    # Tokens where they do not belong: a wrong scheme, the query string, the body, a header.
    client.get(f"/api/v1/tables/{table['id']}", headers={"Authorization": f"Token {phone}"})
    client.get(f"/api/v1/tables/{table['id']}?token={phone}")
    client.post("/api/v1/settlements/preview", json={"variant": phone, "players": 4, "hand": SOLO})
    client.post(f"/api/v1/tables/{table['id']}/hands", json={**SOLO, "token": phone}, headers=auth)
    client.get("/healthz", headers={"X-Request-Id": phone[:40]})  # sane, so echoed
    client.get(f"/api/v1/tables/{table['id']}", headers={"Authorization": f"Bearer {admin}x"})
    text = caplog.text + "\n".join(str(r.__dict__) for r in caplog.records)
    for token in (admin, phone):
        assert token not in text
        assert token[:16] not in text.replace(phone[:40], "")  # no part of it either
    assert any(r.name == ACCESS_LOGGER for r in caplog.records)


def test_cors_is_off_unless_configured(client):
    origin = {"Origin": "https://evil.example"}
    response = client.get("/api/v1/variants", headers=origin)
    assert "Access-Control-Allow-Origin" not in response.headers
    preflight = client.options(
        "/api/v1/tables/x/hands",
        headers={
            **origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization",
        },
    )
    assert "Access-Control-Allow-Origin" not in preflight.headers


def test_cors_answers_only_the_configured_origins(app):
    cors_app = make_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "CORS_ORIGINS": "https://club.example, https://other.example",
        }
    )
    client = cors_app.test_client()
    allowed = client.get("/api/v1/variants", headers={"Origin": "https://club.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://club.example"
    exposed = allowed.headers["Access-Control-Expose-Headers"]
    assert "X-Request-Id" in exposed and "Retry-After" in exposed
    assert "RateLimit" in exposed.split(", ") and "RateLimit-Policy" in exposed
    _assert_hardened(allowed)
    refused = client.get("/api/v1/variants", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in refused.headers
    preflight = client.options(
        "/api/v1/tables/x/hands",
        headers={
            "Origin": "https://club.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, Idempotency-Key, If-Match",
        },
    )
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://club.example"
    allowed_headers = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed_headers and "idempotency-key" in allowed_headers
    assert "Access-Control-Allow-Credentials" not in preflight.headers
    # The docs and health are not part of the cross-origin API.
    docs = client.get("/openapi.json", headers={"Origin": "https://club.example"})
    assert "Access-Control-Allow-Origin" not in docs.headers


def _vary(response) -> list[str]:
    fields = [
        part.strip().lower() for v in response.headers.getlist("Vary") for part in v.split(",")
    ]
    assert len(response.headers.getlist("Vary")) <= 1, "one Vary field"
    return fields


def test_with_cors_every_answer_varies_on_origin(app, client, api):
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    cors = make_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "CORS_ORIGINS": "https://club.example"}
    ).test_client()
    table = api.table()
    phone = api.auth(table["table_token"])
    poll = f"/api/v1/tables/{table['id']}"
    first = cors.get(poll, headers=phone)  # no Origin: no CORS headers, but it varies on it
    assert first.status_code == 200 and "origin" in _vary(first)
    assert "accept-language" in _vary(first)  # merged with what was there
    polled = cors.get(poll, headers={**phone, "If-None-Match": first.headers["ETag"]})
    assert polled.status_code == 304 and "origin" in _vary(polled)  # the fast path's too
    for response in (
        cors.get("/api/v1/variants", headers={"Origin": "https://club.example"}),
        cors.get("/api/v1/variants", headers={"Origin": "https://evil.example"}),
        cors.get("/api/v1/tables/x"),
        cors.get("/healthz"),
    ):
        assert _vary(response).count("origin") == 1, response.headers
    # Without CORS nothing depends on Origin: no Vary for it.
    plain = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri}).test_client()
    assert "origin" not in _vary(plain.get("/api/v1/variants"))


def test_the_client_address_follows_trusted_proxies_only(app, caplog):
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    forwarded = {"X-Forwarded-For": "198.51.100.7"}
    direct = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri}).test_client()
    direct.get("/healthz", headers=forwarded, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    proxied = make_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "TRUSTED_PROXIES": "10.0.0.1, fd00::/8"}
    ).test_client()
    for peer, header in (
        ("10.0.0.1", "198.51.100.7"),  # the proxy: believed
        ("192.0.2.9", "198.51.100.7"),  # anyone else: its own address, whatever it says
        ("10.0.0.1", "203.0.113.5, 198.51.100.8"),  # the client wrote the left one itself
        ("fd00::2", "198.51.100.9, 10.0.0.1"),  # through two proxies of ours
        ("10.0.0.1", "not-an-address"),  # garbage: the proxy's own address
    ):
        proxied.get(
            "/healthz", headers={"X-Forwarded-For": header}, environ_base={"REMOTE_ADDR": peer}
        )
    assert [line["remote_addr"] for line in _access_lines(caplog)] == [
        "10.0.0.1",
        "198.51.100.7",
        "192.0.2.9",
        "198.51.100.8",
        "198.51.100.9",
        "10.0.0.1",
    ]


@pytest.mark.parametrize("value", [1, "2", True, "10.0.0.300", "proxy.example"])
def test_trusted_proxies_must_name_addresses(app, value):
    with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
        make_app(
            {
                "TESTING": True,
                "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                "TRUSTED_PROXIES": value,
            }
        )


def test_forged_forwarded_addresses_are_limited_by_the_real_one(app, client, api):
    limited = make_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "TRUSTED_PROXIES": "127.0.0.1",
            "RATELIMIT_ENABLED": True,
            "RATELIMIT_AUTH_FAILURES": "5 per minute",
        }
    ).test_client()
    bad = {"Authorization": "Bearer not-a-token"}
    statuses = [
        limited.get(
            "/api/v1/tables/x",
            headers={**bad, "X-Forwarded-For": f"198.51.100.{n}"},
            environ_base={"REMOTE_ADDR": "192.0.2.50"},
        ).status_code
        for n in range(8)
    ]
    assert statuses == [401] * 5 + [429] * 3
    # Claiming another's address locks nobody else out.
    assert (
        limited.get(
            "/api/v1/tables/x", headers=bad, environ_base={"REMOTE_ADDR": "198.51.100.1"}
        ).status_code
        == 401
    )


class LoggedGunicorn(Gunicorn):
    """The tests' gunicorn, with its stdout (the access log) and stderr kept in files."""

    def __init__(self, database_url: str, log_dir: Path, **env: str) -> None:
        super().__init__(database_url, workers=2, **env)
        self.out_path = log_dir / "stdout.log"
        self.err_path = log_dir / "stderr.log"

    def start(self) -> None:
        import os

        root = Path(__file__).resolve().parents[2]
        env = {**os.environ, "DATABASE_URL": self.database_url, **self.env}
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
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
                    "--access-logfile",
                    "-",
                    "wsgi:app",
                ],
                cwd=root,
                env=env,
                stdout=out,
                stderr=err,
            )
        self.wait_ready()

    def output(self) -> str:
        return self.out_path.read_text() + self.err_path.read_text()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)


@pytest.mark.slow
def test_real_gunicorn_names_no_version_and_logs_json_without_tokens(app, client, api, tmp_path):
    table = api.table()
    token = table["table_token"]
    with LoggedGunicorn(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path) as server:
        auth = {"Authorization": f"Bearer {token}"}
        with requests.get(server.url + "/healthz", timeout=10) as health:
            assert health.headers["Server"] == "solo"
            _assert_hardened(health)
        with requests.post(
            f"{server.url}/api/v1/tables/{table['id']}/hands",
            json=SOLO,
            headers={**auth, "X-Request-Id": "gunicorn-1"},
            timeout=10,
        ) as recorded:
            assert recorded.status_code == 201
            assert recorded.headers["X-Request-Id"] == "gunicorn-1"
        with requests.post(
            server.url + "/api/v1/clubs", json={"name": "Via gunicorn"}, timeout=10
        ) as created:
            assert created.status_code == 201
            admin = created.json()["admin_token"]
        with requests.get(
            f"{server.url}/api/v1/tables/{table['id']}",
            headers={"Authorization": f"Bearer {admin}"},
            timeout=10,
        ) as other:
            assert other.status_code == 403
    out = server.out_path.read_text()
    err = server.err_path.read_text()
    lines = [json.loads(line) for line in out.splitlines()]
    # Only the app's JSON lines: gunicorn's own access line is dropped (gunicorn.conf.py)
    # even with --access-logfile given.
    assert [line["path"] for line in lines if line["path"] != "/healthz"] == [
        f"/api/v1/tables/{table['id']}/hands",
        "/api/v1/clubs",
        f"/api/v1/tables/{table['id']}",
    ]
    assert any(line["request_id"] == "gunicorn-1" and line["status"] == 201 for line in lines)
    for secret in (token, admin):
        assert secret not in out and secret not in err
    assert "gunicorn/" not in out + err.replace("Starting gunicorn", "")
