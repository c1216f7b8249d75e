"""The answers Flask's views and the early answers (``early.py``) both give: one function for
each, so that the two paths cannot drift apart (``tests/api/test_early_answers.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response
from werkzeug.http import parse_etags

from ..schemas.live import StreamTicketSchema
from ..services import live
from ..services.auth import Principal
from ..services.hands import HandPage, StoredHand
from ..services.live_feed import ChangeFeed
from .rendered import RenderedHands, RenderedViews

EVENT_STREAM = "text/event-stream"
STREAMS_ENVIRON_KEY = "solo.streams"  # stream_hub.STREAMS_ENVIRON_KEY (the server's side)


def etag(version: int) -> str:
    """A table's ETag at ``version``."""
    return f'"{version}"'


def not_modified(version: int, if_none_match: str | None) -> Response | None:
    """The 304 of an answer whose ETag is the table's ``version``, when ``If-None-Match``
    names it (by Werkzeug's rules); else None."""
    if if_none_match and parse_etags(if_none_match).contains(str(version)):
        return Response(status=304, headers={"ETag": etag(version)})
    return None


def poll_answer(
    table_id: str,
    version: int,
    if_none_match: str | None,
    rendered: RenderedViews,
    language: str,
) -> Response | None:
    """The answer to a table's poll at ``version`` that needs no rendering: a 304 when
    ``If-None-Match`` names it, else the body rendered at it in ``language``; None when it is
    still to be rendered. Flask's view and the poll answered before Flask
    (``middleware/early.py``) both answer with it."""
    unchanged = not_modified(version, if_none_match)
    if unchanged is not None:
        return unchanged
    body = rendered.get(table_id, version, language)
    return None if body is None else rendered_answer(version, body)


def hands_answer(
    page: HandPage,
    if_none_match: str | None,
    rendered: RenderedHands,
    language: str,
    render: Callable[[StoredHand], bytes] | None,
) -> Response | None:
    """The answer to a page of a table's hands (its paging headers apart: ``schemas/paging.py``'s
    ``pagination_headers``): a 304 when ``If-None-Match`` names the table's version (the page's
    ETag), else the list joined from each hand's rendering in ``language`` (its explanation
    naming the page's players), as Flask's JSON answer of ``HandSchema(many=True)`` writes it
    (``tests/api/test_hand_pages.py`` holds the two byte for byte). A hand not yet rendered in
    ``language`` is rendered by ``render`` and kept; without ``render`` (before Flask, which has
    no request to word it in) the answer is None, and Flask renders it. Flask's view and the
    list answered before Flask (``middleware/early.py``) both answer with it."""
    unchanged = not_modified(page.version, if_none_match)
    if unchanged is not None:
        return unchanged
    bodies = []
    for hand in page.hands:
        row = (*hand, page.names)  # what its rendering is made of: its row and the seats' names
        body = rendered.get(hand.id, language, row)
        if body is None:
            if render is None:
                return None
            body = render(hand)
            rendered.put(hand.id, language, row, body)
        bodies.append(body)
    return Response(
        b"[" + b",".join(bodies) + b"]\n",
        status=200,
        mimetype="application/json",
        headers={"ETag": etag(page.version)},
    )


def rendered_answer(version: int, body: bytes) -> Response:
    """A table's view rendered at ``version`` (already through TableSchema: flask-smorest
    passes a Response as it is)."""
    return Response(body, status=200, mimetype="application/json", headers={"ETag": etag(version)})


def held_opening(
    hub: Any,
    feed: ChangeFeed,
    who: Principal,
    target: live.Followed,
    after: int | None,
    config: Any,
    address: str,
    reads: live.StreamReads = live.SESSION_READS,
    spend: Callable[[], None] | None = None,
) -> live.StreamOpening:
    """The stream's opening, its connection held by the worker's ``hub`` (its change ``feed``
    listens already): a place within the token's and the address's streams (else
    ``TooManyStreams``), the opening, ``spend`` (a ticket's: ``live.spend_ticket``, once
    nothing else refuses the opening), and the hold. The one opening of a held stream, in
    Flask's view and before Flask (``middleware/early.py``)."""
    keys = hub.reserve(
        {
            f"token:{who.token_id}": int(
                config.get("LIVE_STREAMS_PER_TOKEN", live.DEFAULT_STREAMS_PER_TOKEN)
            ),
            f"address:{address}": int(
                config.get("LIVE_STREAMS_PER_ADDRESS", live.DEFAULT_STREAMS_PER_ADDRESS)
            ),
        }
    )
    if keys is None:
        raise live.too_many_streams()
    feed.attach(hub.publish, hub.revoke)
    try:
        opening = live.open_stream(target, after, reads)
        if spend is not None:
            spend()
    except BaseException:
        hub.release(keys)
        raise
    hub.hold(target.club_id, target.table_id, opening.last_id, keys, who.token_id)
    return opening


def stream_answer(opening: live.StreamOpening) -> Response:
    """A stream's answer: its first bytes, as an iterable (no Content-Length, so that the
    answer may go on)."""
    return Response(
        iter([opening.body]),
        200,
        mimetype=EVENT_STREAM,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


_TICKET_SCHEMA = StreamTicketSchema()


def ticket_answer(json: Any, ticket: dict[str, Any]) -> Response:
    """A stream ticket's answer (201, never cached), in the app's JSON (``json``: its
    provider). The one answer of a ticket, in Flask's view and before Flask."""
    response: Response = json.response(_TICKET_SCHEMA.dump(ticket))
    response.status_code = 201
    response.headers["Cache-Control"] = "no-store"
    return response
