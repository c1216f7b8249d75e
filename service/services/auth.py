"""Bearer tokens: made random, stored as SHA-256 digests, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import select, update

from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import utcnow
from ..persistence.table_keeping import TokenRow
from .errors import Forbidden, Unauthorized


class TokenRevoked(Unauthorized):
    """A token the club's admin revoked (a shared table link, a rotated token)."""

    problem = "token-revoked"


TOKEN_BYTES = 32  # 256 bits of randomness
# A worker remembers who a digest belongs to for a while instead of asking the database on
# every request. Revoking a token forgets it at once in the worker that revoked it; another
# worker may still accept it until its entry expires (at most PRINCIPAL_CACHE_SECONDS, see
# docs/league.md). The bound keeps memory flat.
PRINCIPAL_CACHE_SIZE = 4096
PRINCIPAL_CACHE_SECONDS = 60.0
_principals: dict[str, tuple[float, Principal]] = {}


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: an admin of ``club_id``, its read-only ``viewer`` token, or a table
    token of ``table_id``."""

    token_id: str
    kind: str
    club_id: str
    table_id: str | None

    @property
    def is_admin(self) -> bool:
        return self.kind == "admin"


def new_id() -> str:
    return uuid.uuid4().hex


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_token(kind: str, club_id: str, table_id: str | None = None) -> str:
    """Create a token row and return the token itself, which is never stored."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    db.session.add(
        TokenRow(
            id=new_id(), kind=kind, club_id=club_id, table_id=table_id, token_hash=hash_token(token)
        )
    )
    return token


def bearer_token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def _digest(authorization: str | None) -> str | None:
    """The digest of a well-formed bearer token, or None for a missing or malformed one."""
    token = bearer_token(authorization)
    if token is None or len(token) > 256:
        return None
    return hash_token(token)


def _remembered(digest: str) -> Principal | None:
    cached = _principals.get(digest)
    if cached is not None and cached[0] > time.monotonic():
        return cached[1]
    return None


def remembered_principal(authorization: str | None) -> Principal | None:
    """The principal behind the header if this worker checked its token within the last
    ``PRINCIPAL_CACHE_SECONDS``, without asking the database; None when it cannot say."""
    digest = _digest(authorization)
    return None if digest is None else _remembered(digest)


def authenticate(authorization: str | None) -> Principal:
    """The principal behind an ``Authorization: Bearer`` header, or Unauthorized."""
    digest = _digest(authorization)
    if digest is None:
        raise Unauthorized(
            N_("A bearer token is required."), headers={"WWW-Authenticate": 'Bearer realm="solo"'}
        )
    remembered = _remembered(digest)
    if remembered is not None:
        return remembered
    row = db.session.execute(
        select(
            TokenRow.id,
            TokenRow.kind,
            TokenRow.club_id,
            TokenRow.table_id,
            TokenRow.token_hash,
            TokenRow.revoked_at,
        ).where(TokenRow.token_hash == digest)
    ).first()
    # The lookup is by digest; comparing the digests again in constant time keeps the check
    # free of timing differences even if the index lookup were not.
    if row is None or not hmac.compare_digest(row.token_hash, digest):
        raise Unauthorized(
            N_("The token is not valid."),
            headers={"WWW-Authenticate": 'Bearer realm="solo", error="invalid_token"'},
        )
    if row.revoked_at is not None:
        revoked = {
            "table": N_("This table's link was revoked by the club's admin; ask for a new one."),
            "admin": N_("This admin token was revoked by the club's admin; ask for a new one."),
            "viewer": N_("This viewer token was revoked by the club's admin; ask for a new one."),
        }
        raise TokenRevoked(
            revoked.get(row.kind, revoked["viewer"]),
            headers={"WWW-Authenticate": 'Bearer realm="solo", error="invalid_token"'},
        )
    found = Principal(token_id=row.id, kind=row.kind, club_id=row.club_id, table_id=row.table_id)
    if len(_principals) >= PRINCIPAL_CACHE_SIZE:
        _principals.clear()
    _principals[digest] = (time.monotonic() + PRINCIPAL_CACHE_SECONDS, found)
    return found


def revoke_tokens(*conditions: Any) -> int:
    """Mark the unrevoked tokens matching ``conditions`` revoked (in the caller's
    transaction) and forget them in this worker; how many there were."""
    rows = db.session.execute(
        select(TokenRow.id, TokenRow.token_hash).where(TokenRow.revoked_at.is_(None), *conditions)
    ).all()
    if rows:
        db.session.execute(
            update(TokenRow)
            .where(TokenRow.id.in_([r.id for r in rows]))
            .values(revoked_at=utcnow())
        )
    for row in rows:
        _principals.pop(row.token_hash, None)
    return len(rows)


def require_club_admin(principal: Principal, club_id: str) -> None:
    if not (principal.is_admin and principal.club_id == club_id):
        raise Forbidden(N_("This needs the admin token of the club."))


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


def require_table_access(principal: Principal, table: TableIdentity) -> None:
    if not may_access_table(principal, table):
        raise Forbidden(N_("This token does not give access to this table."))
