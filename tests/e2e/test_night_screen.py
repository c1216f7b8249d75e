"""The club night's pages in Chromium: the big screen at TV sizes (landscape, readable across
the room, fitting without scrolling, following the hands as they arrive) in en/de/es, and the
table cards to print.

``NIGHT_SCREENSHOTS=docs/screenshots`` writes the screenshots docs/league.md shows."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TV = {"width": 1920, "height": 1080}
PROJECTOR = {"width": 1280, "height": 720}
NAMES = (
    "Anna-Katharina Berger",
    "Bernd Huber",
    "Carla Moser-Lindqvist",
    "Dieter Schmidt",
    "Elif Yılmaz-Hofer",
    "Franziska Lüdenscheidt",
    "Gregor Hohenzollern",
    "Hanna Weiß",
    "Inmaculada Concepción Martínez Ruiz",
    "Jonas Petersen",
)
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}
WORDS = {
    "en": ("Standings", "1 of 4 hands", "American Solo · Series 1 of 2"),
    "de": ("Tabelle", "1 von 4 Spielen", "Amerikanisches Solo · Serie 1 von 2"),
    "es": ("Clasificación", "1 de 4 manos", "Solo americano · Ronda 1 de 2"),
}


def night_scene(api: Any) -> dict[str, Any]:
    """A club of ten, a night of American Solo in two series of four hands, drawn: 5 + 5."""
    club = api._call("POST", "/clubs", json={"name": "Skatfreunde"})
    token = club["admin_token"]
    viewer = api._call("POST", f"/clubs/{club['id']}/viewer-token", token)["token"]
    night = api._call(
        "POST",
        f"/clubs/{club['id']}/nights",
        token,
        json={
            "name": "Spieleabend",
            "variant": "american",
            "new_players": list(NAMES),
            "hands_per_series": 4,
            "series": 2,
        },
    )
    series = api._call("POST", f"/nights/{night['id']}/series", token, json={"seed": 2026})
    return {"club": club, "admin": token, "viewer": viewer, "night": night, "series": series}


def record(api: Any, scene: dict[str, Any], table: int, hand: dict[str, Any]) -> None:
    table_id = scene["series"]["tables"][table]["table_id"]
    api._call("POST", f"/tables/{table_id}/hands", scene["admin"], json=hand)


def shoot(page: Any, name: str) -> None:
    folder = os.environ.get("NIGHT_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name))


def fits(page: Any) -> dict[str, float]:
    return page.evaluate(
        """() => ({
          overflowX: document.documentElement.scrollWidth - innerWidth,
          overflowY: document.documentElement.scrollHeight - innerHeight,
          nameSize: parseFloat(getComputedStyle(document.querySelector('.standings td')).fontSize),
        })"""
    )


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_the_big_screen_fits_a_tv_and_follows_the_hands(browser, base_url, api, language):
    scene = night_scene(api)
    record(api, scene, 0, SOLO)
    context = browser.new_context(viewport=TV, base_url=base_url)
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"/nights/{scene['night']['id']}/screen?lang={language}#token={scene['viewer']}")
        title, progress, game = WORDS[language]
        page.wait_for_selector(".standings tbody tr", timeout=15_000)
        assert page.locator(".standings tbody tr").count() == len(NAMES)
        assert page.locator(".left h2").inner_text() == title
        assert page.locator(".game").inner_text() == game
        assert page.get_by_text(progress).count() == 1  # table 1 has played its first hand
        measured = fits(page)
        assert measured["overflowX"] <= 0 and measured["overflowY"] <= 0, measured
        # Read across the room: names at least 30 px high on a 1080p screen.
        assert measured["nameSize"] >= 30, measured
        shoot(page, f"night-screen-{language}.png")
        # A hand at table 2 shows within a few polls, with no reload.
        record(api, scene, 1, LOST_SOLO)
        page.wait_for_function(
            "(text) => document.querySelectorAll('.tables .count').length === 2 && "
            "[...document.querySelectorAll('.tables .count')].every(e => e.textContent === text)",
            arg=progress,
            timeout=30_000,
        )
        page.set_viewport_size(PROJECTOR)
        measured = fits(page)
        assert measured["overflowX"] <= 0 and measured["overflowY"] <= 0, measured
    finally:
        context.close()
    assert not problems, problems


@pytest.mark.parametrize("players", [16, 24])
def test_a_big_night_still_fits_the_screen(browser, base_url, api, players):
    club = api._call("POST", "/clubs", json={"name": "Großer Club"})
    token = club["admin_token"]
    names = [
        f"{first} {last}"
        for first, last in zip(
            ("Anna-Katharina", "Maximiliane", "Inmaculada", "Bartholomäus") * 6,
            ("Lüdenscheidt", "Hohenzollern", "Martínez Ruiz", "Moser-Lindqvist", "Weiß", "Yılmaz")
            * 4,
            strict=True,
        )
    ][:players]
    names = [f"{name} {i}" for i, name in enumerate(names)]
    night = api._call(
        "POST",
        f"/clubs/{club['id']}/nights",
        token,
        json={
            "name": "Turnier",
            "variant": "american",
            "new_players": names,
            "series": 3,
            "hands_per_series": 8,
        },
    )
    api._call("POST", f"/nights/{night['id']}/series", token, json={"seed": 1})
    context = browser.new_context(viewport=TV, base_url=base_url)
    page = context.new_page()
    try:
        page.goto(f"/nights/{night['id']}/screen?lang=de#token={token}")
        page.wait_for_selector(".standings tbody tr", timeout=15_000)
        assert page.locator(".standings tbody tr").count() == players
        measured = fits(page)
        assert measured["overflowX"] <= 0 and measured["overflowY"] <= 0, measured
        assert measured["nameSize"] >= 18, measured  # still read from the back of the room
        if players == 24:
            shoot(page, "night-screen-24.png")
    finally:
        context.close()


def test_the_cards_print_one_card_per_table_with_its_qr_code(browser, base_url, api):
    scene = night_scene(api)
    context = browser.new_context(viewport={"width": 1000, "height": 1400}, base_url=base_url)
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"/nights/{scene['night']['id']}/cards?series=1&lang=de#token={scene['admin']}")
        page.wait_for_selector(".card", timeout=15_000)
        assert page.locator(".card").count() == 2
        assert page.locator(".card .qr svg").count() == 2
        assert page.get_by_role("button", name="Drucken").is_visible()
        for index, table in enumerate(scene["series"]["tables"]):
            card = page.locator(".card").nth(index)
            assert card.locator("h2").inner_text() == f"Tisch {table['number']}"
            seats = card.locator(".seats li").all_inner_texts()
            assert [s.split(" (")[0] for s in seats] == [s["name"] for s in table["seats"]]
            assert "(gibt zuerst)" in seats[table["first_dealer"]]
        shoot(page, "night-cards.png")
        # Once a table keeps its score, a reprint shows the same links: no phone is locked out.
        printed = page.locator(".card a").evaluate_all("els => els.map(a => a.href)")
        record(api, scene, 0, SOLO)
        page.reload()
        page.wait_for_selector(".card", timeout=15_000)
        assert page.locator(".card a").evaluate_all("els => els.map(a => a.href)") == printed
        page.emulate_media(media="print")
        assert not page.get_by_role("button", name="Drucken").is_visible()
        # Each card's link opens its table on the pad.
        href = page.locator(".card a").first.get_attribute("href")
        assert href.startswith(f"{base_url}/?table=")
        page.emulate_media(media="screen")
        page.goto(href)
        first_table = scene["series"]["tables"][0]
        for seat in first_table["seats"]:
            page.get_by_text(seat["name"], exact=True).first.wait_for(timeout=15_000)
        # The pad took the token out of the address, as it does for the share screen's link.
        page.wait_for_function("() => !location.search.includes('token=')", timeout=15_000)
    finally:
        context.close()
    assert not problems, problems


@pytest.mark.parametrize("page_name", ["screen", "cards"])
def test_axe_finds_nothing_on_the_night_pages(browser, base_url, api, page_name):
    from .test_access import violations

    scene = night_scene(api)
    context = browser.new_context(viewport=TV, base_url=base_url)
    page = context.new_page()
    try:
        if page_name == "screen":
            record(api, scene, 0, SOLO)
            page.goto(f"/nights/{scene['night']['id']}/screen?lang=de#token={scene['viewer']}")
            page.wait_for_selector(".standings tbody tr", timeout=15_000)
        else:
            page.goto(
                f"/nights/{scene['night']['id']}/cards?series=1&lang=es#token={scene['admin']}"
            )
            page.wait_for_selector(".card", timeout=15_000)
        assert violations(page) == []
    finally:
        context.close()


MEASURE = (Path(__file__).parent / "measure_fit.js").read_text()
A4 = {"width": 794, "height": 1123}  # a printed page's width at 96 px to the inch
LONG_NAMES = (
    "Maximiliane von Hohenzollern-Lüdenscheidt",
    "Bartholomäus Schwarzenberger-Oberndorfer",
)


@pytest.mark.parametrize("language", ["de", "es"])
def test_the_night_pages_break_names_between_words_only(browser, base_url, api, language):
    """The fit test's measure (measure_fit.js) over the big screen, on a TV and a projector, and
    over the printed cards at a page's width: nothing cut or sticking out, and every player's
    name broken only at a space or after a hyphen, never inside a word ("Lüdenscheid|t")."""
    scene = night_scene(api)
    club, token = scene["club"]["id"], scene["admin"]
    players = [p["player_id"] for t in scene["series"]["tables"] for p in t["seats"]]
    night = api._call(
        "POST",
        f"/clubs/{club}/nights",
        token,
        json={
            "name": "Turnier der Skatfreunde Lüdenscheid",
            "variant": "american",
            "players": players[:8],
            "new_players": list(LONG_NAMES),
            "hands_per_series": 4,
            "series": 2,
            "rate": {"cents": 5, "per": 1, "table_fee_cents": 150},
        },
    )
    series = api._call("POST", f"/nights/{night['id']}/series", token, json={"seed": 26})
    names = [*NAMES, *LONG_NAMES]
    found: list[str] = []
    context = browser.new_context(viewport=TV, base_url=base_url)
    page = context.new_page()
    try:
        # The cards first: they make the tables' links while no table has a hand.
        page.set_viewport_size(A4)
        page.goto(f"/nights/{night['id']}/cards?series=1&lang={language}#token={token}")
        page.wait_for_selector(".card .qr svg", timeout=15_000)
        assert page.locator(".card").count() == len(series["tables"])
        page.emulate_media(media="print")
        found += [f"cards, printed: {p}" for p in page.evaluate(MEASURE, names)]
        page.emulate_media(media="screen")
        table = series["tables"][0]["table_id"]
        api._call("POST", f"/tables/{table}/hands", token, json=SOLO)
        page.goto(f"/nights/{night['id']}/screen?lang={language}#token={scene['viewer']}")
        page.wait_for_selector(".standings tbody tr", timeout=15_000)
        page.wait_for_selector(".tables .count", timeout=15_000)
        for size in (TV, PROJECTOR):
            page.set_viewport_size(size)
            found += [f"screen @{size['width']}: {p}" for p in page.evaluate(MEASURE, names)]
    finally:
        context.close()
    assert found == []
