"""What the OpenAPI document says beyond each view's own decorators, in one place.

Each view names its operation itself (``operation``: its operationId, tag and words, beside
the view). ``register_components`` (before the blueprints) adds the typed hand records and the
preview's ``oneOf``; ``complete`` (after them) gives every operation what every answer shares:
problems (``application/problem+json``) for every 4xx and 5xx, ``X-Request-Id``, ``Location``
on a 201, ``ETag`` on the answers that carry one, the pagination headers, ``security: []`` on
the public operations, and OpenAPI links between operations (the flows a client walks: club →
players → table → hands …); ``share``, last, writes what the operations repeat once, under
``components``.

Everything here is generated into ``openapi.yaml`` by ``make openapi``; nothing is edited by
hand. A test (``tests/api/test_contract.py``) fails for an operation without ``operation``.
"""

from __future__ import annotations

import json
import keyword
import re
from collections import Counter
from http import HTTPStatus
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask_smorest import Blueprint

from ..schemas import webhooks
from ..schemas.hands import (
    hand_schemas,
    preview_request,
    preview_schemas,
    ref,
    table_options,
    unions,
)
from ..schemas.settlements import seat_names_field
from .auth import BEARER
from .caching import IF_NONE_MATCH
from .problem import PROBLEM_CONTENT_TYPE


def operation(operation_id: str, tag: str, description: str | None = None) -> Any:
    """A view's name in the document, its tag and, when its docstring gives only a summary,
    its description: the innermost decorator of each view, beside what it names.

    ``tests/api/test_contract.py`` fails for an operation without one."""
    words: dict[str, Any] = {"operationId": operation_id, "tags": [tag]}
    if description:
        words["description"] = description
    return Blueprint.doc(**words)


# What a schema's fields cannot say of it (the views' schemas check the same).
SCHEMA_KEYWORDS: dict[str, dict[str, Any]] = {
    "PlayerUpdate": {"minProperties": 1},  # PlayerUpdateSchema: `name`, `retired` or both
    # WebhookUpdateSchema: at least one member; its words are WebhookCreate's
    "WebhookUpdate": {"minProperties": 1, "description": webhooks.UPDATE_WORDS},
    # PartySchema refuses unknown members (an import holds parties); apispec leaves it unsaid
    # for a schema with a ``Meta.description``.
    "Party": {"additionalProperties": False},
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
    ("Tournaments", "Open tournaments: registration, check-in, series, prizes, the cash sheet."),
]

PUBLIC = {
    ("get", "/healthz"),
    ("get", "/readyz"),
    ("get", "/api/v1/variants"),
    ("post", "/api/v1/settlements/preview"),
    ("post", "/api/v1/clubs"),
    ("post", "/api/v1/clubs/import"),
    ("get", "/api/v1/public/results/{public_id}"),
    ("get", "/api/v1/public/display-names"),
}

# Operations whose bearer token is a link's, not a club's token (``principal()`` is not
# called, so an Idempotency-Key is kept in the public scope): the tournament's registration.
LINK_TOKEN = {("post", "/api/v1/tournaments/{tournament_id}/registrations")}

# Operations that never touch the database: no 503 when it is away.
PURE = {
    ("get", "/api/v1/variants"),
    ("post", "/api/v1/settlements/preview"),
    ("get", "/api/v1/public/display-names"),
}

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


