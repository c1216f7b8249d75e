"""Flask's JSON (``app.json``: ``jsonify``, a view's dict, the test client's ``json=``) written
by the service's one encoder, ``json_text.answer_bytes``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from flask import Flask, Response
from flask.json.provider import JSONProvider

from .json_text import answer_bytes


class OrjsonProvider(JSONProvider):
    """Flask's JSON, written by ``answer_bytes``: ``jsonify``, a view's dict, ``app.json``.
    Always compact (no indented form in debug mode); reading is the standard library's."""

    mimetype = "application/json"

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        # Callers' ``separators``/``sort_keys`` are for the standard library; the text is
        # compact whatever they ask, which is what they asked for.
        return answer_bytes(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return json.loads(s, **kwargs)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """As Flask's own: the value, then a newline."""
        body = answer_bytes(self._prepare_response_obj(args, kwargs)) + b"\n"
        response_class = cast("Callable[..., Response]", self._app.response_class)
        return response_class(body, mimetype=self.mimetype)


def install(app: Flask) -> None:
    """Make ``answer_bytes`` the app's JSON (``app.json``)."""
    app.json_provider_class = OrjsonProvider
    app.json = OrjsonProvider(app)
