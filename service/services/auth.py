"""Bearer tokens: made random, stored as SHA-256 digests, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import bindparam, func, or_, select, update

from ..database import SqliteConnection
from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import aware, utcnow
from ..persistence.table_keeping import TokenRow
from . import statements
from .errors import Forbidden, Unauthorized

log = logging.getLogger(__name__)


class TokenRevoked(Unauthorized):
    """A token the club's admin revoked (a shared table link, a rotated token)."""

    problem = "token-revoked"


TOKEN_BYTES = 32  # 256 bits of randomness
# Every request reads its token's row (one lookup by the digest's unique index): a revoked or
# rotated token is refused by the very next request on every worker and instance, and there is
# no memory of tokens to expire, overflow or warm up again after a restart (docs/league.md).
# A read-only (viewer) token notes when it was last used, at most once in this many seconds
# (a write per token a minute, not per request).
LAST_USED_EVERY_SECONDS = 60.0
_WWW_INVALID = {"WWW-Authenticate": 'Bearer realm="solo", error="invalid_token"'}
REVOCATIONS_CHANNEL = "token_revocations"
"""PostgreSQL's channel of revoked tokens' ids (``announce_revoked``)."""

_REVOKED = {
    "table": N_("This table's link was revoked by the club's admin; ask for a new one."),
    "admin": N_("This admin token was revoked by the club's admin; ask for a new one."),
    "viewer": N_("This viewer token was revoked by the club's admin; ask for a new one."),
    "program": N_("This program's token was revoked by the club's admin; ask for a new one."),
}
# The kinds of token that read the whole club: its admin, its read-only (viewer) tokens and
# its programs' tokens (docs/league.md); a table's token reads less.
CLUB_READERS = frozenset({"admin", "viewer", "program"})
# The kinds whose last use is noted (the admin's list of the club's named tokens shows it).
NOTED = frozenset({"viewer", "program"})
# The columns that decide who a token is: the request path and the polls answered before
# Flask (``table_versions.PinnedVersionReader.read_token``) read the same ones.
TOKEN_COLUMNS = (
    TokenRow.id,
    TokenRow.kind,
    TokenRow.club_id,
    TokenRow.table_id,
    TokenRow.token_hash,
    TokenRow.revoked_at,
    TokenRow.last_used_at,
)
TOKEN_QUERY = select(*TOKEN_COLUMNS).where(TokenRow.token_hash == bindparam("token_hash"))
TOKEN_BY_ID = select(*TOKEN_COLUMNS).where(TokenRow.id == bindparam("token_id"))


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: an admin of ``club_id``, its read-only ``viewer`` token, a ``program``
    token (reads as a viewer, manages its own webhooks), or a table token of ``table_id``."""

    token_id: str
    kind: str
    club_id: str
    table_id: str | None

    @property
    def is_admin(self) -> bool:
        return self.kind == "admin"

    def reads_club(self, club_id: str) -> bool:
        """Whether the token reads all of ``club_id`` (its admin, viewer and program tokens)."""
        return self.club_id == club_id and self.kind in CLUB_READERS


def new_id() -> str:
    return uuid.uuid4().hex


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_token(
    kind: str, club_id: str, table_id: str | None = None, name: str | None = None
) -> str:
    """Create a token row and return the token itself, which is never stored."""
    return issue_token_row(kind, club_id, table_id, name)[1]


def issue_token_row(
    kind: str, club_id: str, table_id: str | None = None, name: str | None = None
) -> tuple[TokenRow, str]:
    """Create a token row; the row (not yet flushed) and the token itself."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    row = TokenRow(
        id=new_id(),
        kind=kind,
        club_id=club_id,
        table_id=table_id,
        token_hash=hash_token(token),
        name=name,
        created_at=utcnow(),
    )
    db.session.add(row)
    return row, token


def bearer_token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def digest_of(authorization: str | None) -> str | None:
    """The digest of a well-formed bearer token, or None for a missing or malformed one."""
    token = bearer_token(authorization)
    if token is None or len(token) > 256:
        return None
    return hash_token(token)


