"""Tables and their hands: the score sheet of one sitting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from ..i18n import current_language, explain_session, named_hand, seat_names, settlement_view
from ..json_text import answer_bytes
from ..middleware.answers import etag, hands_answer, poll_answer, rendered_answer
from ..middleware.rendered import rendered_hands, rendered_views
from ..schemas.seating import (
    DryRunQuerySchema,
    ReseatedTableSchema,
    SeatingHistorySchema,
    SeatingSchema,
    SeatingViewSchema,
)
from ..schemas.tables import (
    CorrectedHandSchema,
    HandBodySchema,
    HandCreateSchema,
    HandSchema,
    HandWithTableSchema,
    HistorySchema,
    LedgerSchema,
    SettleUpSchema,
    TableCreatedSchema,
    TableCreateSchema,
    TableHistorySchema,
    TableSchema,
    TableUpdateSchema,
)
from ..services import hands, seating, table_settings, tables
from .auth import BEARER, documents_token, if_match_version, principal, reading_principal
from .idempotency import OWN, idempotent, not_idempotent, request_key
from .idempotency import PARAMETER as IDEMPOTENCY_KEY
from .openapi import operation, request_body
from .paging import Answer, Blueprint

blp = Blueprint(
    "tables",
    __name__,
    url_prefix="/api/v1/tables",
    description="Tables, hands, corrections, ledger and settle-up",
)

_TABLE_SCHEMA = TableSchema()
_HAND_SCHEMA = HandSchema()

IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The table `version` (its ETag) this change is based on; 412 when "
    "the table has moved on.",
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The ETag last seen; 304 when the table has not changed.",
}

# Parsed by DryRunQuerySchema; written out here as well, since a ``doc(parameters=…)`` list
# replaces the one flask-smorest makes of the query schema.
DRY_RUN = {
    "in": "query",
    "name": "dry_run",
    "required": False,
    "schema": {"type": "boolean", "default": False},
    "description": "`true`: make the same checks and answer 200 with what the change "
    "would give, with `Dry-Run: true`; nothing is stored (no revision, "
    "no new version or ETag, no league aggregates).",
}
DRY_RUN_HEADERS = {
    "ETag": {
        "schema": {"type": "string"},
        "description": "The table's new version (not sent on a dry run: nothing changed).",
    },
    "Dry-Run": {
        "schema": {"type": "string", "enum": ["true"]},
        "description": "Sent on a dry run (which sends no ETag): the answer is what "
        "the change would give, and nothing was stored.",
    },
}

_auth_doc = documents_token(
    blp,
    "The token does not reach this table.",
    "No such table or hand.",
    unauthorized="No or bad token.",
)


def changed(answer: dict[str, Any], version: int, dry_run: bool) -> Any:
    """The 200 of a change: with the table's new ETag, or, for a dry run, ``Dry-Run: true``
    and no ETag (the table did not move) and no caching (it answers a question, not a URL)."""
    if dry_run:
        return answer, 200, {"Dry-Run": "true", "Cache-Control": "no-store"}
    return answer, 200, {"ETag": etag(version)}


@blp.route("")
class Tables(MethodView):
    @blp.arguments(TableCreateSchema())
    @blp.response(201, TableCreatedSchema)
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not the club's admin token.")
    @blp.alt_response(404, description="No such club.")
    @blp.alt_response(422, description="Bad seats, first dealer, options or season.")
    @blp.doc(security=BEARER)
    @operation(
        "openTable",
        "Tables",
        "Seats are the club's player ids in the order of play; `variant` fixes the hand records "
        "the table takes. The answer carries the table token, shown once, for the phones at the "
        "table.",
    )
    def post(self, body: dict[str, Any]) -> Answer:
        """Open a table (admin token); the answer carries the table token, this once only."""
        table = tables.open_table(
            principal(),
            body["club_id"],
            body["name"],
            body["variant"],
            body["seats"],
            body["first_dealer"],
            body["options"],
            body["season_id"],
            body["rate"],
        )
        return (
            table,
            201,
            {"Location": f"{request.path}/{table['id']}", "ETag": etag(table["version"])},
        )


@blp.route("/<string:table_id>")
class Table(MethodView):
    @blp.response(
        200,
        TableSchema,
        headers={"ETag": {"schema": {"type": "string"}, "description": "The table's version."}},
    )
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @blp.doc(parameters=[IF_NONE_MATCH])
    @_auth_doc
    @operation(
        "getTable",
        "Tables",
        "Poll it with `If-None-Match`: 304 while nothing changed.",
    )
    def get(self, table_id: str) -> Any:
        """Show a table: balances, pool, couleur, next dealer and version (ETag)."""
        # The poll needs no session: the token and the version are read on the app's reader.
        caller = reading_principal()
        version = tables.table_version(caller, table_id).version
        language = current_language()
        rendered = rendered_views()
        answer = poll_answer(
            table_id, version, request.headers.get("If-None-Match"), rendered, language
        )
        if answer is not None:
            return answer
        table = tables.read_table(caller, table_id)
        version = table.version  # a write may have landed since: render what was read
        body = answer_bytes(_TABLE_SCHEMA.dump(tables.table_view(table)))
        rendered.put(table_id, version, language, body)
        return rendered_answer(version, body)

    @blp.arguments(TableUpdateSchema())
    @blp.response(200, TableSchema)
    @blp.alt_response(412, description="If-Match names an old version.")
    @blp.alt_response(
        422, description="No such season of the club in the table's variant, or a bad rate."
    )
    @blp.doc(parameters=[IF_MATCH])
    @_auth_doc
    @operation(
        "updateTable",
        "Tables",
        "Only the settings given change: `season_id` (admin token; the standings and ratings of "
        "both seasons follow) and `rate`. Each change is kept in the table's history.",
    )
    def patch(self, body: dict[str, Any], table_id: str) -> Answer:
        """Change the table's season (admin token) or rate; each change is kept in its
        history and the standings and ratings follow."""
        caller = principal()
        table = table_settings.change_settings(
            caller, table_id, **body, if_match=if_match_version()
        )
        return table, 200, {"ETag": etag(table["version"])}


@blp.route("/<string:table_id>/history")
class TableHistory(MethodView):
    @blp.response(200, TableHistorySchema)
    @_auth_doc
    @operation("getTableHistory", "Tables")
    def get(self, table_id: str) -> dict[str, Any]:
        """Every change of the table's season or rate, oldest first, with who and when."""
        return table_settings.settings_history(principal(), table_id)


