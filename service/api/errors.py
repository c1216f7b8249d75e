"""The single place where exceptions become HTTP responses: RFC 9457 problem details."""

from __future__ import annotations

import http
import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException, InternalServerError

from ..middleware.limits import RateLimited
from ..rules import RuleViolation
from ..services.errors import ServiceError
from .problem import PROBLEM_CONTENT_TYPE

log = logging.getLogger(__name__)

# Errors from webargs arrive keyed by location first; the body's fields are named bare.
_BODY_LOCATIONS = {"json", "form"}


# Bounds on what an error answer echoes back (documented as maxLength/maxProperties too).
DETAIL_MAX = 2000
PATH_MAX = 200
ERROR_FIELDS_MAX = 50
ERRORS_PER_FIELD = 10


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def problem(status: int, detail: str | None = None, errors: Mapping[str, list[str]] | None = None,
            headers: Mapping[str, str] | None = None, type_: str = "about:blank") -> Response:
    """An RFC 9457 body; ``type`` stays ``about:blank`` where the status says it all."""
    phrase = http.HTTPStatus(status).phrase
    body: dict[str, Any] = {
        "type": type_,
        "title": phrase,
        "status": status,
        "detail": _clip(detail or phrase, DETAIL_MAX),
    }
    if errors:
        # A field path can hold a client's own key: keep the echo short, whatever was sent.
        body["errors"] = {_clip(path, PATH_MAX): list(messages)[:ERRORS_PER_FIELD]
                          for path, messages in list(errors.items())[:ERROR_FIELDS_MAX]}
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_CONTENT_TYPE)
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
    detail = data.get("message") or error.description
    if "messages" in data or "errors" in data:
        errors = flatten_messages(data.get("errors") or data.get("messages"))
        if status == 400:
            detail = "The request body is not valid JSON."
        else:
            detail = "Some fields are invalid: " + ", ".join(sorted(errors))
    if status >= 500:
        detail = "Something went wrong on our side; nothing was recorded."
    type_ = "urn:solo:problem:invalid-field" if status == 422 and errors else "about:blank"
    return problem(status, detail, errors, headers, type_)


def _rate_limited(error: RateLimited) -> Response:
    retry = error.retry_after
    return problem(429, f"{error.description} Try again in {retry} s.",
                   headers={"Retry-After": str(retry)}, type_="urn:solo:problem:rate-limited")


def _rule_violation(error: RuleViolation) -> Response:
    return problem(422, str(error), error.errors, type_="urn:solo:problem:rule-violation")


def _service_error(error: ServiceError) -> Response:
    return problem(error.status, error.detail, None, error.headers)


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return _http_exception(error)
    log.exception("unhandled error", exc_info=error)
    return _http_exception(InternalServerError())


def register_error_handlers(app: Flask) -> None:
    """Registered after flask-smorest's own handler, which these replace."""
    app.register_error_handler(HTTPException, _http_exception)
    app.register_error_handler(RateLimited, _rate_limited)
    app.register_error_handler(RuleViolation, _rule_violation)
    app.register_error_handler(ServiceError, _service_error)
    app.register_error_handler(Exception, _unexpected)
