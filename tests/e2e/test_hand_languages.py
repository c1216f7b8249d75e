"""The hand form in German and Spanish: its labels, hints, suits and the preview's words come
from the catalogs, and the score sheet's line for the hand is worded in the page's language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .support import Api, seat_button, suit_button, table_url, wait_preview, wait_recorded

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Roth", "Eva Weiß")


def open_form(phones: Any, api: Api, language: str, variant: str, seats: int) -> tuple[Any, Any]:
    table = api.table_setup(NAMES[:seats], variant=variant)
    phone = phones()
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    page = phone.page
    page.goto(table_url("", table))
    page.locator("#new-hand").click()
    page.locator("form.handform").wait_for()
    return page, table


def legends(page: Any) -> list[str]:
    texts = page.locator("form.handform fieldset.group:visible > legend").all_inner_texts()
    return [text.split(":")[0].strip() for text in texts]


def test_a_german_solo_from_the_form_to_the_sheet(phones: Any, api: Api) -> None:
    page, _ = open_form(phones, api, "de", "american", 4)
    assert page.locator("html").get_attribute("lang") == "de"
    assert legends(page)[:5] == [
        "Ansage",
        "Trumpf",
        "Spieler",
        "Gerufene Karte",
        "Partner (hat die gerufene Karte)",
    ]
    expect(page.locator('[data-field="kind"] button')).to_have_text(
        ["Gespielt", "Strafe", "Vergeben"]
    )
    expect(page.locator(suit_button("trump", "hearts"))).to_have_text("♥Herz")
    expect(page.locator("p.status")).to_have_text(
        "Zum Speichern: Trumpf wählen, Spieler antippen, gerufene Karte wählen, Partner antippen."
    )
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", "Bernd")).click()
    expect(page.get_by_role("button", name="Gemachte Stiche: eins mehr")).to_be_visible()
    expect(page.locator('[data-field="tricks"] .hint')).to_have_text("Ziel 5")
    wait_preview(page)
    expect(page.locator(".preview h2")).to_have_text("Vorschau")
    expect(page.locator(".preview p.result")).to_have_text(
        re.compile(r"^Gewonnen · \d+ Chips pro Zahlung$")
    )
    expect(page.locator("p.status")).to_have_text(
        re.compile(r"^Gewonnen: Anna-Katharina −\d+, Bernd \+\d+")
    )
    page.locator("button.save").click()
    wait_recorded(page, 1)
    expect(page.locator('.sheet .hand[data-number="1"] .line')).to_have_text(
        "Solo ♥ Bernd, gewonnen"
    )


def test_a_spanish_solo66_hand_without_trump(phones: Any, api: Api) -> None:
    page, _ = open_form(phones, api, "es", "solo66", 5)
    # The soloist and his points follow the trump (the game's description): shown once a
    # suit is chosen, and not for a game without trump.
    assert legends(page) == ["Triunfo"]
    expect(page.locator(suit_button("trump", "clubs"))).to_have_text("♣tréboles")
    page.locator(suit_button("trump", "clubs")).click()
    assert legends(page)[:3] == ["Triunfo", "Solista", "Puntos de quien juega el solo"]
    page.get_by_role("button", name="Sin triunfo").click()
    expect(page.locator('[data-field="soloist"]')).to_be_hidden()
    assert legends(page)[:2] == ["Triunfo", "Última baza de"]
    expect(page.locator("p.status")).to_have_text("Para guardar: toca a quien ganó la última baza.")
    page.locator(seat_button("last_trick", "Eva")).click()
    expect(page.locator('[data-field="last_trick"] legend')).to_have_text(
        "Última baza de: Eva Weiß"
    )
    wait_preview(page)
    expect(page.locator(".preview h2")).to_have_text("Vista previa")
    page.locator("button.save").click()
    wait_recorded(page, 1)
    expect(page.locator('.sheet .hand[data-number="1"] .line')).to_have_text(
        re.compile(r"^Sin triunfo Eva: (victoria|derrota|empate)$")
    )
