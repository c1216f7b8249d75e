"""Liveness that includes the database."""

from __future__ import annotations

from marshmallow import Schema, fields
from sqlalchemy import text

from ..extensions import db
from ..services.outages import sqlite_cannot_write
from .paging import Blueprint

blp = Blueprint("health", __name__, description="Service health")


class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)


@blp.route("/healthz")
@blp.response(200, HealthSchema)
@blp.alt_response(503, description="The database does not answer, or cannot write.")
def healthz() -> dict[str, str]:
    """Answer 200 when the service and its database answer and, on SQLite, when the
    database's file system can take a write (not full, not read-only): 503 otherwise."""
    db.session.execute(text("SELECT 1"))
    db.session.rollback()
    path = db.engine.url.database
    if db.engine.dialect.name == "sqlite" and path and path != ":memory:":
        trouble = sqlite_cannot_write(path)
        if trouble is not None:
            raise trouble  # a disk error: answered 503 (outage_of)
    return {"status": "ok", "database": db.engine.dialect.name}
