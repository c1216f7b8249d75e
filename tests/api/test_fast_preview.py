"""Previews answered before Flask (service/middleware/fast_preview.py): Flask's own 200 for the
requests it can answer, and every other request reaches Flask with its body intact."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.middleware.fast_preview import PREVIEW_PATH, FastPreview
from tests.support import make_app, wsgi_layer

EXAMPLES = json.loads((Path(__file__).parents[1] / "data" / "settlements.json").read_text())
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
GOOD = {"variant": "american", "players": 4, "hand": SOLO}
VARYING = {"x-request-id", "date"}
JSON = "application/json"
DEEP = json.loads("[" * 40 + "]" * 40)


def fast_preview_of(app: Flask) -> FastPreview:
    return wsgi_layer(app, FastPreview)


@pytest.fixture(scope="module")
def twin(app: Flask) -> Iterator[Flask]:
    """The same service with the fast preview off."""
    yield make_app(
        {
            "TESTING": True,
            "FAST_PREVIEW": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        }
    )


@pytest.fixture
def flask_calls(app: Flask) -> Iterator[list[bytes]]:
    """The bodies of the previews that got past the fast path to Flask."""
    fast = fast_preview_of(app)
    inner = fast.app
    seen: list[bytes] = []

    def counted(environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO") == PREVIEW_PATH:
            seen.append(environ["wsgi.input"].read())
            environ["wsgi.input"].seek(0)
        return inner(environ, start_response)

    fast.app = counted
    yield seen
    fast.app = inner


def answer(
    client: Any, data: bytes | str, content_type: str | None = JSON, **headers: str
) -> tuple[Any, ...]:
    response = client.post(PREVIEW_PATH, data=data, content_type=content_type, headers=headers)
    kept = sorted((k.lower(), v) for k, v in response.headers.items() if k.lower() not in VARYING)
    return response.status_code, kept, response.data


def _body(example: dict) -> dict:
    return {
        "variant": example["variant"],
        "players": example["players"],
        "options": example.get("options") or {},
        "state": example.get("state") or {},
        "hand": example["hand"],
    }


def test_a_twin_without_the_fast_preview_has_none(twin: Flask) -> None:
    with pytest.raises(AttributeError):
        fast_preview_of(twin)


@pytest.mark.parametrize("example", EXAMPLES["hands"], ids=lambda e: e["name"])
def test_every_worked_example_is_answered_here_as_flask_answers_it(
    app: Flask, twin: Flask, example: dict, flask_calls: list[bytes]
) -> None:
    data = json.dumps(_body(example))
    fast = answer(app.test_client(), data)
    assert fast == answer(twin.test_client(), data)
    assert fast[0] == 200 and flask_calls == []


NOT_HERE = [
    pytest.param(b"{not json", JSON, {}, id="not JSON"),
    pytest.param(b"", JSON, {}, id="empty"),
    pytest.param(b"[1, 2]", JSON, {}, id="an array"),
    pytest.param(json.dumps({**GOOD, "extra": 1}), JSON, {}, id="an unknown field"),
    pytest.param(json.dumps({**GOOD, "players": 9}), JSON, {}, id="a bad field"),
    pytest.param(json.dumps({**GOOD, "players": "4"}), JSON, {}, id="a string number"),
    pytest.param(json.dumps({**GOOD, "variant": "bridge"}), JSON, {}, id="an unknown variant"),
    pytest.param(json.dumps({**GOOD, "hand": {**SOLO, "tricks": 9}}), JSON, {}, id="a broken rule"),
    pytest.param(
        json.dumps({**GOOD, "hand": {**SOLO, "trump": "he\u0000arts"}}), JSON, {}, id="a NUL"
    ),
    pytest.param(json.dumps({**GOOD, "state": {"x": DEEP}}), JSON, {}, id="too deep"),
    pytest.param(
        '{"variant": "american", "players": ' + "9" * 5000 + ', "hand": {}}',
        JSON,
        {},
        id="a huge number",
    ),
    pytest.param(json.dumps(GOOD).encode("utf-16"), JSON, {}, id="UTF-16"),
    pytest.param(b"\xef\xbb\xbf" + json.dumps(GOOD).encode(), JSON, {}, id="a BOM"),
    pytest.param(json.dumps(GOOD), "text/plain", {}, id="not said to be JSON"),
    pytest.param(json.dumps(GOOD), "application/problem+json", {}, id="another JSON type"),
    pytest.param(json.dumps(GOOD), JSON, {"Authorization": "Bearer x"}, id="a token"),
    pytest.param(
        json.dumps(GOOD), JSON, {"Origin": "https://elsewhere.example"}, id="cross-origin"
    ),
    pytest.param(json.dumps({**GOOD, "state": {"pad": "x" * 70_000}}), JSON, {}, id="over 64 KiB"),
]


@pytest.mark.parametrize("data, content_type, headers", NOT_HERE)
def test_anything_else_reaches_flask_whole_and_gets_its_answer(
    app: Flask,
    twin: Flask,
    data: Any,
    content_type: str,
    headers: dict[str, str],
    flask_calls: list[bytes],
) -> None:
    fast = answer(app.test_client(), data, content_type, **headers)
    assert fast == answer(twin.test_client(), data, content_type, **headers)
    if fast[0] != 413:
        raw = data.encode() if isinstance(data, str) else data
        assert flask_calls == [raw]  # the whole body, as sent


def test_a_query_string_or_another_method_reaches_flask(
    app: Flask, twin: Flask, flask_calls: list[bytes]
) -> None:
    for client in (app.test_client(), twin.test_client()):
        assert client.post(PREVIEW_PATH + "?x=1", json=GOOD).status_code == 200
        assert client.get(PREVIEW_PATH).status_code == 405
    assert len(flask_calls) == 2


HANDS = st.fixed_dictionaries(
    {
        "contract": st.sampled_from(["solo", "simple", "tout", "misere", "nonsense"]),
        "trump": st.sampled_from(["clubs", "spades", "hearts", "diamonds"]),
        "declarer": st.integers(-1, 5),
        "tricks": st.integers(-1, 9),
    },
    optional={"partner": st.integers(0, 4), "matadores": st.integers(0, 9)},
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hand=HANDS, players=st.integers(2, 6))
def test_any_hand_gets_the_same_answer_both_ways(
    app: Flask, twin: Flask, hand: dict, players: int
) -> None:
    data = json.dumps({"variant": "american", "players": players, "hand": hand})
    assert answer(app.test_client(), data) == answer(twin.test_client(), data)
