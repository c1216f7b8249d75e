"""The open tournament's screens on the service's side: the director's screen's and the
registration page's shells (their words from the catalogs, in the request's language), the
club's tournaments for the director's screen (``listTournaments``) and the ranking list's CSV
in the reader's language (``getTournamentRankingCsv``)."""

from __future__ import annotations

import html as markup
import json
import re
from urllib.parse import quote

import pytest
from babel.messages.pofile import read_po

from service.api import night_pages, tournament_pages
from service.i18n import LOCALES
from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_night_pages import said_by
from tests.api.test_tournaments import NAMES, Host


@pytest.fixture
def host(api, client) -> Host:
    return Host(api, client)


def _words(page) -> dict:
    found = re.search(r'data-words="([^"]*)"', page.get_data(as_text=True))
    assert found is not None
    return json.loads(markup.unescape(found.group(1)))


@pytest.mark.parametrize(
    ("language", "title", "word"),
    [
        ("de", "Offenes Turnier", "Einchecken"),
        ("es", "Torneo abierto", "Registrar llegada"),
        ("en", "Open tournament", "Check in"),
    ],
)
def test_the_directors_shell_needs_no_token_and_carries_its_words(
    host: Host, client, language, title, word
) -> None:
    page = client.get(f"/clubs/{host.club['id']}/tournament-admin?lang={language}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert f"<title>{title}</title>" in text and f'lang="{language}"' in text
    assert '<script type="module" src="/night-assets/tournament.js">' in text
    assert 'class="tournament admin"' in text
    assert "<script>" not in text and "style=" not in text  # the strict CSP holds
    assert _words(page)["Check in"] == word


def test_the_registration_page_speaks_the_phones_language(client) -> None:
    spanish = client.get("/tournaments/abc/register", headers={"Accept-Language": "es-ES,es"})
    assert 'lang="es"' in spanish.get_data(as_text=True)
    assert _words(spanish)["Register"] == "Enviar la inscripción"
    switched = client.get("/tournaments/abc/register?lang=de", headers={"Accept-Language": "es"})
    assert _words(switched)["Register for the tournament"] == "Zum Turnier anmelden"
    # The path's id is quoted into the data attribute: it cannot leave it.
    bad = """"><script>alert('x')"""
    page = client.get(f"/tournaments/{quote(bad)}/register")
    assert page.status_code == 200 and "<script>" not in page.get_data(as_text=True)


@pytest.mark.parametrize(
    ("scripts", "words", "counts"),
    [
        (
            ("tournament.js", "notices.js", "console.js"),
            tournament_pages.DIRECTOR_WORDS,
            tournament_pages.DIRECTOR_COUNTS,
        ),
        (("register.js",), tournament_pages.REGISTER_WORDS, ()),
    ],
)
def test_each_screen_words_every_text_its_script_says_and_no_other(scripts, words, counts) -> None:
    said = said_by(*scripts)
    given = {night_pages._pad_text(message) for message in words}
    counted = {(night_pages._pad_text(one), night_pages._pad_text(other)) for one, other in counts}
    texts = {m for m in said if isinstance(m, str)}
    assert texts - given == set(), "said by the script, not given by the shell"
    assert given - texts == set(), "given by the shell, said by no one"
    assert {tuple(m) for m in said if not isinstance(m, str)} == counted


@pytest.mark.parametrize("language", ["de", "es"])
def test_every_word_of_the_screens_is_translated(language) -> None:
    path = LOCALES / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        catalog = read_po(source)
    for message in tournament_pages.DIRECTOR_WORDS + tournament_pages.REGISTER_WORDS:
        found = catalog.get(message)
        assert found is not None and found.string, message
    for one, _other in tournament_pages.DIRECTOR_COUNTS:
        found = catalog.get(one)
        assert found is not None and all(found.string), one


def test_the_clubs_tournaments_newest_first_for_its_admin_and_readers(host: Host, api) -> None:
    first = host.created(name="Preis-Solo Frühjahr")
    second = host.created(name="Preis-Solo Herbst")
    url = f"/api/v1/clubs/{host.club['id']}/tournaments"
    listed = host.client.get(url, headers=host.admin)
    assert listed.status_code == 200
    assert [x["id"] for x in listed.json] == [second["id"], first["id"]]
    assert listed.json[0]["registration_token"] == second["registration_token"]
    viewer = host.client.post(
        f"/api/v1/clubs/{host.club['id']}/viewer-token", headers=host.admin
    ).json
    read = host.client.get(url, headers=api.auth(viewer["token"]))
    assert read.status_code == 200 and read.json[0]["registration_token"] is None
    other = api.auth(api.club("Other")["admin_token"])
    assert host.client.get(url, headers=other).status_code == 403


def test_the_ranking_list_comes_as_csv_with_its_prizes_in_the_readers_language(
    host: Host,
) -> None:
    tournament = host.created(
        entry_fee_cents=1250,
        hands_per_series=1,
        table_sizes=[4],
        prizes=[{"per_mille": 500}, {"per_mille": 300}, {"per_mille": 200}],
    )
    names = ["=1+1 Jonas", *NAMES[:7]]
    for name in names:
        host.check_in(tournament, host.registered(tournament, name=name, club="SC Bonn"))
    for number in (1, 2):
        for table in host.drawn(tournament, seed=number)["tables"]:
            host.record(table["table_id"], SOLO if number == 1 else LOST_SOLO)
    prizes = host.get(tournament, "/prizes").json
    url = f"/api/v1/tournaments/{tournament['id']}/ranking.csv"
    german = host.client.get(
        url, headers={**host.admin, "Accept-Language": "de", "Accept": "text/csv"}
    )
    assert german.status_code == 200 and german.mimetype == "text/csv"
    lines = german.get_data(as_text=True).split("\r\n")
    assert lines[0] == "Rang;Name;Club;S1;S2;Gesamt;Preis;Währung"
    rows = [line.split(";") for line in lines[1:] if line]
    assert len(rows) == 8
    paid = sum(int(row[6].replace(",", "")) for row in rows)  # "25,00" → 2500 cents
    assert paid == prizes["cash_sheet"]["prizes_cents"] == 10_000  # 8 × 12.50 €, all paid
    assert all(re.fullmatch(r"\d+,\d\d", row[6]) for row in rows)  # a decimal comma
    assert "'=1+1 Jonas" in [row[1] for row in rows]  # a formula start is neutralised
    english = host.client.get(url, headers=host.admin).get_data(as_text=True)
    assert english.startswith("rank,name,club,series_1,series_2,total,prize,currency\r\n")
    assert all(re.search(r",\d+\.\d\d,EUR$", line) for line in english.split("\r\n")[1:-1])
    spanish = host.client.get(url, headers={**host.admin, "Accept-Language": "es"})
    assert spanish.get_data(as_text=True).split("\r\n")[0].split(";")[-2:] == [
        "Premio",
        "Moneda",
    ]
    assert host.client.get(url).status_code == 401
