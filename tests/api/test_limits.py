"""Limits: rate limits (failed token checks and club creation per address, writes per token)
answering 429 problems with Retry-After, bodies over 64 KiB answering 413, bodies Python cannot
parse safely answering 400, and every bound written in the OpenAPI document."""

from __future__ import annotations

import logging
import re

import pytest
import requests
from limits.errors import ConfigurationError

from service.middleware.limits import EXTENSION, MAX_JSON_DEPTH
from tests.support import Gunicorn, make_app

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
ME = {"REMOTE_ADDR": "198.51.100.1"}
NEIGHBOUR = {"REMOTE_ADDR": "198.51.100.2"}
LIMITS = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_AUTH_FAILURES": "3 per minute",
    "RATELIMIT_CLUB_CREATION": "2 per minute",
    "RATELIMIT_WRITES_PER_TOKEN": "4 per minute",
}


def _app(app, **config):
    return make_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            **config,
        }
    )


@pytest.fixture(scope="module")
def limited_app(app):
    """The same database as the suite's app, with small limits turned on."""
    return _app(app, **LIMITS)


@pytest.fixture
def limited(limited_app, client):
    """A client of the limited app with fresh counters (``client`` wipes the data after)."""
    limited_app.extensions[EXTENSION].reset()
    return limited_app.test_client()


RATE_ITEM = re.compile(r'"([a-z0-9-]+)";([a-z]+)=(\d+);([a-z]+)=(\d+)')


def rate_headers(response) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """``RateLimit-Policy`` as {name: (q, w)} and ``RateLimit`` as {name: (r, t)}, each
    checked to be a list of exactly such items (draft-ietf-httpapi-ratelimit-headers)."""
    parsed = []
    for field, first, second in (("RateLimit-Policy", "q", "w"), ("RateLimit", "r", "t")):
        value = response.headers[field]
        items = [RATE_ITEM.fullmatch(part.strip()) for part in value.split(",")]
        assert all(items), f"{field}: {value}"
        assert all(m and m.group(2) == first and m.group(4) == second for m in items), value
        parsed.append({m.group(1): (int(m.group(3)), int(m.group(5))) for m in items if m})
    policy, state = parsed
    assert set(state) <= set(policy), "a RateLimit item names no policy"
    return policy, state


def _assert_429(response) -> int:
    assert response.status_code == 429
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["status"] == 429 and body["title"] == "Too Many Requests"
    assert body["type"] == "urn:solo:problem:rate-limited"
    retry = int(response.headers["Retry-After"])
    assert 1 <= retry <= 60
    assert f"{retry} s" in body["detail"]
    # The refused limit's RateLimit item: nothing left, reset when Retry-After says.
    _, state = rate_headers(response)
    assert (0, retry) in state.values(), response.headers["RateLimit"]
    return retry


def test_the_suite_runs_without_limits(app, client, api):
    assert app.config["RATELIMIT_ENABLED"] is False
    for _ in range(40):
        assert (
            client.get("/api/v1/tables/x", headers={"Authorization": "Bearer bad"}).status_code
            == 401
        )
    for n in range(12):
        assert client.post("/api/v1/clubs", json={"name": f"Club {n}"}).status_code == 201


def test_failed_token_checks_are_limited_per_address(limited, api):
    table = api.table()
    good = api.auth(table["table_token"])
    bad = {"Authorization": "Bearer not-a-token"}
    path = f"/api/v1/tables/{table['id']}"
    for _ in range(3):
        assert limited.get(path, headers=bad, environ_base=ME).status_code == 401
    _assert_429(limited.get(path, headers=bad, environ_base=ME))
    # Once spent, this address checks no token at all for a while, good ones included …
    _assert_429(limited.get(path, headers=good, environ_base=ME))
    _assert_429(limited.post(f"{path}/hands", json=SOLO, headers=good, environ_base=ME))
    # Without credentials nothing is guessed: a plain 401, neither counted nor refused.
    for _ in range(5):
        assert limited.get(path, environ_base=NEIGHBOUR).status_code == 401
    assert limited.get(path, headers=good, environ_base=NEIGHBOUR).status_code == 200
    # Another address is not affected, nor are requests that send no token.
    assert limited.get("/healthz", environ_base=ME).status_code == 200
    assert (
        limited.post(
            "/api/v1/settlements/preview",
            environ_base=ME,
            json={"variant": "american", "players": 4, "hand": SOLO},
        ).status_code
        == 200
    )