# (method, path, status) → link name → (operationId, parameters[, description]): a value the
# next call takes in its body is in the description (swagger-parser, which openapi-generator
# reads with, refuses a link's `requestBody` other than one runtime expression).
LINKS: dict[tuple[str, str, str], dict[str, tuple[Any, ...]]] = {
    ("post", "/api/v1/clubs", "201"): {
        "GetClub": ("getClub", {"club_id": "$response.body#/id"}),
        "UpdateClub": ("updateClub", {"club_id": "$response.body#/id"}),
        "AddPlayer": ("addPlayer", {"club_id": "$response.body#/id"}),
        "ListPlayers": ("listPlayers", {"club_id": "$response.body#/id"}),
        "CreateSeason": ("createSeason", {"club_id": "$response.body#/id"}),
        "ExportClub": ("exportClub", {"club_id": "$response.body#/id"}),
    },
    ("post", "/api/v1/clubs/{club_id}/seasons", "201"): {
        "GetSeason": ("getSeason", {"season_id": "$response.body#/id"}),
        "GetStandings": ("getStandings", {"season_id": "$response.body#/id"}),
        "OpenTable": ("openTable", {}, "A table of this season: its `id` as `season_id`."),
        "StartNight": (
            "startNight",
            {"club_id": "$response.body#/club_id"},
            "A night of this season: its `id` as `season_id`.",
        ),
    },
    ("post", "/api/v1/clubs/{club_id}/nights", "201"): {
        "GetNight": ("getNight", {"night_id": "$response.body#/id"}),
        "UpdateNight": ("updateNight", {"night_id": "$response.body#/id"}),
        "ChangePresence": ("changePresence", {"night_id": "$response.body#/id"}),
        "DrawSeries": ("drawSeries", {"night_id": "$response.body#/id"}),
    },
    ("post", "/api/v1/clubs/{club_id}/tournaments", "201"): {
        "GetTournament": ("getTournament", {"tournament_id": "$response.body#/id"}),
        "AddEntrant": ("addEntrant", {"tournament_id": "$response.body#/id"}),
        "DrawTournamentSeries": ("drawTournamentSeries", {"tournament_id": "$response.body#/id"}),
        "GetNight": ("getNight", {"night_id": "$response.body#/night_id"}),
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
        "UpdateTable": ("updateTable", {"table_id": "$response.body#/id"}),
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
    # A program's own follow-ups: the next page of the feed, its webhook's state and log.
    ("get", "/api/v1/clubs/{club_id}/changes", "200"): {
        "NextChanges": (
            "listClubChanges",
            {"club_id": "$request.path.club_id", "after": "$response.body#/cursor"},
        ),
    },
    ("post", "/api/v1/clubs/{club_id}/webhooks", "201"): {
        name: (
            operation_id,
            {"club_id": "$request.path.club_id", "webhook_id": "$response.body#/id"},
        )
        for name, operation_id in (
            ("GetWebhook", "getWebhook"),
            ("ListWebhookDeliveries", "listWebhookDeliveries"),
            ("DeleteWebhook", "deleteWebhook"),
        )
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


# An answer given fewer times than this, in the shape of a more frequent one of its status,
# refers to that one with its own words: below it, the words beside each reference cost less
# than a component of its own.
OWN_COMPONENT_FROM = 6

IDEMPOTENCY_CONFLICT = (
    "The `Idempotency-Key` came with another request (`idempotency-key-reused`), or its first "
    "request is still being answered (`idempotency-key-in-flight`, with `Retry-After`)."
)
# Beside an operation's own conflicts (22 of them), said short: the `Conflict` answer and the
# `Idempotency-Key` parameter, beside each of them, name the two problems in full.
IDEMPOTENCY_CONFLICT_TOO = "Or a reused or busy `Idempotency-Key`."
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
    client then has one ``Suit`` type, not one per field it appears in. A field whose metadata
    names a ``schema_component`` (``Name``: its bounds and pattern) is a reference to that
    component, registered once with the field's whole schema. The field's description and
    deprecation stay beside the reference; a ``component_description`` is the
    component's own (``VariantName``'s, ``ExpectedNumber``'s: the same words for every field
    of that type, said once). A field whose metadata lists ``any_of_components`` (a table's
    ``options``: ``AmericanTableOptions`` …, registered with the hands') is any one of them,
    whatever its marshmallow type says (an object): the ``schema_component`` it names
    (``TableOptions``), written once."""
    own = ("description", "deprecated")  # the field's, beside the reference
    nullable = isinstance(ret.get("type"), list) and "null" in ret["type"]
    members = field.metadata.get("any_of_components")
    name = field.metadata.get("enum_component") or field.metadata.get("schema_component")
    if members:
        shape: dict[str, Any] = {"anyOf": [ref(m) for m in members]}
        if not name:
            kept = {k: v for k, v in ret.items() if k in own}
            ret.clear()
            return {**kept, "anyOf": shape["anyOf"] + ([{"type": "null"}] * nullable)}
    elif not name or ("enum" not in ret and "enum_component" in field.metadata):
        return {}
    elif "enum_component" in field.metadata:
        shape = {"type": "string", "enum": [c for c in ret["enum"] if c is not None]}
    else:  # a default is the field's, not its type's: left out, as an enum component's is
        shape = {k: v for k, v in ret.items() if k not in (*own, "default")}
        if nullable:  # the component is the value; the null is the field's
            shape["type"] = [kind for kind in ret["type"] if kind != "null"][0]
    if "component_description" in field.metadata:  # said once, with the type, for every field
        shape["description"] = field.metadata["component_description"]
    schemas = converter.spec.components.schemas
    if name not in schemas:
        converter.spec.components.schema(name, shape)
    elif {k: schemas[name].get(k) for k in shape} != shape:
        raise ValueError(f"component {name!r} is given two schemas")
    kept = {k: v for k, v in ret.items() if k in own}
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
    # The preview's ``names``, once for the four variants' requests.
    spec.components.schema("SeatNames", plugin.converter.field2property(seat_names_field()))
    for name, schema in preview_schemas().items():
        spec.components.schema(name, schema=schema)
    spec.components.schema("PreviewRequest", preview_request())
    for name, component in table_options().items():
        spec.components.schema(name, component)
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
            _name(operation)
            _respond(operation, method, path)
            if (method, path) in PUBLIC:
                operation["security"] = []
            elif (method, path) in LINK_TOKEN or operation.get("security") == BEARER:
                # The document's own bearer (a registration link's token too), said once.
                operation.pop("security", None)
    spec.options["security"] = BEARER
    for name, extra in SCHEMA_KEYWORDS.items():
        spec.components.schemas[name].update(extra)
    for schema in spec.components.schemas.values():  # schemas/settlements.PartyField
        for member, prop in schema.get("properties", {}).items():
            if prop.pop("x-required", False):
                schema["required"] = sorted({*schema.get("required", []), member})
    _pagination_header(spec)
    _share_twins_words(spec.components.schemas)
    _parameters_required_only(spec)
    share(spec)
    for name in answer_only_schemas(
        spec.components.schemas, spec._paths, spec.components.parameters
    ):
        _open_to_new_members(spec.components.schemas[name])


SCHEMA_REF = "#/components/schemas/"


def _schemas_named(node: Any) -> set[str]:
    """The schemas ``node`` refers to, directly."""
    if isinstance(node, dict):
        ref_ = node.get("$ref")
        if isinstance(ref_, str) and ref_.startswith(SCHEMA_REF):
            return {ref_.removeprefix(SCHEMA_REF)}
        return set().union(*(_schemas_named(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_schemas_named(value) for value in node))
    return set()


def answer_only_schemas(
    schemas: dict[str, Any], paths: dict[str, Any], parameters: dict[str, Any]
) -> set[str]:
    """The schemas no request holds (nor a schema a request holds): those of answers alone.

    A request's schema says ``additionalProperties: false`` (the service refuses a member it
    does not know); an answer's may not, since answers may grow within v1 and a client ignores
    a member it does not know (docs/api.md, "Versions, changes and deprecation"): a client
    validating answers against the document must not fail on a new one. The tests hold the
    service to its documented members all the same (tests/api/fuzz/conftest.py)."""
    asked = _schemas_named(parameters)
    for item in paths.values():
        asked |= _schemas_named(item.get("parameters", []))
        for method, operation in item.items():
            if method in ("get", "put", "post", "delete", "patch"):
                asked |= _schemas_named(operation.get("requestBody", {}))
                asked |= _schemas_named(operation.get("parameters", []))
    todo = list(asked)
    while todo:
        for held in _schemas_named(schemas[todo.pop()]) - asked:
            asked.add(held)
            todo.append(held)
    return set(schemas) - asked


def _open_to_new_members(node: Any) -> None:
    """``node`` without ``additionalProperties: false``, wherever it says it (a map's
    ``additionalProperties`` schema stays)."""
    if isinstance(node, dict):
        if node.get("additionalProperties") is False:
            del node["additionalProperties"]
        for value in node.values():
            _open_to_new_members(value)
    elif isinstance(node, list):
        for value in node:
            _open_to_new_members(value)


def _parameters_required_only(spec: APISpec) -> None:
    """A parameter says ``required`` only when it is: ``false`` is OpenAPI's default for one
    outside the path (apispec writes it for each of them; 25 in all). Copies: a parameter
    may be a module's constant (``Idempotency-Key``'s)."""
    for item in spec._paths.values():
        for key, value in item.items():
            found = value if key == "parameters" else value.get("parameters", [])
            found[:] = [{k: v for k, v in p.items() if k != "required" or v} for p in found]


def _share_twins_words(schemas: dict[str, dict[str, Any]]) -> None:
    """A schema that holds another's members as they are (``TableCreated``: a ``Table`` and
    its token; ``GermanHandCreate``: a ``GermanHand`` and ``expected_number``) says their
    words once: its own description names the other, whose members keep theirs, and its
    own members keep theirs. Found among all the schemas as written, before any loses a word;
    the larger of two candidates is named."""
    found: dict[str, str] = {}
    for name, schema in schemas.items():
        members = schema.get("properties", {})
        twins = [
            other
            for other, candidate in schemas.items()
            if 3 <= len(held := candidate.get("properties", {})) < len(members)
            and all(members.get(key) == value for key, value in held.items())
            and any("description" in value for value in held.values())  # words to share
        ]
        if twins:
            found[name] = max(twins, key=lambda other: len(schemas[other]["properties"]))
    for name, twin in found.items():
        schema, held = schemas[name], schemas[twin]["properties"]
        for key in held:
            schema["properties"][key].pop("description", None)
        extra = ", ".join(f"`{key}`" for key in schema["properties"] if key not in held)
        said = f"`{twin}` (its members as described there) with {extra}."
        own = schema.get("description")
        schema["description"] = f"{own} {said}" if own else said


def _pagination_header(spec: APISpec) -> None:
    """flask-smorest sends ``X-Pagination`` as a JSON text: a string whose content is the
    ``PaginationMetadata`` object (JSON Schema's ``contentMediaType``/``contentSchema``), so
    that every generator types it (a header's ``content`` leaves some without a schema)."""
    pagination = spec.components.headers.get("PAGINATION")
    if pagination is None:
        return
    metadata = pagination.pop("schema", None) or pagination.pop("content", {}).get(
        "application/json", {}
    ).get("schema")
    pagination["description"] = (
        "The page's place in the list, as a JSON object (`PaginationMetadata`): `total`, "
        "`total_pages`, `page`, `first_page`, `last_page`, `previous_page`, `next_page`."
    )
    pagination["schema"] = {
        "type": "string",
        "contentMediaType": "application/json",
        **({"contentSchema": metadata} if metadata else {}),
    }


# Headers that every answer carries (``X-Request-Id``), or every answer to a request a rate
# limit counts (``middleware/limits.py``): declared on the problem answers (shared
# components, where a client quotes the id or reads the refused limit) and said once, in the
# document's description, rather than beside each operation's own success, where they were
# 15 KB of the document (three references in each of a hundred answers).
SAID_ONCE_HEADERS = ("X-Request-Id", "RateLimit-Policy", "RateLimit")
SAID_ONCE = (
    "Every answer carries `X-Request-Id`, and every answer to a request a rate limit counts "
    "(all but `getHealth` and `getReadiness`) `RateLimit-Policy` and `RateLimit`: "
    "`components/headers` describes them, and the problem answers declare them (the 429 with "
    "its `Retry-After`)."
)


def _headers_said_once(spec: APISpec, answers: list[dict[str, Any]]) -> None:
    """``SAID_ONCE_HEADERS`` leave the operations' own answers below 400 (``SAID_ONCE`` says
    them in the document's description)."""
    for responses in answers:
        for status, response in responses.items():
            if int(status) < 400 and "$ref" not in response:
                for key in SAID_ONCE_HEADERS:
                    response.get("headers", {}).pop(key, None)
                if response.get("headers") == {}:
                    del response["headers"]
    info = spec.options.get("info", {})
    said = f"{info['description']} {SAID_ONCE}" if info.get("description") else SAID_ONCE
    spec.options["info"] = {**info, "description": said}  # a copy: the config's stays as it is


def share(spec: APISpec) -> None:
    """Write every answer, parameter and header the document repeats once, in its
    components, and refer to it wherever it stands: a problem answer such as the 429 of every
    rate-limited operation, ``Idempotency-Key``, a path's ``club_id``. Run last, over the
    finished document, so that whatever added an answer (a view, ``api/openapi.py``,
    ``middleware/limits.py``) shares it without knowing of the others.

    An answer's component is named by its status's reason phrase (``TooManyRequests``), the
    status's most frequent answer by that alone and the others with their description's words
    (``NotFoundNoSuchClub``); a parameter by its name (``IdempotencyKey``, ``ClubId``), other
    variants of the same name staying where they are; a success's name has its schema's too
    (``OKNight``)."""
    # flask-smorest's default error answers: every problem answer here is the service's own.
    spec.components.responses.clear()
    operations = [
        (item, method, operation)
        for item in spec._paths.values()
        for method, operation in item.items()
        if method in ("get", "put", "post", "delete", "patch")
    ]
    _headers_said_once(spec, [op.get("responses", {}) for _, _, op in operations])
    _share_headers(spec, [op.get("responses", {}) for _, _, op in operations])
    answers: Counter[tuple[str, str]] = Counter(
        (status, _canonical(response))
        for _, _, operation in operations
        for status, response in operation.get("responses", {}).items()
        if "$ref" not in response
    )
    # A problem answer given a few times only, in the shape of a more frequent one, refers to
    # that one with its own words (``_share_problem_shapes``) rather than being a component.
    main: dict[tuple[str, str], tuple[str, str]] = {}
    for key, _ in answers.most_common():
        main.setdefault((key[0], _shape(json.loads(key[1]))), key)
    shared_answers = _names(
        [
            (key, n)
            for key, n in answers.most_common()
            if n > 1
            and (n >= OWN_COMPONENT_FROM or main[(key[0], _shape(json.loads(key[1])))] == key)
        ]
    )
    for (_, canonical), name in shared_answers.items():
        spec.components.responses[name] = json.loads(canonical)
    for _, _, operation in operations:
        responses = operation.get("responses", {})
        for status, response in responses.items():
            shared = shared_answers.get((status, _canonical(response)))
            if shared is not None:
                responses[status] = _ref("responses", shared)
    _share_problem_shapes(
        spec, [op.get("responses", {}) for _, _, op in operations], shared_answers
    )
    lists = [item.setdefault("parameters", []) for item in spec._paths.values()]
    lists += [
        operation["parameters"] for _, _, operation in operations if "parameters" in operation
    ]
    parameters: Counter[str] = Counter(
        _canonical(p) for found in lists for p in found if "$ref" not in p
    )
    shared_parameters = _parameter_names([c for c, n in parameters.most_common() if n > 1])
    for canonical, name in shared_parameters.items():
        spec.components.parameters[name] = json.loads(canonical)
    for found in lists:
        found[:] = [
            _ref("parameters", shared_parameters[c])
            if (c := _canonical(p)) in shared_parameters
            else p
            for p in found
        ]
    for item in spec._paths.values():
        if not item["parameters"]:
            del item["parameters"]


def _shape(response: dict[str, Any]) -> str:
    """An answer but for its words."""
    return _canonical({k: v for k, v in response.items() if k != "description"})


def _share_problem_shapes(
    spec: APISpec, answers: list[dict[str, Any]], shared: dict[tuple[str, str], str]
) -> None:
    """A problem answer that is no component of its own (given fewer than
    ``OWN_COMPONENT_FROM`` times) refers to a component of the same status and shape with
    its own words beside (OpenAPI 3.1's Reference Object: its ``description`` overrides the
    component's): the shape is written once, the words stay the operation's. A shape no
    component has yet gets one where two answers or more have it, worded as the status's
    ``STATUS_TEXT``."""
    components = spec.components.responses
    by_shape: dict[tuple[str, str], str] = {}
    for (status, canonical), name in shared.items():  # the most frequent first
        by_shape.setdefault((status, _shape(json.loads(canonical))), name)
    written = [
        (found, status, response)
        for found in answers
        for status, response in found.items()
        if "$ref" not in response and int(status) >= 400
    ]
    shapes = Counter((status, _shape(response)) for _, status, response in written)
    for (status, shape), n in shapes.most_common():
        if (status, shape) in by_shape or n < 2:
            continue
        code = int(status)
        general = {
            **json.loads(shape),
            "description": STATUS_TEXT.get(code, HTTPStatus(code).description),
        }
        phrase = _words(HTTPStatus(code).phrase)
        candidates = [phrase] + [phrase + _words(general["description"], m) for m in (3, 6, 99)]
        name = next(c for c in candidates if c not in components)
        components[name] = general
        by_shape[(status, shape)] = name
    for found, status, response in written:
        shared_as = by_shape.get((status, _shape(response)))
        if shared_as is not None:
            found[status] = {**_ref("responses", shared_as), "description": response["description"]}


def _share_headers(spec: APISpec, answers: list[dict[str, Any]]) -> None:
    """Each header written out in two answers or more, or equal to a component, refers to
    its component: named by its key (``DryRun``), with words of its description when that
    name is taken (``ETagAWeakEntity``)."""
    headers = {_canonical(header): name for name, header in spec.components.headers.items()}
    written = Counter(
        (key, _canonical(header))
        for responses in answers
        for response in responses.values()
        for key, header in response.get("headers", {}).items()
        if "$ref" not in header and _canonical(header) not in headers
    )
    for (key, canonical), n in written.most_common():
        if n < 2:
            break
        description = json.loads(canonical).get("description", "")
        words = [_words(key.replace("-", " "))]
        words += [words[0] + _words(description, most) for most in (3, 6, 99)]
        name = next(w for w in words if w not in spec.components.headers)
        spec.components.headers[name] = json.loads(canonical)
        headers[canonical] = name
    for responses in answers:
        for response in responses.values():
            for key, header in list(response.get("headers", {}).items()):
                component = headers.get(_canonical(header))
                if component is not None:
                    response["headers"][key] = _ref("headers", component)


def _canonical(node: Any) -> str:
    return json.dumps(node, sort_keys=True)


def _ref(kind: str, name: str) -> dict[str, str]:
    return {"$ref": f"#/components/{kind}/{name}"}


def _words(text: str, most: int = 8) -> str:
    """``"Not this club's admin token."`` → ``NotThisClubsAdminToken``."""
    words = re.findall(r"[A-Za-z0-9]+", text.replace("'", "").replace("’", ""))
    return "".join(w[:1].upper() + w[1:] for w in words[:most])


def _names(counts: list[tuple[tuple[str, str], int]]) -> dict[tuple[str, str], str]:
    """A component name for each repeated answer (most frequent first): its status's reason
    phrase (and a success's schema) alone for the most frequent answer that has it, with as
    many of its description's words as tell it apart for the others."""
    names: dict[tuple[str, str], str] = {}
    for (status, canonical), _ in counts:
        answer = json.loads(canonical)
        phrase = _words(HTTPStatus(int(status)).phrase)
        description = answer.get("description", "")
        if int(status) < 300:  # a success is told apart by what it carries
            schemas = re.findall(r"#/components/schemas/(\w+)", json.dumps(answer.get("content")))
            phrase += "".join(schemas[:1])
        candidates = [phrase] if phrase not in names.values() else []
        candidates += [phrase + _words(description, most) for most in (6, 9, 12, 99)]
        name = next((c for c in candidates if c not in names.values()), None)
        if name is None:
            raise ValueError(f"two answers of {status} are described alike: {description!r}")
        names[(status, canonical)] = name
    return names


def _parameter_names(variants: list[str]) -> dict[str, str]:
    """A component name for each repeated parameter (most frequent first), its name in
    CamelCase (``FromParameter`` for a word Python reserves: openapi-generator's `python`
    renames, and warns of, a ``From``); a less frequent variant of a name is not shared."""
    names: dict[str, str] = {}
    for canonical in variants:
        name = _words(json.loads(canonical)["name"].replace("_", " "))
        if keyword.iskeyword(name.casefold()):
            name += "Parameter"
        if name and name not in names.values():
            names[canonical] = name
    return names


def _name(operation: dict[str, Any]) -> None:
    """Its summary and description as a reader sees them: the docstring's lines joined (a
    line break inside a paragraph is Markdown's space; paragraphs stay apart), and a
    description only where it says more than the summary (the docstring's further paragraphs,
    or ``operation(…)``'s words): one said twice is left out."""
    for key in ("summary", "description"):
        if key in operation:
            operation[key] = _unwrapped(operation[key])
    if operation.get("description") in ("", operation.get("summary")):
        operation.pop("description", None)


def _unwrapped(text: str) -> str:
    """``"Enter a player: a guest; `check_in` for a\nlate entry."`` → one line; paragraphs
    (a blank line between) stay apart."""
    return "\n\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", text.strip()))


def _link(
    operation_id: str, parameters: dict[str, str], description: str | None = None
) -> dict[str, Any]:
    link: dict[str, Any] = {"operationId": operation_id}
    if parameters:
        link["parameters"] = dict(parameters)
    if description:
        link["description"] = description
    return link


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
            text = f"{described} {IDEMPOTENCY_CONFLICT_TOO}" if described else IDEMPOTENCY_CONFLICT
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
            target["links"] = {name: _link(*link) for name, link in links.items()}
