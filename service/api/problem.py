"""flask-smorest's Api, with errors documented and rendered as RFC 9457 problem details, and
the registry of problem types: the ``type`` URIs a client can tell problems apart by.

A problem whose status says it all (401, 404 …) has ``type: about:blank`` and the status's
phrase as its title (RFC 9457 §4.2.1). The others have a ``type`` of their own, below, with a
title that never changes for that type; ``detail`` says what happened this time. Types never
change with the language of the answer.
"""

from __future__ import annotations

import http

from flask_smorest import Api
from flask_smorest.utils import prepare_response

from ..i18n.marks import N_
from ..schemas.problem import ProblemSchema

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:solo:problem:"

# slug → (status, title, when a client sees it); the title is worded in the answer's language.
# docs/api.md lists them for integrators.
PROBLEM_TYPES: dict[str, tuple[int, str, str]] = {
    "invalid-field": (
        422,
        N_("Unprocessable Content"),
        "A field is missing, of the wrong type or out of range; `errors` names "
        "each field by its JSON path.",
    ),
    "rule-violation": (
        422,
        N_("Unprocessable Content"),
        "The values are well-formed but break a rule of the game (a solo with a "
        "partner …); `errors` names the field.",
    ),
    "hand-number-taken": (
        409,
        N_("Hand number taken"),
        "`expected_number` names a number already recorded: the member "
        "`next_number` is the number the next hand gets.",
    ),
    "table-closed": (409, N_("Table closed"), "The table is closed: no more hands, no re-seating."),
    "stream-ticket-invalid": (
        401,
        N_("Stream ticket invalid"),
        "The stream ticket is expired (a minute), forged, for another stream, or its token "
        "was revoked: mint another with the token.",
    ),
    "too-many-streams": (
        429,
        N_("Too many streams"),
        "The token or the client's address holds as many streams as a worker allows: close "
        "one, or try again after `Retry-After` seconds.",
    ),
    "session-over": (409, N_("Session over"), "The table's session target was reached."),
    "series-over": (
        409,
        N_("Series over"),
        "A club night's table has played the hands of its series (`hands_limit`): the "
        "night's director may lengthen the series (`PATCH "
        "/api/v1/nights/{night_id}/series/{number}`).",
    ),
    "idempotency-key-reused": (
        409,
        N_("Idempotency-Key reused"),
        "The `Idempotency-Key` came before with another request (another body, or another "
        "operation).",
    ),
    "idempotency-key-in-flight": (
        409,
        N_("Idempotency-Key in flight"),
        "The first request with this `Idempotency-Key` is still being answered: send it again "
        "after `Retry-After` seconds to get its answer.",
    ),
    "hand-already-void": (409, N_("Hand already void"), "The hand was voided before."),
    "cursor-ahead": (
        409,
        N_("Cursor ahead"),
        "The feed's `after` is beyond the club's last event (its records were restored): "
        "fetch `links.reload` (the club's state), then follow on after `after`.",
    ),
    "name-taken": (409, N_("Name taken"), "The club already has a player or season of that name."),
    "night-closed": (409, N_("Club night closed"), "The club night is closed: no draw, no change."),
    "night-table-closed-by-director": (
        403,
        N_("Closed by the night's director"),
        "A table of a club night is closed by the night's director (the club's admin token: "
        "the next draw, or closing the night), not with the table's own token.",
    ),
    "night-tables-pending": (
        409,
        N_("Tables still playing"),
        "A table of the club night has not played its series' hands: the next draw and the "
        "closing wait for it, or say `early: true`.",
    ),
    "registration-closed": (
        409,
        N_("Registration closed"),
        "The tournament's director has closed its registration, or the tournament is over.",
    ),
    "no-place-free": (
        409,
        N_("No place free"),
        "Every place of the tournament's cap is held: raise the cap, or withdraw someone.",
    ),
    "series-not-complete": (
        409,
        N_("Series not complete"),
        "The tournament table has not played its series' hands: its result is confirmed at "
        "the series' end.",
    ),
    "result-disputed": (
        409,
        N_("Result disputed"),
        "A hand of the tournament table is disputed (or this hand is already): the director "
        "resolves the dispute before the result is confirmed.",
    ),
    "dispute-closed": (409, N_("Dispute closed"), "The director has resolved the dispute already."),
    "series-started": (
        409,
        N_("Series started"),
        "The table has played its first hand (or is closed): seats move only before it.",
    ),
    "token-revoked": (
        401,
        N_("Token revoked"),
        "The club's admin revoked this token (a table's shared link, a rotated admin token, a "
        "replaced read-only token): ask the admin for a new one.",
    ),
    "version-mismatch": (
        412,
        N_("Version mismatch"),
        "`If-Match` names a version the table has moved on from: the answer's "
        "`ETag` header (and the member `etag`) is the current version.",
    ),
    "unsupported-media-type": (
        415,
        N_("Unsupported Media Type"),
        "A body was sent without `Content-Type: application/json`.",
    ),
    "not-acceptable": (
        406,
        N_("Not Acceptable"),
        "The `Accept` header allows none of the media types the operation answers in.",
    ),
    "rate-limited": (
        429,
        N_("Too Many Requests"),
        "Too many requests from this address or with this token: wait `Retry-After` seconds.",
    ),
    "service-unavailable": (
        503,
        N_("Service Unavailable"),
        "The service cannot reach its database: wait `Retry-After` seconds.",
    ),
}


def problem_type(slug: str) -> str:
    """The ``type`` URI of the registered problem ``slug``."""
    if slug not in PROBLEM_TYPES:
        raise KeyError(f"unregistered problem type {slug!r}: add it to PROBLEM_TYPES")
    return TYPE_PREFIX + slug


class ProblemApi(Api):
    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict[str, object] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)