def test_good_token_checks_do_not_count(limited, api):
    table = api.table()
    good = api.auth(table["table_token"])
    for _ in range(10):
        assert (
            limited.get(f"/api/v1/tables/{table['id']}", headers=good, environ_base=ME).status_code
            == 200
        )


def test_club_creation_is_limited_per_address(limited):
    for n in range(2):
        assert (
            limited.post("/api/v1/clubs", json={"name": f"C{n}"}, environ_base=ME).status_code
            == 201
        )
    _assert_429(limited.post("/api/v1/clubs", json={"name": "C3"}, environ_base=ME))
    # Failed attempts count as attempts.
    _assert_429(limited.post("/api/v1/clubs", json={}, environ_base=ME))
    assert (
        limited.post(
            "/api/v1/clubs", json={"name": "Next door"}, environ_base=NEIGHBOUR
        ).status_code
        == 201
    )


def test_importing_a_club_counts_as_creating_one(limited):
    for n in range(2):
        assert (
            limited.post("/api/v1/clubs", json={"name": f"C{n}"}, environ_base=ME).status_code
            == 201
        )
    _assert_429(limited.post("/api/v1/clubs/import", json={}, environ_base=ME))


def test_writes_are_limited_per_token(limited, api):
    table = api.table()
    phone = api.auth(table["table_token"])
    admin = api.auth(table["admin_token"])
    hands = f"/api/v1/tables/{table['id']}/hands"
    assert limited.post(hands, json=SOLO, headers=phone).status_code == 201
    assert limited.post(hands, json=SOLO, headers=phone).status_code == 201
    assert limited.put(f"{hands}/1", json=SOLO, headers=phone).status_code == 200
    assert limited.delete(f"{hands}/2", headers=phone).status_code == 200
    _assert_429(limited.post(hands, json=SOLO, headers=phone))
    _assert_429(limited.put(f"{hands}/1", json=SOLO, headers=phone))
    # Nothing was recorded by the refused writes.
    listed = limited.get(hands, headers=phone)
    assert listed.status_code == 200 and len(listed.json) == 2
    # Reads go on, and other tokens write on — from the same address too.
    assert limited.get(f"/api/v1/tables/{table['id']}", headers=phone).status_code == 200
    assert limited.post(hands, json=SOLO, headers=admin).status_code == 201
    other = api.table()
    assert (
        limited.post(
            f"/api/v1/tables/{other['id']}/hands", json=SOLO, headers=api.auth(other["table_token"])
        ).status_code
        == 201
    )


def test_requests_that_change_nothing_do_not_spend_the_writes_allowance(limited, api):
    table = api.table()
    phone = api.auth(table["table_token"])
    hands = f"/api/v1/tables/{table['id']}/hands"
    for _ in range(5):  # malformed, invalid, another table's: none changes anything
        assert (
            limited.post(
                hands, data="{", headers={**phone, "Content-Type": "application/json"}
            ).status_code
            == 400
        )
        assert limited.post(hands, json={"contract": "nonsense"}, headers=phone).status_code == 422
    assert limited.post("/api/v1/tables/nope/hands", json=SOLO, headers=phone).status_code in (
        403,
        404,
    )
    for _ in range(20):
        assert limited.get(f"/api/v1/tables/{table['id']}", headers=phone).status_code == 200
    recorded = limited.post(hands, json=SOLO, headers=api.auth(table["admin_token"]))
    assert recorded.status_code == 201
    version = {"If-Match": recorded.headers["ETag"]}
    for _ in range(3):  # a dry run changes nothing either
        tried = limited.delete(f"{hands}/1?dry_run=true", headers={**phone, **version})
        assert tried.status_code == 200 and tried.headers["Dry-Run"] == "true"
    # The token's four accepted writes are all still there.
    written = [limited.post(hands, json=SOLO, headers=phone) for _ in range(4)]
    assert [w.status_code for w in written] == [201] * 4
    assert rate_headers(written[-1])[1]["writes"][0] == 0
    _assert_429(limited.post(hands, json=SOLO, headers=phone))


FLOOD = {
    **LIMITS,
    "RATELIMIT_WRITES_PER_TOKEN": "60 per minute",
    "RATELIMIT_UNCHANGED_WRITES_PER_PHONE": "30 per minute",
}


