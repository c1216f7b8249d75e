"""Settlement previews answered before Flask.

``POST /api/v1/settlements/preview`` is pure computation: no token, no database. When a request
is plainly one Flask would answer 200 — JSON of a stated length within the body limit, no
``Authorization`` (so no rate limit applies), no query string, no ``Origin`` — the body goes
through the same checks and code as in Flask: the JSON guard's (parsed as UTF-8, nested at most
``MAX_JSON_DEPTH``, no NUL), ``PreviewRequestSchema``, ``rules.preview``, the explanation
worded in the client's language (``Accept-Language``) and the app's JSON response. The first of
them that refuses sends the request on to Flask with its body intact, which answers the 400,
413 or 422 as it always has; so this path only ever gives Flask's own 200
(``tests/api/test_fast_preview.py`` compares them). ``FAST_PREVIEW = False`` turns it off."""

from __future__ import annotations

import io
from typing import Any, cast

from flask import Flask, Response
from werkzeug.http import parse_options_header

from .. import rules
from ..i18n import DEFAULT, language_headers, negotiate, settlement_view
from ..schemas.json_numbers import loads
from ..schemas.settlements import PreviewRequestSchema
from .limits import MAX_JSON_DEPTH, SURROGATE_ESCAPE, json_depth_over
from .security import StartResponse, WsgiApp

PREVIEW_PATH = "/api/v1/settlements/preview"
Answer = tuple[list[tuple[str, str]], bytes]


class FastPreview:
    """WSGI middleware: the previews Flask would answer 200, answered here."""

    def __init__(self, app: WsgiApp, flask_app: Flask) -> None:
        self.app = app
        self.json = flask_app.json
        self.max_body = flask_app.config["MAX_CONTENT_LENGTH"]
        self.schema = PreviewRequestSchema()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        if (
            environ.get("PATH_INFO") == PREVIEW_PATH
            and environ.get("REQUEST_METHOD") == "POST"
            and not environ.get("QUERY_STRING")
            and "HTTP_AUTHORIZATION" not in environ
            and "HTTP_ORIGIN" not in environ
            and _mimetype(environ) == "application/json"
        ):
            body = self._read_body(environ)
            if body is not None:
                environ["wsgi.input"] = io.BytesIO(body)  # Flask may still have to read it
                answer = self.answer(body, negotiate(environ.get("HTTP_ACCEPT_LANGUAGE")))
                if answer is not None:
                    headers, payload = answer
                    start_response("200 OK", headers)
                    return [payload]
        return self.app(environ, start_response)

    def _read_body(self, environ: dict[str, Any]) -> bytes | None:
        length = environ.get("CONTENT_LENGTH") or ""
        if not (length.isascii() and length.isdigit()) or int(length) > self.max_body:
            return None  # chunked, missing or too long: Flask's to answer (and read)
        body: bytes = environ["wsgi.input"].read(int(length))
        return body

    def answer(self, body: bytes, language: str = DEFAULT) -> Answer | None:
        """The headers and body of Flask's 200, or None when Flask must answer."""
        if b"\\u0000" in body or SURROGATE_ESCAPE.search(body):
            return None  # a NUL or a lone surrogate in a string: Flask names the field
        try:
            value = loads(body.decode("utf-8"))  # as the views' parser (webargs) reads it
            if json_depth_over(value, MAX_JSON_DEPTH):
                return None
            request = self.schema.load(value)
            settlement = rules.preview(
                request["variant"],
                request["players"],
                request["options"],
                request["state"],
                request["hand"],
            )
        except Exception:  # not JSON, a bad field, a broken rule: Flask answers, and names it
            return None
        response = cast(
            Response, self.json.response(settlement_view(settlement.to_dict(), language))
        )
        payload = response.get_data()
        return [
            ("Content-Type", response.content_type),
            ("Content-Length", str(len(payload))),
            *language_headers(language),
        ], payload


def _mimetype(environ: dict[str, Any]) -> str:
    """The body's media type, read as Werkzeug reads ``request.mimetype``."""
    return parse_options_header(environ.get("CONTENT_TYPE"))[0].lower()


def init_app(app: Flask) -> None:
    """Call before ``security.init_app``, whose envelope must wrap this."""
    app.config.setdefault("FAST_PREVIEW", True)
    if app.config["FAST_PREVIEW"]:
        app.wsgi_app = FastPreview(app.wsgi_app, app)  # type: ignore[method-assign]
