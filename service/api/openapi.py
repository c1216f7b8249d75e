"""What the OpenAPI document says beyond each view's own decorators, in one place.

``register_components`` (before the blueprints) adds the typed hand records and the preview's
``oneOf``; ``complete`` (after them) gives every operation its operationId, tag, description
and what every answer shares: problems (``application/problem+json``) for every 4xx and 5xx,
``X-Request-Id``, ``Location`` on a 201, ``ETag`` on the answers that carry one, the
pagination headers, ``security: []`` on the public operations, and OpenAPI links between
operations (the flows a client walks: club → players → table → hands …).

Everything here is generated into ``openapi.yaml`` by ``make openapi``; nothing is edited by
hand. A test (``tests/api/test_contract.py``) fails when an operation lacks an entry in
``OPERATIONS``: an operation added later gets its name here.
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from ..schemas.hands import hand_schemas, preview_request, preview_schemas, ref, unions
from .caching import IF_NONE_MATCH
from .problem import PROBLEM_CONTENT_TYPE

# (method, path) → (operationId, tag, description when the docstring gives only a summary).
OPERATIONS: dict[tuple[str, str], tuple[str, str, str | None]] = {
    ("get", "/healthz"): (
        "getHealth",
        "Health",
        "Liveness: 200 while the service answers; no database is asked (see `getReadiness`). "
        "For a container orchestrator's liveness probe; needs no token.",
    ),
    ("get", "/readyz"): (
        "getReadiness",
        "Health",
        "Readiness: 200 when the database answers and can take a write, its migrations are "
        "the code's and the change feed listens; 503 naming the check that failed. For load "
        "balancers and readiness probes; needs no token.",
    ),
    ("get", "/api/v1/variants"): (
        "listVariants",
        "Variants",
        "Each variant's contracts, hand fields, error kinds and options "
        "with their defaults: what a client needs to build its forms. The titles and "
        "descriptions are in the request's language (`Accept-Language`, as `Content-Language` "
        "says); the names (`name`, `allowed`, defaults) are the same in every language. "
        "Needs no token; cacheable, one answer (and ETag) per language.",
    ),
    ("post", "/api/v1/settlements/preview"): (
        "previewSettlement",
        "Settlements",
        "Settles one hand record of any variant at the table state given, exactly as a table "
        "would, and stores nothing. The body is told apart by `variant`.",
    ),
    ("post", "/api/v1/clubs"): (
        "createClub",
        "Clubs",
        "Needs no token. The answer carries the club's admin token, "
        "shown once: it can do everything in the club.",
    ),
    ("get", "/api/v1/clubs/{club_id}"): (
        "getClub",
        "Clubs",
        "The club's name and when it was made.",
    ),
    ("patch", "/api/v1/clubs/{club_id}"): (
        "updateClub",
        "Clubs",
        "Tables that already have a rate keep its currency.",
    ),
    ("get", "/api/v1/clubs/{club_id}/players"): (
        "listPlayers",
        "Players",
        "Every player of the club, by name.",
    ),
    ("post", "/api/v1/clubs/{club_id}/players"): (
        "addPlayer",
        "Players",
        "Player names are unique within a club (409 otherwise).",
    ),
    ("get", "/api/v1/clubs/{club_id}/tables"): ("listClubTables", "Tables", None),
    ("get", "/api/v1/clubs/{club_id}/changes"): ("listClubChanges", "Live", None),
    ("get", "/api/v1/tables/{table_id}/events"): ("streamTableEvents", "Live", None),
    ("get", "/api/v1/clubs/{club_id}/events"): ("streamClubEvents", "Live", None),
    ("post", "/api/v1/tables/{table_id}/events/tickets"): ("mintTableStreamTicket", "Live", None),
    ("post", "/api/v1/clubs/{club_id}/events/tickets"): ("mintClubStreamTicket", "Live", None),
    ("post", "/api/v1/clubs/{club_id}/admin-token"): ("rotateAdminToken", "Clubs", None),
    ("post", "/api/v1/clubs/{club_id}/viewer-token"): ("createViewerToken", "Clubs", None),
    ("delete", "/api/v1/clubs/{club_id}/viewer-token"): ("revokeViewerToken", "Clubs", None),
    ("post", "/api/v1/clubs/{club_id}/viewer-tokens"): ("createNamedViewerToken", "Clubs", None),
    ("get", "/api/v1/clubs/{club_id}/viewer-tokens"): ("listViewerTokens", "Clubs", None),
    ("delete", "/api/v1/clubs/{club_id}/viewer-tokens/{token_id}"): (
        "revokeNamedViewerToken",
        "Clubs",
        None,
    ),
    ("patch", "/api/v1/players/{player_id}"): ("updatePlayer", "Players", None),
    ("get", "/api/v1/players/{player_id}/sittings"): ("listPlayerSittings", "Players", None),
    ("post", "/api/v1/tables/{table_id}/token"): ("renewTableToken", "Tables", None),
    ("delete", "/api/v1/tables/{table_id}/token"): ("revokeTableToken", "Tables", None),
    ("post", "/api/v1/tables"): (
        "openTable",
        "Tables",
        "Seats are the club's player ids in the order of play; "
        "`variant` fixes the hand records the table takes. The answer "
        "carries the table token, shown once, for the phones at the "
        "table.",
    ),
    ("get", "/api/v1/tables/{table_id}"): (
        "getTable",
        "Tables",
        "Poll it with `If-None-Match`: 304 while nothing changed.",
    ),
    ("patch", "/api/v1/tables/{table_id}"): (
        "updateTable",
        "Tables",
        "Only the settings given change: `season_id` (admin token; the standings and ratings "
        "of both seasons follow) and `rate`. Each change is kept in the table's history.",
    ),
    ("get", "/api/v1/tables/{table_id}/history"): ("getTableHistory", "Tables", None),
    ("get", "/api/v1/tables/{table_id}/hands"): (
        "listHands",
        "Hands",
        "Paged (`page`, `page_size`): `X-Pagination` and `Link` tell the pages. The ETag is "
        "the table's version, as `getTable`'s: poll a page with `If-None-Match`, 304 while "
        "nothing changed.",
    ),
    ("post", "/api/v1/tables/{table_id}/hands"): (
        "recordHand",
        "Hands",
        "The body is a hand record of the table's variant. Safe to retry with an "
        "`Idempotency-Key`; guarded by `If-Match` or `expected_number` against two phones "
        "recording the same hand.",
    ),
    ("get", "/api/v1/tables/{table_id}/hands/{number}"): (
        "getHand",
        "Hands",
        "The record as it stands, its settlement and its dealer.",
    ),
    ("put", "/api/v1/tables/{table_id}/hands/{number}"): (
        "correctHand",
        "Hands",
        "The body is a hand record of the table's variant. The old record stays in the "
        "hand's history; every later hand is settled again in order.",
    ),
    ("delete", "/api/v1/tables/{table_id}/hands/{number}"): (
        "voidHand",
        "Hands",
        "The record stays in the hand's history; every later hand is settled again in order.",
    ),
    ("get", "/api/v1/tables/{table_id}/hands/{number}/history"): (
        "getHandHistory",
        "Hands",
        "Each revision names the kind of token that made it.",
    ),
    ("get", "/api/v1/tables/{table_id}/ledger"): (
        "getLedger",
        "Tables",
        "Void hands move nothing and are left out.",
    ),
    ("post", "/api/v1/tables/{table_id}/close"): (
        "closeTable",
        "Tables",
        "Balances are final; settle-up then says who pays whom.",
    ),
    ("get", "/api/v1/tables/{table_id}/settle-up"): (
        "getSettleUp",
        "Tables",
        "Integers, deterministic; `final` once the table is closed.",
    ),
    ("get", "/api/v1/tables/{table_id}/settle-up.csv"): (
        "getSettleUpCsv",
        "Tables",
        "The rows of `getSettleUp`, one line each; money in cents with its currency.",
    ),
    ("get", "/api/v1/tables/{table_id}/seating"): ("getSeating", "Tables", None),
    ("put", "/api/v1/tables/{table_id}/seating"): ("reseatTable", "Tables", None),
    ("get", "/api/v1/tables/{table_id}/seating/history"): ("getSeatingHistory", "Tables", None),
    ("get", "/api/v1/clubs/{club_id}/seasons"): ("listSeasons", "Seasons", "Newest first."),
    ("post", "/api/v1/clubs/{club_id}/seasons"): (
        "createSeason",
        "Seasons",
        "Season names are unique within a club (409 otherwise).",
    ),
    ("get", "/api/v1/seasons/{season_id}"): (
        "getSeason",
        "Seasons",
        "Its variant, units and dates.",
    ),
    ("get", "/api/v1/seasons/{season_id}/standings"): ("getStandings", "Standings", None),
    ("get", "/api/v1/seasons/{season_id}/standings.csv"): ("getStandingsCsv", "Standings", None),
    ("get", "/api/v1/players/{player_id}/stats"): ("getPlayerStats", "Players", None),
    ("get", "/api/v1/clubs/{club_id}/export"): ("exportClub", "Backup", None),
    ("post", "/api/v1/clubs/import"): ("importClub", "Backup", None),
    ("get", "/api/v1/clubs/{club_id}/nights"): ("listNights", "Nights", None),
    ("post", "/api/v1/clubs/{club_id}/nights"): ("startNight", "Nights", None),
    ("get", "/api/v1/nights/{night_id}"): ("getNight", "Nights", None),
    ("patch", "/api/v1/nights/{night_id}/presence"): ("changePresence", "Nights", None),
    ("post", "/api/v1/nights/{night_id}/series"): ("drawSeries", "Nights", None),
    ("patch", "/api/v1/nights/{night_id}/series/{number}"): ("setSeriesLength", "Nights", None),
    ("get", "/api/v1/nights/{night_id}/standings.csv"): ("getNightStandingsCsv", "Nights", None),
    ("post", "/api/v1/nights/{night_id}/close"): ("closeNight", "Nights", None),
    ("get", "/api/v1/nights/{night_id}/standings"): ("getNightStandings", "Nights", None),
    ("patch", "/api/v1/nights/{night_id}"): ("updateNight", "Nights", None),
    ("get", "/api/v1/nights/{night_id}/history"): ("getNightHistory", "Nights", None),
    ("get", "/api/v1/nights/{night_id}/settle-up"): (
        "getNightSettleUp",
        "Nights",
        "Integers in cents with the currency code; `final` once the night is closed.",
    ),
    ("get", "/api/v1/nights/{night_id}/settle-up.csv"): (
        "getNightSettleUpCsv",
        "Nights",
        "The rows of `getNightSettleUp`, one line each; money in cents with its currency.",
    ),
    ("post", "/api/v1/clubs/{club_id}/webhooks"): ("createWebhook", "Webhooks", None),
    ("get", "/api/v1/clubs/{club_id}/webhooks"): ("listWebhooks", "Webhooks", None),
    ("get", "/api/v1/clubs/{club_id}/webhooks/{webhook_id}"): ("getWebhook", "Webhooks", None),
    ("patch", "/api/v1/clubs/{club_id}/webhooks/{webhook_id}"): (
        "updateWebhook",
        "Webhooks",
        None,
    ),
    ("delete", "/api/v1/clubs/{club_id}/webhooks/{webhook_id}"): (
        "deleteWebhook",
        "Webhooks",
        None,
    ),
    ("get", "/api/v1/clubs/{club_id}/webhooks/{webhook_id}/deliveries"): (
        "listWebhookDeliveries",
        "Webhooks",
        None,
    ),
    ("post", "/api/v1/clubs/{club_id}/webhooks/{webhook_id}/redeliveries"): (
        "redeliverWebhookEvent",
        "Webhooks",
        None,
    ),
}

# What a schema's fields cannot say of it (the views' schemas check the same).
SCHEMA_KEYWORDS: dict[str, dict[str, Any]] = {
    "PlayerUpdate": {"minProperties": 1},  # PlayerUpdateSchema: `name`, `retired` or both
    "WebhookUpdate": {"minProperties": 1},  # WebhookUpdateSchema: at least one member
}

TAGS = [
    ("Health", "Service health."),
    ("Variants", "The Solo games, their contracts and options."),
    ("Settlements", "Settle a hand without recording it."),
    ("Clubs", "Clubs and their admin tokens."),
    ("Players", "A club's players and their statistics."),
    ("Tables", "Tables (one sitting each): seats, balances, pool, ledger and settle-up."),
    ("Hands", "Recording, correcting and voiding a table's hands."),
    ("Seasons", "A club's league seasons."),
    ("Standings", "A season's standings."),
    ("Backup", "A club's export and its import."),
    ("Nights", "Club nights: tables in series, the seat draw of each, the night's standings."),
    (
        "Live",
        "Every change of a club as it happens: its feed, and the streams of server-sent events.",
    ),
    ("Webhooks", "A club's events POSTed to its URLs, signed as Standard Webhooks says."),
]

PUBLIC = {
    ("get", "/healthz"),
    ("get", "/readyz"),
    ("get", "/api/v1/variants"),
    ("post", "/api/v1/settlements/preview"),
    ("post", "/api/v1/clubs"),
    ("post", "/api/v1/clubs/import"),
}

# Operations that never touch the database: no 503 when it is away.
PURE = {("get", "/api/v1/variants"), ("post", "/api/v1/settlements/preview")}

HEADERS: dict[str, dict[str, Any]] = {
    "RequestId": {
        "description": "The request's id (the client's own `X-Request-Id` when it "
        "is 1-128 of `[A-Za-z0-9._-]`), also in the service's log.",
        "schema": {"type": "string", "maxLength": 128},
    },
    "Location": {
        "description": "The URL of what was created.",
        "schema": {"type": "string", "format": "uri-reference"},
    },
    "ETag": {
        "description": 'The table\'s version as a strong entity tag (`"7"`): send it '
        "in `If-Match` to change the table, or in `If-None-Match` to poll.",
        "schema": {"type": "string"},
    },
    "IdempotentReplayed": {
        "description": "`true` when this is the stored answer to an "
        "earlier request with the same `Idempotency-Key`.",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Link": {
        "description": "RFC 8288 links to the `next` and `prev` pages, when there are.",
        "schema": {"type": "string"},
    },
    "RetryAfter": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer", "minimum": 1},
    },
}

# Answers that carry the table's version as their ETag.
ETAG_ANSWERS = {
    ("get", "/api/v1/tables/{table_id}", "200"),
    ("get", "/api/v1/tables/{table_id}/hands", "200"),
    ("post", "/api/v1/tables/{table_id}/hands", "201"),
    ("put", "/api/v1/tables/{table_id}/hands/{number}", "200"),
    ("delete", "/api/v1/tables/{table_id}/hands/{number}", "200"),
    ("put", "/api/v1/tables/{table_id}/seating", "200"),
    ("patch", "/api/v1/tables/{table_id}", "200"),
    ("post", "/api/v1/tables/{table_id}/close", "200"),
    ("post", "/api/v1/tables", "201"),
}


LINKS: dict[tuple[str, str, str], dict[str, tuple[str, dict[str, str]]]] = {
    ("post", "/api/v1/clubs", "201"): {
        "GetClub": ("getClub", {"club_id": "$response.body#/id"}),
        "AddPlayer": ("addPlayer", {"club_id": "$response.body#/id"}),
        "ListPlayers": ("listPlayers", {"club_id": "$response.body#/id"}),
        "CreateSeason": ("createSeason", {"club_id": "$response.body#/id"}),
        "ExportClub": ("exportClub", {"club_id": "$response.body#/id"}),
    },
    ("post", "/api/v1/clubs/{club_id}/seasons", "201"): {
        "GetSeason": ("getSeason", {"season_id": "$response.body#/id"}),
        "GetStandings": ("getStandings", {"season_id": "$response.body#/id"}),
    },
    ("post", "/api/v1/clubs/{club_id}/players", "201"): {
        "GetPlayerStats": ("getPlayerStats", {"player_id": "$response.body#/id"}),
    },
    ("post", "/api/v1/tables", "201"): {
        "GetTable": ("getTable", {"table_id": "$response.body#/id"}),
        "RecordHand": ("recordHand", {"table_id": "$response.body#/id"}),
        "ListHands": ("listHands", {"table_id": "$response.body#/id"}),
        "GetLedger": ("getLedger", {"table_id": "$response.body#/id"}),
        "CloseTable": ("closeTable", {"table_id": "$response.body#/id"}),
        "GetSettleUp": ("getSettleUp", {"table_id": "$response.body#/id"}),
    },
    ("post", "/api/v1/tables/{table_id}/hands", "201"): {
        "GetHand": (
            "getHand",
            {"table_id": "$request.path.table_id", "number": "$response.body#/number"},
        ),
        "CorrectHand": (
            "correctHand",
            {"table_id": "$request.path.table_id", "number": "$response.body#/number"},
        ),
        "VoidHand": (
            "voidHand",
            {"table_id": "$request.path.table_id", "number": "$response.body#/number"},
        ),
        "GetHandHistory": (
            "getHandHistory",
            {"table_id": "$request.path.table_id", "number": "$response.body#/number"},
        ),
        "GetTable": ("getTable", {"table_id": "$request.path.table_id"}),
    },
    ("put", "/api/v1/tables/{table_id}/hands/{number}", "200"): {
        "GetHandHistory": (
            "getHandHistory",
            {"table_id": "$request.path.table_id", "number": "$request.path.number"},
        ),
    },
    ("post", "/api/v1/tables/{table_id}/close", "200"): {
        "GetSettleUp": ("getSettleUp", {"table_id": "$request.path.table_id"}),
    },
}

STATUS_TEXT = {
    400: "The request is malformed (see `detail`).",
    401: "No or bad token.",
    403: "The token does not reach this resource.",
    404: "No such resource.",
    406: "The service cannot answer in a media type the `Accept` header allows.",
    409: "The request clashes with the current state (see `type`).",
    412: "`If-Match` names an old version: the answer's `ETag` is the current one.",
    413: "The body is too large.",
    415: "The body is not `application/json` (send `Content-Type: application/json`).",
    422: "Unprocessable Content: a field is invalid or a rule is broken; "
    "`errors` names each field.",
    429: "Too many requests; try again after `Retry-After` seconds.",
    500: "Something went wrong on the service's side; nothing was recorded.",
    503: "The service cannot reach its database; try again after `Retry-After` seconds.",
}


IDEMPOTENCY_CONFLICT = (
    "The `Idempotency-Key` came with another request (`idempotency-key-reused`), or its first "
    "request is still being answered (`idempotency-key-in-flight`, with `Retry-After`)."
)
IDEMPOTENCY_INVALID = "The `Idempotency-Key` header is malformed (`errors` names it)."


def request_body(name: str, description: str) -> dict[str, Any]:
    """An operation's JSON body, the component ``name`` (for ``blp.doc(requestBody=…)``; it
    replaces the loading schema's own entry in the document)."""
    return {
        "required": True,
        "description": description,
        "content": {"application/json": {"schema": ref(name)}},
    }