@pytest.mark.parametrize("same_wifi", [False, True], ids=["another-address", "same-wifi"])
def test_a_flooding_phone_is_stopped_and_its_table_records_every_hand(app, client, api, same_wifi):
    """The flood of issue 40: 500 malformed POSTs and 1,000 GETs with one table's token from
    one phone; then the table's other phone records every hand it sends."""
    flooded = _app(app, **FLOOD).test_client()
    table = api.table()
    token = api.auth(table["table_token"])
    hands = f"/api/v1/tables/{table['id']}/hands"
    broken = {**token, "User-Agent": "BrokenPad/1.0 (Android 9)"}
    good = {**token, "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1"}
    broken_at = {"REMOTE_ADDR": "198.51.100.7"}
    good_at = broken_at if same_wifi else {"REMOTE_ADDR": "198.51.100.8"}
    statuses: dict[int, int] = {}
    for n in range(500):
        body = "{" if n % 2 else '{"contract": "solo", "tricks": "many"}'
        answer = flooded.post(
            hands,
            data=body,
            headers={**broken, "Content-Type": "application/json"},
            environ_base=broken_at,
        )
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
        if answer.status_code == 429:
            assert rate_headers(answer)[1]["unchanged-writes"][0] == 0
    for _ in range(1000):
        answer = flooded.get(
            f"/api/v1/tables/{table['id']}", headers=broken, environ_base=broken_at
        )
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
    # The broken phone was stopped: 30 refusals answered as such, the rest 429.
    assert statuses[400] + statuses[422] == 30
    assert statuses[429] >= 470
    # The broken phone's next write, even a good one, waits its turn …
    _assert_429(flooded.post(hands, json=SOLO, headers=broken, environ_base=broken_at))
    # … while the other phone records every hand, and sees none refused.
    for n in range(40):
        recorded = flooded.post(
            hands, json=SOLO, headers={**good, "Idempotency-Key": f"hand-{n}"}, environ_base=good_at
        )
        assert recorded.status_code == 201, recorded.json
    # It polls on too: the broken phone's refused reads spent nothing of the table's.
    polled = flooded.get(f"/api/v1/tables/{table['id']}", headers=good, environ_base=good_at)
    assert polled.status_code == 200
    listed = flooded.get(f"{hands}?page_size=100", headers=good, environ_base=good_at)
    assert listed.status_code == 200 and len(listed.json) == 40


def test_no_token_reaches_the_logs_when_limits_fire(limited, api, caplog):
    caplog.set_level(logging.DEBUG)
    table = api.table()
    token = table["table_token"]
    for _ in range(6):
        limited.post(f"/api/v1/tables/{table['id']}/hands", json=SOLO, headers=api.auth(token))
    for _ in range(5):
        limited.get(f"/api/v1/tables/{table['id']}", headers=api.auth(token + "x"))
    assert any(r.name == "solo.limits" for r in caplog.records)  # the limits did fire
    assert token not in caplog.text
    assert token[:20] not in caplog.text


def test_an_empty_limit_turns_that_limit_off(app, client, api):
    relaxed = _app(app, **{**LIMITS, "RATELIMIT_WRITES_PER_TOKEN": ""}).test_client()
    table = api.table()
    for _ in range(8):
        assert (
            relaxed.post(
                f"/api/v1/tables/{table['id']}/hands",
                json=SOLO,
                headers=api.auth(table["table_token"]),
            ).status_code
            == 201
        )
    for n in range(2):
        assert relaxed.post("/api/v1/clubs", json={"name": f"R{n}"}).status_code == 201
    _assert_429(relaxed.post("/api/v1/clubs", json={"name": "R3"}))


def test_the_storage_is_configurable_and_checked_at_start(app):
    assert _app(app, **LIMITS).config["RATELIMIT_STORAGE_URI"] == "memory://"
    with pytest.raises(ConfigurationError):
        _app(app, **LIMITS, RATELIMIT_STORAGE_URI="nosuchstore://somewhere")
    with pytest.raises(ConfigurationError, match="RATELIMIT_STRATEGY"):
        _app(app, **LIMITS, RATELIMIT_STRATEGY="leaky-bucket")


