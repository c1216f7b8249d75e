"""Safe retries of any write: the first answer to a request sent with an ``Idempotency-Key``,
kept for ``LIFETIME`` and given again to a retry with the same key and the same request (IETF
draft-ietf-httpapi-idempotency-key-header).

A key belongs to its caller (``scope``: the token, or ``public`` where no token is needed) and
names one request (``fingerprint``: method, path with its query, and body). The way of one
keyed write:

1. ``claim``: the key's row is inserted, in a transaction of its own, before the write runs.
   A unique key: the write goes ahead. A key already answered: the answer is replayed. The
   same key with another request: ``IdempotencyKeyReused``. A key whose first request is still
   in flight: wait for its answer (up to ``WAIT_SECONDS``), then ``IdempotencyKeyInFlight``.
   Two requests with one key at once thus make one effect: the database's unique key lets one
   claim win.
2. The write runs, and commits its own transaction.
3. ``complete`` stores a success's answer; ``release`` drops the claim of a write that failed
   (a 4xx, a 5xx: nothing was done, so a retry may try again).

A claim whose write never finished (a worker killed between 1 and 3) is taken over after
``LEASE`` by the next request with its key: longer than any request may run (gunicorn's
timeout, 30 s). Rows past ``LIFETIME`` are deleted by the claims that come after (a few at a
time, ``SWEEP_BATCH``): no cron job.

Secrets. Tokens are stored as digests only. An answer that hands out a token (a new club's
admin token, a table's token, a new viewer token) is stored with each such member (named in
``SECRET_MEMBERS``) sealed (AES-GCM) under a key derived (scrypt) from the request's own
``Idempotency-Key``, which is itself stored only as its SHA-256: the database alone cannot open
it, and the retry that sends the key again gets the very answer the first request got.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..i18n.marks import N_
from ..json_text import canonical_text
from ..persistence.columns import aware, utcnow
from ..persistence.idempotency import IdempotentRequestRow
from ..persistence.table_keeping import TokenRow
from .auth import digest_of
from .errors import Conflict, IdempotencyKeyReused

LIFETIME = timedelta(hours=24)
LEASE = timedelta(seconds=60)
WAIT_SECONDS = 10.0
POLL_SECONDS = 0.05
SWEEP_BATCH = 100
SECRET_MEMBERS = frozenset({"admin_token", "table_token", "token", "secret"})
_SEALED = "$sealed"
_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}

_rows = IdempotentRequestRow.__table__


class IdempotencyKeyInFlight(Conflict):
    """The key's first request has not been answered yet: try again shortly."""

    problem = "idempotency-key-in-flight"


@dataclass(frozen=True, slots=True)
class Claim:
    """The right to run the write of one key: ``complete`` or ``release`` it."""

    scope: str
    key_hash: str
    key: str
    fingerprint: str
    claimed_at: datetime


@dataclass(frozen=True, slots=True)
class Replay:
    """The first answer to the key, to be sent again."""

    status: int
    body: Any
    headers: dict[str, str]


def fingerprint(method: str, path: str, body: bytes) -> str:
    """What makes two requests the same: the method, the path (with its query, if any) and
    the body, read as JSON (so a retry that orders its members otherwise or spaces them
    otherwise is the same)."""
    try:
        canonical = canonical_text(json.loads(body or b"null")).encode()
    except (ValueError, RecursionError):
        canonical = body
    digest = hashlib.sha256(f"{method} {path}\n".encode())
    digest.update(canonical)
    return digest.hexdigest()


def _key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _sweep(now: datetime) -> None:
    """Delete some rows past their lifetime (in the caller's transaction)."""
    old = select(_rows.c.scope, _rows.c.key_hash).where(_rows.c.expires_at < now)
    expired = db.session.execute(old.limit(SWEEP_BATCH)).all()
    for scope, key_hash in expired:
        db.session.execute(
            delete(_rows).where(
                _rows.c.scope == scope, _rows.c.key_hash == key_hash, _rows.c.expires_at < now
            )
        )


