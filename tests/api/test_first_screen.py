"""A table's link with its token in the query (``/?table=<id>&token=<token>``): the pad's page
with the table's first screen in it (service/api/first_screen.py). Its browser side (the first
paint, the app taking the answers over) is tests/e2e/test_first_screen.py's."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any

from service.api.first_screen import AFTER_PAINT, NEXT_HAND, pad_text
from service.api.pages import PAD_DIR, read_pad

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
HOSTILE = "Ann </script><b>&amp; Co"
READS = re.compile(r'<script type="application/json" id="first-reads">(.*?)</script>', re.S)


def a_table(api: Any, client: Any, names: list[str]) -> dict[str, Any]:
    club = api.club()
    seats = []
    for name in names:
        answer = client.post(
            f"/api/v1/clubs/{club['id']}/players",
            json={"name": name},
            headers=api.auth(club["admin_token"]),
        )
        assert answer.status_code == 201, answer.json
        seats.append(answer.json["id"])
    body = {"club_id": club["id"], "name": "Thursday", "variant": "american", "seats": seats}
    answer = client.post("/api/v1/tables", json=body, headers=api.auth(club["admin_token"]))
    assert answer.status_code == 201, answer.json
    return answer.json


def link(table: dict[str, Any], token: str | None = None) -> str:
    return f"/?table={table['id']}&token={token or table['table_token']}"


def csp_sources(answer: Any, directive: str) -> list[str]:
    for part in answer.headers["Content-Security-Policy"].split(";"):
        name, *sources = part.split()
        if name == directive:
            return sources
    raise AssertionError(f"no {directive}")


def sha256(data: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(data.encode()).digest()).decode() + "'"


def test_the_page_draws_the_names_escaped_and_carries_the_pads_first_reads(api, client):
    table = a_table(api, client, [HOSTILE, "Carla Moser-Lindqvist", "Jonas", "Marta"])
    api.record(table, SOLO)
    page = client.get(link(table))
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"  # it holds the table
    html = page.get_data(as_text=True)
    main = html[html.index('<main id="app"') : html.index("</main>")]
    assert '<span class="name fit">Ann &lt;/script&gt;&lt;b&gt;&amp;amp; Co</span>' in main
    assert '<span class="name fit">Carla Moser-Lindqvist</span>' in main
    assert "<h1>Thursday</h1>" in main
    assert '<p class="hint">American Solo · next: hand 2</p>' in main
    assert 'class="seat dealer" data-seat="1"' in main  # the next dealer, as table.js marks
    # One JSON script (no name ends it early), with the very answers the API gives the pad.
    (embedded,) = READS.findall(html)
    given = json.loads(embedded)
    assert given["table"] == table["id"] and given["language"] == "en"
    paths = [read["path"] for read in given["reads"]]
    hands = f"/tables/{table['id']}/hands?page=1&page_size=100"
    assert paths == [f"/tables/{table['id']}", hands, "/variants"]
    for read in given["reads"]:
        headers = {"Accept": "application/json", "Accept-Language": "en"}
        if read["path"] != "/variants":
            headers.update(api.auth(table["table_token"]))
        own = client.get(f"/api/v1{read['path']}", headers=headers)
        assert own.status_code == 200
        assert read["body"] == own.get_data(as_text=True)
        for name, value in read["headers"].items():
            assert own.headers[name] == value
    assert given["reads"][0]["headers"]["ETag"] == '"2"'
    assert "X-Pagination" in given["reads"][1]["headers"]


def test_its_inline_style_and_script_are_allowed_by_their_hashes_and_nothing_else(api, client):
    table = api.table()
    page = client.get(link(table))
    html = page.get_data(as_text=True)
    (style,) = re.findall(r"<style>(.*?)</style>", html, re.S)
    assert style == (PAD_DIR / "pad.css").read_text()
    assert csp_sources(page, "style-src") == ["'self'", sha256(style)]
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert scripts == [AFTER_PAINT.decode()]
    assert csp_sources(page, "script-src") == ["'self'", sha256(scripts[0])]
    assert "'unsafe-inline'" not in page.headers["Content-Security-Policy"]
    # The stylesheet is not asked for; the module scripts wait for the first paint.
    assert 'rel="stylesheet"' not in html
    assert '<script type="module"' not in html and 'rel="modulepreload"' not in html
    version = read_pad(PAD_DIR).version
    assert f'<link data-after-paint="module" href="/pad/{version}/app.js">' in html
    assert f'<link data-after-paint="modulepreload" href="/pad/{version}/table.js">' in html


def test_the_line_is_the_pads_own_words_in_the_phones_language(api, client):
    table = api.table()
    page = client.get(link(table), headers={"Accept-Language": "de-AT, en;q=0.5"})
    html = page.get_data(as_text=True)
    files = read_pad(PAD_DIR).files
    line = pad_text(files, "de", NEXT_HAND)
    assert line != NEXT_HAND and "{game}" in line  # the German catalog's entry
    game = next(
        v["title"]
        for v in client.get("/api/v1/variants", headers={"Accept-Language": "de"}).json
        if v["name"] == "american"
    )
    expected = line.replace("{game}", game).replace("{number}", "1")
    assert f'<p class="hint">{expected}</p>' in html
    assert json.loads(READS.findall(html)[0])["language"] == "de"


def test_the_pages_own_words_are_in_the_phones_language_at_the_first_paint(api, client):
    """The brand and the connection's line (``data-t``, which i18n.js translates when it runs)
    do not show in English beside a Spanish table before the scripts come."""
    table = api.table()
    html = client.get(link(table), headers={"Accept-Language": "es"}).get_data(as_text=True)
    files = read_pad(PAD_DIR).files
    for word in ("Solo pad", "Online"):
        spanish = pad_text(files, "es", word)
        assert spanish != word
        assert f"data-t>{spanish}<" in html and f"data-t>{word}<" not in html
    assert '<html lang="es"' in html


def test_a_closed_table_has_no_line_drawn_by_the_service(api, client):
    table = api.table()
    closed = client.post(
        f"/api/v1/tables/{table['id']}/close", headers=api.auth(table["table_token"])
    )
    assert closed.status_code in (200, 201), closed.json
    html = client.get(link(table)).get_data(as_text=True)
    assert '<span class="name fit">' in html
    assert '<p class="hint">' not in html[html.index('<main id="app"') :]


def test_a_link_whose_table_cannot_be_read_gets_the_plain_page(api, client):
    table = api.table()
    plain = client.get("/").get_data()
    for query in (
        link(table, "not-the-token"),
        link({"id": "0" * 32}, table["table_token"]),
        f"/?table={table['id']}",
        f"/?table={'x' * 65}&token={table['table_token']}",
    ):
        answer = client.get(query)
        assert answer.status_code == 200
        assert answer.get_data() == plain, query
        assert "'sha256-" not in answer.headers["Content-Security-Policy"]