class _BrokenStorage:
    """A rate-limit storage that has gone away (a Redis restarting, say)."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("storage down")

        return fail


def test_a_failing_storage_falls_back_to_counting_in_memory(limited_app, limited, api, caplog):
    limits = limited_app.extensions[EXTENSION]
    working = limits._limiter
    limits._limiter = _BrokenStorage()
    try:
        table = api.table()
        hands = f"/api/v1/tables/{table['id']}/hands"
        phone = api.auth(table["table_token"])
        for _ in range(4):  # the requests go on ...
            assert limited.post(hands, json=SOLO, headers=phone).status_code == 201
        _assert_429(limited.post(hands, json=SOLO, headers=phone))  # ... and are still counted
        assert any("counting in memory" in r.getMessage() for r in caplog.records)
    finally:
        limits._limiter = working
        limits.breaker.succeeded()


def test_limits_come_from_the_environment(app, monkeypatch):
    monkeypatch.setenv("SOLO_RATELIMIT_ENABLED", "true")
    monkeypatch.setenv("SOLO_RATELIMIT_WRITES_PER_TOKEN", "7 per second")
    monkeypatch.setenv("SOLO_RATELIMIT_STORAGE_URI", "memory://")
    configured = make_app({"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})
    assert configured.config["RATELIMIT_ENABLED"] is True
    assert configured.config["RATELIMIT_WRITES_PER_TOKEN"] == "7 per second"


# --- bodies ----------------------------------------------------------------------------------

BODY_ENDPOINTS = [
    "/api/v1/clubs",
    "/api/v1/settlements/preview",
    "/api/v1/tables",
    "/api/v1/tables/{table}/hands",
]


@pytest.mark.parametrize("path", BODY_ENDPOINTS)
def test_a_body_over_64_kib_is_a_413_problem(client, api, path):
    table = api.table()
    big = '{"name": "' + "x" * (64 * 1024) + '"}'
    response = client.post(
        path.format(table=table["id"]),
        data=big,
        content_type="application/json",
        headers=api.auth(table["table_token"]),
    )
    assert response.status_code == 413
    assert response.mimetype == "application/problem+json"
    assert response.json["status"] == 413


@pytest.mark.parametrize(
    "body",
    [
        "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1),
        '{"variant": "american", "players": 4, "hand": ' + '{"a": ' * 40 + "1" + "}" * 41,
        "[" * 20_000 + "]" * 20_000,
        '{"variant": "american", "players": ' + "9" * 5000 + ', "hand": {}}',
    ],
)
def test_bodies_python_cannot_parse_safely_are_400_not_500(client, api, body):
    table = api.table()
    for path in BODY_ENDPOINTS:
        response = client.post(
            path.format(table=table["id"]),
            data=body,
            content_type="application/json",
            headers=api.auth(table["table_token"]),
        )
        assert response.status_code == 400, (path, response.json)
        assert response.mimetype == "application/problem+json"


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.encode("utf-16"),
        lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),
        lambda text: text.encode("utf-8"),
    ],
    ids=["utf-16", "utf-8 after a byte-order mark", "utf-8"],
)
def test_a_body_too_deep_is_refused_in_any_encoding_json_reads(client, api, encode):
    """The guard reads a body as ``json.loads`` reads bytes (UTF-8, -16 or -32, a byte-order
    mark or none), also where it keeps what it read for the view's parser (plain UTF-8 only,
    as the parser reads it): nested too deep, each is the guard's 400."""
    table = api.table()
    deep = '{"variant": "american", "players": 4, "hand": ' + '{"a": ' * 40 + "1" + "}" * 41
    response = client.post(
        f"/api/v1/tables/{table['id']}/hands",
        data=encode(deep),
        content_type="application/json",
        headers=api.auth(table["table_token"]),
    )
    assert response.status_code == 400, response.json
    assert response.json["detail"] == (
        f"The request body is nested more than {MAX_JSON_DEPTH} levels deep."
    )


