"""Live changes for readers: the club's ``/changes`` feed, stream tickets, and a stream's
opening (who may follow what, and what it is sent first).

A stream is a table's (``table_id``: its events only) or a club's (all of them); its events
are the outbox's, their ids the club's event numbers (``services/outbox.py``). A stream opened
afresh starts with a ``ready`` event (the table's version, the id it starts after); one that
resumes (``Last-Event-ID`` or ``after``) is first sent what it missed, or, more than
``MAX_BACKLOG`` events behind (or naming an id the club never had), a ``reload`` event: fetch
the state again, the stream goes on from there.

**Tickets.** ``EventSource`` cannot send an ``Authorization`` header, and a long-lived token
in a URL lands in logs. A ticket is minted with the token (``POST …/events/tickets``), is bound
to one stream's path, expires after ``TICKET_SECONDS`` and is signed with the token's stored
digest: it opens nothing its token could not, stops working with its token (revoked, rotated),
and needs no secret shared between instances. It opens its stream once (``spend_ticket``): a
ticket that reached a proxy's access log opens nothing. A stream opened with a token, or with
a ticket of it, ends when the token is revoked (``stream_hub.StreamHub.revoke``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import bindparam, delete
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import rfc3339, utcnow
from ..persistence.table_keeping import SpentTicketRow, TokenRow
from ..rules import RuleViolation
from .auth import Principal, TokenFacts, hash_token, own_write
from .clubs import read_club
from .errors import Conflict, ServiceError, Unauthorized
from .live_feed import event_frame, named_frame
from .outbox import club_changes, events_after, last_seq
from .table_versions import VersionRow
from .tables import table_version

TICKET_SECONDS = 60
# Streams one worker holds per token and per client address (a club's Wi-Fi is one address).
DEFAULT_STREAMS_PER_TOKEN = 16
DEFAULT_STREAMS_PER_ADDRESS = 256
MAX_BACKLOG = 500
MAX_EVENT_ID = 2**31 - 1
# How long a client waits before reconnecting (the stream's ``retry:``), in milliseconds.
RETRY_MS = 2000
RETRY = f"retry: {RETRY_MS}\n\n".encode()
_TICKET_SALT = "solo stream ticket"
_WWW_INVALID = {"WWW-Authenticate": 'Bearer realm="solo", error="invalid_token"'}


class StreamTicketInvalid(Unauthorized):
    """A stream ticket expired, forged, for another stream, or of a token gone."""

    problem = "stream-ticket-invalid"


class TooManyStreams(ServiceError):
    """The token or the address holds as many streams as this worker allows, or the worker
    holds as many as it may in all (``WEB_STREAMS_PER_WORKER``)."""

    status = 429
    problem = "too-many-streams"


class CursorAhead(Conflict):
    """The feed's cursor names an event the club never had (``names_no_event``): its reader
    must fetch the state again, as a stream's ``reload`` says."""

    problem = "cursor-ahead"


def names_no_event(after: int, club_last: int) -> bool:
    """Whether a reader's position ``after`` is beyond the club's last event ``club_last``:
    an id the club never had (its records were restored from an older backup, and a program
    kept its cursor). Its reader would silently skip everything up to it, so it must fetch
    the state again and go on after ``club_last``. The one decision of the streams (a
    ``reload``, ``unknown-id``) and of the feed (``CursorAhead``)."""
    return after > club_last


def read_changes(principal: Principal, club_id: str, after: int, limit: int) -> dict[str, Any]:
    """A page of the club's events after ``after`` (its admin or read-only token), or
    CursorAhead for a cursor beyond the club's last event."""
    read_club(principal, club_id)
    club_last = last_seq(club_id)
    if names_no_event(after, club_last):
        raise CursorAhead(
            N_(
                "The cursor %(after)s is beyond the club's last event, %(last)s (its records "
                "were restored): fetch the club's state again, then follow the changes after "
                "%(last)s."
            ),
            values={"after": after, "last": club_last},
            members={
                "after": club_last,
                "links": {
                    "reload": f"/api/v1/clubs/{club_id}/export",
                    "changes": f"/api/v1/clubs/{club_id}/changes?after={club_last}",
                },
            },
        )
    return club_changes(club_id, after, limit)


@dataclass(frozen=True, slots=True)
class Followed:
    """What a stream follows: a club, and one of its tables or all of them."""

    club_id: str
    table_id: str | None
    version: int | None  # the table's, when it was checked


