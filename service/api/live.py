"""Live changes: the club's ``/changes`` feed (for programs that pull), and the streams of a
table and of a club (server-sent events) with their tickets (docs/api.md#live-changes)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ..schemas.live import ChangesPageSchema, ChangesQuerySchema
from ..services import live
from .auth import BEARER, principal
from .paging import Blueprint

blp = Blueprint("live", __name__, url_prefix="/api/v1", description="Live changes")


@blp.route("/clubs/<string:club_id>/changes")
class Changes(MethodView):
    @blp.arguments(ChangesQuerySchema(), location="query")
    @blp.response(200, ChangesPageSchema)
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin or read-only token.")
    @blp.alt_response(404, description="No such club.")
    @blp.doc(security=BEARER)
    def get(self, query: dict[str, Any], club_id: str) -> dict[str, Any]:
        """Every change of the club in order, a page at a time after the cursor `after`
        (admin or read-only token). The event ids are the streams' and webhooks' ids."""
        return live.read_changes(principal(), club_id, query["after"], query["limit"])