def test_a_nul_character_is_refused_wherever_it_hides(client, api):
    """Neither database can store NUL (SQLite's length() stops at it, so a CHECK fails;
    PostgreSQL refuses it outright): a 422 naming the field, never a 500."""
    table = api.table()
    admin = api.auth(table["admin_token"])
    for path, body, field in [
        ("/api/v1/clubs", {"name": "\x00Club"}, "name"),
        ("/api/v1/clubs", {"name": "Club\x00"}, "name"),
        (f"/api/v1/clubs/{table['club_id']}/players", {"name": "A\x00"}, "name"),
        (
            "/api/v1/settlements/preview",
            {
                "variant": "american",
                "players": 4,
                "hand": {**SOLO, "errors": [{"kind": "re\x00voke", "seat": 1}]},
            },
            "hand.errors.0.kind",
        ),
        (
            "/api/v1/settlements/preview",
            {"variant": "american", "players": 4, "hand": {**SOLO, "x\x00": 1}},
            "hand.x\\u0000",
        ),
    ]:
        response = client.post(path, json=body, headers=admin)
        assert response.status_code == 422, (path, response.json)
        assert list(response.json["errors"]) == [field]
    # A literal backslash-u is no NUL.
    assert client.post("/api/v1/clubs", json={"name": "C:\\u0000"}).status_code == 201
    # Control characters in a path segment or an Idempotency-Key do not reach the database.
    assert client.get("/api/v1/tables/%00", headers=admin).status_code == 404
    assert client.get("/api/v1/tables/a%1Fb", headers=admin).status_code == 404
    response = api.record(table, SOLO, **{"Idempotency-Key": "k\x00"})
    assert response.status_code == 422
    assert len(client.get(f"/api/v1/tables/{table['id']}/hands", headers=admin).json) == 0


def test_an_error_answer_echoes_only_so_much_of_what_was_sent(client):
    response = client.post(
        "/api/v1/settlements/preview",
        json={
            "variant": "american",
            "players": 4,
            "hand": {**SOLO, "k" * 30_000: 1},
            "options": {f"o{n}": n for n in range(200)},
        },
    )
    assert response.status_code == 422
    assert len(response.data) < 8 * 1024
    assert all(len(path) <= 200 for path in response.json["errors"])
    assert len(response.json["errors"]) <= 50 and len(response.json["detail"]) <= 2000


def test_object_keys_are_bounded_in_length(client):
    response = client.post(
        "/api/v1/settlements/preview",
        json={"variant": "american", "players": 4, "hand": {**SOLO, "k" * 65: 1}},
    )
    assert response.status_code == 422
    assert response.json["errors"] == {"hand": ["Keys are at most 64 characters."]}
    response = client.post(
        "/api/v1/settlements/preview",
        json={"variant": "american", "players": 4, "hand": SOLO, "state": {"k" * 64: 1}},
    )
    # A 64-character key passes the schema and reaches the rules, which know no such field.
    assert response.status_code == 422
    assert response.json["errors"] == {"state." + "k" * 64: ["unknown field"]}


def test_a_body_nested_as_deep_as_allowed_is_read(client):
    hand = {**SOLO, "called": None}
    deep: object = 1
    for _ in range(MAX_JSON_DEPTH - 2):
        deep = [deep]
    response = client.post(
        "/api/v1/settlements/preview",
        json={"variant": "american", "players": 4, "hand": {**hand, "called": deep}},
    )
    assert response.status_code == 422  # read, then refused by the rules: not a 400


@pytest.mark.slow
def test_chunked_bodies_keep_the_same_limit_under_real_gunicorn(app, client, api):
    """Werkzeug reads a chunked body only up to the limit and says nothing: a hand padded
    past 64 KiB would be cut back to a valid hand and recorded. It must be a 413."""
    import json

    table = api.table()
    headers = {**api.auth(table["table_token"]), "Content-Type": "application/json"}
    url_path = f"/api/v1/tables/{table['id']}/hands"

    def chunked(body: bytes):
        for start in range(0, len(body), 4096):
            yield body[start : start + 4096]

    small = json.dumps(SOLO).encode()
    padded = small + b" " * (70 * 1024)
    with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=1) as server:
        with requests.post(
            server.url + url_path, data=chunked(small), headers=headers, timeout=30
        ) as response:
            assert response.status_code == 201
        with requests.post(
            server.url + url_path, data=chunked(padded), headers=headers, timeout=30
        ) as response:
            assert response.status_code == 413
            assert response.headers["Content-Type"] == "application/problem+json"
        with requests.post(
            server.url + "/api/v1/clubs",
            headers=headers,
            timeout=30,
            data=chunked(b'{"name": "x"}' + b" " * (70 * 1024)),
        ) as response:
            assert response.status_code == 413
    listed = api.client.get(url_path, headers=api.auth(table["table_token"])).json
    assert len(listed) == 1  # the padded hand was not recorded


# --- the bounds in the OpenAPI document ------------------------------------------------------


def _resolve(spec, node):
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].split("/")
        node = spec
        for part in name[1:]:
            node = node[part]
    return node