def hand_rendering(
    variant: str, language: str, names: tuple[str, ...]
) -> Callable[[hands.StoredHand], bytes]:
    """A hand's JSON as a list of hands shows it, in ``language``: its explanation worded with
    the players' ``names``, dumped through ``HandSchema`` and written as Flask's JSON answers
    write it (compact). ``answers.hands_answer`` keeps it per worker while the hand's row and
    the names read the same (a player renamed is a new rendering)."""
    return lambda hand: answer_bytes(
        _HAND_SCHEMA.dump(named_hand(hand.view(variant), language, names))
    )


@blp.route("/<string:table_id>/hands")
class Hands(MethodView):
    @blp.response(200, HandSchema(many=True))
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @blp.paginate()
    @_auth_doc
    @operation(
        "listHands",
        "Hands",
        "Paged (`page`, `page_size`): `X-Pagination` and `Link` tell the pages. The ETag is the "
        "table's version, as `getTable`'s: poll a page with `If-None-Match`, 304 while nothing "
        "changed.",
    )
    def get(self, table_id: str, pagination_parameters: PaginationParameters) -> Response:
        """List the table's hands in order, void ones included (paged)."""
        page = hands.hand_page(
            principal(), table_id, pagination_parameters.page, pagination_parameters.page_size
        )
        pagination_parameters.item_count = page.total
        language = current_language()
        answer = hands_answer(
            page,
            request.headers.get("If-None-Match"),
            rendered_hands(),
            language,
            hand_rendering(page.variant, language, page.names),
        )
        assert answer is not None  # (every hand rendered that was not yet)
        return answer

    @blp.arguments(HandCreateSchema())
    @blp.doc(
        requestBody=request_body(
            "HandRecordCreate",
            "A hand record of the table's variant, with `expected_number` if wanted.",
        )
    )
    @blp.response(201, HandWithTableSchema)
    @blp.alt_response(
        409,
        description="Hand number taken, table closed, session over, or "
        "Idempotency-Key reused with another body.",
    )
    @blp.alt_response(412, description="If-Match names an old version.")
    @blp.alt_response(422, description="The hand breaks a rule; nothing is recorded.")
    @blp.doc(parameters=[IF_MATCH, IDEMPOTENCY_KEY])
    @_auth_doc
    @not_idempotent(OWN)  # its keys are kept per table, in the hand's own transaction
    @operation(
        "recordHand",
        "Hands",
        "The body is a hand record of the table's variant. Safe to retry with an "
        "`Idempotency-Key`; guarded by `If-Match` or `expected_number` against two phones "
        "recording the same hand.",
    )
    def post(self, body: dict[str, Any], table_id: str) -> Any:
        """Settle and record the next hand (table or admin token)."""
        # Who asks comes first: 401 before a header's 422 or 412. The token is read on the
        # app's reader, as the poll's: the hand's statements need no session either
        # (``hands.record_hand``).
        caller = reading_principal()
        key = request_key()
        expected = body.pop("expected_number", None)
        conditions = hands.WriteConditions(
            if_match=if_match_version(), expected_number=expected, idempotency_key=key
        )
        answer, replayed = hands.record_hand(caller, table_id, body, conditions)
        # The answer is already HandWithTableSchema's shape (tests/api/test_answer_shapes.py
        # holds its dump to the identity), so it is sent as it is: the dump cost about a
        # twentieth of recording a hand. Only its explanation is worded here, in the reader's
        # language, from the steps the settlement keeps.
        language = current_language()
        names = seat_names(answer["table"])
        if answer.get("settlement") is not None:
            answer = {
                **answer,
                "settlement": settlement_view(answer["settlement"], language, names),
            }
        session = answer["table"].get("session")
        if session is not None:
            reason = explain_session(session["reason"], language, names)
            answer = {
                **answer,
                "table": {**answer["table"], "session": {**session, "reason": reason}},
            }
        response = current_app.json.response(answer)
        response.status_code = 201
        response.headers["Location"] = f"{request.path}/{answer['number']}"
        response.headers["ETag"] = etag(answer["table"]["version"])
        if replayed:
            response.headers["Idempotent-Replayed"] = "true"
        return response