class TokenFacts(Protocol):
    """A row of ``TOKEN_QUERY``."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def club_id(self) -> str: ...
    @property
    def table_id(self) -> str | None: ...
    @property
    def token_hash(self) -> str: ...
    @property
    def revoked_at(self) -> Any: ...
    @property
    def last_used_at(self) -> Any: ...


def use_is_due(row: TokenFacts, now: datetime | None = None) -> bool:
    """Whether this use of a viewer or program token should be noted as its last use (the
    stored one is missing or older than ``LAST_USED_EVERY_SECONDS``)."""
    if row.kind not in NOTED:
        return False
    if row.last_used_at is None:
        return True
    last: datetime = row.last_used_at
    if isinstance(last, str):  # read by SQLite's own driver (the polls before Flask)
        last = datetime.fromisoformat(last)
    age = (now or utcnow()) - aware(last)
    return age.total_seconds() >= LAST_USED_EVERY_SECONDS


def session_token(digest: str) -> TokenFacts | None:
    """The token row of ``digest`` in the request's session (its transaction)."""
    # Straight on the driver on SQLite (services/statements.py): every request with a token
    # runs it.
    found = statements.rows(TOKEN_QUERY, {"token_hash": digest})
    return found[0] if found else None


def authenticate(
    authorization: str | None,
    read: Callable[[str], TokenFacts | None] = session_token,
    engine: Any = None,
) -> Principal:
    """The principal behind an ``Authorization: Bearer`` header, or Unauthorized (the problem
    ``token-revoked`` for a revoked one). Reads the token's row on every call: with ``read``,
    by its digest (the session's, or a connection of the caller's: a view that needs no
    session, the answers made before Flask); a use due to be noted is noted on ``engine``'s
    connection (the app's by default). The one token check of every request."""
    digest = digest_of(authorization)
    if digest is None:
        raise Unauthorized(
            N_("A bearer token is required."), headers={"WWW-Authenticate": 'Bearer realm="solo"'}
        )
    row = read(digest)
    if row is None or not hmac.compare_digest(row.token_hash, digest):
        raise Unauthorized(N_("The token is not valid."), headers=_WWW_INVALID)
    if row.revoked_at is not None:
        raise TokenRevoked(_REVOKED.get(row.kind, _REVOKED["viewer"]), headers=_WWW_INVALID)
    if use_is_due(row):
        _note_use(row.id, engine or db.engine)
    return Principal(token_id=row.id, kind=row.kind, club_id=row.club_id, table_id=row.table_id)


@contextmanager
def own_write(engine: Any, synced: bool = True) -> Iterator[Any]:
    """A connection of ``engine`` in a short write transaction of its own (on SQLite in the
    writer's turn: the writer lock, ``BEGIN IMMEDIATE``), apart from the request's session;
    the caller commits, anything else rolls back. ``synced=False``: its commit does not wait
    for the disk (PostgreSQL's ``synchronous_commit`` off; on SQLite no sync of the WAL after
    it, ``SqliteConnection.commit_unsynced``), for a write that a crash may lose without harm:
    a disk flush took 0.4-10 ms of the calling thread on the development machine."""
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            raw = connection.connection.dbapi_connection
            if isinstance(raw, SqliteConnection):
                raw.take_writer_lock()  # let go by the commit or rollback
                if not synced:
                    raw.commit_unsynced()
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif not synced and connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
        yield connection


def _note_use(token_id: str, engine: Any) -> None:
    """Store now as the token's last use, in a short transaction of its own on another
    connection (the request's own transaction stays as it was). A failure is logged, never
    the request's: the time is a hint for the club's admin."""
    now = utcnow()
    bound = now - timedelta(seconds=LAST_USED_EVERY_SECONDS)
    try:
        with own_write(engine, synced=False) as connection:  # a hint: a crash may lose it
            connection.execute(
                update(TokenRow)
                .where(
                    TokenRow.id == token_id,
                    or_(TokenRow.last_used_at.is_(None), TokenRow.last_used_at < bound),
                )
                .values(last_used_at=now)
            )
            connection.commit()
    except Exception:  # busy, timed out, no database: the next use tries again
        log.warning("noting a token's last use failed", exc_info=True)


