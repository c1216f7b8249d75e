"""The stateless preview endpoint, errors as problem details, and the served documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import as_shown

EXAMPLES = json.loads((Path(__file__).parents[1] / "data" / "settlements.json").read_text())
URL = "/api/v1/settlements/preview"


def _body(example: dict) -> dict:
    return {
        "variant": example["variant"],
        "players": example["players"],
        "options": example.get("options") or {},
        "state": example.get("state") or {},
        "hand": example["hand"],
    }


@pytest.mark.parametrize("example", EXAMPLES["hands"], ids=lambda e: e["name"])
def test_every_worked_example_is_reproduced_by_the_endpoint(client, example):
    response = client.post(URL, json=_body(example))
    assert response.status_code == 200, response.json
    for key, expected in example["expected"].items():
        assert response.json[key] == as_shown(key, expected), key
    assert response.json["explanation"] and all(
        isinstance(line, str) for line in response.json["explanation"]
    )


@pytest.mark.parametrize("sequence", EXAMPLES["tables"], ids=lambda t: t["name"])
def test_table_sequences_replay_hand_by_hand_through_the_endpoint(client, sequence):
    state = {"dealer": sequence["first_dealer"]}
    balances = [0] * sequence["players"]
    for hand, expected in zip(sequence["hands"], sequence["expected"]["settlements"], strict=True):
        response = client.post(
            URL,
            json={
                "variant": sequence["variant"],
                "players": sequence["players"],
                "options": sequence["options"],
                "state": state,
                "hand": hand,
            },
        )
        assert response.status_code == 200, response.json
        got = response.json
        for key, value in expected.items():
            assert got[key] == as_shown(key, value), key
        balances = [b + d for b, d in zip(balances, got["deltas"], strict=True)]
        redeal = hand.get("kind") in ("forfeit", "misdeal")
        state = {
            "pool": got["pool"]["after"],
            "couleur": got["couleur"]["after"],
            "dealer": got["next_dealer"],
            "stake_due": not redeal,
            "first_game_won": _first_won(state, got),
        }
    assert balances == sequence["expected"]["balances"]
    assert state["pool"] == sequence["expected"]["pool"]
    assert state["couleur"] == sequence["expected"]["couleur"]
    assert state["dealer"] == sequence["expected"]["dealer"]


def _first_won(state: dict, settlement: dict) -> bool:
    """The table remembers whether a declaring side has won a game yet."""
    return bool(state.get("first_game_won")) or settlement["result"] == "won"


def test_malformed_json_is_a_400_problem(client):
    response = client.post(URL, data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.content_type == "application/problem+json"
    assert response.json["status"] == 400


def test_a_rule_violation_is_a_422_naming_the_field(client):
    body = {
        "variant": "american",
        "players": 4,
        "hand": {
            "contract": "solo",
            "trump": "clubs",
            "declarer": 1,
            "tricks": 6,
            "called": {"rank": "ace", "suit": "hearts"},
            "partner": 2,
        },
    }
    response = client.post(URL, json=body)
    assert response.status_code == 422
    assert response.content_type == "application/problem+json"
    assert any(field.startswith("hand.") for field in response.json["errors"])


def test_a_wrong_type_is_a_422_naming_the_field(client):
    response = client.post(URL, json={"variant": "american", "players": "four", "hand": {}})
    assert response.status_code == 422
    assert "players" in response.json["errors"]


def test_tricks_out_of_range_names_hand_tricks(client):
    body = {
        "variant": "american",
        "players": 4,
        "hand": {"contract": "solo", "trump": "clubs", "declarer": 1, "tricks": 9},
    }
    response = client.post(URL, json=body)
    assert response.status_code == 422
    assert list(response.json["errors"]) == ["hand.tricks"]


def test_an_unknown_variant_is_a_422_naming_variant(client):
    response = client.post(URL, json={"variant": "bridge", "players": 4, "hand": {}})
    assert response.status_code == 422
    assert "variant" in response.json["errors"]


def test_an_oversized_body_is_a_413_problem(client):
    body = json.dumps({"variant": "american", "players": 4, "hand": {"x": "y" * 70_000}})
    response = client.post(URL, data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.content_type == "application/problem+json"


def test_unknown_paths_and_methods_are_problems(client):
    assert client.get("/api/v1/nothing").content_type == "application/problem+json"
    response = client.get(URL)
    assert response.status_code == 405
    assert response.content_type == "application/problem+json"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
hand_keys = st.sampled_from(
    [
        "kind",
        "contract",
        "trump",
        "declarer",
        "partner",
        "called",
        "tricks",
        "tout_after_five",
        "matadores",
        "errors",
        "seat",
    ]
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # preview stores nothing
@given(
    variant=st.sampled_from(["american", "spanish", "german", "solo66", "x"]) | json_values,
    players=st.integers(-2, 7) | json_values,
    state=json_values,
    options=json_values,
    hand=st.dictionaries(hand_keys, json_values, max_size=8) | json_values,
)
def test_no_body_a_client_can_send_gives_a_server_error(
    client, variant, players, state, options, hand
):
    body = {
        "variant": variant,
        "players": players,
        "state": state,
        "options": options,
        "hand": hand,
    }
    response = client.post(URL, json=body)
    assert response.status_code in (200, 422), response.json
    if response.status_code == 422:
        assert response.content_type == "application/problem+json"
        assert response.json["errors"]


def test_healthz_answers_and_readyz_checks_the_database_the_migrations_and_the_feed(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json["status"] == "ok"
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.json
    assert ready.json["status"] == "ready"
    assert set(ready.json["checks"]) == {"database", "migrations", "feed"}
    assert all(check["ok"] for check in ready.json["checks"].values()), ready.json


def test_the_docs_page_is_served_without_a_cdn(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "/docs/assets/swagger-ui-bundle.js" in html
    assert "//cdn" not in html and "unpkg" not in html
    with client.get("/docs/assets/swagger-ui-bundle.js") as asset:
        assert asset.status_code == 200


def test_the_openapi_document_is_served_as_json_and_yaml(client):
    as_json = client.get("/openapi.json").json
    as_yaml = yaml.safe_load(client.get("/openapi.yaml").get_data(as_text=True))
    assert as_json["openapi"].startswith("3.1")
    assert as_json == as_yaml


def test_openapi_yaml_in_the_repository_matches_the_code(client):
    committed = (Path(__file__).parents[2] / "openapi.yaml").read_text()
    served = client.get("/openapi.yaml").get_data(as_text=True)
    assert committed == served, "openapi.yaml drifted from the code: run `make openapi`"


def test_an_unexpected_exception_is_a_500_problem_that_hides_the_details(client, monkeypatch):
    from service import rules

    def broken(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(rules, "preview", broken)
    response = client.post(URL, json={"variant": "american", "players": 4, "hand": {}})
    assert response.status_code == 500
    assert response.content_type == "application/problem+json"
    assert "secret" not in response.get_data(as_text=True)