# Hand numbers stop at PostgreSQL's integer: larger ones match no route (404), as documented.
@blp.route("/<string:table_id>/hands/<int(min=1, max=2147483647):number>")
class Hand(MethodView):
    @blp.response(200, HandSchema)
    @_auth_doc
    @operation(
        "getHand",
        "Hands",
        "The record as it stands, its settlement and its dealer.",
    )
    def get(self, table_id: str, number: int) -> dict[str, Any]:
        """Show one hand with its settlement, its explanation naming the players."""
        hand, names = hands.get_hand(principal(), table_id, number)
        return named_hand(hand, current_language(), names)

    @idempotent  # a retry after a lost answer gets it again, as a POST's does
    @blp.arguments(HandBodySchema())
    @blp.arguments(DryRunQuerySchema(), location="query", as_kwargs=True)
    @blp.doc(
        requestBody=request_body("HandRecord", "The hand's new record, of the table's variant.")
    )
    @blp.response(200, CorrectedHandSchema, headers=DRY_RUN_HEADERS)
    @blp.alt_response(412, description="If-Match names an old version.")
    @blp.alt_response(
        422,
        description="The new record, or a later hand settled again, breaks "
        "a rule; nothing changes.",
    )
    @blp.doc(parameters=[IF_MATCH, DRY_RUN])
    @_auth_doc
    @operation(
        "correctHand",
        "Hands",
        "The body is a hand record of the table's variant. The old record stays in the hand's "
        "history; every later hand is settled again in order.",
    )
    def put(self, body: dict[str, Any], table_id: str, number: int, dry_run: bool) -> Any:
        """Correct a hand: replace its record and settle it and every later hand again."""
        caller = principal()
        answer = hands.correct_hand(
            caller, table_id, number, body, if_match_version(), dry_run=dry_run
        )
        return changed(answer, answer["table"]["version"], dry_run)

    @idempotent  # a retry after a lost answer gets it again, not 409 hand-already-void
    @blp.arguments(DryRunQuerySchema(), location="query", as_kwargs=True)
    @blp.response(200, CorrectedHandSchema, headers=DRY_RUN_HEADERS)
    @blp.alt_response(409, description="The hand is already void.")
    @blp.alt_response(412, description="If-Match names an old version.")
    @blp.doc(parameters=[IF_MATCH, DRY_RUN])
    @_auth_doc
    @operation(
        "voidHand",
        "Hands",
        "The record stays in the hand's history; every later hand is settled again in order.",
    )
    def delete(self, table_id: str, number: int, dry_run: bool) -> Any:
        """Void a hand: it keeps its number and moves nothing; later hands follow."""
        caller = principal()
        answer = hands.void_hand(caller, table_id, number, if_match_version(), dry_run=dry_run)
        return changed(answer, answer["table"]["version"], dry_run)


@blp.route("/<string:table_id>/hands/<int(min=1, max=2147483647):number>/history")
class HandHistory(MethodView):
    @blp.response(200, HistorySchema)
    @_auth_doc
    @operation(
        "getHandHistory",
        "Hands",
        "Each revision names the kind of token that made it.",
    )
    def get(self, table_id: str, number: int) -> dict[str, Any]:
        """Every revision of a hand, oldest first, with when and by which token."""
        return hands.hand_history(principal(), table_id, number)


