"""The games the service can keep, with what a client needs to build its forms."""

from __future__ import annotations

from functools import cache

from flask import Response, request
from marshmallow import Schema, fields

from .. import rules
from ..i18n import VARY, current_language, translations
from ..i18n.variants import worded
from ..json_text import answer_bytes
from ..middleware.compression import FixedBody
from .openapi import operation
from .paging import Blueprint

blp = Blueprint(
    "variants",
    __name__,
    url_prefix="/api/v1/variants",
    description="The Solo games, their contracts and options",
)


class VariantSchema(Schema):
    """What every variant tells, and what some of them add (``null`` where a game has none)."""

    name = fields.String(required=True)
    title = fields.String(required=True)
    units = fields.String(required=True, metadata={"enum": ["chips", "points"]})
    players = fields.List(fields.Integer(), required=True)
    suits = fields.List(fields.String(), required=True)
    contracts = fields.List(fields.Dict(), required=True)
    options = fields.List(
        fields.Dict(),
        required=True,
        metadata={
            "description": "A table's options: each with its `name`, `title`, `type`, `default` "
            "and bounds (`min`, `max`, `allowed`, `nullable`); a nullable one's empty choice "
            "worded as `none_title`, and string values' titles as `choices` (`[{value, "
            "title}]`, in the order of `allowed`)."
        },
    )
    state_fields = fields.List(
        fields.Dict(),
        required=True,
        metadata={
            "description": "The keys of a table state (a preview's `state`), each with its "
            "type and a fresh table's value; `amount_option`: the option that says what a due "
            "stake costs."
        },
    )
    hand_fields = fields.List(fields.Dict(), required=True)
    error_kinds = fields.List(fields.Dict(), required=True)
    statistics = fields.List(
        fields.String(metadata={"enum": list(rules.LEAGUE_STATISTICS)}),
        required=True,
        metadata={
            "description": "The league statistics the game has, of those a season's standings "
            "and a player's page count (Solo 66 has no `touts_won`; only American Solo has "
            "`betes_paid` and `stamms_drawn`): a client shows only these."
        },
    )
    doubled_suit = fields.Dict(
        allow_none=True,
        metadata={
            "description": "The suit whose games are worth double (null: none). `word`: what "
            "the game calls it, a message id of the pad's catalogs (`Couleur`, `Preferred "
            "suit`); `fixed_option`: the option that names it where the table's `couleur` "
            "does not (Spanish Solo's colour), else null; `first_won_when`: the options "
            "(`{name: [values]}`) with which it becomes the trump of the first game won, "
            "settled only from then, else null."
        },
    )
    tricks = fields.Integer(allow_none=True)
    hand_kinds = fields.List(fields.Dict(), allow_none=True)
    called_ranks = fields.List(fields.String(), allow_none=True)
    matadores = fields.Dict(allow_none=True)
    bonuses = fields.List(fields.Dict(), allow_none=True)
    decks = fields.List(
        fields.Dict(),
        allow_none=True,
        metadata={
            "description": "German Solo's packs (option `deck`): cards, tricks in a hand, target."
        },
    )
    preferred_suit_multiplier = fields.Integer(allow_none=True)
    tricks_by_deck = fields.Dict(
        allow_none=True,
        metadata={
            "description": "German Solo: the tricks in a hand with each pack (option `deck`)."
        },
    )
    scoring = fields.String(allow_none=True)
    payments = fields.String(allow_none=True)
    card_points = fields.Dict(allow_none=True)
    last_trick_points = fields.Integer(allow_none=True)
    total_points = fields.Integer(allow_none=True)
    kitty_cards = fields.Integer(allow_none=True)


VARIANTS_CACHE = "public, max-age=300, stale-while-revalidate=86400"


@blp.route("")
@blp.response(
    200,
    VariantSchema(many=True),
    headers={
        "ETag": {
            "schema": {"type": "string"},
            "description": "A digest of the answer (its language and coding): send it "
            "as `If-None-Match` for a 304.",
        },
        "Cache-Control": {
            "schema": {"type": "string"},
            "description": f"`{VARIANTS_CACHE}`: the games change only with a "
            "new release of the service.",
        },
    },
)
@blp.alt_response(304, description="Not modified since the ETag given.")
@blp.doc(
    parameters=[
        {
            "in": "header",
            "name": "If-None-Match",
            "required": False,
            "schema": {"type": "string"},
            "description": "The ETag last seen; 304 when the games are the same.",
        }
    ]
)
@operation(
    "listVariants",
    "Variants",
    "Each variant's contracts, hand fields, error kinds and options with their defaults: what a "
    "client needs to build its forms. The titles and descriptions are in the request's language "
    "(`Accept-Language`, as `Content-Language` says); the names (`name`, `allowed`, defaults) are "
    "the same in every language. Needs no token; cacheable, one answer (and ETag) per language.",
)
def list_variants() -> Response:
    """Every variant with its contracts, values, options and their defaults."""
    # The games are fixed for the life of the process: dumped and compressed once per
    # language, each with its own ETag (a German answer is never a 304 for an English one).
    response = _answer(current_language()).response(request, VARIANTS_CACHE)
    response.vary.add(VARY)  # the 304 too: a cache keeps one answer per language
    return response


@cache
def _answer(language: str) -> FixedBody:
    catalog = translations(language)
    described = [worded(v.describe(), catalog.gettext) for v in rules.VARIANTS.values()]
    body = answer_bytes(VariantSchema(many=True).dump(described))
    return FixedBody(body, "application/json")