def revoke_tokens(*conditions: Any) -> int:
    """Mark the unrevoked tokens matching ``conditions`` revoked, in the caller's
    transaction; how many there were. Once it commits, the next request with any of them is
    refused, on every worker and instance (``authenticate`` reads the row every time), and
    every stream opened with one of them or its tickets ends (``announce_revoked``)."""
    rows = db.session.execute(
        select(TokenRow.id, TokenRow.token_hash).where(TokenRow.revoked_at.is_(None), *conditions)
    ).all()
    if rows:
        db.session.execute(
            update(TokenRow)
            .where(TokenRow.id.in_([r.id for r in rows]))
            .values(revoked_at=utcnow())
        )
        announce_revoked([r.id for r in rows])
    return len(rows)


def announce_revoked(token_ids: list[str]) -> None:
    """Tell every worker of every instance, once the caller's transaction commits, that these
    tokens are revoked: their change feeds (``services/live_feed.py``) hand the word to the
    stream hubs, which end the streams opened with them. On PostgreSQL a notification on
    ``REVOCATIONS_CHANNEL`` in the transaction (delivered on commit, dropped on rollback);
    SQLite's feeds find the tokens' ``revoked_at`` themselves."""
    if token_ids and db.session.get_bind().dialect.name == "postgresql":
        for token_id in token_ids:
            db.session.execute(select(func.pg_notify(REVOCATIONS_CHANNEL, token_id)))


def revoke_own_token(principal: Principal) -> None:
    """Revoke the caller's own token in the caller's transaction, or TokenRevoked if it is
    revoked already. A rotation starts with it, so that only the holder of the current token
    can rotate: an old (leaked) token is refused, and of two rotations at once with the same
    token one wins (the other's conditional UPDATE finds the row revoked; on PostgreSQL it
    waits for the first's row lock, then sees its commit)."""
    revoked = db.session.execute(
        update(TokenRow)
        .where(TokenRow.id == principal.token_id, TokenRow.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    if getattr(revoked, "rowcount", 0) != 1:
        db.session.rollback()
        raise TokenRevoked(_REVOKED.get(principal.kind, _REVOKED["viewer"]), headers=_WWW_INVALID)
    announce_revoked([principal.token_id])


def hold_live_token(principal: Principal) -> None:
    """Hold the caller's token row until the transaction ends (PostgreSQL: its row lock; on
    SQLite the caller took the writer's turn), or TokenRevoked if it was revoked meanwhile. A
    write that must not outlive its token (a program's new webhook) then commits only if no
    revocation committed before it, and a revocation after it sees it."""
    held = db.session.execute(
        update(TokenRow)
        .where(TokenRow.id == principal.token_id, TokenRow.revoked_at.is_(None))
        .values(revoked_at=None)
    )
    if getattr(held, "rowcount", 0) != 1:
        db.session.rollback()
        raise TokenRevoked(_REVOKED.get(principal.kind, _REVOKED["viewer"]), headers=_WWW_INVALID)


def require_club_admin(principal: Principal, club_id: str) -> None:
    if not (principal.is_admin and principal.club_id == club_id):
        raise Forbidden(_refusal(principal, N_("This needs the admin token of the club.")))


def _refusal(principal: Principal, message: str) -> str:
    """Why a write is refused: for a program's token, what it may do instead."""
    if principal.kind == "program":
        return N_(
            "A program's token reads the club and manages its own webhooks, nothing else: "
            "this needs the club's admin token."
        )
    return message


class TableIdentity(Protocol):
    """What access to a table depends on (a ``TableRow`` or a row of those two columns)."""

    @property
    def id(self) -> str: ...

    @property
    def club_id(self) -> str: ...


def may_access_table(principal: Principal, table: TableIdentity) -> bool:
    """Admins of the table's club and the table's own token may read and write it."""
    if principal.is_admin:
        return principal.club_id == table.club_id
    return principal.kind == "table" and principal.table_id == table.id


def may_read_table(principal: Principal, table: TableIdentity) -> bool:
    """Its own token, and the tokens that read its whole club (admin, viewer, program)."""
    if principal.kind == "table":
        return principal.table_id == table.id
    return principal.reads_club(table.club_id)


def require_table_reader(principal: Principal, table: TableIdentity) -> None:
    if not may_read_table(principal, table):
        raise Forbidden(N_("This token does not give access to this table."))


def require_table_access(principal: Principal, table: TableIdentity) -> None:
    if not may_access_table(principal, table):
        raise Forbidden(_refusal(principal, N_("This token does not give access to this table.")))
