"""Liveness that includes the database, and which store counts the rate limits."""

from __future__ import annotations

from typing import Any

from flask import current_app
from marshmallow import Schema, fields, validate
from sqlalchemy import text

from ..extensions import db
from ..middleware.limits import EXTENSION as LIMITS_EXTENSION
from ..services.outages import sqlite_cannot_write
from .openapi import operation
from .paging import Blueprint

blp = Blueprint("health", __name__, description="Service health")


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


@blp.route("/healthz")
@blp.response(200, HealthSchema)
@blp.alt_response(503, description="The database does not answer, or cannot write.")
@operation("getHealth", "Health")
def healthz() -> dict[str, Any]:
    """Answer 200 when the service and its database answer and, on SQLite, when the
    database's file system can take a write (not full, not read-only): 503 otherwise.

    ``rate_limits`` says which store counts the limits in this worker: a shared store that
    fails is no outage (the limits count in memory meanwhile)."""
    db.session.execute(text("SELECT 1"))
    db.session.rollback()
    path = db.engine.url.database
    if db.engine.dialect.name == "sqlite" and path and path != ":memory:":
        trouble = sqlite_cannot_write(path)
        if trouble is not None:
            raise trouble  # a disk error: answered 503 (outage_of)
    return {
        "status": "ok",
        "database": db.engine.dialect.name,
        "rate_limits": current_app.extensions[LIMITS_EXTENSION].store(),
    }
