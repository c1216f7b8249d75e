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


PARSED_BODY = "solo.parsed_json_body"
"""The WSGI environ's key of a request's JSON body as the body's guard read it
(``middleware.limits``, with ``loads``), for the views' parser to take once instead of reading
the body a second time (``api.paging.WholeNumbersParser``)."""


def utf8_text(data: bytes) -> str | None:
    """``data`` as the text that ``json.loads`` reads from these bytes, when it reads them as
    UTF-8 (no byte-order mark, no NUL in the first two bytes, valid UTF-8), which is how the
    views' parser reads a body; else None."""
    if (
        data[:3] == b"\xef\xbb\xbf"
        or not data[:1]
        or not data[0]
        or (len(data) > 1 and not data[1])
    ):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
