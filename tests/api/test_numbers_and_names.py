"""Numbers and names as the document says them: a whole number (``6.0``) is an integer
everywhere (schemas/json_numbers.py), a fraction is refused as one; a name made of blanks only
is refused by the service exactly when the document's ``pattern`` refuses it (the same set of
blanks, Python's and ECMAScript's); ``PATCH /players/{id}`` needs a member (``minProperties``).
"""

from __future__ import annotations

import re
from typing import Any

import jsonschema_rs
import pytest

from service.schemas.clubs import NAME_PATTERN, NOT_BLANK
from tests.support import inlined

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
# Every blank either dialect knows: Python's str.isspace and ECMAScript's \s (U+FEFF).
BLANKS = [chr(c) for c in range(0x110000) if chr(c).isspace()] + ["\ufeff"]


def test_whole_numbers_are_integers_everywhere(api, client):
    table = api.table()
    recorded = api.record(table, {**SOLO, "declarer": 1.0, "tricks": 6.0})
    assert recorded.status_code == 201, recorded.json
    hand = client.get(
        f"/api/v1/tables/{table['id']}/hands/1", headers=api.auth(table["table_token"])
    ).json
    assert hand["hand"]["tricks"] == 6 and type(hand["hand"]["tricks"]) is int
    club = api.club()
    seats = api.players(club, 4)
    opened = client.post(
        "/api/v1/tables",
        json={
            "club_id": club["id"],
            "name": "T",
            "variant": "german",
            "seats": seats,
            "first_dealer": 2.0,
        },
        headers=api.auth(club["admin_token"]),
    )
    assert opened.status_code == 201, opened.json
    for variant in ("american", "spanish", "german"):
        preview = client.post(
            "/api/v1/settlements/preview",
            json={
                "variant": variant,
                "players": 4.0,
                "state": {"dealer": 0.0},
                "hand": {**SOLO, "tricks": 6e0},
            },
        )
        assert preview.status_code == 200, (variant, preview.json)


@pytest.mark.parametrize("tricks", [6.5, 1e300, float("-0.5")])
def test_a_fraction_is_refused_as_one(api, tricks):
    table = api.table()
    answer = api.record(table, {**SOLO, "tricks": tricks})
    assert answer.status_code == 422
    assert list(answer.json["errors"]) == ["hand.tricks"]
    if tricks == 6.5:
        assert "fraction" in answer.json["errors"]["hand.tricks"][0]


def _name_property(document: dict[str, Any]) -> dict[str, Any]:
    """A club's ``name`` as the document says it: the shared ``Name`` it refers to, with the
    words beside the reference."""
    said = dict(document["components"]["schemas"]["ClubCreate"]["properties"]["name"])
    target = said.pop("$ref", None)
    if target is None:
        return said
    return {**document["components"]["schemas"][target.rsplit("/", 1)[1]], **said}


def _name_schema(document: dict[str, Any]) -> Any:
    return jsonschema_rs.validator_for(_name_property(document))


@pytest.fixture(scope="module")
def document(app) -> dict[str, Any]:
    return inlined(app.test_client().get("/openapi.json").json)


def test_the_document_and_the_service_agree_on_blank_names(client, document):
    assert _name_property(document)["pattern"] == NAME_PATTERN
    schema = _name_schema(document)
    for blank in BLANKS:
        for name in (blank, blank * 3):
            assert not schema.is_valid(name), hex(ord(blank))
            answer = client.post("/api/v1/clubs", json={"name": name})
            assert answer.status_code == 422, hex(ord(blank))
            assert list(answer.json["errors"]) == ["name"]
        control = blank in CONTROL_CHARACTERS
        for name in (f"{blank}Ann", f"Ann{blank}Lee"):
            assert schema.is_valid(name) is not control, hex(ord(blank))
            answer = client.post("/api/v1/clubs", json={"name": name})
            assert answer.status_code == (422 if control else 201), hex(ord(blank))
    assert re.search(NOT_BLANK, "\u200b")  # a zero-width space is no blank in either dialect


# Every character a name may not hold: C0, DEL, C1, and the line and paragraph separators.
CONTROL_CHARACTERS = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]}


def test_control_characters_in_names_are_refused_naming_the_field(api, client, document):
    """Tab, CR, line feed and every other control character: refused where a name is taken
    (a club, a player, a table), the field named, nothing stored; the document agrees."""
    schema = _name_schema(document)
    club = api.club()
    admin = api.auth(club["admin_token"])
    for control in sorted(CONTROL_CHARACTERS):
        name = f"Anna{control}Berger"
        assert not schema.is_valid(name), hex(ord(control))
        answer = client.post("/api/v1/clubs", json={"name": name})
        assert answer.status_code == 422, hex(ord(control))
        # (NUL is the body guard's to refuse, before any schema, in words of its own.)
        message = "control characters (a tab" if control != "\x00" else "NUL character"
        assert list(answer.json["errors"]) == ["name"], hex(ord(control))
        assert message in answer.json["errors"]["name"][0], hex(ord(control))
    for control in ("\t", "\r", "\n", "\u0085", "\u2028"):
        player = client.post(
            f"/api/v1/clubs/{club['id']}/players",
            json={"name": f"Anna-Katharina{control}Berger"},
            headers=admin,
        )
        assert player.status_code == 422 and list(player.json["errors"]) == ["name"]
    for ending in ("\n", "\r\n"):  # a final line break, which Python's ``$`` would pass
        assert client.post("/api/v1/clubs", json={"name": f"Club{ending}"}).status_code == 422
    worded = client.post("/api/v1/clubs", json={"name": "A\tB"}, headers={"Accept-Language": "de"})
    assert "Steuerzeichen" in worded.json["errors"]["name"][0]
    assert client.post("/api/v1/clubs", json={"name": "Anna​Berger"}).status_code == 201


@pytest.mark.parametrize("name", ["\u0000", "Ann\u0000", "\u0000Ann", "A\u0000nn Lee"])
def test_the_document_and_the_service_agree_on_a_nul_in_a_name(client, document, name):
    assert not _name_schema(document).is_valid(name)
    answer = client.post("/api/v1/clubs", json={"name": name})
    assert answer.status_code == 422 and list(answer.json["errors"]) == ["name"]


@pytest.mark.parametrize("code", ["EUR", "CHF", "JPY", "XTB", "YQO", "eur"])
def test_the_document_and_the_service_agree_on_currencies(client, document, code):
    schemas = document["components"]["schemas"]
    assert schemas["ClubCreate"]["properties"]["currency"]["$ref"].endswith("/CurrencyCode")
    in_document = code in schemas["CurrencyCode"]["enum"]
    answer = client.post("/api/v1/clubs", json={"name": "Club", "currency": code})
    assert answer.status_code == (201 if in_document else 422), answer.json
    assert in_document == (code in ("EUR", "CHF", "JPY"))


def test_a_webhooks_url_is_a_json_schema_uri(document):
    schemas = document["components"]["schemas"]
    assert schemas["WebhookCreate"]["properties"]["url"]["format"] == "uri"
    assert schemas["WebhookUpdate"]["properties"]["url"]["format"] == "uri"


def test_a_player_update_needs_a_member(api, client, document):
    assert document["components"]["schemas"]["PlayerUpdate"]["minProperties"] == 1
    club = api.club()
    (player,) = api.players(club, 1)
    answer = client.patch(
        f"/api/v1/players/{player}", json={}, headers=api.auth(club["admin_token"])
    )
    assert answer.status_code == 422 and answer.json["type"] == "urn:solo:problem:invalid-field"
