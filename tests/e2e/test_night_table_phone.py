"""A club night's table on its phone, in Chromium (de and es, 360 and 800 px, long names): the
phone knows its series ("Serie 1: Spiel 2 von 2"), offers no hand beyond the series' end (until
the night's director lengthens it), and once the next series is drawn shows where each of its
players sits next.

``NIGHT_SCREENSHOTS=docs/screenshots`` writes the screenshots docs/league.md shows."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .support import NightClub

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}
WORDS = {
    "de": {
        "line": "Serie 1: Spiel {n} von {hands}",
        "over": "Serie 1 ist zu Ende: {n} von {hands} Spielen gespielt.",
        "wait": "Die Spielleitung lost die nächste Serie aus oder verlängert diese.",
        "next": "Serie 2: Wer wo sitzt",
        "table": "Tisch {n}",
        "none": "Keine Spiele mehr",
    },
    "es": {
        "line": "Ronda 1: mano {n} de {hands}",
        "over": "La ronda 1 ha terminado: se jugaron {n} de {hands} manos.",
        "wait": "Quien dirige la noche sortea la próxima ronda o alarga esta.",
        "next": "Ronda 2: quién se sienta dónde",
        "table": "mesa {n}",
        "none": "No hay más manos",
    },
}


def shoot(page: Any, name: str) -> None:
    """The phone's screen as a player sees it, the series' notice in view (360 px only)."""
    folder = os.environ.get("NIGHT_SCREENSHOTS")
    if folder and page.viewport_size["width"] == 360:
        page.locator("[data-series=over]").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(folder) / name))


def night_of_eight(club: NightClub) -> dict[str, Any]:
    """Eight of the club's players, American Solo, two series of two hands, series 1 drawn;
    the link of its table 1 (as its card gives it)."""
    night = club.night(present=8, name="Spieleabend", series=2)
    series = club.draw(night, seed=7)
    table = series["tables"][0]
    token = club.card_tokens(night)[table["table_id"]]
    return {"admin": club.admin, "night": night, "table": table, "token": token}


def record(api: Any, scene: dict[str, Any], hand: dict[str, Any]) -> None:
    api._call("POST", f"/tables/{scene['table']['table_id']}/hands", scene["token"], json=hand)


def phone(
    browser: Any, base_url: str, language: str, width: int, zone: str | None = None
) -> tuple[Any, Any, list[str]]:
    """A phone in ``language`` at ``width`` (in time zone ``zone``): its context, its page and
    the page's errors as they come."""
    context = browser.new_context(
        viewport={"width": width, "height": 780}, base_url=base_url, timezone_id=zone
    )
    context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    return context, page, problems


def hint(page: Any) -> str:
    return page.locator(".titlebar .hint").inner_text()


