"""The club night's pages: the big screen (its shell, the board it polls with ETags, in
en/de/es) and the table cards (new links, QR codes that read back as the links)."""

from __future__ import annotations

import html as markup
import json
import re
from urllib.parse import quote

import pytest
import segno
from babel.messages.extract import extract

from service.api import night_pages
from service.api.night_pages import ASSETS as NIGHT_ASSETS
from service.middleware.security import CONTENT_SECURITY_POLICY
from tests.api.test_league import SOLO
from tests.api.test_nights import Night


@pytest.fixture
def club(api, client) -> Night:
    return Night(api, client)


def drawn_night(club: Night, **body) -> tuple[dict, dict]:
    night = club.started(players=club.players[:9], series=2, hands_per_series=4, **body)
    return night, club.drawn(night, seed=21)


def test_the_screen_shell_needs_no_token_and_names_its_board_and_script(club, client):
    night, _ = drawn_night(club)
    page = client.get(f"/nights/{night['id']}/screen?lang=de")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert f'data-board="/nights/{night["id"]}/screen/board?lang=de"' in html
    assert '<script type="module" src="/night-assets/screen.js">' in html
    assert "<script>" not in html and "style=" not in html  # the strict CSP holds
    assert page.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert 'lang="de"' in html and "Spieleabend" in html
    for asset in ("screen.js", "cards.js", "night.css"):
        answer = client.get(f"/night-assets/{asset}")
        assert answer.status_code == 200
        answer.close()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Standings", "Tables", "Series 1 of 2", "Table 1", "0 of 4 hands"]),
        ("de", ["Tabelle", "Tische", "Serie 1 von 2", "Tisch 1", "0 von 4 Spielen"]),
        ("es", ["Clasificación", "Mesas", "Ronda 1 de 2", "Mesa 1", "0 de 4 manos"]),
    ],
)
def test_the_board_shows_standings_and_tables_in_the_readers_language(
    club, client, language, words
):
    night, series = drawn_night(club)
    board = client.get(f"/nights/{night['id']}/screen/board?lang={language}", headers=club.admin)
    assert board.status_code == 200, board.get_data(as_text=True)
    html = board.get_data(as_text=True)
    for text in words:
        assert text in html
    for table in series["tables"]:
        for seat in table["seats"]:
            assert seat["name"] in html


def test_the_board_answers_304_until_a_hand_arrives(club, client):
    night, series = drawn_night(club)
    url = f"/nights/{night['id']}/screen/board"
    first = client.get(url, headers=club.admin)
    etag = first.headers["ETag"]
    assert client.get(url, headers={**club.admin, "If-None-Match": etag}).status_code == 304
    club.record(series["tables"][0]["table_id"], SOLO)
    moved = client.get(url, headers={**club.admin, "If-None-Match": etag})
    assert moved.status_code == 200
    assert "1 of 4 hands" in moved.get_data(as_text=True)
    # The results show with a real minus sign.
    assert "−" in moved.get_data(as_text=True)


def test_the_board_needs_a_token_of_the_club(club, client):
    night, _ = drawn_night(club)
    url = f"/nights/{night['id']}/screen/board"
    assert client.get(url).status_code == 401
    other = club.api.club("Other")
    assert client.get(url, headers=club.api.auth(other["admin_token"])).status_code == 403


def test_a_name_is_escaped_on_the_board(club, client):
    night = club.started(new_players=["<b>Ann</b>", "B", "C", "D"])
    club.drawn(night)
    html = client.get(f"/nights/{night['id']}/screen/board", headers=club.admin).get_data(
        as_text=True
    )
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann" not in html


# A name as a club might type it, or someone would to break the pages: markup and both quotes.
EVIL = """<script>alert("x")</script> O'Brien"""
EVIL_SHOWN = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; O&#39;Brien"


