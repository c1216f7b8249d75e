"""How the service writes JSON: one encoder (orjson) for its answers, its stored columns and
the canonical texts it hashes. Reading stays with the standard library (``json.loads``, or
``schemas/json_numbers.loads`` for request bodies): it is not where the time went.

- ``answer_bytes``: an answer's body (compact, UTF-8, the contract's key order). Flask's
  views write it through ``json_provider.OrjsonProvider``, and so do the answers made before
  Flask (``middleware/early.py``), the streams' frames and the problem documents.
- ``stored_text``: a JSON column's text (``database.py`` gives it to SQLAlchemy).
- ``canonical_text``: sorted keys, compact, UTF-8. What is hashed and compared across
  versions (idempotency fingerprints, a hand's request hash, webhook bodies): it is byte for
  byte what ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
  gave, which the stored fingerprints of earlier versions were made from.
"""

from __future__ import annotations

import dataclasses
import decimal
import json
import re
import uuid
from datetime import date
from typing import Any

import orjson
from werkzeug.http import http_date

_ANSWER = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
_CANONICAL = (
    orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)

# Where orjson's text may differ from the standard library's: a float (orjson writes
# ``0.00001`` for ``1e-05`` and ``1e-7`` for ``1e-07``), and ``null``, which orjson also
# writes for NaN and the infinities (the standard library writes ``NaN``). Text that may hold
# either (a digit before ``.`` or ``e``, even inside a string) is written again by the
# standard library: exact, and no slower than before.
_MAY_DIFFER = re.compile(rb"null|[0-9][.eE]")


def _flask_default(value: Any) -> Any:
    """What Flask's own provider writes for the types JSON lacks (its ``_default``)."""
    if isinstance(value, date):
        return http_date(value)
    if isinstance(value, (decimal.Decimal, uuid.UUID)):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if hasattr(value, "__html__"):
        return str(value.__html__())
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def answer_bytes(value: Any) -> bytes:
    """An answer's body: compact UTF-8 JSON, keys in the order given. What orjson cannot
    write (an integer beyond 64 bits, a string with a lone surrogate: a client's echoed
    input) the standard library writes, as Flask did (in ASCII, the surrogate escaped)."""
    try:
        return orjson.dumps(value, default=_flask_default, option=_ANSWER)
    except TypeError:
        text = json.dumps(value, default=_flask_default, separators=(",", ":"))
        return text.encode()


def answer_text(value: Any) -> str:
    """``answer_bytes`` as text (a stream's frame, a page's data attribute)."""
    return answer_bytes(value).decode()


def stored_text(value: Any) -> str:
    """A JSON column's value as the text stored: read back the same by any JSON reader (UTF-8
    rather than ``\\u`` escapes; keys that are not strings written as strings, as
    ``json.dumps`` writes them)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def canonical_text(value: Any) -> str:
    """``value`` with sorted keys, compact, in UTF-8: byte for byte the standard library's
    ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``, errors
    included (see the module docstring), mostly at orjson's speed."""
    try:
        text = orjson.dumps(value, option=_CANONICAL)
    except (orjson.JSONEncodeError, TypeError):  # > 64 bits, a lone surrogate, a date …
        return _standard_canonical(value)
    if _MAY_DIFFER.search(text):
        return _standard_canonical(value)
    return text.decode()


def _standard_canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
