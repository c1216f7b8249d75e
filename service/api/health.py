"""Liveness that includes the database."""

from __future__ import annotations

from marshmallow import Schema, fields
from sqlalchemy import text

from ..extensions import db
from .paging import Blueprint

blp = Blueprint("health", __name__, description="Service health")


class HealthSchema(Schema):
    status = fields.String(required=True)
    database = fields.String(required=True)


@blp.route("/healthz")
@blp.response(200, HealthSchema)
@blp.alt_response(503, description="The database does not answer.")
def healthz() -> dict[str, str]:
    """Answer 200 when the service and its database answer."""
    db.session.execute(text("SELECT 1"))
    db.session.rollback()
    return {"status": "ok", "database": db.engine.dialect.name}
