"""The start screen in German and Spanish: the first visit, a new table's setup (its default
name dated as the language writes a date, the options' labels and values, the count of players
in words), the club's admin token panel, and a refusal of the service naming its fields in the
language. The words expected are the catalogs' (lang-de.js, lang-es.js; a game's options and
their values come with its description, worded by the service's catalogs), so the test checks
that the screen shows the translator's words, not a copy of them; a few are spelled out because
a German or Spanish player must read them (docs/i18n.md "Terms")."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from service.i18n import translations

from .words import Words

pytestmark = [pytest.mark.e2e]

LANGUAGES = ("de", "es")
NAMES = (
    "Anna-Katharina Berger",
    "Bernd Huber",
    "Carla Moser-Lindqvist",
    "Maximiliane Theresia von Hohenberg-Wartenstein",
    "Anna-Katharina Bauer",
)
# How each language writes today's date by hand, as a table's default name.
DEFAULT_NAME = {
    "de": re.compile(r"^Tisch \d{1,2}\.\d{1,2}\.\d{4}$"),
    "es": re.compile(r"^Mesa \d{1,2}/\d{1,2}/\d{4}$"),
}
SUITS = {
    "de": ["Kreuz", "Pik", "Herz", "Karo"],
    "es": ["Tréboles", "Picas", "Corazones", "Diamantes"],
}


def open_in(phones: Any, language: str) -> Any:
    phone = phones()
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    page = phone.page
    page.goto("/")
    return page


def create_club(page: Any, w: Any) -> None:
    page.get_by_label(w("Club name")).fill("Schafkopf- und Solo-Freunde Obermühlbach")
    page.get_by_role("button", name=w("Create the club")).click()
    page.locator(".newtable form").wait_for()
    for name in NAMES:
        page.get_by_label(w("New player’s name")).fill(name)
        page.get_by_role("button", name=w("Add"), exact=True).click()
        page.locator(f'button.player:has-text("{name}")[aria-pressed="true"]').wait_for()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_visit_and_a_new_table_in_the_language(phones: Any, language: str) -> None:
    w = Words(language)
    page = open_in(phones, language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("h1")).to_have_text(w("Solo score pad"))
    expect(page.get_by_role("heading", name=w("Create a club"))).to_be_visible()
    expect(page.locator("details.card summary")).to_have_text(w("Open a club with its admin token"))
    create_club(page, w)

    assert DEFAULT_NAME[language].match(page.get_by_label(w("Table name")).input_value())
    game = page.get_by_label(w("Game|variant"), exact=True)
    game.select_option("american")
    # "3, 4 oder 5" / "3, 4 o 5": the counts in the language's own list of choices.
    expect(page.locator(".newtable p.hint").first).to_contain_text(
        {"de": "3, 4 oder 5", "es": "3, 4 o 5"}[language]
    )
    expect(page.locator("span.badge").first).to_have_attribute(
        "aria-label", w("seat {number}", number="1")
    )
    page.locator("details.options summary").click()
    game_word = translations(language).gettext  # what GET /variants says in the language
    couleur = page.get_by_label(game_word("Couleur"), exact=True)
    assert couleur.locator("option").all_inner_texts() == SUITS[language]
    expect(page.get_by_label(game_word("Bête on a lost solo"))).to_contain_text(
        game_word("Every lost solo")
    )
    hint = page.locator(
        ".field", has=page.get_by_label(game_word("How the couleur changes"))
    ).locator(".hint")
    expect(hint).to_contain_text(w("Default: {value}. {help}", value=game_word("Fixed"), help=""))

    game.select_option("spanish")
    if page.locator("details.options").get_attribute("open") is None:
        page.locator("details.options summary").click()
    expect(page.get_by_label(game_word("End after this many hands"))).to_have_attribute(
        "placeholder", game_word("No limit")
    )
    page.get_by_role("button", name=w("Open the table")).click()  # five picked for four seats
    expect(page.locator("#toast")).to_have_text(w("Pick {counts} players.", counts="4"))

    game.select_option("german")
    if page.locator("details.options").get_attribute("open") is None:
        page.locator("details.options summary").click()
    preferred = page.get_by_label(game_word("Preferred suit"), exact=True)
    assert preferred.locator("option").all_inner_texts() == [
        game_word("None"),
        *SUITS[language],
        game_word("Trump of the first game won"),
    ]

    token = page.locator("details.card", has=page.locator("code.token"))
    expect(token.locator("summary")).to_have_text(w("The club’s admin token"))
    expect(token.locator("svg.qr")).to_have_attribute(
        "aria-label", w("QR code of the link that opens the club")
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refusal_names_its_fields_in_the_language(phones: Any, language: str) -> None:
    w = Words(language)
    page = open_in(phones, language)
    create_club(page, w)
    problem = {
        "type": "about:blank",
        "status": 422,
        "title": "Unprocessable Content",
        "errors": {"first_dealer": ["must be a seat"], "hand.errors.0.seat": ["must be a seat"]},
    }
    page.route(
        "**/api/v1/tables",
        lambda route: route.fulfill(
            status=422, content_type="application/problem+json", body=json.dumps(problem)
        ),
    )
    page.get_by_role("button", name=w("Open the table")).click()
    toast = page.locator("#toast")
    first_dealer = w("first dealer")
    expect(toast).to_contain_text(f"{first_dealer[0].upper()}{first_dealer[1:]}: must be a seat")
    error = w("error {number}", number="1")
    expect(toast).to_contain_text(f"{error[0].upper()}{error[1:]}, {w('seat')}: must be a seat")
    page.unroute("**/api/v1/tables")


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
@pytest.mark.parametrize("width", (320, 412))
def test_the_header_keeps_the_brand_on_one_line(phones: Any, language: str, width: int) -> None:
    """The brand never breaks ("Solo-" over "Block"); a status line too long for the row goes
    under the switch rather than stretching the sticky header into a column."""
    page = open_in(phones, language)
    page.set_viewport_size({"width": width, "height": 640})
    page.locator(".start form").first.wait_for()
    words_of_brand = page.locator("header.top .brand span:last-child")
    expect(words_of_brand).not_to_be_empty()
    assert words_of_brand.evaluate("e => e.getClientRects().length") == 1  # one line box
    page.evaluate(
        "document.getElementById('line').textContent = "
        "'Sin conexión · 12 manos guardadas en este móvil · 2 manos por revisar'"
    )
    header = page.locator("header.top").bounding_box()
    assert header["width"] <= width
    assert header["height"] < 140, header  # a column of one word a line was 184 px at 320 px