def claim(scope: str, key: str, request_fingerprint: str) -> Claim | Replay:
    """Claim ``key`` for the request, or the first answer to replay (module docstring)."""
    key_hash = _key_hash(key)
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        now = utcnow()
        try:
            _sweep(now)
            db.session.execute(
                insert(_rows).values(
                    scope=scope,
                    key_hash=key_hash,
                    fingerprint=request_fingerprint,
                    claimed_at=now,
                    expires_at=now + LIFETIME,
                )
            )
            db.session.commit()
            return Claim(scope, key_hash, key, request_fingerprint, now)
        except IntegrityError:
            db.session.rollback()
        row = db.session.execute(
            select(_rows).where(_rows.c.scope == scope, _rows.c.key_hash == key_hash)
        ).first()
        db.session.rollback()  # end the read: a wait below must not hold a transaction open
        if row is None:  # released or swept since the insert failed: claim it again
            continue
        if row.fingerprint != request_fingerprint:
            raise IdempotencyKeyReused(
                N_("This Idempotency-Key was already used with another request.")
            )
        if row.status_code is not None:
            if aware(row.expires_at) > now:
                return Replay(row.status_code, _unseal(row.body, key, row.fingerprint), row.headers)
            _drop(scope, key_hash, row.claimed_at)  # expired, not yet swept: a new request
            continue
        if aware(row.claimed_at) + LEASE <= now:  # its request died before answering
            taken = db.session.execute(  # type: ignore[attr-defined]
                update(_rows)
                .where(
                    _rows.c.scope == scope,
                    _rows.c.key_hash == key_hash,
                    _rows.c.claimed_at == row.claimed_at,
                    _rows.c.status_code.is_(None),
                )
                .values(claimed_at=now, expires_at=now + LIFETIME)
            ).rowcount
            db.session.commit()
            if taken:
                return Claim(scope, key_hash, key, request_fingerprint, now)
            continue
        if time.monotonic() >= deadline:
            raise IdempotencyKeyInFlight(
                N_("The first request with this Idempotency-Key is still being answered."),
                headers={"Retry-After": "1"},
            )
        time.sleep(POLL_SECONDS)


def replay_of(scope: str, key: str, request_fingerprint: str) -> Replay | None:
    """The stored answer to the key's request, if there is one (nothing is claimed)."""
    row = db.session.execute(
        select(_rows).where(
            _rows.c.scope == scope,
            _rows.c.key_hash == _key_hash(key),
            _rows.c.fingerprint == request_fingerprint,
            _rows.c.status_code.is_not(None),
            _rows.c.expires_at > utcnow(),
        )
    ).first()
    db.session.rollback()
    if row is None:
        return None
    return Replay(row.status_code, _unseal(row.body, key, row.fingerprint), row.headers)


def revoked_token_id(authorization: str | None) -> str | None:
    """The id of the revoked token behind the header, None for any other. A request that
    revoked its own token (rotating the admin token) may still be replayed with it: its
    caller never got the answer that named the new one."""
    digest = digest_of(authorization)
    if digest is None:
        return None
    found: str | None = db.session.execute(
        select(TokenRow.id).where(TokenRow.token_hash == digest, TokenRow.revoked_at.is_not(None))
    ).scalar()
    return found


def _drop(scope: str, key_hash: str, claimed_at: datetime) -> None:
    db.session.execute(
        delete(_rows).where(
            _rows.c.scope == scope, _rows.c.key_hash == key_hash, _rows.c.claimed_at == claimed_at
        )
    )
    db.session.commit()


def complete(claim: Claim, status: int, body: Any, headers: dict[str, str]) -> None:
    """Keep the write's answer (a 2xx) for the key's retries, its secrets sealed."""
    db.session.rollback()  # the write committed its own work; start afresh
    db.session.execute(
        update(_rows)
        .where(
            _rows.c.scope == claim.scope,
            _rows.c.key_hash == claim.key_hash,
            _rows.c.claimed_at == claim.claimed_at,
        )
        .values(
            status_code=status,
            body=_seal(body, claim.key, claim.fingerprint),
            headers=headers,
        )
    )
    db.session.commit()


def release(claim: Claim) -> None:
    """Let the key go: its write failed, and did nothing a retry would repeat."""
    db.session.rollback()
    db.session.execute(
        delete(_rows).where(
            _rows.c.scope == claim.scope,
            _rows.c.key_hash == claim.key_hash,
            _rows.c.claimed_at == claim.claimed_at,
            _rows.c.status_code.is_(None),
        )
    )
    db.session.commit()


def _cipher(key: str, salt: bytes) -> AESGCM:
    return AESGCM(hashlib.scrypt(key.encode(), salt=salt, **_SCRYPT))


def _seal(body: Any, key: str, aad: str) -> Any:
    """``body`` with each member of ``SECRET_MEMBERS`` sealed under ``key``."""
    if not isinstance(body, dict) or not SECRET_MEMBERS & body.keys():
        return body
    salt = os.urandom(16)
    cipher = _cipher(key, salt)
    sealed = dict(body)
    for name in SECRET_MEMBERS & body.keys():
        if isinstance(body[name], str):
            nonce = os.urandom(12)
            box = cipher.encrypt(nonce, body[name].encode(), aad.encode())
            sealed[name] = {_SEALED: base64.b64encode(salt + nonce + box).decode()}
    return sealed


def _unseal(body: Any, key: str, aad: str) -> Any:
    if not isinstance(body, dict):
        return body
    opened = dict(body)
    cipher: AESGCM | None = None
    for name, value in body.items():
        if isinstance(value, dict) and set(value) == {_SEALED}:
            raw = base64.b64decode(value[_SEALED])
            salt, nonce, box = raw[:16], raw[16:28], raw[28:]
            cipher = cipher or _cipher(key, salt)
            opened[name] = cipher.decrypt(nonce, box, aad.encode()).decode()
    return opened
