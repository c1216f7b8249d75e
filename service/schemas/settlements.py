"""The preview request and the settlement response."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from ..i18n import current_language, explain
from ..rules.base import party_object

SUITS = ["clubs", "spades", "hearts", "diamonds"]
MAX_ENTRIES = 32
"""The most keys an ``options``, ``state`` or ``hand`` object may have (a few are used)."""


MAX_KEY_LENGTH = 64


class MaxEntries(validate.Validator):
    """At most ``n`` keys in a JSON object, each at most ``MAX_KEY_LENGTH`` characters; shown in
    the OpenAPI as ``maxProperties``. (Checked here in one loop: a key field would deserialize
    every key on its own, which cost a preview more than half of its body's loading.)"""

    def __init__(self, n: int = MAX_ENTRIES) -> None:
        self.n = n

    def __call__(self, value: Any) -> Any:
        if len(value) > self.n:
            raise ValidationError(f"At most {self.n} entries.")
        if any(len(key) > MAX_KEY_LENGTH for key in value):
            raise ValidationError(f"Keys are at most {MAX_KEY_LENGTH} characters.")
        return value


def bounded_dict(**kwargs: Any) -> fields.Dict:
    """A JSON object field with short keys and at most ``MAX_ENTRIES`` of them."""
    metadata = {"maxProperties": MAX_ENTRIES, **kwargs.pop("metadata", {})}
    return fields.Dict(validate=MaxEntries(), metadata=metadata, **kwargs)


PARTY_KINDS = ["seat", "pool", "club"]


class PartySchema(Schema):
    """A party of a transfer or a net (``rules.base.party_object``)."""

    class Meta:
        description = (
            "Who pays (`from_party`), who is paid (`to_party`), or whose net it is (`holder`): "
            "a seat, the table's pool, or the club a table fee goes to. Each replaces the bare "
            "value beside it, deprecated (`from`, `to`, `party`: a seat as an integer, `pool`, "
            "or `club`; docs/api.md)."
        )

    kind = fields.String(
        required=True,
        validate=validate.OneOf(PARTY_KINDS),
        metadata={"description": "A `seat`, the table's `pool`, or the `club` (a table fee)."},
    )
    seat = fields.Integer(
        required=True,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={"description": "The seat (from 0) when `kind` is `seat`; null otherwise."},
    )


class PartyField(fields.Nested):
    """A party as its object (``PartySchema``), made from the bare value at ``source``
    (``from``, ``to``, ``party``): what every answer shows beside the deprecated bare one.
    Always in an answer (``api/openapi.py`` lists it as required there); optional when a
    schema is loaded (a club's export made before it existed lacks it in its money)."""

    def __init__(self, source: str) -> None:
        # No description beside the reference: openapi-generator's `python` and `java` warn
        # of each ("Failed to get the schema name"); `Party` says what each one is.
        super().__init__(PartySchema, metadata={"x-required": True})
        self.source = source

    def serialize(self, attr: str, obj: Any, accessor: Any = None, **kwargs: Any) -> Any:
        value = obj.get(self.source) if isinstance(obj, dict) else getattr(obj, self.source)
        return None if value is None else party_object(value)


DEPRECATED_PARTY: dict[str, Any] = {"deprecated": True}
"""The metadata of a bare party (``from``, ``to``, ``party``: a seat, ``pool`` or ``club``):
deprecated, and untyped in the document (``2 | "pool"`` is what some generators cannot
deserialize). ``Party``, the object beside each, says what it was and which replaces it,
once for the ten of them."""


class TransferSchema(Schema):
    from_ = fields.Raw(data_key="from", attribute="from", required=True, metadata=DEPRECATED_PARTY)
    to = fields.Raw(required=True, metadata=DEPRECATED_PARTY)
    chips = fields.Integer(required=True, validate=validate.Range(min=1))
    reason = fields.String(
        required=True, validate=validate.OneOf(["stake", "game", "stamm", "bete"])
    )
    # Last, in the order ``rules.base.with_parties`` adds them (the fast answers' bytes).
    from_party = PartyField("from")
    to_party = PartyField("to")


class BeforeAfterIntSchema(Schema):
    before = fields.Integer(required=True)
    after = fields.Integer(required=True)


class BeforeAfterSuitSchema(Schema):
    before = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(SUITS),
        metadata={
            "description": "null: no suit was preferred yet (German "
            "Solo's `preferred_suit: first_won`)."
        },
    )
    after = fields.String(required=True, validate=validate.OneOf(SUITS))


class Explanation(fields.List):  # type: ignore[type-arg]
    """A list of lines; dumped from a settlement's steps, worded in the request's language."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(fields.String(), **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else explain(value, current_language())


class SettlementSchema(Schema):
    result = fields.String(
        allow_none=True,
        required=True,
        validate=validate.OneOf(["won", "lost", "drawn"]),
        metadata={"description": "From the declaring side's view; null for a forfeit or misdeal."},
    )
    in_couleur = fields.Boolean(allow_none=True, required=True)
    value = fields.Integer(
        allow_none=True, required=True, metadata={"description": "Chips (or points) per payment."}
    )
    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    deltas = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Net change per seat (chips or points)."},
    )
    pool = fields.Nested(BeforeAfterIntSchema, allow_none=True, required=True)
    couleur = fields.Nested(BeforeAfterSuitSchema, allow_none=True, required=True)
    next_dealer = fields.Integer(required=True)
    explanation = Explanation(
        required=True,
        metadata={
            "description": "One plain line per step, in the answer's language (`Content-Language`, "
            "chosen by `Accept-Language`: en, de or es)."
        },
    )


def seat_names_field() -> fields.List:  # type: ignore[type-arg]  # a field factory
    """The preview's ``names``: what its explanation calls each seat."""
    from .clubs import Name

    return fields.List(
        Name(),
        # No load_default: a default in the document (null) makes generators such as
        # openapi-typescript type the member as required; left out, the view reads None.
        allow_none=True,
        validate=validate.Length(min=3, max=5),
        metadata={
            "description": "The players' names in seat order, one for each of `players`: the "
            "explanation calls each seat by its name. Left out, it numbers them from 1 and says "
            'the count ("seat 1 of 4" is the seat `0` of the transfers).'
        },
    )


class PreviewRequestSchema(Schema):
    variant = fields.String(
        required=True,
        validate=validate.Length(max=32),
        metadata={"description": "See `GET /api/v1/variants`.", "example": "american"},
    )
    players = fields.Integer(required=True, strict=True, validate=validate.Range(min=3, max=5))
    options = bounded_dict(
        load_default=None,
        allow_none=True,
        metadata={"description": "The variant's options; omitted ones take their defaults."},
    )
    state = bounded_dict(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The table state before the hand; omitted keys are a fresh table's."
        },
    )
    hand = bounded_dict(
        required=True,
        metadata={
            "description": "A hand record of the variant (see the "
            "contract and `GET /api/v1/variants`)."
        },
    )
    names = seat_names_field()
