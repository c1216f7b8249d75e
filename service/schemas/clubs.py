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
# What the document says of a name: a character that is not blank, and no NUL anywhere (which
# the service refuses in every body, ``middleware/limits.py``). Anchored, as it speaks of the
# whole string; the service checks each half on its own (``HoldsNonBlank``, the NUL check).
NAME_PATTERN = f"^[^\\u0000]*[^{BLANKS}\\u0000][^\\u0000]*$"

CURRENCIES = sorted(code for code in list_currencies() if len(code) == 3 and code.isupper())
"""The ISO 4217 codes the service takes: those Babel's CLDR data knows (``IsCurrency``), in the
document as the enum ``CurrencyCode``."""


class HoldsNonBlank(validate.Regexp):
    """Somewhere in the string, a character that is not blank (``NOT_BLANK``): searched for,
    as a JSON Schema ``pattern`` is (marshmallow's ``Regexp`` matches at the start only)."""

    def __call__(self, value: str) -> str:  # type: ignore[override]
        if re.search(NOT_BLANK, value) is None:
            raise ValidationError(self._format_error(value))
        return value


def Name() -> fields.String:  # a field factory, named as the field it makes
    return fields.String(
        required=True,
        validate=[
            validate.Length(min=1, max=NAME_MAX),
            HoldsNonBlank(NOT_BLANK, error=N_("Must not be blank.")),
        ],
        metadata={"pattern": NAME_PATTERN},
    )


class IsCurrency(validate.Validator):
    """An ISO 4217 code that Babel's CLDR data knows (``EUR``, ``CHF``, ``JPY`` …)."""

    def __call__(self, value: str) -> str:
        if not (len(value) == 3 and value.isupper() and is_currency(value)):
            raise ValidationError(N_("Must be an ISO 4217 currency code, such as EUR."))
        return value


def Currency(what: str, **kwargs: Any) -> fields.String:  # a field factory
    """An ISO 4217 code field; ``what`` begins its description."""
    return fields.String(
        validate=[validate.Length(equal=3), IsCurrency()],
        metadata={
            "description": f"{what} (ISO 4217); amounts in it are integers in its minor unit "
            "(cents; whole units for a currency without one, such as JPY).",
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
