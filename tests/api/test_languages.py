"""The service in the reader's language: ``Accept-Language`` picks English, German or Spanish
for the explanation lines and the problems' ``title`` and ``detail``; every API answer says
which (``Content-Language``) and that it varies with it (``Vary: Accept-Language``); the
answers made before Flask (previews, table polls) are worded and labelled as Flask's are, and
a body rendered for one language is never served in another."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.i18n import negotiate
from service.middleware.fast_preview import PREVIEW_PATH
from tests.api.test_fast_reads import FlaskCalls
from tests.support import ApiClient, make_app

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
GERMAN_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 5}
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
        ("en", "Dealer (seat 1) stakes 2 into the pool", "Seat 2 deals next"),
        ("de", "Der Geber (Platz 1) setzt 2 in den Pott", "Platz 2 gibt als Nächster"),
        ("es", "El que da (asiento 1) pone 2 en el bote", "Da asiento 2"),
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


@pytest.fixture
def twin(app: Flask) -> Iterator[Flask]:
    """The same service with neither fast path."""
    yield make_app(
        {
            "TESTING": True,
            "FAST_PREVIEW": False,
            "FAST_READS": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        }
    )


@pytest.mark.parametrize("header", ["de", "es-ES,es;q=0.9", "fr", "en"])
def test_a_preview_made_before_flask_is_worded_and_labelled_as_flasks(
    app: Flask, twin: Flask, header: str
) -> None:
    data = json.dumps(PREVIEW)
    answers = [
        c.post(
            PREVIEW_PATH,
            data=data,
            content_type="application/json",
            headers={"Accept-Language": header},
        )
        for c in (app.test_client(), twin.test_client())
    ]
    fast, slow = answers
    assert (fast.status_code, _headers(fast), fast.data) == (
        slow.status_code,
        _headers(slow),
        slow.data,
    )


def test_a_recorded_hand_is_read_back_in_each_readers_language(api: ApiClient) -> None:
    table = api.table(variant="german")
    recorded = api.record(table, GERMAN_SOLO, **{"Accept-Language": "de"})
    assert recorded.status_code == 201
    _says(recorded, "de")
    assert (
        recorded.json["settlement"]["explanation"][0]
        == "Solo in Herz: Platz 1 spielt allein; Ziel 5 Stiche"
    )
    url = f"/api/v1/tables/{table['id']}/hands/1"
    token = api.auth(table["table_token"])
    spanish = api.client.get(url, headers={**token, "Accept-Language": "es"})
    _says(spanish, "es")
    assert (
        spanish.json["settlement"]["explanation"][0]
        == "Solo a corazones: asiento 1 juega solo; objetivo 5 bazas"
    )
    english = api.client.get(url, headers=token)
    _says(english, "en")
    assert (
        english.json["settlement"]["explanation"][0]
        == "Solo in hearts: seat 1 plays alone; target 5 tricks"
    )
    listed = api.client.get(
        f"/api/v1/tables/{table['id']}/hands", headers={**token, "Accept-Language": "de"}
    )
    assert listed.json[0]["settlement"]["explanation"][-1] == "Platz 2 gibt als Nächster"


def test_a_table_poll_answered_before_flask_keeps_the_readers_language(
    app: Flask, api: ApiClient
) -> None:
    table = api.table()
    api.record(table, SOLO)
    path = f"/api/v1/tables/{table['id']}"
    token = api.auth(table["table_token"])
    calls = FlaskCalls(app)
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
        recorded.json["table"]["session"]["reason"] == "1 von 1 Spielen gespielt; höchster Stand 4"
    )
    path = f"/api/v1/tables/{table['id']}"
    token = api.auth(table["table_token"])
    for language, reason in (
        ("es", "1 de 1 manos jugadas; total más alto 4"),
        ("en", "1 of 1 hands played; highest total 4"),
        ("es", "1 de 1 manos jugadas; total más alto 4"),
    ):
        shown = api.client.get(path, headers={**token, "Accept-Language": language})
        _says(shown, language)
        assert shown.json["session"]["reason"] == reason