def named_enum(converter: Any, field: Any, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: a string field whose metadata names an
    ``enum_component`` (``Suit``, ``GermanContract`` …) is a reference to that component,
    registered once with the field's choices, rather than an enum of its own: a generated
    client then has one ``Suit`` type, not one per field it appears in."""
    name = field.metadata.get("enum_component")
    if not name or "enum" not in ret:
        return {}
    choices = [c for c in ret["enum"] if c is not None]
    schemas = converter.spec.components.schemas
    if name not in schemas:
        converter.spec.components.schema(name, {"type": "string", "enum": choices})
    elif schemas[name]["enum"] != choices:
        raise ValueError(f"enum component {name!r} is given two lists of choices")
    nullable = isinstance(ret.get("type"), list) and "null" in ret["type"]
    kept = {k: v for k, v in ret.items() if k in ("description", "deprecated")}
    ret.clear()
    reference = ref(name)
    return {**kept, **({"anyOf": [reference, {"type": "null"}]} if nullable else reference)}


def register_components(spec: APISpec) -> None:
    """The typed hand records and the preview's request, before any operation names them."""
    plugin = next(p for p in spec.plugins if isinstance(p, MarshmallowPlugin))
    assert plugin.converter is not None  # set once the plugin is in a spec
    plugin.converter.add_attribute_function(named_enum)  # type: ignore[no-untyped-call]
    for name, schema in hand_schemas().items():
        spec.components.schema(name, schema=schema)
    for name, component in unions().items():
        spec.components.schema(name, component)
    for name, schema in preview_schemas().items():
        spec.components.schema(name, schema=schema)
    spec.components.schema("PreviewRequest", preview_request())
    for name, header in HEADERS.items():
        spec.components.header(name, header)


def _header(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def _problem_response(status: int, description: str | None) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": description or STATUS_TEXT.get(status, "A problem."),
        "content": {PROBLEM_CONTENT_TYPE: {"schema": ref("Problem")}},
    }
    if status in (429, 503):
        response["headers"] = {"Retry-After": _header("RetryAfter")}
    if status == 412:
        response["headers"] = {"ETag": _header("ETag")}
    return response


def complete(spec: APISpec) -> None:
    """Finish the document once every blueprint is in (see the module docstring)."""
    # Each club runs its own server, which serves this document: "/" is that server.
    spec.options["servers"] = [
        {"url": "/", "description": "The server this document came from (`/openapi.yaml`)."}
    ]
    spec._tags = [{"name": name, "description": text} for name, text in TAGS]
    for path, operations in spec._paths.items():
        for method, operation in operations.items():
            if method not in ("get", "put", "post", "delete", "patch"):
                continue
            _name(operation, method, path)
            _respond(operation, method, path)
            if (method, path) in PUBLIC:
                operation["security"] = []
    # Every problem answer is written out in its operation: the shared ones go unused.
    spec.components.responses.clear()
    for name, extra in SCHEMA_KEYWORDS.items():
        spec.components.schemas[name].update(extra)


def _name(operation: dict[str, Any], method: str, path: str) -> None:
    entry = OPERATIONS.get((method, path))
    if entry is None:  # tests/api/test_contract.py asks for an entry
        return
    operation_id, tag, description = entry
    operation["operationId"] = operation_id
    operation["tags"] = [tag]
    if description and "description" not in operation:
        operation["description"] = description
    operation.setdefault("description", operation.get("summary", ""))


def _respond(operation: dict[str, Any], method: str, path: str) -> None:
    responses = operation.setdefault("responses", {})
    responses.pop("default", None)  # every answer the service gives is listed by its status
    names = [p.get("name") for p in operation.get("parameters", [])]
    keyed = "Idempotency-Key" in names
    if "304" in responses and "If-None-Match" not in names:  # api/caching.py's conditional
        operation.setdefault("parameters", []).append(IF_NONE_MATCH)
    if keyed:  # api/idempotency.py: a malformed key is a 422, a reused or busy one a 409
        conflict = responses.get("409")
        if conflict is None or "$ref" in conflict or "content" not in conflict:
            described = (conflict or {}).get("description")
            text = f"{described} Or: {IDEMPOTENCY_CONFLICT}" if described else IDEMPOTENCY_CONFLICT
            conflict = responses["409"] = _problem_response(409, text)
        if "$ref" not in conflict:
            conflict.setdefault("headers", {})["Retry-After"] = _header("RetryAfter")
        responses.setdefault("422", _problem_response(422, IDEMPOTENCY_INVALID))
    if method in ("post", "put", "patch"):  # a body, wherever one may come, must be JSON
        responses.setdefault("415", _problem_response(415, None))
    responses.setdefault("406", _problem_response(406, None))
    responses.setdefault("500", _problem_response(500, None))
    if (method, path) not in PURE:
        responses.setdefault("503", _problem_response(503, None))
    for status, response in list(responses.items()):
        code = int(status)
        if code >= 400 and ("$ref" in response or "content" not in response):
            responses[status] = _problem_response(code, response.get("description"))
        elif code == 412:
            response.setdefault("headers", {})["ETag"] = _header("ETag")
        target = responses[status]
        if "$ref" in target:
            continue
        headers = target.setdefault("headers", {})
        headers["X-Request-Id"] = _header("RequestId")
        if status == "201":
            headers["Location"] = _header("Location")
        if (method, path, status) in ETAG_ANSWERS:
            headers["ETag"] = _header("ETag")
        if keyed and code < 300:
            headers["Idempotent-Replayed"] = _header("IdempotentReplayed")
        if "X-Pagination" in headers:
            headers["Link"] = _header("Link")
        links = LINKS.get((method, path, status))
        if links:
            target["links"] = {
                name: {"operationId": op, "parameters": dict(params)}
                for name, (op, params) in links.items()
            }
