"""The big screen of a club night with twelve players of long names, in Chromium (de and es,
1280 × 720 and 1920 × 1080): every row on screen with its name on one line, type read across
the room, who pays whom as readable as the standings once the night is closed, and the board
following the night through the club's stream of changes rather than a timer.

``NIGHT_SCREENSHOTS=docs/screenshots`` writes the screenshot docs/league.md shows."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = (
    "Anna-Katharina Berger",
    "Maximilian Oberhuber-Schmidt",
    "Inmaculada Concepción Martínez Ruiz",
    "Franziska Lüdenscheidt-Hohenstein",
    "Bartholomäus Hohenzollern",
    "Elif Yılmaz-Hofer",
    "Carla Moser-Lindqvist",
    "Gregor Weiß-Obermaier",
    "María de los Ángeles Fernández",
    "Jonas Petersen-Vestergaard",
    "Dieter Schmidt-Rottluff",
    "Hanna Weißenbacher",
)
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}
SIZES = {"720": {"width": 1280, "height": 720}, "1080": {"width": 1920, "height": 1080}}
PAYS = {"de": "Wer zahlt wem", "es": "Quién paga a quién"}


def shoot(page: Any, name: str) -> None:
    folder = os.environ.get("NIGHT_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name))


def measured(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const rows = [...document.querySelectorAll('.standings tbody tr')];
          const names = rows.map((r) => r.children[1]);
          const size = (e) => parseFloat(getComputedStyle(e).fontSize);
          const lineOf = (e) => parseFloat(getComputedStyle(e).lineHeight) || size(e) * 1.3;
          return {
            rows: rows.length,
            overflowX: document.documentElement.scrollWidth - innerWidth,
            overflowY: document.documentElement.scrollHeight - innerHeight,
            lastBottom: rows.length ? rows[rows.length - 1].getBoundingClientRect().bottom : 0,
            height: innerHeight,
            nameSize: names.length ? size(names[0]) : 0,
            wrapped: names.filter((n) => n.getBoundingClientRect().height > lineOf(n) * 1.6)
              .map((n) => n.textContent),
            paySize: document.querySelector('.payments li')
              ? size(document.querySelector('.payments li')) : null,
          };
        }"""
    )


def night_of_twelve(api: Any) -> dict[str, Any]:
    club = api._call("POST", "/clubs", json={"name": "Skatfreunde"})
    admin = club["admin_token"]
    viewer = api._call("POST", f"/clubs/{club['id']}/viewer-token", admin)["token"]
    night = api._call(
        "POST",
        f"/clubs/{club['id']}/nights",
        admin,
        json={
            "name": "Donnerstagsrunde im Vereinsheim",
            "variant": "american",
            "new_players": list(NAMES),
            "hands_per_series": 2,
            "series": 2,
            "rate": {"cents": 5, "table_fee_cents": 200},
        },
    )
    series = api._call("POST", f"/nights/{night['id']}/series", admin, json={"seed": 12})
    for index, table in enumerate(series["tables"]):
        hand = SOLO if index % 2 else LOST_SOLO
        api._call("POST", f"/tables/{table['table_id']}/hands", admin, json=hand)
    return {"club": club, "admin": admin, "viewer": viewer, "night": night, "series": series}


@pytest.mark.parametrize("size", ["720", "1080"])
@pytest.mark.parametrize("language", ["de", "es"])
def test_twelve_long_names_fit_the_big_screen_which_follows_the_clubs_stream(
    browser: Any, base_url: str, api: Any, language: str, size: str
) -> None:
    scene = night_of_twelve(api)
    context = browser.new_context(viewport=SIZES[size], base_url=base_url)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    night_id = scene["night"]["id"]
    try:
        stream = f"/api/v1/clubs/{scene['club']['id']}/events?ticket="
        with page.expect_request(lambda r: stream in r.url, timeout=30_000):
            page.goto(f"/nights/{night_id}/screen?lang={language}#token={scene['viewer']}")
        page.wait_for_selector(".standings tbody tr", timeout=15_000)
        page.wait_for_function("document.body.dataset.fitted === 'yes'", timeout=15_000)
        shown = measured(page)
        assert shown["rows"] == len(NAMES)
        assert shown["overflowX"] <= 0 and shown["overflowY"] <= 0, shown
        assert shown["lastBottom"] <= shown["height"], shown  # the one who pays most, too
        assert not shown["wrapped"], shown
        assert shown["nameSize"] >= (18 if size == "720" else 26), shown
        if size == "720" and language == "de":
            shoot(page, "night-screen-12-de.png")
        # The board follows the club's stream of changes (opened above): a hand shows.
        table = scene["series"]["tables"][0]["table_id"]
        api._call("POST", f"/tables/{table}/hands", scene["admin"], json=SOLO)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.tables .count')].some("
            "(e) => e.textContent.startsWith('2'))",
            timeout=30_000,
        )
        # Closed: who pays whom, every line on screen and as readable as the names.
        api._call("POST", f"/nights/{night_id}/close", scene["admin"], json={"early": True})
        page.get_by_role("heading", name=PAYS[language]).wait_for(timeout=30_000)
        page.wait_for_function("document.body.dataset.fitted === 'yes'", timeout=15_000)
        shown = measured(page)
        assert shown["overflowX"] <= 0 and shown["overflowY"] <= 0, shown
        assert shown["paySize"] >= (18 if size == "720" else 26), shown
        assert not shown["wrapped"], shown
        if size == "720" and language == "de":
            shoot(page, "night-screen-12-paid-de.png")
        # Printed, it is the night's result sheet: black on white, every row, who pays whom.
        page.emulate_media(media="print")
        printed = page.evaluate(
            "() => [getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.body).color,"
            " document.querySelectorAll('.standings tbody tr').length,"
            " document.querySelectorAll('.payments li').length]"
        )
        assert printed[:3] == ["rgb(255, 255, 255)", "rgb(0, 0, 0)", len(NAMES)], printed
        assert printed[3] > 0
    finally:
        context.close()
    assert not problems, problems
