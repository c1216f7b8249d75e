"""``Idempotency-Key`` on every POST and PATCH: a retry with the same key and the same request
gets the first answer again (``Idempotent-Replayed: true``) and changes nothing.

Nothing to opt into: ``paging.Blueprint`` wraps every POST and PATCH view it registers with
``idempotent`` (``services/idempotency.py`` keeps the keys). A view that needs no wrapping says
so with ``not_idempotent``: a hand's recording keeps its keys per table, in the hand's own
transaction; a preview stores nothing, so its retry is harmless as it is. A PUT or DELETE
whose retry would be refused takes the key by ``idempotent`` on its view (a hand's correction
and void: a lost answer's retry would be 409 ``hand-already-void``). A view whose caller holds
no club's token (a tournament's registration link) names its callers' scope with
``scoped_by``.
``api/openapi.py`` documents the header on every operation that ``idempotency_of`` says takes it,
and a test holds the two together.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from copy import deepcopy
from functools import wraps
from typing import Any, cast

from flask import Response, current_app, request

from ..i18n import current_language, gettext
from ..i18n.marks import N_
from ..services import idempotency
from ..services.auth import TokenRevoked
from ..services.errors import ServiceError
from .auth import principal

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
KEY_MAX = 200
# The draft's key is an sf-string (RFC 8941): printable ASCII, the space included, though not
# first or last (HTTP strips a header value's outer spaces: " k " arrives as "k").
KEY_PATTERN = f"^[!-~]([ -~]{{0,{KEY_MAX - 2}}}[!-~])?$"
_KEY = re.compile(KEY_PATTERN)
# The headers of the first answer that its replay repeats.
KEPT_HEADERS = ("Location", "ETag", "Cache-Control", "Content-Disposition", "Dry-Run")

STORED = "stored"
"""Keys kept by ``services/idempotency.py`` (the wrapped views)."""
OWN = "own"
"""Keys kept by the view's service itself (a hand's recording)."""
NONE = "none"
"""No keys: the operation stores nothing (a preview)."""

PARAMETER: dict[str, Any] = {
    "in": "header",
    "name": HEADER,
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": KEY_MAX, "pattern": KEY_PATTERN},
    "description": "Makes a retry safe: the same key with the same body within 24 hours gets "
    "the first answer again (with `Idempotent-Replayed: true`) and changes nothing; the same "
    "key with another body is 409 `idempotency-key-reused`, and while its first request is "
    "still being answered 409 `idempotency-key-in-flight` (with `Retry-After`). 1-200 "
    "printable ASCII characters (spaces inside only); a fresh UUID per request is best.",
}


class InvalidIdempotencyKey(ServiceError):
    """The ``Idempotency-Key`` header is empty, too long, or holds a character it may not."""

    status = 422
    problem = "invalid-field"


def request_key() -> str | None:
    """The request's ``Idempotency-Key``, or None without one; InvalidIdempotencyKey (422,
    naming the header) when it is malformed."""
    key = request.headers.get(HEADER)
    if key is None or _KEY.fullmatch(key):
        return key
    message = N_(
        "Idempotency-Key must be 1 to %(most)s printable ASCII characters (letters, digits, "
        "punctuation, spaces)."
    )
    values: dict[str, object] = {"most": KEY_MAX}
    raise InvalidIdempotencyKey(
        message,
        values=values,
        members={"errors": {HEADER: [gettext(message, current_language(), **values)]}},
    )


def idempotency_of(view: Any) -> str | None:
    """How the view keeps its keys (``STORED``, ``OWN``, ``NONE``), None if unwrapped."""
    return getattr(view, "idempotency", None)


def not_idempotent(how: str) -> Callable[[Any], Any]:
    """Mark a POST or PATCH view that keeps its keys itself (``OWN``) or needs none
    (``NONE``), so that the Blueprint leaves it as it is."""

    def mark(view: Any) -> Any:
        view.idempotency = how
        return view

    return mark


def _needs_token(view: Any) -> bool:
    return bool(getattr(view, "_apidoc", {}).get("manual_doc", {}).get("security"))


def scoped_by(scope: Callable[..., str]) -> Callable[[Any], Any]:
    """Mark a POST or PATCH view whose caller holds no club's token (a tournament's
    registration link): ``scope(**path)`` names the caller for its keys, or refuses him (a
    401), as ``principal()`` does for the others. The outermost decorator of the view."""

    def mark(view: Any) -> Any:
        view.idempotency_scope = scope
        return view

    return mark


def idempotent(view: Callable[..., Any]) -> Callable[..., Any]:
    """The view, answering a retry of a keyed request with its first answer."""
    needs_token = _needs_token(view)
    scope_of: Callable[..., str] | None = getattr(view, "idempotency_scope", None)

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if HEADER not in request.headers:
            return view(*args, **kwargs)
        print_ = idempotency.fingerprint(request.method, _target(), request.get_data())
        # Who asks comes first (a 401 before the header's 422): a key is the caller's own.
        try:
            if scope_of is not None:
                scope = scope_of(**kwargs)
            else:
                scope = f"token:{principal().token_id}" if needs_token else "public"
        except TokenRevoked:
            replay = _replay_with_revoked_token(print_)
            if replay is None:
                raise
            return replay
        key = request_key()
        assert key is not None
        outcome = idempotency.claim(scope, key, print_)
        if isinstance(outcome, idempotency.Replay):
            return _replayed(outcome)
        try:
            response = current_app.make_response(view(*args, **kwargs))
        except BaseException:
            _release(outcome)
            raise
        if 200 <= response.status_code < 300:
            kept = {
                name: response.headers[name] for name in KEPT_HEADERS if name in response.headers
            }
            idempotency.complete(
                outcome, response.status_code, response.get_json(silent=True), kept
            )
        else:
            _release(outcome)
        return response

    guarded.idempotency = STORED  # type: ignore[attr-defined]
    # The header in the operation's document (``wraps`` shared the view's own doc: copied).
    apidoc = deepcopy(getattr(view, "_apidoc", {}))
    manual = apidoc.setdefault("manual_doc", {})
    manual["parameters"] = [*manual.get("parameters", []), PARAMETER]
    guarded._apidoc = apidoc  # type: ignore[attr-defined]
    return guarded


def _target() -> str:
    """The request's path, and its query when it has one: a dry run (``?dry_run=true``) is
    not the same request as the change itself."""
    query = request.query_string.decode("latin-1")
    return f"{request.path}?{query}" if query else request.path


def _replayed(replay: idempotency.Replay) -> Response:
    response = cast(Response, current_app.json.response(replay.body))
    response.status_code = replay.status
    response.headers.update(replay.headers)
    response.headers[REPLAYED] = "true"
    return response


def _replay_with_revoked_token(fingerprint: str) -> Response | None:
    """The replay of a request that revoked its own token (``rotateAdminToken``): the retry
    comes with the old token, the only one its caller has."""
    token_id = idempotency.revoked_token_id(request.headers.get("Authorization"))
    if token_id is None:
        return None
    replay = idempotency.replay_of(f"token:{token_id}", request_key() or "", fingerprint)
    return None if replay is None else _replayed(replay)


def _release(claim: idempotency.Claim) -> None:
    """Let the key go after a failed write; if even that fails (the database is away), the
    claim lapses after its lease (``services/idempotency.LEASE``)."""
    try:
        idempotency.release(claim)
    except Exception:  # noqa: BLE001 - the write's own error is the answer
        current_app.logger.warning("could not release an Idempotency-Key", exc_info=True)


WRITES = ("post", "patch")


def guard_writes(view_func: Any) -> Any:
    """Wrap the POST and PATCH handlers of a view (a MethodView class or a function) that are
    not marked ``not_idempotent``; called by ``paging.Blueprint`` for every route."""
    if isinstance(view_func, type):
        for name in WRITES:
            method = getattr(view_func, name, None)
            if method is not None and idempotency_of(method) is None:
                setattr(view_func, name, idempotent(method))
        return view_func
    return view_func if idempotency_of(view_func) is not None else idempotent(view_func)
