"""The one JSON encoder (``service/json_text.py``): its canonical text is byte for byte the
standard library's, which earlier versions stored (idempotency fingerprints, a hand's request
hash); its answers read back as the value given; Flask writes through it
(``service/json_provider.py``)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from service import create_app, json_provider, json_text
from service.services import idempotency

# Text with surrogates (a JSON body may carry "\ud800"), and floats of every form.
_texts = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | _texts
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_texts, inner, max_size=4),
    max_leaves=20,
)


def _old_canonical(value: Any) -> str:
    """What every canonical text was before the one encoder."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _outcome(write: Any, value: Any) -> tuple[str, Any]:
    try:
        return "text", write(value)
    except Exception as error:  # the same failure is part of being the same
        return "error", type(error).__name__


@given(_values)
@example(1.5e-7)
@example({"a": math.nan, "b": None})
@example([2**64, 1e16, 1e-5, 5e-324, -0.0])
@example({"é": 1, "e": 2, "\U0001f600": 3, "\uffff": 4, "Z": "\x00\x1f\x7f\u2028"})
@example("\ud800")
def test_canonical_text_is_the_standard_librarys(value: Any) -> None:
    assert _outcome(json_text.canonical_text, value) == _outcome(_old_canonical, value)


def test_canonical_text_refuses_what_the_standard_library_refused() -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    for value in (datetime(2026, 1, 1, tzinfo=UTC), Point(1), {1: "a", "b": 2}):
        assert _outcome(json_text.canonical_text, value) == _outcome(_old_canonical, value)


def _old_fingerprint(method: str, path: str, body: bytes) -> str:
    """``idempotency.fingerprint`` as it was written before the one encoder (stored rows)."""
    try:
        canonical = _old_canonical(json.loads(body or b"null")).encode()
    except (ValueError, RecursionError):
        canonical = body
    digest = hashlib.sha256(f"{method} {path}\n".encode())
    digest.update(canonical)
    return digest.hexdigest()


@given(_values)
@example(None)
def test_a_fingerprint_stored_before_still_matches(value: Any) -> None:
    try:
        body = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except ValueError:
        return
    path = "/tables/t1/hands"
    assert idempotency.fingerprint("POST", path, body) == _old_fingerprint("POST", path, body)


def test_fingerprints_of_bodies_that_are_not_json_or_hold_constants() -> None:
    for body in (b"", b"{", b'{"a": NaN}', b"[Infinity, -Infinity]", b'"\\ud800"', b"\xff"):
        assert idempotency.fingerprint("PUT", "/x", body) == _old_fingerprint("PUT", "/x", body)


_finite = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_texts, inner, max_size=4),
    max_leaves=20,
)


@given(_finite)
@example({"options": -(2**63) - 1, "name": "\ud800"})
def test_an_answer_reads_back_as_the_value(value: Any) -> None:
    """Whatever a client sent and an answer echoes (integers beyond 64 bits, lone
    surrogates included) is written, and reads back as it was."""
    assert json.loads(json_text.answer_bytes(value)) == value


def test_answers_write_what_flask_wrote_for_the_types_json_lacks() -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    moment = datetime(2026, 12, 6, 22, 0, tzinfo=UTC)
    value = {"at": moment, "amount": Decimal("1.50"), "point": Point(2), 3: "three"}
    assert json.loads(json_text.answer_bytes(value)) == {
        "at": "Sun, 06 Dec 2026 22:00:00 GMT",
        "amount": "1.50",
        "point": {"x": 2},
        "3": "three",
    }


def test_flask_writes_its_json_through_the_encoder() -> None:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with app.app_context():
        response = app.json.response({"b": "Grüße", "a": [1, 2]})
        assert isinstance(app.json, json_provider.OrjsonProvider)
        assert response.get_data() == '{"b":"Grüße","a":[1,2]}\n'.encode()
        assert response.mimetype == "application/json"
        assert app.json.dumps({"b": 1, "a": 2}, separators=(", ", ": ")) == '{"b":1,"a":2}'
        assert app.json.loads('{"a": 1}') == {"a": 1}