def followed(
    principal: Principal,
    table_id: str | None,
    club_id: str | None,
    read: Callable[[str], VersionRow | None] | None = None,
) -> Followed:
    """The stream a token may follow: a table it may read (any of its tokens but another
    table's; its version row read by ``tables.table_version``, with ``read`` if given), or a
    club (its admin or read-only token)."""
    if table_id is not None:
        table = table_version(principal, table_id, read)
        return Followed(table.club_id, table.id, table.version)
    assert club_id is not None
    read_club(principal, club_id)
    return Followed(club_id, None, None)


@dataclass(frozen=True, slots=True)
class StreamOpening:
    """A stream's first bytes, and the id of the last event they cover."""

    followed: Followed
    body: bytes
    last_id: int


class StreamReads(Protocol):
    """What a stream's opening reads: the club's last event number, and the events after an
    id (the session's, ``SESSION_READS``; before Flask, ``middleware/early.py``'s)."""

    def club_last(self, club_id: str) -> int: ...

    def events_after(
        self, club_id: str, after: int, limit: int, table_id: str | None
    ) -> list[dict[str, Any]]: ...


class _SessionReads:
    def club_last(self, club_id: str) -> int:
        found = last_seq(club_id)
        db.session.rollback()  # a fresh snapshot for the events (SQLite keeps the read's)
        return found

    def events_after(
        self, club_id: str, after: int, limit: int, table_id: str | None
    ) -> list[dict[str, Any]]:
        return events_after(club_id, after, limit, table_id)


SESSION_READS: StreamReads = _SessionReads()


def open_stream(
    target: Followed, after: int | None, reads: StreamReads = SESSION_READS
) -> StreamOpening:
    """The first bytes of a stream opened afresh (``after`` None) or resuming after the
    event ``after``. The club's last number is read before its events: anything committed
    later has a higher number and comes after (the feed sends it). The one opening of a
    stream, in Flask's view and before Flask."""
    club_last = reads.club_last(target.club_id)
    if after is None:
        return StreamOpening(target, ready_opening(target, club_last), club_last)
    unknown = names_no_event(after, club_last)
    events = (
        []
        if unknown
        else reads.events_after(target.club_id, after, MAX_BACKLOG + 1, target.table_id)
    )
    if unknown or len(events) > MAX_BACKLOG:
        reason = "unknown-id" if unknown else "too-far-behind"
        return StreamOpening(target, reload_opening(target, club_last, reason), club_last)
    frames = b"".join(event_frame(e) for e in events)
    last = max([club_last, *(e["id"] for e in events)])
    return StreamOpening(target, RETRY + frames, last)


def resume_after(last_event_id: str | None, after: int | None) -> int | None:
    """The id a stream resumes after: ``Last-Event-ID`` (the header, when not blank) wins
    over ``after`` (the query's, already checked by its schema)."""
    if last_event_id is None or not last_event_id.strip():
        return after
    value = last_event_id.strip()
    if not (value.isascii() and value.isdigit()) or int(value) > MAX_EVENT_ID:
        raise RuleViolation("Last-Event-ID", "must be an event id (a whole number)")
    return int(value)


def ready_opening(target: Followed, club_last: int) -> bytes:
    """A fresh stream's first bytes: its ``ready`` event, after the club's event ``club_last``."""
    ready = {"version": target.version, "table_id": target.table_id, "after": club_last}
    return RETRY + named_frame("ready", club_last, ready)


def reload_opening(target: Followed, club_last: int, reason: str) -> bytes:
    """The first bytes of a stream that cannot resume where it asked: fetch the state again."""
    reload = {"reason": reason, "after": club_last, "table_id": target.table_id}
    return RETRY + named_frame("reload", club_last, reload)


