"""The club area (league.js, league-admin.js) in German and Spanish at 320 and 412 px: the tables,
the standings with their abbreviated column heads, a player's page with its charts' text
alternatives, and running the club, each screen with nothing cut or sticking out; and the
standings table at tablet width and on A4 in every language, its column heads printed. The
words expected are the catalogs' (lang-de.js, lang-es.js), so the test checks that the screens
show the translator's words."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from playwright.sync_api import expect

from service.i18n import gettext

from .test_league import NAMES, assert_fits, club_scene
from .test_league import open_club as open_club_in
from .words import Words

pytestmark = [pytest.mark.e2e]


def open_club(phones: Any, scene: dict[str, Any], language: str, width: int, view: str = "") -> Any:
    phone = phones()
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    phone.page.set_viewport_size({"width": width, "height": 700})
    page = open_club_in(phone, scene, view)
    expect(page.locator("html")).to_have_attribute("lang", language)
    return page


@pytest.mark.parametrize("width", [320, 412])
@pytest.mark.parametrize("language", ["de", "es"])
def test_the_club_area_in_the_language(phones: Any, api: Any, language: str, width: int) -> None:
    w = Words(language)
    scene = club_scene(api)
    page = open_club(phones, scene, language, width)

    expect(page.locator("nav.tabs a")).to_have_text(
        [w("Tables"), w("Standings"), w("Players"), w("Manage")]
    )
    friday = page.locator("ul.sittings > li", has_text="Friday")
    one_hand = w.n(
        1,
        "{date} · {variant} · {n} hand",
        "{date} · {variant} · {n} hands",
        variant=gettext("American Solo", language),
    )
    expect(friday.locator("p.hint")).to_contain_text(one_hand.split(" · ")[-1])
    expect(friday.locator(".status.open")).to_have_text(w("open"))
    # the Open link shows the verb and names its table for a screen reader
    opener = friday.get_by_role("link", name=w("Open {table}", table="Friday"))
    expect(opener).to_have_count(1)
    shown = opener.evaluate(
        # (text and elements: not the comments that mark where lit-html put a value)
        "a => [...a.childNodes].filter((n) => n.nodeType !== Node.COMMENT_NODE"
        " && !n.classList?.contains('sr'))"
        ".map((n) => n.textContent).join('')"
    )
    assert " ".join(shown.split()) == " ".join(w("Open {table}", table="").split())
    expect(opener.locator(".sr")).to_have_text("Friday")
    expect(friday.get_by_role("button", name=w("Close the sitting"))).to_be_visible()
    assert_fits(page, f"tables {language} {width}")

    page.get_by_role("link", name=w("Standings")).click()
    page.locator("table.standings tbody tr").first.wait_for()
    hands = page.locator("button.sort", has_text=w("Hands|head"))
    expect(hands).to_have_attribute("aria-label", w("Hands"))
    expect(hands).to_have_attribute("title", re.compile(re.escape(w("Hands").lower()), re.I))
    expect(page.locator("td.c-hands").first).to_have_attribute("data-label", w("Hands"))
    points = page.locator(".period")
    # the season's game too: the season's choice, cut at a phone's width, may not show it
    game = gettext("American Solo", language)
    expect(points).to_have_text(f"Winter 2026 · {game} · {w('chips')}")
    assert_fits(page, f"standings {language} {width}")

    page.locator("table.standings tbody th a", has_text=NAMES[1]).click()
    page.locator("figure.lchart svg.plot").first.wait_for()
    net = page.locator("figure.lchart svg").first.get_attribute("aria-label")
    title = w("Net at each sitting")
    many = w.n(
        3,
        "{title}: {n} value, from {low} to {high}, last {last}.",
        "{title}: {n} values, from {low} to {high}, last {last}.",
        title=title,
    )
    assert net.startswith(many.split("{low}")[0]), net
    rating = page.locator("section.card h3", has_text="Winter 2026")
    decimal = "," if language in ("de", "es") else "."
    expect(rating).to_have_text(re.compile(rf"\d{re.escape(decimal)}\d\d$"))
    career = w(
        "Career: {variant} ({units})", variant=gettext("American Solo", language), units=w("chips")
    )
    expect(page.locator("section.card h3", has_text=career)).to_have_count(1)
    assert_fits(page, f"player {language} {width}")

    page.get_by_role("link", name=w("Manage")).click()
    page.get_by_role("heading", name=w("Run the club")).wait_for()
    # the default season name in the language, its year not grouped as a number ("2.026")
    season = w("Season {year}", year=str(date.today().year))
    expect(page.get_by_label(w("Name"), exact=True)).to_have_value(season)
    assert_fits(page, f"manage {language} {width}")


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_the_standings_table_fits_a_tablet_and_a4(phones: Any, api: Any, language: str) -> None:
    w = Words(language)
    scene = club_scene(api)
    page = open_club(phones, scene, language, 768, "&view=standings")
    page.locator("table.standings tbody tr").first.wait_for()
    heads = page.locator("table.standings thead button.sort")
    expect(heads).to_have_count(13)
    expect(page.locator("button.sort", has_text=w("Rating|head"))).to_be_visible()
    assert_fits(page, f"standings at 768 px, {language}")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 718, "height": 1000})  # A4 less its margins, at 96 dpi
    expect(heads.first).to_be_visible()  # the column heads print
    expect(page.locator("button.sort", has_text=w("Hands|head"))).to_be_visible()
    assert_fits(page, f"standings printed, {language}")
