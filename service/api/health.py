"""Liveness (``/healthz``) and readiness (``/readyz``), apart.

- ``GET /healthz``: the worker answers. No database is asked: an orchestrator restarts a
  container whose liveness fails, and a database away is no reason to restart the service
  (it answers 503 with ``Retry-After`` meanwhile, and comes back by itself). It says which
  store counts the rate limits in this worker.
- ``GET /readyz``: whether this instance can do the work now, each check named with its
  result: the database answers and can take a write (SQLite: not read-only, and a real write
  of one page when the disk is nearly full, ``outages.sqlite_cannot_write``; PostgreSQL: not
  a standby, not read-only), its migrations are the code's (``alembic`` head), and the change
  feed listens (the streams' and webhooks' wake-up: PostgreSQL's ``LISTEN``, SQLite's change
  counter). 503 when one fails: a load balancer takes the instance out until it is ready.
"""

from __future__ import annotations

import functools
from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate
from sqlalchemy import text

from ..extensions import db
from ..i18n.marks import N_
from ..middleware.limits import EXTENSION as LIMITS_EXTENSION
from ..services.live_feed import feed_for
from ..services.outages import RETRY_AFTER_DOWN, sqlite_cannot_write, sqlite_write_probe
from ..services.table_versions import can_pin
from .errors import problem
from .openapi import operation
from .paging import Blueprint

blp = Blueprint("health", __name__, description="Service health")

# How long readiness waits for the change feed to listen (it starts it if need be).
FEED_WAIT_SECONDS = 2.0


class RateLimitStoreSchema(Schema):
    store = fields.String(
        required=True,
        validate=validate.OneOf(["shared", "local", "off"]),
        metadata={
            "description": "Where this worker counts the rate limits: `shared` (Redis, "
            "for every instance), `local` (this worker's memory) or `off`."
        },
    )
    reason = fields.String(required=True, metadata={"description": "Why, in English."})


class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)
    rate_limits = fields.Nested(RateLimitStoreSchema, required=True)


class CheckSchema(Schema):
    ok = fields.Boolean(required=True)
    detail = fields.String(required=True, metadata={"description": "Why, in English."})


class ReadinessSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["ready"]))
    database = fields.String(required=True)
    checks = fields.Dict(
        keys=fields.String(validate=validate.OneOf(["database", "migrations", "feed"])),
        values=fields.Nested(CheckSchema),
        required=True,
        metadata={
            "description": "Each check with its result: `database` (answers and can take "
            "a write), `migrations` (the database's are the code's), `feed` (the change "
            "feed listens)."
        },
    )


@blp.route("/healthz")
@blp.response(200, HealthSchema)
@operation(
    "getHealth",
    "Health",
    "Liveness: 200 while the service answers; no database is asked (see `getReadiness`). "
    "For a container orchestrator's liveness probe; needs no token.",
)
def healthz() -> dict[str, Any]:
    """Liveness: answer 200 while the worker answers (no database is asked: see
    ``/readyz``). ``rate_limits`` says which store counts the limits in this worker: a
    shared store that fails is no outage (the limits count in memory meanwhile)."""
    return {
        "status": "ok",
        "database": db.engine.dialect.name,
        "rate_limits": current_app.extensions[LIMITS_EXTENSION].store(),
    }


@blp.route("/readyz")
@blp.response(200, ReadinessSchema)
@blp.alt_response(
    503,
    description="A check failed: not ready. A problem whose `checks` member (an extension) "
    "holds every check with its result, as the 200 answer does.",
)
@operation(
    "getReadiness",
    "Health",
    "Readiness: 200 when the database answers and can take a write, its migrations are "
    "the code's and the change feed listens; 503 naming the check that failed. For load "
    "balancers and readiness probes; needs no token.",
)
def readyz() -> Any:
    """Readiness: 200 when the database answers and can take a write, its migrations are the
    code's and the change feed listens; 503 naming the check that failed."""
    checks = {"database": _database(), "migrations": _migrations(), "feed": _feed()}
    failed = [name for name, check in checks.items() if not check["ok"]]
    no_store = {"Cache-Control": "no-store"}
    if failed:
        return problem(
            503,
            N_("Not ready: %(failed)s."),
            headers={**no_store, "Retry-After": str(RETRY_AFTER_DOWN)},
            members={"ready": False, "database": db.engine.dialect.name, "checks": checks},
            values={"failed": ", ".join(failed)},
        )
    body = {"status": "ready", "database": db.engine.dialect.name, "checks": checks}
    return body, 200, no_store


def _check(ok: bool, detail: str) -> dict[str, Any]:
    return {"ok": ok, "detail": detail}


def _database() -> dict[str, Any]:
    try:
        if db.engine.dialect.name == "postgresql":
            standby, read_only = db.session.execute(
                text("SELECT pg_is_in_recovery(), current_setting('transaction_read_only')")
            ).one()
            db.session.rollback()
            if standby or read_only == "on":
                return _check(False, "the server takes no writes (a standby, or read-only)")
            return _check(True, "answers, and takes writes")
        db.session.execute(text("SELECT 1"))
        db.session.rollback()
        path = db.engine.url.database
        if path and path != ":memory:":
            trouble = sqlite_cannot_write(path, _probe)
            if trouble is not None:
                return _check(False, f"cannot take a write: {trouble.strerror or trouble}")
        return _check(True, "answers, and can take a write")
    except Exception as error:  # the database away: not ready, and say what kind
        db.session.rollback()
        return _check(False, f"does not answer ({type(error).__name__})")


def _probe() -> None:
    """A write of one page on a pooled connection (only when the disk is nearly full)."""
    with db.engine.connect() as connection:
        sqlite_write_probe(connection.connection.dbapi_connection)


@functools.cache
def _code_heads(directory: str) -> frozenset[str]:
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory(directory).get_heads())


def _migrations() -> dict[str, Any]:
    from alembic.runtime.migration import MigrationContext

    migrate = current_app.extensions.get("migrate")
    if migrate is None:  # pragma: no cover - the app always has them
        return _check(True, "no migrations configured")
    try:
        with db.engine.connect() as connection:
            current = frozenset(MigrationContext.configure(connection).get_current_heads())
    except Exception as error:
        return _check(False, f"not read ({type(error).__name__})")
    wanted = _code_heads(migrate.directory)
    if current == wanted:
        return _check(True, f"at {', '.join(sorted(wanted))}")
    shown = ", ".join(sorted(current)) or "none"
    return _check(False, f"at {shown}, the code needs {', '.join(sorted(wanted))}")


def _feed() -> dict[str, Any]:
    if db.engine.dialect.name == "sqlite" and not can_pin(db.engine):
        return _check(True, "not used (a database in memory)")
    if feed_for(db.engine).ready(FEED_WAIT_SECONDS):
        return _check(True, "listens")
    return _check(False, f"does not listen (waited {FEED_WAIT_SECONDS:g} s)")