def _unbounded(spec, schema, where, found, seen=()):
    schema = _resolve(spec, schema)
    if not isinstance(schema, dict) or id(schema) in seen:
        return
    seen = (*seen, id(schema))
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else types
    bounded_formats = {"date", "date-time", "uuid"}
    if (
        "string" in types
        and not ({"maxLength", "enum", "const"} & set(schema))
        and schema.get("format") not in bounded_formats
    ):
        found.append(f"{where}: string without maxLength")
    if "array" in types and "maxItems" not in schema:
        found.append(f"{where}: array without maxItems")
    if (
        "object" in types
        and "properties" not in schema
        and schema.get("additionalProperties", True) not in (False,)
        and "maxProperties" not in schema
    ):
        found.append(f"{where}: free-form object without maxProperties")
    for name, sub in (schema.get("properties") or {}).items():
        _unbounded(spec, sub, f"{where}.{name}", found, seen)
    if isinstance(schema.get("items"), dict):
        _unbounded(spec, schema["items"], f"{where}[]", found, seen)
    for key in ("oneOf", "anyOf", "allOf"):
        for n, sub in enumerate(schema.get(key) or []):
            _unbounded(spec, sub, f"{where}<{key}{n}>", found, seen)


# Known gaps, reported to the lead rather than patched here (the league's own, in progress):
# a club export's lists and free-form objects are bounded only by its 16 MiB body limit.
KNOWN_GAPS = ("POST /api/v1/clubs/import body.",)


def test_every_input_is_bounded_in_the_openapi_document(client):
    spec = client.get("/openapi.json").json
    found: list[str] = []
    for path, operations in spec["paths"].items():
        shared = operations.get("parameters", [])
        for method, operation in operations.items():
            if method == "parameters":
                continue
            label = f"{method.upper()} {path}"
            for parameter in [*shared, *operation.get("parameters", [])]:
                parameter = _resolve(spec, parameter)
                if parameter["in"] in ("path", "query"):
                    schema = _resolve(spec, parameter["schema"])
                    if schema.get("type") == "integer" and parameter["name"] == "page_size":
                        assert schema.get("maximum") == 100, label
                    _unbounded(spec, schema, f"{label} {parameter['name']}", found)
            body = operation.get("requestBody")
            if body:
                for media in body["content"].values():
                    _unbounded(spec, media["schema"], f"{label} body", found)
    found = [gap for gap in found if not gap.startswith(KNOWN_GAPS)]
    assert not found, "\n".join(found)


def test_every_operation_documents_413_400_and_429(client):
    spec = client.get("/openapi.json").json
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            responses = operation["responses"]
            if "requestBody" in operation:
                assert {"400", "413"} <= set(responses), (method, path)
            secured = operation.get("security", spec["security"])  # the document's by default
            if secured or (path, method) == ("/api/v1/clubs", "post"):
                limited = _resolve(spec, responses["429"])
                assert "Retry-After" in limited["headers"], (method, path)
                assert "application/problem+json" in limited["content"], (method, path)


def test_limited_answers_carry_the_ratelimit_headers(limited, api):
    table = api.table()
    phone = api.auth(table["table_token"])
    hands = f"/api/v1/tables/{table['id']}/hands"
    remaining = []
    for _ in range(4):
        written = limited.post(hands, json=SOLO, headers=phone, environ_base=ME)
        assert written.status_code == 201
        policy, state = rate_headers(written)
        # A write with a token: its failed-token checks (per address) and its writes.
        assert policy == {
            "auth-failures": (3, 60),
            "unchanged-writes": (30, 60),
            "writes": (4, 60),
        }
        assert state["unchanged-writes"][0] == 30  # accepted writes spend none of it
        assert state["auth-failures"][0] == 3  # good tokens spend nothing
        assert 1 <= state["writes"][1] <= 60
        remaining.append(state["writes"][0])
    assert remaining == [3, 2, 1, 0]
    _assert_429(limited.post(hands, json=SOLO, headers=phone, environ_base=ME))
    # A read: the read limits per address and per token (the defaults), and the failed checks.
    read = limited.get(f"/api/v1/tables/{table['id']}", headers=phone, environ_base=ME)
    assert read.status_code == 200
    policy, state = rate_headers(read)
    assert policy == {
        "auth-failures": (3, 60),
        "reads-address": (1200, 60),
        "reads-phone": (120, 60),
        "reads-token": (300, 60),
    }
    assert state["reads-token"][0] == 299 and state["reads-phone"][0] == 119
    # Anonymous: per address only; a club creation: its own limit and the reads' none.
    policy, state = rate_headers(limited.get("/api/v1/variants", environ_base=NEIGHBOUR))
    assert set(policy) == {"reads-address"}
    created = limited.post("/api/v1/clubs", json={"name": "C"}, environ_base=NEIGHBOUR)
    _, state = rate_headers(created)
    assert set(state) == {"club-creation"} and state["club-creation"][0] == 1
    # A failed token check counts, and says so.
    failed = limited.get(
        f"/api/v1/tables/{table['id']}", headers={"Authorization": "Bearer bad"}, environ_base=ME
    )
    assert failed.status_code == 401 and rate_headers(failed)[1]["auth-failures"][0] == 2
    # Monitoring's health check is not limited, and says nothing of limits.
    assert "RateLimit" not in limited.get("/healthz", environ_base=ME).headers


