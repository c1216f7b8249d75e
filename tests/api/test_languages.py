"""The service in the reader's language: ``Accept-Language`` picks English, German or Spanish
for the explanation lines and the problems' ``title`` and ``detail``; every API answer says
which (``Content-Language``) and that it varies with it (``Vary: Accept-Language``); the
answers made before Flask (previews, table polls) are worded and labelled as Flask's are, and
a body rendered for one language is never served in another."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from service.i18n import negotiate
from service.middleware.early import EarlyAnswers
from tests.support import ApiClient, CallsPastLayer

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
GERMAN_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 5}
PREVIEW_PATH = "/api/v1/settlements/preview"
PREVIEW = {"variant": "american", "players": 4, "hand": SOLO}
VARYING = {"x-request-id", "date"}


def _headers(response: Any) -> list[tuple[str, str]]:
    return sorted((k.lower(), v) for k, v in response.headers.items() if k.lower() not in VARYING)


def _says(response: Any, language: str) -> None:
    assert response.headers["Content-Language"] == language
    assert "Accept-Language" in response.headers["Vary"]


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("de", "de"),
        ("de-AT,de;q=0.9,en;q=0.5", "de"),
        ("es-419", "es"),
        ("fr-CH, fr;q=0.9, es;q=0.2", "es"),
        ("fr", "en"),
        ("en-GB,de;q=0.8", "en"),
        ("*", "en"),
        ("de;q=0, es", "es"),
        ("x" * 600, "en"),
    ],
)
def test_the_language_is_the_readers_first_one_we_speak(header: str | None, language: str) -> None:
    assert negotiate(header) == language


@pytest.mark.parametrize(
    ("language", "first", "last"),
    [
        ("en", "Dealer (seat 1 of 4) stakes 2 into the pool", "Seat 2 of 4 deals next"),
        ("de", "Platz 1 von 4 gibt und setzt 2 in die Kasse", "Als Nächstes gibt Platz 2 von 4"),
        (
            "es",
            "Asiento 1 de 4 reparte y pone 2 en el bote",
            "La siguiente mano la reparte asiento 2 de 4",
        ),
    ],
)
def test_a_preview_explains_itself_in_the_readers_language(
    client: Any, language: str, first: str, last: str
) -> None:
    response = client.post(PREVIEW_PATH, json=PREVIEW, headers={"Accept-Language": language})
    assert response.status_code == 200
    _says(response, language)
    lines = response.json["explanation"]
    assert (lines[0], lines[-1]) == (first, last)


def test_a_recorded_hand_is_read_back_in_each_readers_language(api: ApiClient) -> None:
    table = api.table(variant="german")
    recorded = api.record(table, GERMAN_SOLO, **{"Accept-Language": "de"})
    assert recorded.status_code == 201
    _says(recorded, "de")
    assert (
        recorded.json["settlement"]["explanation"][0]
        == "Solo in Herz: Player 1 spielt allein; Ziel 5 Stiche"
    )
    url = f"/api/v1/tables/{table['id']}/hands/1"
    token = api.auth(table["table_token"])
    spanish = api.client.get(url, headers={**token, "Accept-Language": "es"})
    _says(spanish, "es")
    assert (
        spanish.json["settlement"]["explanation"][0]
        == "Solo a corazones: Player 1 juega a solas; objetivo 5 bazas"
    )
    english = api.client.get(url, headers=token)
    _says(english, "en")
    assert (
        english.json["settlement"]["explanation"][0]
        == "Solo in hearts: Player 1 plays alone; target 5 tricks"
    )
    listed = api.client.get(
        f"/api/v1/tables/{table['id']}/hands", headers={**token, "Accept-Language": "de"}
    )
    assert listed.json[0]["settlement"]["explanation"][-1] == "Als Nächstes gibt Player 2"


def test_a_table_poll_answered_before_flask_keeps_the_readers_language(
    app: Flask, api: ApiClient
) -> None:
    table = api.table()
    api.record(table, SOLO)
    path = f"/api/v1/tables/{table['id']}"
    token = api.auth(table["table_token"])
    calls = CallsPastLayer(app, EarlyAnswers)
    try:
        for language in ("en", "de", "en", "de", "es"):  # each rendered by Flask once, then here
            response = app.test_client().get(path, headers={**token, "Accept-Language": language})
            assert response.status_code == 200
            _says(response, language)
    finally:
        calls.restore()
    assert calls.count == 3  # en, de and es each rendered once; the repeats answered here


@pytest.mark.parametrize(
    ("language", "title", "detail"),
    [
        ("en", "Not Found", "No table '00000000000000000000000000000000'."),
        ("de", "Nicht gefunden", "Kein Tisch '00000000000000000000000000000000'."),
        ("es", "No encontrado", "No existe la mesa '00000000000000000000000000000000'."),
    ],
)
def test_a_problem_is_worded_in_the_readers_language(
    api: ApiClient, language: str, title: str, detail: str
) -> None:
    table = api.table()
    response = api.client.get(
        "/api/v1/tables/" + "0" * 32,
        headers={**api.auth(table["admin_token"]), "Accept-Language": language},
    )
    assert response.status_code == 404
    _says(response, language)
    assert (response.json["title"], response.json["detail"]) == (title, detail)
    assert response.json["type"] == "about:blank"  # a type never changes with the language


def test_a_refusal_names_the_fields_in_the_readers_language(client: Any) -> None:
    response = client.post("/api/v1/clubs", json={"name": 5}, headers={"Accept-Language": "es"})
    assert response.status_code == 422
    _says(response, "es")
    assert response.json["title"] == "Contenido no procesable"
    assert response.json["detail"] == "Algunos campos no son válidos: name"
    assert response.json["type"].endswith(":invalid-field")


def test_a_missing_token_is_refused_in_german(client: Any) -> None:
    response = client.get("/api/v1/tables/" + "0" * 32, headers={"Accept-Language": "de"})
    assert response.status_code == 401
    assert response.json["title"] == "Nicht angemeldet"
    assert response.json["detail"] == "Ein Bearer-Token ist nötig."


def test_a_sessions_progress_reads_in_the_readers_language(api: ApiClient) -> None:
    table = api.table(variant="spanish", options={"target_hands": 1})
    hand = {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 5}
    recorded = api.record(table, hand, **{"Accept-Language": "de"})
    assert recorded.status_code == 201, recorded.json
    assert (
        recorded.json["table"]["session"]["reason"]
        == "1 von 1 Spielen gespielt; Sieg mit dem höchsten Stand, 4: Player 1"
    )
    path = f"/api/v1/tables/{table['id']}"
    token = api.auth(table["table_token"])
    for language, reason in (
        ("es", "1 de 1 manos jugadas; victoria con el total más alto, 4: Player 1"),
        ("en", "1 of 1 hands played; Player 1 won with the highest total, 4"),
        ("es", "1 de 1 manos jugadas; victoria con el total más alto, 4: Player 1"),
    ):
        shown = api.client.get(path, headers={**token, "Accept-Language": language})
        _says(shown, language)
        assert shown.json["session"]["reason"] == reason


# --- refusals: the rules' own words, marshmallow's and Werkzeug's ---------------------------


@pytest.mark.parametrize(
    ("language", "title", "message"),
    [
        ("en", "Unprocessable Content", "must be a seat from 0 to 3"),
        ("de", "Nicht verarbeitbarer Inhalt", "muss ein Platz von 0 bis 3 sein"),
        ("es", "Contenido no procesable", "debe ser un asiento de 0 a 3"),
    ],
)
def test_a_refused_hand_names_the_field_and_says_why_in_the_readers_language(
    api: ApiClient, language: str, title: str, message: str
) -> None:
    table = api.table(variant="german")
    hand = {**GERMAN_SOLO, "declarer": 7}
    response = api.record(table, hand, **{"Accept-Language": language})
    assert response.status_code == 422
    _says(response, language)
    assert response.json["errors"] == {"hand.declarer": [message]}
    assert response.json["detail"] == f"hand.declarer: {message}"
    assert response.json["type"].endswith(":rule-violation")  # the same in every language
    assert response.json["title"] == title


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "the declarer must be a seat of this 4-player table (0 to 3), not 9"),
        (
            "de",
            "der Spieler: ein Platz dieses Tisches mit 4 Spielern erwartet (0 bis 3; erhalten: 9)",
        ),
        (
            "es",
            "el jugador: se espera un asiento de esta mesa de 4 jugadores (0 a 3; recibido: 9)",
        ),
    ],
)
def test_a_refusal_with_words_inside_words_them_all(
    client: Any, language: str, message: str
) -> None:
    # American Solo's message names what is wrong ("the declarer") as a word of its own.
    body = {**PREVIEW, "hand": {**SOLO, "declarer": 9}}
    response = client.post(PREVIEW_PATH, json=body, headers={"Accept-Language": language})
    assert response.status_code == 422
    _says(response, language)
    assert response.json["errors"] == {"hand.declarer": [message]}


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "soloist and defenders together have 140 points; there are only 134"),
        ("de", "Solist und Gegner haben zusammen 140 Punkte; es gibt nur 134"),
        ("es", "solista y defensores suman 140 puntos; solo hay 134"),
    ],
)
def test_a_refusal_with_numbers_keeps_them_in_every_language(
    client: Any, language: str, message: str
) -> None:
    hand = {"trump": "hearts", "soloist": 0, "soloist_points": 80, "defender_points": 60}
    body = {"variant": "solo66", "players": 5, "hand": hand}
    response = client.post(PREVIEW_PATH, json=body, headers={"Accept-Language": language})
    assert response.status_code == 422, response.json
    assert response.json["errors"] == {"hand.defender_points": [message]}


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Not a valid integer."),
        ("de", "Keine gültige ganze Zahl."),
        ("es", "No es un entero válido."),
    ],
)
def test_marshmallows_own_messages_are_worded_too(client: Any, language: str, message: str) -> None:
    body = {**PREVIEW, "players": "four"}
    response = client.post(PREVIEW_PATH, json=body, headers={"Accept-Language": language})
    assert response.status_code == 422
    assert response.json["errors"] == {"players": [message]}


@pytest.mark.parametrize(
    ("language", "messages"),
    [
        ("en", ["Length must be between 1 and 80.", "Must not be blank."]),
        ("de", ["Die Länge muss zwischen 1 und 80 liegen.", "Darf nicht leer sein."]),
        ("es", ["La longitud debe estar entre 1 y 80.", "No puede estar en blanco."]),
    ],
)
def test_a_validators_message_keeps_its_values(
    client: Any, language: str, messages: list[str]
) -> None:
    response = client.post(
        "/api/v1/clubs", json={"name": ""}, headers={"Accept-Language": language}
    )
    assert response.status_code == 422
    assert response.json["errors"] == {"name": messages}


@pytest.mark.parametrize(
    ("language", "start"),
    [
        ("en", "The requested URL was not found on the server."),
        ("de", "Die angefragte URL wurde auf dem Server nicht gefunden."),
        ("es", "La URL solicitada no se encontró en el servidor."),
    ],
)
def test_an_unknown_path_is_not_found_in_the_readers_language(
    client: Any, language: str, start: str
) -> None:
    response = client.get("/api/v1/nowhere", headers={"Accept-Language": language})
    assert response.status_code == 404
    _says(response, language)
    assert response.json["detail"].startswith(start)


def test_a_body_of_the_wrong_type_is_refused_in_spanish(client: Any) -> None:
    response = client.post(
        PREVIEW_PATH, data="x", content_type="text/plain", headers={"Accept-Language": "es"}
    )
    assert response.status_code == 415
    assert response.json["detail"] == (
        "El cuerpo debe ser JSON, enviado con `Content-Type: application/json` "
        "(este llegó con text/plain)."
    )


# --- GET /api/v1/variants -------------------------------------------------------------------

VARIANTS = "/api/v1/variants"


def _names(value: Any) -> Any:
    """A description with its human texts taken out: what must not change with the language."""
    from service.i18n.variants import TEXT_KEYS

    if isinstance(value, dict):
        return {k: _names(v) for k, v in value.items() if k not in TEXT_KEYS}
    if isinstance(value, list):
        return [_names(v) for v in value]
    return value


def _variant(answer: Any, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(v for v in answer.json if v["name"] == name)
    return found


def _contract(variant: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in variant["contracts"] if c["name"] == name)
    return found


def _field(variant: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(f for f in variant["hand_fields"] if f["name"] == name)
    return found


def test_the_variants_are_described_in_the_readers_language(client: Any) -> None:
    english, german, spanish = (
        client.get(VARIANTS, headers={"Accept-Language": language})
        for language in ("en", "de", "es")
    )
    for answer, language in ((english, "en"), (german, "de"), (spanish, "es")):
        assert answer.status_code == 200
        _says(answer, language)
    # English as it always was.
    american = _variant(english, "american")
    assert american["title"] == "American Solo"
    assert _contract(american, "simple")["title"] == "Simple game"
    assert _field(american, "tricks")["description"] == "tricks taken by the declaring side"
    # German: German Solo keeps its own words; the descriptions are German.
    assert _variant(german, "american")["title"] == "Amerikanisches Solo"
    assert _contract(_variant(german, "american"), "simple")["title"] == "Einfaches Spiel"
    deutsch = _variant(german, "german")
    assert deutsch["title"] == "Deutsches Solo"
    assert [c["title"] for c in deutsch["contracts"]] == [
        "Frage",
        "Großfrage",
        "Mediateur",
        "Solo",
        "Force (Mussfrage)",
    ]
    assert _field(deutsch, "tricks")["description"] == "Stiche der Spielpartei"
    assert _field(_variant(german, "solo66"), "trump")["description"] == (
        "die Trumpffarbe; null, wenn alle gepasst haben"
    )
    # Spanish: Spanish Solo's colour is "color"; the contracts keep their names.
    espanol = _variant(spanish, "spanish")
    assert espanol["title"] == "Solo español"
    assert [c["title"] for c in espanol["contracts"]] == ["Juego simple", "Solo", "Tout"]
    assert _field(espanol, "trump")["description"] == "el palo de triunfo; el color dobla el valor"
    assert _variant(spanish, "american")["options"][0]["description"] == (
        "fichas que pone en el bote quien da, al empezar su turno de dar"
    )
    # The short names a form labels its choices with.
    assert [k["title"] for k in american["hand_kinds"]] == ["Played", "Forfeit", "Misdeal"]
    assert [c["title"] for c in _variant(english, "solo66")["contracts"]] == ["Game", "No trump"]
    assert [c["title"] for c in _variant(german, "solo66")["contracts"]] == [
        "Spiel",
        "Ohne Trumpf",
    ]
    assert [k["title"] for k in _variant(spanish, "american")["error_kinds"]][:2] == [
        "Renuncio",
        "Salida fuera de turno",
    ]
    # The names, values and choices are the API's: the same in every language.
    assert _names(german.json) == _names(english.json) == _names(spanish.json)
    assert german.json != english.json != spanish.json


def test_each_language_of_the_variants_has_its_own_etag(client: Any) -> None:
    tags = {}
    for language in ("en", "de", "es"):
        answer = client.get(VARIANTS, headers={"Accept-Language": language})
        tags[language] = answer.headers["ETag"]
        again = client.get(
            VARIANTS, headers={"Accept-Language": language, "If-None-Match": tags[language]}
        )
        assert again.status_code == 304
        assert "Accept-Language" in again.headers["Vary"]
    assert len(set(tags.values())) == 3
    # A German copy is never an English reader's: his ETag does not match, he gets English.
    english = client.get(VARIANTS, headers={"If-None-Match": tags["de"]})
    assert english.status_code == 200
    assert english.headers["ETag"] == tags["en"]
    _says(english, "en")
    assert _variant(english, "german")["title"] == "German Solo"
