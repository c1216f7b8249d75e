"""Reading the caller and the conditional-request headers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import request

from ..extensions import db
from ..i18n.marks import N_
from ..services.auth import Principal, authenticate
from ..services.errors import PreconditionFailed
from ..services.table_versions import reader_for

BEARER: list[dict[str, list[str]]] = [{"bearer": []}]


def principal() -> Principal:
    """The caller, its token read in the request's session."""
    return authenticate(request.headers.get("Authorization"))


def reading_principal() -> Principal:
    """The caller, its token read on the app's reader (``table_versions.reader_for``), not in
    the request's session: for a view that needs no session (the table's poll)."""
    reader = reader_for(db.engine)
    return authenticate(
        request.headers.get("Authorization"), lambda digest: reader.read_token(digest, True)
    )


def documents_token(
    blp: Any, forbidden: str, not_found: str, *, unauthorized: str = "No, bad or revoked token."
) -> Callable[[Any], Any]:
    """A view's decorator for ``blp``'s document: the bearer token, and its 401, 403 and 404
    answers with these descriptions."""

    def decorate(view: Any) -> Any:
        for status, description in ((401, unauthorized), (403, forbidden), (404, not_found)):
            view = blp.alt_response(status, description=description)(view)
        return blp.doc(security=BEARER)(view)

    return decorate


NO_VERSION = -1
"""What ``if_match_version`` answers for an ``If-Match`` that no version can match (weak tags
only): the write then fails as stale, 412 with the current ETag."""


def if_match_version() -> int | None:
    """The version named by ``If-Match`` (``"7"``, or a bare ``7``), or None if absent or
    ``*``. RFC 9110 compares ``If-Match`` strongly: a weak tag (``W/"7"``) matches nothing
    (``NO_VERSION``). Of a list, the first strong tag counts (one version is current)."""
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip() == "*":
        return None
    tags = [t.strip() for t in raw.split(",") if t.strip()]
    strong = [t for t in tags if not t.startswith("W/")]
    if tags and not strong:
        return NO_VERSION
    value = strong[0].strip('"') if strong else ""
    if not (value.isascii() and value.isdigit()) or len(value) > 18:  # "²".isdigit() too
        raise PreconditionFailed(
            N_("If-Match %(tag)s names no version of this table."), values={"tag": repr(raw)}
        )
    return int(value)
