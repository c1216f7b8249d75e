"""Clubs and players."""

import re
from typing import Any

from babel.numbers import is_currency, list_currencies
from marshmallow import Schema, ValidationError, fields, validate

from ..i18n.marks import N_
from ..persistence.columns import NAME_MAX

# The characters a name may not be made of only: Python's whitespace (``str.isspace``: the
# ASCII ones, U+001C-U+001F, U+0085, U+00A0, the Unicode spaces and line separators) and
# ECMAScript's ``\s``, which a JSON Schema ``pattern`` means (the same, and U+FEFF). Written
# as one class of ``\uXXXX`` escapes, which both regex dialects read alike, so the document's
# pattern and the service's check are the same set (tests/api/test_numbers_and_names.py).
BLANKS = (
    r"\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f"
    r"\u3000\ufeff"
)
NOT_BLANK = f"[^{BLANKS}]"
CURRENCIES = sorted(code for code in list_currencies() if len(code) == 3 and code.isupper())
"""The ISO 4217 codes the service takes: those Babel's CLDR data knows (``IsCurrency``), in the
document as the enum ``CurrencyCode``."""


# Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: a name is
# one line of text as typed, and these are what a pasted or forged one carries (a tab, a CR, a
# line feed) that no list, sheet or CSV shows as typed. Refused, not normalised: the client
# learns that it sent them, and what is stored is what was sent.
CONTROLS = r"\u0000-\u001f\u007f-\u009f\u2028\u2029"
NO_CONTROL = f"[^{CONTROLS}]"
# A name as the document says it: no control character, and one character that is neither
# blank nor a control. Read alike by Python's ``re`` (whole string) and by ECMAScript.
NAME_PATTERN = f"^{NO_CONTROL}*[^{BLANKS}{CONTROLS}]{NO_CONTROL}*$"


class NameCheck(validate.Regexp):
    """A name: not blank (``NOT_BLANK`` searched for) and free of control characters, each
    with its own message; the document shows both as one ``pattern``, ``NAME_PATTERN``
    (marshmallow's ``Regexp`` would match at the start only, and Python's ``$`` lets a final
    line feed through: so the two checks are made here, the same sets of characters)."""

    def __init__(self) -> None:
        super().__init__(NAME_PATTERN)

    def __call__(self, value: str) -> str:  # type: ignore[override]
        if re.search(NOT_BLANK, value) is None:
            raise ValidationError(N_("Must not be blank."))
        if re.search(f"[{CONTROLS}]", value) is not None:
            raise ValidationError(
                N_("Must not contain control characters (a tab, a line break …).")
            )
        return value


def Name(
    most: int = NAME_MAX, component: str = "Name", **kwargs: Any
) -> fields.String:  # a field factory, named as the field it makes
    """A name (required unless ``kwargs`` say otherwise) of 1 to ``most`` characters, checked by
    ``NameCheck``: in the document a reference to the one component ``component`` of its
    bounds and ``NAME_PATTERN`` (a club's name, an entrant's club …), its words beside the
    reference; a text of other bounds (``Contact``) is a component of its own."""
    metadata = {"schema_component": component, **kwargs.pop("metadata", {})}
    return fields.String(
        **{"required": True, **kwargs},
        validate=[validate.Length(min=1, max=most), NameCheck()],
        metadata=metadata,
    )


class IsCurrency(validate.Validator):
    """An ISO 4217 code that Babel's CLDR data knows (``EUR``, ``CHF``, ``JPY`` …)."""

    def __call__(self, value: str) -> str:
        if not (len(value) == 3 and value.isupper() and is_currency(value)):
            raise ValidationError(N_("Must be an ISO 4217 currency code, such as EUR."))
        return value


def Currency(what: str, **kwargs: Any) -> fields.String:  # a field factory
    """An ISO 4217 code field; ``what`` is its description. What a currency code is, and how
    amounts in it are written, is ``CurrencyCode``'s description, once for every field."""
    return fields.String(
        validate=[validate.Length(equal=3), IsCurrency()],
        metadata={
            "description": f"{what}.",
            "component_description": "An ISO 4217 currency code; amounts in it are integers "
            "in its minor unit (cents; whole units for a currency without one, such as JPY).",
            "enum": CURRENCIES,
            "enum_component": "CurrencyCode",
            "example": "EUR",
        },
        **kwargs,
    )


class ClubCreateSchema(Schema):
    name = Name()
    currency = Currency("The currency of the club's table rates", load_default="EUR")


class ClubUpdateSchema(Schema):
    currency = Currency("The currency new table rates are in by default", required=True)


class ClubSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(
        required=True,
        metadata={"description": "The currency (ISO 4217) a table's rate is in by default."},
    )
    created_at = fields.String(required=True, metadata={"format": "date-time"})


class ClubCreatedSchema(ClubSchema):
    admin_token = fields.String(
        required=True,
        metadata={"description": "The club's admin token. Shown this once only; store it safely."},
    )


class PlayerCreateSchema(Schema):
    name = Name()


class PlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    retired = fields.Boolean(
        required=True,
        metadata={"description": "A retired player keeps his history; new tables cannot seat him."},
    )
    retired_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
