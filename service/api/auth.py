"""Reading the caller and the conditional-request headers."""

from __future__ import annotations

from flask import request

from ..services.auth import Principal, authenticate
from ..services.errors import PreconditionFailed

BEARER: list[dict[str, list[str]]] = [{"bearer": []}]


def principal() -> Principal:
    return authenticate(request.headers.get("Authorization"))


def if_match_version() -> int | None:
    """The version named by ``If-Match`` (``"7"``, ``W/"7"`` or ``7``), or None if absent."""
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    value = raw.split(",")[0].strip()
    if value.startswith("W/"):
        value = value[2:]
    value = value.strip('"')
    if not (value.isascii() and value.isdigit()) or len(value) > 18:  # "²".isdigit() too
        raise PreconditionFailed(f"If-Match {raw!r} names no version of this table.")
    return int(value)