@pytest.mark.parametrize("width", [360, 800])
@pytest.mark.parametrize("language", ["de", "es"])
def test_the_table_phone_knows_its_series_stops_at_its_end_and_says_where_to_sit_next(
    browser: Any, base_url: str, api: Any, night_club: NightClub, language: str, width: int
) -> None:
    words = WORDS[language]
    scene = night_of_eight(night_club)
    record(api, scene, SOLO)
    context, page, problems = phone(browser, base_url, language, width)
    table_id = scene["table"]["table_id"]
    try:
        page.goto(f"/#table={table_id}&token={scene['token']}")
        # Hand 2 of the series' 2, said above the table.
        line = words["line"].format(n=2, hands=2)
        page.wait_for_function(
            "(line) => document.querySelector('.titlebar .hint')?.textContent.includes(line)",
            arg=line,
            timeout=15_000,
        )
        assert page.locator("#new-hand").is_visible()
        # The series' part of the line never breaks inside ("Spiel 2 von / 6"): one line box.
        shown = page.locator(".titlebar .hint .series-line")
        assert shown.inner_text() == line
        assert shown.evaluate("(node) => node.getClientRects().length") == 1
        # The series' last hand, recorded on another phone: no hand 3 is offered.
        record(api, scene, LOST_SOLO)
        over = page.locator("[data-series=over]")
        over.wait_for(timeout=15_000)
        assert words["over"].format(n=2, hands=2) in over.inner_text()
        assert words["wait"] in over.inner_text()
        assert page.locator("#new-hand").count() == 0
        if language == "de":
            shoot(page, "night-phone-series-over-de.png")
        # Opened by its address, the new hand's screen records nothing either.
        page.goto(f"/#table={table_id}&token={scene['token']}&go=new")
        page.get_by_role("heading", name=words["none"]).wait_for(timeout=15_000)
        # The director lengthens the series by a hand: the phone offers hand 3 of 3.
        night_id = scene["night"]["id"]
        api._call("PATCH", f"/nights/{night_id}/series/1", scene["admin"], json={"hands": 3})
        page.goto(f"/#table={table_id}&token={scene['token']}")
        page.locator("#new-hand").wait_for(timeout=15_000)
        assert words["line"].format(n=3, hands=3) in hint(page)
        record(api, scene, SOLO)
        page.locator("[data-series=over]").wait_for(timeout=15_000)
        # The next draw: the phone shows where each of its players sits in series 2.
        drawn = api._call(
            "POST", f"/nights/{night_id}/series", scene["admin"], json={"seed": 8, "early": True}
        )
        where = {
            seat["name"]: words["table"].format(n=table["number"])
            for table in drawn["tables"]
            for seat in table["seats"]
        }
        page.get_by_role("heading", name=words["next"]).wait_for(timeout=15_000)
        rows = page.locator(".next-seats li")
        assert rows.count() == 4
        for index in range(4):
            name = rows.nth(index).locator(".name").inner_text()
            assert rows.nth(index).locator("strong").inner_text() == where[name]
        assert sorted(rows.locator(".name").all_inner_texts()) == sorted(
            s["name"] for s in scene["table"]["seats"]
        )
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0
        if language == "es":
            shoot(page, "night-phone-next-es.png")
    finally:
        context.close()
    assert not problems, problems


CLOCK = {
    "de": ("bis 21:30", "Zeit ist um: nur noch das laufende Spiel"),
    "es": ("hasta las 21:30", "se acabó el tiempo: solo queda la mano en juego"),
}


@pytest.mark.parametrize("width", [320, 412])
@pytest.mark.parametrize("language", ["de", "es"])
def test_the_table_phone_shows_the_series_clock_and_when_time_is_up(
    browser: Any, base_url: str, api: Any, night_club: NightClub, language: str, width: int
) -> None:
    """The director's clock for the series reaches the phone with its hands left ("Serie 1:
    Spiel 2 von 2 · bis 21:30", in the phone's own time zone), each part never broken inside
    at 320 px; once the phone's clock passes it, the line says the hand in play is the last."""
    until, up = CLOCK[language]
    scene = night_of_eight(night_club)
    record(api, scene, SOLO)
    night_id = scene["night"]["id"]
    api._call(
        "PATCH",
        f"/nights/{night_id}/series/1",
        scene["admin"],
        json={"ends_at": "2099-12-07T20:30:00Z"},  # 21:30 in Berlin and Madrid
    )
    context, page, problems = phone(browser, base_url, language, width, "Europe/Berlin")
    table_id = scene["table"]["table_id"]
    try:
        page.goto(f"/#table={table_id}&token={scene['token']}")
        line = WORDS[language]["line"].format(n=2, hands=2)
        # Both parts: the night is read after the table, and names the series.
        page.wait_for_function(
            "([line, until]) => ((text) => text.includes(line) && text.includes(until))("
            "document.querySelector('.titlebar .hint')?.textContent || '')",
            arg=[line, until],
            timeout=15_000,
        )
        parts = page.locator(".titlebar .hint .series-line")
        assert parts.all_inner_texts() == [line, until]
        assert all(
            parts.nth(i).evaluate("(node) => node.getClientRects().length") == 1 for i in range(2)
        )
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
        folder = os.environ.get("NIGHT_SCREENSHOTS")
        if folder and width == 320:
            page.screenshot(path=str(Path(folder) / f"night-phone-clock-{language}.png"))
        # The phone's clock past the series' end (as at 21:31): the hand in play is the last.
        page.clock.set_fixed_time("2099-12-07T20:31:00Z")
        page.reload()
        page.wait_for_function(
            "(up) => document.querySelector('.titlebar .hint')?.textContent.includes(up)",
            arg=up,
            timeout=15_000,
        )
        assert page.locator("#new-hand").is_visible()  # the clock refuses no hand
    finally:
        context.close()
    assert not problems, problems