def test_a_name_with_markup_and_quotes_is_escaped_on_every_page(club, client):
    """A player's, the night's and a path's text are escaped on each page: the board as the
    night runs and once it is over (who pays whom), the cards, and each page's shell."""
    night = club.started(
        name=EVIL[:80],
        new_players=[EVIL, "B", "C", "D"],
        rate={"cents": 5, "table_fee_cents": 150},
    )
    series = club.drawn(night)
    pages = {"cards": client.post(f"/nights/{night['id']}/cards/1", headers=club.admin)}
    club.record(series["tables"][0]["table_id"], SOLO)
    board_url = f"/nights/{night['id']}/screen/board"
    pages["board"] = client.get(board_url, headers=club.admin)
    closed = client.post(
        f"/api/v1/nights/{night['id']}/close", json={"early": True}, headers=club.admin
    )
    assert closed.status_code == 200
    pages["paid"] = client.get(board_url, headers=club.admin)
    for name, page in pages.items():
        assert page.status_code == 200, name
        html = page.get_data(as_text=True)
        assert "<script" not in html and EVIL not in html, name
        assert EVIL_SHOWN in html, name
    # Where a name is shown: the standings, a table's seats, who pays whom, the cards' seats.
    assert pages["board"].get_data(as_text=True).count(EVIL_SHOWN) == 3  # title, row, seats
    assert f'<span class="who">{EVIL_SHOWN}</span>' in pages["paid"].get_data(as_text=True)
    assert f"<li>{EVIL_SHOWN}" in pages["cards"].get_data(as_text=True)
    # A shell puts the path's id in its data attributes: quoted, it cannot leave them.
    bad = """"><script>alert('x')"""
    for url in (
        f"/nights/{quote(bad)}/screen",
        f"/nights/{quote(bad)}/cards?series=1",
        f"/clubs/{quote(bad)}/night-admin",
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        html = page.get_data(as_text=True)
        assert "<script>" not in html and bad not in html, url
        assert "&#34;&gt;&lt;script&gt;alert(&#39;x&#39;)" in html, url


# The link that opens the table with its first screen in the page (first_screen.table_link).
LINK = re.compile(r'<a href="(http://localhost/\?table=([0-9a-f]+)&amp;token=([^"]+))"')


def card_links(answer) -> dict[str, str]:
    """Each table's token on the cards: table id → token."""
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return {table_id: token for _, table_id, token in LINK.findall(answer.get_data(as_text=True))}


def reads_its_table(client, club: Night, table_id: str, token: str) -> int:
    return client.get(f"/api/v1/tables/{table_id}", headers=club.api.auth(token)).status_code


def test_the_cards_give_each_table_its_working_link_and_its_qr_code(club, client):
    night, series = drawn_night(club)
    shell = client.get(f"/nights/{night['id']}/cards?series=1&lang=es").get_data(as_text=True)
    assert f'data-cards="/nights/{night["id"]}/cards/1?lang=es"' in shell
    answer = client.post(f"/nights/{night['id']}/cards/1?lang=es", headers=club.admin)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    html = answer.get_data(as_text=True)
    assert html.count('<article class="card">') == len(series["tables"])
    assert html.count("<svg") == len(series["tables"])
    assert "(reparte primero)" in html and "Mesa 1" in html and "Ronda 1" in html
    for table in series["tables"]:
        first = table["seats"][table["first_dealer"]]["name"]
        assert f"{first} <strong>(reparte primero)</strong>" in html
    # Each card's link is its QR code, and it works: its token reads its own table.
    links = LINK.findall(html)
    assert sorted(t for _, t, _ in links) == sorted(t["table_id"] for t in series["tables"])
    for link, table_id, token in links:
        plain = link.replace("&amp;", "&")
        assert str(segno.make(plain, error="m").svg_inline(scale=4, omitsize=True)) in html
        assert reads_its_table(client, club, table_id, token) == 200
    # Printing again (or the admin screen asking for them) gives the same links: none stops.
    again = card_links(client.post(f"/nights/{night['id']}/cards/1", headers=club.admin))
    assert again == {table_id: token for _, table_id, token in links}
    for table_id, token in again.items():
        assert reads_its_table(client, club, table_id, token) == 200


def test_a_reprint_once_tables_play_shows_the_same_links_and_new_ones_only_when_asked(club, client):
    night, series = drawn_night(club)
    url = f"/nights/{night['id']}/cards/1"
    links = card_links(client.post(url, headers=club.admin))
    playing = series["tables"][1]
    phone = club.api.auth(links[playing["table_id"]])
    recorded = client.post(f"/api/v1/tables/{playing['table_id']}/hands", json=SOLO, headers=phone)
    assert recorded.status_code == 201
    # A reprint after a hand is recorded: the same links, every phone still in.
    assert card_links(client.post(url, headers={**club.admin, "Accept-Language": "de"})) == links
    for table_id, token in links.items():
        assert reads_its_table(client, club, table_id, token) == 200
    # A table's link renewed on its own (POST /tables/{id}/token): its card gets a working one
    # (the renewed link's phones keep theirs), the other cards keep theirs.
    other = series["tables"][0]["table_id"]
    renewed = client.post(f"/api/v1/tables/{other}/token", headers=club.admin)
    assert renewed.status_code in (200, 201), renewed.json
    reprint = card_links(client.post(url, headers=club.admin))
    assert reprint[playing["table_id"]] == links[playing["table_id"]]
    assert reprint[other] != links[other]
    assert reads_its_table(client, club, other, reprint[other]) == 200
    assert reads_its_table(client, club, other, renewed.json["table_token"]) == 200
    assert card_links(client.post(url, headers=club.admin)) == reprint
    # Asked for on purpose (a lost card), the series gets new links and the old ones stop.
    fresh = card_links(client.post(f"{url}?renew=1", headers=club.admin))
    assert client.get(f"/api/v1/tables/{playing['table_id']}", headers=phone).status_code == 401
    assert set(fresh) == set(links) and not set(fresh.values()) & set(reprint.values())
    for table_id, token in fresh.items():
        assert reads_its_table(client, club, table_id, token) == 200
    assert card_links(client.post(url, headers=club.admin)) == fresh


def test_cards_need_the_admin_token_and_a_series_the_night_drew(club, client):
    night, _ = drawn_night(club)
    viewer = client.post(f"/api/v1/clubs/{club.club['id']}/viewer-token", headers=club.admin).json[
        "token"
    ]
    url = f"/nights/{night['id']}/cards"
    assert client.post(f"{url}/1", headers=club.api.auth(viewer)).status_code == 403
    assert client.post(f"{url}/2", headers=club.admin).status_code == 404


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [("en", "1 hand", "2 hands"), ("de", "1 Spiel", "2 Spiele"), ("es", "1 mano", "2 manos")],
)
def test_a_night_until_closed_counts_each_tables_hands(club, client, language, one, two):
    night = club.started(players=club.players[:4])
    series = club.drawn(night)
    url = f"/nights/{night['id']}/screen/board?lang={language}"
    table_id = series["tables"][0]["table_id"]
    club.record(table_id, SOLO)
    assert f'<p class="count">{one}</p>' in client.get(url, headers=club.admin).get_data(
        as_text=True
    )
    club.record(table_id, SOLO)
    assert f'<p class="count">{two}</p>' in client.get(url, headers=club.admin).get_data(
        as_text=True
    )
    assert "<progress" not in client.get(url, headers=club.admin).get_data(as_text=True)


