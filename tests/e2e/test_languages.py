"""The pad in German and Spanish: the language comes from the browser's, a switch in the header
changes it and the phone remembers it; the API is asked in that language, so a hand's
explanation reads in it, with the players' names in the seats' places; numbers by Intl."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .support import PHONE, Api, seat_button, suit_button, table_url, wait_preview, wait_recorded

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Roth")


@pytest.fixture
def phone_in(browser: Any, base_url: str) -> Iterator[Any]:
    """phone_in(locale) opens a phone whose browser speaks ``locale``; the test fails on any
    page error, console error or CSP violation."""
    contexts: list[Any] = []
    problems: list[str] = []

    def open_phone(locale: str, width: int = PHONE["width"]) -> Any:
        context = browser.new_context(viewport={**PHONE, "width": width}, base_url=base_url,
                                      locale=locale)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("console", lambda m: problems.append(f"console: {m.text}")
                if m.type == "error" and "Failed to load resource" not in m.text else None)
        return page

    yield open_phone
    for context in contexts:
        context.close()
    assert not problems, problems


def _record_a_solo(page: Any) -> None:
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", NAMES[2])).click()


@pytest.mark.parametrize("width", [320, 412])
def test_a_german_phone_records_a_hand_in_german(phone_in: Any, api: Api, width: int) -> None:
    table = api.table_setup(NAMES, variant="german")
    page = phone_in("de-DE", width)
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    assert page.locator("html").get_attribute("lang") == "de"
    expect(page.locator("select.language")).to_have_value("de")
    _record_a_solo(page)
    wait_preview(page)
    preview = page.locator("section.preview")
    # The API's explanation in German, the players' names where it says "Platz 3".
    expect(preview).to_contain_text(f"Solo in Herz: {NAMES[2]} spielt allein")
    expect(preview).to_contain_text(f"{NAMES[1]} gibt als Nächster")
    page.locator("button.save").click()
    wait_recorded(page, 1)
    expect(page.locator("#toast")).to_contain_text("Spiel 1 eingetragen.")
    widest = page.evaluate("document.documentElement.scrollWidth")
    assert widest <= width, f"the page is {widest} px wide on a {width} px phone"


def test_the_switch_is_remembered_and_a_spanish_phone_reads_spanish(phone_in: Any,
                                                                    api: Api) -> None:
    table = api.table_setup(NAMES, variant="spanish")
    page = phone_in("en-GB")
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator("select.language").select_option("es")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.locator("#new-hand").wait_for()
    expect(page.locator("#line")).to_contain_text("En línea")
    page.reload()  # remembered on this phone, whatever the browser's languages
    page.locator("#new-hand").wait_for()
    expect(page.locator("select.language")).to_have_value("es")
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", NAMES[0])).click()
    wait_preview(page)
    preview = page.locator("section.preview")
    expect(preview).to_contain_text("Solo a corazones, a palo: 4 puntos")
    expect(preview).to_contain_text(f"Da {NAMES[1]}")