def test_a_limit_of_several_rates_names_each_and_reports_the_tightest(app, client, api):
    several = _app(
        app, RATELIMIT_ENABLED=True, RATELIMIT_WRITES_PER_TOKEN="3 per second;2 per hour"
    )
    table = api.table()
    answer = several.test_client().post(
        f"/api/v1/tables/{table['id']}/hands", json=SOLO, headers=api.auth(table["table_token"])
    )
    assert answer.status_code == 201
    policy, state = rate_headers(answer)
    assert policy["writes-1s"] == (3, 1) and policy["writes-3600s"] == (2, 3600)
    assert "writes-3600s" in state and state["writes-3600s"][0] == 1


READS = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_READS_PER_ADDRESS": "12 per minute",
    "RATELIMIT_READS_PER_TOKEN": "1000 per minute",
}


def test_a_burst_of_reads_from_one_address_is_limited_and_others_are_served(app, client, api):
    reads = _app(app, **READS).test_client()
    table = api.table()
    phone = api.auth(table["table_token"])
    poll = f"/api/v1/tables/{table['id']}"
    first = reads.get(poll, headers=phone, environ_base=ME)
    assert first.status_code == 200 and rate_headers(first)[1]["reads-address"][0] == 11
    etag = first.headers["ETag"]
    statuses = [
        reads.get(poll, headers={**phone, "If-None-Match": etag}, environ_base=ME).status_code
        for _ in range(11)
    ]
    assert statuses == [304] * 11  # the table's polls, answered before Flask, counted all
    for path in (poll, "/api/v1/variants", "/docs"):  # anything read from there: refused
        refused = reads.get(path, headers=phone, environ_base=ME)
        _assert_429(refused)
        assert rate_headers(refused)[1]["reads-address"][0] == 0
    # The phone next door, on the same table, is served; its own count has just begun.
    assert reads.get(poll, headers=phone, environ_base=NEIGHBOUR).status_code == 200
    other = reads.get("/api/v1/variants", environ_base=NEIGHBOUR)
    assert other.status_code == 200 and rate_headers(other)[1]["reads-address"][0] == 10
    # Writes are not reads: the limited address may still record its hand.
    assert reads.post(f"{poll}/hands", json=SOLO, headers=phone, environ_base=ME).status_code == 201


def test_a_burst_of_reads_with_one_token_is_limited_and_other_tokens_are_served(app, client, api):
    reads = _app(app, **{**READS, "RATELIMIT_READS_PER_TOKEN": "5 per minute"}).test_client()
    table, other_table = api.table(), api.table()
    poll = f"/api/v1/tables/{table['id']}"
    phone = api.auth(table["table_token"])
    # From five addresses (a table's phones on mobile data): one token, one count.
    for n in range(5):
        where = {"REMOTE_ADDR": f"203.0.113.{n + 1}"}
        assert reads.get(poll, headers=phone, environ_base=where).status_code == 200
    refused = reads.get(poll, headers=phone, environ_base={"REMOTE_ADDR": "203.0.113.9"})
    _assert_429(refused)
    assert rate_headers(refused)[1]["reads-token"][0] == 0
    served = reads.get(
        f"/api/v1/tables/{other_table['id']}",
        headers=api.auth(other_table["table_token"]),
        environ_base={"REMOTE_ADDR": "203.0.113.9"},
    )
    assert served.status_code == 200
