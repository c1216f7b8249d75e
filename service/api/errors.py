"""The single place where exceptions become HTTP responses: RFC 9457 problem details."""

from __future__ import annotations

import http
import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from flask import Flask, Response, has_request_context, request
from werkzeug.exceptions import HTTPException, InternalServerError

from ..i18n import current_language, gettext, word, word_message
from ..i18n.marks import N_
from ..json_text import answer_bytes
from ..metrics import DATABASE_ERRORS
from ..middleware.limits import RateLimited
from ..rules import Phrase, RuleViolation
from ..services.errors import ServiceError
from ..services.outages import RETRY_AFTER_BUSY, Outage, outage_of
from .problem import PROBLEM_CONTENT_TYPE, PROBLEM_TYPES, problem_type

log = logging.getLogger(__name__)

# Errors from webargs arrive keyed by location first; the body's fields are named bare.
_BODY_LOCATIONS = {"json", "form"}


# Bounds on what an error answer echoes back (documented as maxLength/maxProperties too).
DETAIL_MAX = 2000
PATH_MAX = 200
ERROR_FIELDS_MAX = 50
ERRORS_PER_FIELD = 10


_PATH_SAFE = "/:@!$&'()*+,;=-._~"

# RFC 9110's reason phrases where Python's still give RFC 4918's.
_PHRASES = {422: "Unprocessable Content", 413: "Content Too Large"}
# The phrases of the statuses the service answers with, for the catalogs (a title is worded in
# the answer's language; ``type`` never changes with it).
_TITLES = (
    N_("Bad Request"),
    N_("Unauthorized"),
    N_("Forbidden"),
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("Not Acceptable"),
    N_("Conflict"),
    N_("Precondition Failed"),
    N_("Content Too Large"),
    N_("Unsupported Media Type"),
    N_("Unprocessable Content"),
    N_("Too Many Requests"),
    N_("Request Timeout"),
    N_("Internal Server Error"),
    N_("Service Unavailable"),
    N_("Precondition Required"),
    N_("Request Header Fields Too Large"),
    N_("URI Too Long"),
    N_("Length Required"),
)
# Werkzeug's own descriptions of the statuses a client meets without a view's word (an unknown
# path, a wrong method, a body too large …), which are a problem's ``detail``.
_DESCRIPTIONS = (
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_(
        "The requested URL was not found on the server. If you entered the URL manually "
        "please check your spelling and try again."
    ),
    N_("The method is not allowed for the requested URL."),
    N_(
        "The resource identified by the request is only capable of generating response "
        "entities which have content characteristics not acceptable according to the accept "
        "headers sent in the request."
    ),
    N_("The data value transmitted exceeds the capacity limit."),
    N_("The server does not support the media type transmitted in the request."),
    N_("The request was well-formed but was unable to be followed due to semantic errors."),
    N_(
        "The length of the requested URL exceeds the capacity limit for this server. The "
        "request cannot be processed."
    ),
    N_("One or more header fields exceeds the maximum size."),
)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _instance(path: str) -> str:
    """The path as a URI reference of at most ``DETAIL_MAX`` characters: percent-encoded, and
    cut short (a fuzzer's path may be any length) before an escape, never inside one, with no
    ellipsis (a URI has none)."""
    uri = quote(path, safe=_PATH_SAFE)
    if len(uri) <= DETAIL_MAX:
        return uri
    cut = uri[:DETAIL_MAX]
    escape = cut.find("%", DETAIL_MAX - 2)
    return cut if escape == -1 else cut[:escape]