def test_a_night_for_money_shows_it_on_the_board_the_cards_and_when_closed_who_pays(club, client):
    rate = {"cents": 5, "table_fee_cents": 150}
    night, series = drawn_night(club, rate=rate)
    cards = client.post(f"/nights/{night['id']}/cards/1?lang=de", headers=club.admin)
    html = cards.get_data(as_text=True)
    assert html.count("0,05\u00a0€ pro Chip; Tischgeld 1,50\u00a0€ pro Person und Serie") == len(
        series["tables"]
    )
    club.record(series["tables"][0]["table_id"], SOLO)
    board = client.get(f"/nights/{night['id']}/screen/board?lang=de", headers=club.admin)
    html = board.get_data(as_text=True)
    assert "<th>Geld</th>" in html and "0,05\u00a0€ pro Chip" in html
    money = club.standings(night).json["money"]
    winner = max(money["players"], key=lambda p: p["cents"])
    amount = f"{winner['cents'] // 100},{winner['cents'] % 100:02d}\u00a0€"
    assert f"<td>+{amount}</td>" in html
    assert "Wer zahlt wem" not in html  # while the night runs, the tables' progress
    closed = client.post(
        f"/api/v1/nights/{night['id']}/close", json={"early": True}, headers=club.admin
    )
    assert closed.status_code == 200
    html = client.get(f"/nights/{night['id']}/screen/board?lang=es", headers=club.admin).get_data(
        as_text=True
    )
    assert "Quién paga a quién" in html and "<th>Dinero</th>" in html
    assert html.count("→") == len(money["transfers"]) > 0
    # 9 players × 1,50 €, in the page's own markup
    assert '<p class="fees">Cuotas de mesa, aparte: 13,50\u00a0€ para el club.</p>' in html