def _serializer(token_hash: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(token_hash, salt=_TICKET_SALT)


def session_token_by_id(token_id: str) -> TokenFacts | None:
    """The token row of ``token_id`` in the request's session."""
    return db.session.get(TokenRow, token_id)


def mint_ticket(
    principal: Principal,
    target: Followed,
    path: str,
    read: Callable[[str], TokenFacts | None] = session_token_by_id,
) -> dict[str, Any]:
    """A ticket that opens the stream at ``path`` for ``TICKET_SECONDS`` (``target`` was
    checked for ``principal`` already), signed with the token's row read by its id with
    ``read``."""
    row = read(principal.token_id)
    if row is None:  # revoked and gone meanwhile, or (before Flask) a failed read
        raise Unauthorized(N_("The token is not valid."), headers=_WWW_INVALID)
    return ticket_for(row.id, row.token_hash, path)


def ticket_for(token_id: str, token_hash: str, path: str) -> dict[str, Any]:
    """The ticket of the token (its id and stored hash) for the stream at ``path``, as the
    API answers it: signed with the token's hash, so that revoking the token voids it."""
    signed = _serializer(token_hash).dumps([path, ticket_nonce()])
    ticket = f"{token_id}.{signed}"
    expires = utcnow() + timedelta(seconds=TICKET_SECONDS)
    return {
        "ticket": ticket,
        "url": f"{path}?ticket={ticket}",
        "expires_at": rfc3339(expires),
        "expires_in": TICKET_SECONDS,
    }


def ticket_nonce() -> str:
    """A ticket's own random part: two tickets minted in one second are two (each opens its
    stream once)."""
    return secrets.token_urlsafe(9)


def _invalid(detail: str) -> StreamTicketInvalid:
    return StreamTicketInvalid(detail, headers=_WWW_INVALID, values={"seconds": TICKET_SECONDS})


def ticket_principal(
    ticket: str,
    path: str,
    read: Callable[[str], TokenFacts | None] = session_token_by_id,
) -> Principal:
    """Whom a ticket for the stream at ``path`` speaks for, its token's row read by its id with
    ``read``. Each refusal says what to do: a client that kept a ticket too long mints another,
    one that opened another stream's URL opens the ticket's own."""
    token_id, _, signed = ticket.partition(".")
    row = read(token_id[:64]) if token_id and signed else None
    mint = N_(
        "This is not a stream ticket of this service: mint one with POST …/events/tickets "
        "and open the url it answers."
    )
    if row is None:
        raise _invalid(mint)
    try:
        bound = _serializer(row.token_hash).loads(signed, max_age=TICKET_SECONDS)
    except SignatureExpired:
        raise _invalid(
            N_("This stream ticket has expired (a ticket lasts %(seconds)s s): mint another.")
        ) from None
    except BadSignature:
        raise _invalid(mint) from None
    if row.revoked_at is not None:
        raise _invalid(
            N_("The token this stream ticket was minted with is revoked: the ticket is too.")
        )
    if not (isinstance(bound, list) and len(bound) == 2 and isinstance(bound[0], str)):
        raise _invalid(mint)
    if bound[0] != path:
        raise _invalid(
            N_("This stream ticket opens another stream: open the url it was minted with.")
        )
    return Principal(row.id, row.kind, row.club_id, row.table_id)


_spent = SpentTicketRow.__table__
# Built once: built for each opening, SQLAlchemy's making of the statements and their cache
# keys cost the opening thread more than running them.
_DELETE_EXPIRED = delete(_spent).where(_spent.c.expires_at < bindparam("now"))
_INSERT_SPENT: dict[str, Any] = {
    name: insert(_spent)
    .values(digest=bindparam("digest"), expires_at=bindparam("expires_at"))
    .on_conflict_do_nothing()
    .returning(_spent.c.digest)  # (a row only when inserted: the rowcount may be -1)
    for name, insert in (("postgresql", postgresql.insert), ("sqlite", sqlite.insert))
}


def spend_ticket(ticket: str, engine: Any) -> None:
    """Note that ``ticket`` (checked already by ``ticket_principal``) opens its stream now, or
    ``StreamTicketInvalid`` if it has opened one before: a ticket opens one stream once. Kept
    by its SHA-256 until it would have expired anyway (then dropped), in a short transaction of
    its own on ``engine``, on every instance's shared database.

    Not waiting for the disk (``own_write``'s ``synced=False``): a crash could forget a ticket
    spent in its last moment, which then opens a second stream within its minute; every
    opening waits less (on SQLite the sync of the WAL took the one opening thread 0.4-10 ms an
    opening, and 20,000 phones open their streams at once after a restart)."""
    now = utcnow()
    digest = hash_token(ticket)
    with own_write(engine, synced=False) as connection:
        connection.execute(_DELETE_EXPIRED, {"now": now})
        inserted: Any = connection.execute(
            _INSERT_SPENT[connection.dialect.name],
            {"digest": digest, "expires_at": now + timedelta(seconds=TICKET_SECONDS)},
        )
        first_use = inserted.first() is not None
        connection.commit()
    if not first_use:
        raise _invalid(
            N_(
                "This stream ticket has opened its stream already (a ticket opens one stream "
                "once): mint another."
            )
        )


def too_many_streams() -> TooManyStreams:
    return TooManyStreams(
        N_(
            "Too many streams are open with this token, from this address or on this server; "
            "close one or try again later."
        ),
        headers={"Retry-After": "5"},
    )
