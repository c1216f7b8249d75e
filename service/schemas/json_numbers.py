"""How the API reads numbers in JSON bodies: a whole number is an integer, however it is
written. JSON Schema (2020-12, which the OpenAPI 3.1 document uses) says ``3.0`` is an
``integer``, so the document already promises it; every parser of a request body reads with
``loads`` (the views' webargs parser, the fast previews, the import), so ``{"tricks": 6.0}``
is ``{"tricks": 6}`` everywhere, and only a number with a fraction (``6.5``) is refused as
not whole."""

from __future__ import annotations

import json
from typing import Any

WHOLE_MAX = 2**63
"""Whole floats beyond this (``1e300``) stay floats: the fields' bounds refuse them as they
are, without making a 300-digit integer first."""


def whole_or_fraction(text: str) -> int | float:
    """``json.loads``'s ``parse_float``: ``6.0`` and ``6e0`` as the integer 6."""
    value = float(text)
    if value.is_integer() and abs(value) < WHOLE_MAX:
        return int(value)
    return value


def loads(data: str | bytes) -> Any:
    """``json.loads``, whole numbers read as integers."""
    return json.loads(data, parse_float=whole_or_fraction)