@blp.route("/<string:table_id>/seating")
class Seating(MethodView):
    @blp.response(200, SeatingViewSchema)
    @_auth_doc
    @operation("getSeating", "Tables")
    def get(self, table_id: str) -> dict[str, Any]:
        """The seating: the players in the order of play and the first hand's dealer."""
        return seating.seating(principal(), table_id)

    @blp.arguments(SeatingSchema())
    @blp.arguments(DryRunQuerySchema(), location="query", as_kwargs=True)
    @blp.response(200, ReseatedTableSchema, headers=DRY_RUN_HEADERS)
    @blp.alt_response(409, description="The table is closed.")
    @blp.alt_response(412, description="If-Match names an old version.")
    @blp.alt_response(
        422,
        description="Not the table's players each once, a bad first "
        "dealer, or a hand the new seating makes invalid; "
        "nothing changes.",
    )
    @blp.doc(parameters=[IF_MATCH, DRY_RUN])
    @_auth_doc
    @operation("reseatTable", "Tables")
    def put(self, body: dict[str, Any], table_id: str, dry_run: bool) -> Any:
        """Re-seat the table (its players permuted, another first dealer) and settle every
        hand again; each hand stays its players', its seat numbers follow them."""
        answer = seating.reseat(
            principal(),
            table_id,
            body["seats"],
            body["first_dealer"],
            if_match_version(),
            dry_run=dry_run,
        )
        return changed(answer, answer["version"], dry_run)


@blp.route("/<string:table_id>/seating/history")
class SeatingHistory(MethodView):
    @blp.response(200, SeatingHistorySchema)
    @_auth_doc
    @operation("getSeatingHistory", "Tables")
    def get(self, table_id: str) -> dict[str, Any]:
        """Every re-seating of the table, oldest first, with who, when, before and after."""
        return seating.seating_history(principal(), table_id)


@blp.route("/<string:table_id>/ledger")
class Ledger(MethodView):
    @blp.response(200, LedgerSchema)
    @_auth_doc
    @operation(
        "getLedger",
        "Tables",
        "Void hands move nothing and are left out.",
    )
    def get(self, table_id: str) -> dict[str, Any]:
        """Every transfer of every current hand, in order."""
        return hands.ledger(principal(), table_id)


@blp.route("/<string:table_id>/close")
class Close(MethodView):
    @blp.response(200, TableSchema)
    @blp.alt_response(409, description="Already closed.")
    @_auth_doc
    @operation(
        "closeTable",
        "Tables",
        "Balances are final; settle-up then says who pays whom.",
    )
    def post(self, table_id: str) -> Answer:
        """End the sitting: no more hands; corrections then need the admin token.

        A table of a club night is closed by the night's director (the club's admin token;
        the next draw or closing the night closes it): its own token is refused with 403
        `urn:solo:problem:night-table-closed-by-director`."""
        table = tables.close_table(principal(), table_id)
        return table, 200, {"ETag": etag(table["version"])}


@blp.route("/<string:table_id>/settle-up")
class SettleUp(MethodView):
    @blp.response(200, SettleUpSchema)
    @_auth_doc
    @operation(
        "getSettleUp",
        "Tables",
        "Integers, deterministic; `final` once the table is closed.",
    )
    def get(self, table_id: str) -> dict[str, Any]:
        """Who pays whom to clear the balances (fewest transfers), with the pool's fate."""
        return tables.settle_up(principal(), table_id)


@blp.route("/<string:table_id>/settle-up.csv")
class SettleUpCsv(MethodView):
    @blp.doc(
        responses={
            "200": {
                "description": "The settle-up as CSV.",
                "headers": {
                    "Content-Disposition": {
                        "schema": {"type": "string"},
                        "description": '`attachment; filename="settle-up-<table_id>.csv"`.',
                    }
                },
                "content": {
                    "text/csv": {
                        "schema": {
                            "type": "string",
                            "description": "RFC 4180, a header line, then one line per row: "
                            + ", ".join(f"`{c}`" for c in tables.SETTLE_UP_COLUMNS)
                            + ". `kind` is `net`, `payment` (in money when the table has a "
                            "rate), `fee` or `pool_share`; `amount` is chips or points (`units`), "
                            "`cents` money in the minor unit of `currency`.",
                        }
                    }
                },
            }
        }
    )
    @_auth_doc
    @operation(
        "getSettleUpCsv",
        "Tables",
        "The rows of `getSettleUp`, one line each; money in cents with its currency.",
    )
    def get(self, table_id: str) -> Response:
        """The settle-up as CSV (RFC 4180), for a spreadsheet: each party's net in chips or
        points and in money, the payments and the table fees."""
        return Response(
            tables.settle_up_csv(principal(), table_id),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="settle-up-{table_id}.csv"'},
        )