@pytest.mark.parametrize(
    ("language", "title", "words"),
    [
        ("de", "Spieleabend", ("Spieleabend beginnen", "Betrag pro Chip ({currency})")),
        ("es", "Noche de club", ("Empezar una noche de club", "Dinero por ficha ({currency})")),
    ],
)
def test_the_admin_screen_shell_needs_no_token_and_carries_its_words(
    club, client, language, title, words
):
    page = client.get(f"/clubs/{club.club['id']}/night-admin?lang={language}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert f"<title>{title}</title>" in html and f'lang="{language}"' in html
    assert '<script type="module" src="/night-assets/admin.js">' in html
    assert f'data-club="{club.club["id"]}"' in html
    assert "<script>" not in html and "style=" not in html  # the strict CSP holds
    found = re.search(r'data-words="([^"]*)"', html)
    assert found is not None
    shown = json.loads(markup.unescape(found.group(1)))
    for text in words:
        assert text in shown.values()
    for asset in ("admin.js", "money.js"):
        answer = client.get(f"/night-assets/{asset}")
        assert answer.status_code == 200
        answer.close()


def said_by(*scripts: str) -> list[str | tuple[str, ...]]:
    """Each text the scripts (``static/nights``) word with the pad's ``t()`` or ``tn()``, as
    Babel's JavaScript extractor reads them; fails on a call whose text is not a literal."""
    said: list[str | tuple[str, ...]] = []
    for name in scripts:
        script = NIGHT_ASSETS / name
        with script.open("rb") as source:
            options = {"template_string": True, "parse_template_string": True}
            keywords = {"t": (1,), "tn": (2, 3)}
            found = [m for _, m, _, _ in extract("javascript", source, keywords, options=options)]
        calls = re.findall(r"(?<![\w.$])(?:t|tx|tn)\(", script.read_text())
        assert len(calls) == len(found), f"{name}: a t() whose text the extractor cannot read"
        said += found
    return said


def test_the_admin_screen_words_every_text_its_script_says_and_no_other():
    """admin.js words its texts with the pad's ``t()``, from the words the shell gives: each
    text it says is one of them (else it would read in English on a German page), each one is
    said, and every call's text is a literal the extraction reads (as the pad's catalogs are
    checked: tests/e2e/test_pad_catalogs.py)."""
    said = said_by("admin.js", "notices.js")  # and the notices it shows (notices.js)
    given = {night_pages._pad_text(message) for message in night_pages.ADMIN_WORDS}
    counted = {
        (night_pages._pad_text(one), night_pages._pad_text(other))
        for one, other in night_pages.ADMIN_COUNTS
    }
    words = {m for m in said if isinstance(m, str)}
    counts = {tuple(m) for m in said if not isinstance(m, str)}
    assert words - given == set(), "said by admin.js, not given by the shell"
    assert given - words == set(), "given by the shell, said by no one"
    assert counts == counted, "a count said by admin.js and given by the shell, both"