def problem(
    status: int,
    detail: str | None = None,
    errors: Mapping[str, list[str]] | None = None,
    headers: Mapping[str, str] | None = None,
    type_: str | None = None,
    members: Mapping[str, Any] | None = None,
    values: Mapping[str, Any] | None = None,
) -> Response:
    """An RFC 9457 body. ``type_`` is a registered slug (``problem.PROBLEM_TYPES``), its title
    the type's; without one the type is ``about:blank`` and the title the status's phrase
    (RFC 9110's: 422 is "Unprocessable Content"). ``instance`` is the request's path.

    ``title`` and ``detail`` are worded in the request's language (``Accept-Language``): each
    is a catalog message, ``detail``'s ``%(name)s`` filled from ``values``; a detail the
    catalogs do not hold (a library's) is given as it is."""
    if type_ is None:
        type_uri, title = "about:blank", _PHRASES.get(status) or http.HTTPStatus(status).phrase
    else:
        type_uri, title = problem_type(type_), PROBLEM_TYPES[type_][1]
    language = current_language()
    title = gettext(title, language)
    detail = title if not detail else gettext(detail, language, **(values or {}))
    body: dict[str, Any] = {
        "type": type_uri,
        "title": title,
        "status": status,
        "detail": _clip(detail, DETAIL_MAX),
    }
    if has_request_context():
        # As a URI reference: what is not plain ASCII of a path percent-encoded.
        body["instance"] = _instance(request.path)
    if errors:
        # A field path can hold a client's own key: keep the echo short, whatever was sent.
        body["errors"] = {
            _clip(path, PATH_MAX): list(messages)[:ERRORS_PER_FIELD]
            for path, messages in list(errors.items())[:ERROR_FIELDS_MAX]
        }
    body.update(members or {})
    response = Response(answer_bytes(body), status=status, mimetype=PROBLEM_CONTENT_TYPE)
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def flatten_messages(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """Turn marshmallow's nested error dicts into ``{"hand.tricks": ["…"]}``."""
    flat: dict[str, list[str]] = {}
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            name = str(key)
            if not prefix and name in _BODY_LOCATIONS or name == "_schema":
                name = ""
            path = ".".join(p for p in (prefix, name) if p)
            for sub, msgs in flatten_messages(value, path).items():
                flat.setdefault(sub, []).extend(msgs)
    elif isinstance(messages, list | tuple) and all(isinstance(m, str) for m in messages):
        flat[prefix or "body"] = [str(m) for m in messages]
    elif isinstance(messages, list | tuple):
        for item in messages:
            for sub, msgs in flatten_messages(item, prefix).items():
                flat.setdefault(sub, []).extend(msgs)
    else:
        flat[prefix or "body"] = [str(messages)]
    return flat


def _http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    headers = dict(data.get("headers") or {})
    if status == 405 and error.valid_methods:  # type: ignore[attr-defined]
        headers["Allow"] = ", ".join(sorted(error.valid_methods))  # type: ignore[attr-defined]
    errors = None
    values: dict[str, Any] = {}
    language = current_language()
    detail = data.get("message") or error.description
    phrase = getattr(error, "phrase", None)
    if isinstance(phrase, Phrase):  # a description of the service's own, with its values
        detail = word(phrase, language)
    if "messages" in data or "errors" in data:
        errors = _worded(flatten_messages(data.get("errors") or data.get("messages")), language)
        if status == 400:
            detail = N_("The request body is not valid JSON.")
        else:
            detail = N_("Some fields are invalid: %(fields)s")
            values["fields"] = ", ".join(sorted(errors))
    if status >= 500:
        detail = N_("Something went wrong on our side; nothing was recorded.")
    type_ = {415: "unsupported-media-type", 406: "not-acceptable"}.get(status)
    if status == 422 and errors:
        type_ = "invalid-field"
    return problem(status, detail, errors, headers, type_, values=values)


def _rate_limited(error: RateLimited) -> Response:
    retry = error.retry_after
    return problem(
        429,
        N_("%(why)s Try again in %(retry)s s."),
        headers={"Retry-After": str(retry)},
        type_="rate-limited",
        values={"why": gettext(error.description, current_language()), "retry": retry},
    )


def _worded(errors: Mapping[str, list[str]], language: str) -> dict[str, list[str]]:
    return {
        path: [word_message(m, language) for m in messages] for path, messages in errors.items()
    }


def _rule_violation(error: RuleViolation) -> Response:
    """``detail`` is ``field: message``, ``errors`` names the field: the message worded in the
    request's language (``i18n.word``; English is the rules' own text)."""
    language = current_language()
    phrase = error.phrase
    worded = word(phrase, language) if phrase.values else word_message(phrase.text, language)
    errors = {
        path: [
            worded
            if path == error.field and message == error.message
            else word_message(message, language)
            for message in messages
        ]
        for path, messages in error.errors.items()
    }
    return problem(422, f"{error.field}: {worded}", errors, type_="rule-violation")


def _service_error(error: ServiceError) -> Response:
    return problem(
        error.status, error.message, None, error.headers, error.problem, error.members, error.values
    )


def _database_unavailable(outage: Outage) -> Response:
    retry = outage.retry_after
    return problem(
        503,
        N_(
            "The database is not available right now: nothing was recorded (no "
            "hand, no change). Send it again in %(retry)s s; with the same "
            "Idempotency-Key it is recorded once."
        ),
        headers={"Retry-After": str(retry)},
        type_="service-unavailable",
        values={"retry": retry},
    )


def answer_for(error: BaseException) -> Response:
    """The answer to an error no more specific handler took: a database outage is a 503 with
    ``Retry-After`` (``services/outages.py``), anything else a 500, logged with its trace.
    Also answers errors that escape Flask (its teardown: ``middleware/security.py``'s envelope)."""
    if isinstance(error, HTTPException):
        return _http_exception(error)
    outage = outage_of(error)
    if outage is not None:
        log.warning("database unavailable (%s): answered 503", outage.reason)
        DATABASE_ERRORS.labels("busy" if outage.retry_after == RETRY_AFTER_BUSY else "down").inc()
        return _database_unavailable(outage)
    log.exception("unhandled error", exc_info=error)
    return _http_exception(InternalServerError())


def _unexpected(error: Exception) -> Response:
    return answer_for(error)


def register_error_handlers(app: Flask) -> None:
    """Registered after flask-smorest's own handler, which these replace."""
    app.register_error_handler(HTTPException, _http_exception)
    app.register_error_handler(RateLimited, _rate_limited)
    app.register_error_handler(RuleViolation, _rule_violation)
    app.register_error_handler(ServiceError, _service_error)
    app.register_error_handler(Exception, _unexpected)
