"""Words of the hand form that read as a native speaker's, in Chromium (es and de, 360 and
800 px): Spanish Solo, which has no matadores, does not offer them; a counter's buttons say
"sumar 1" whatever the gender of what they count; the sheet's line says who won without
giving a hand a gender."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .support import Api, seat_button, suit_button, wait_preview, wait_recorded
from .test_hand_languages import open_form

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("width", [360, 800])
@pytest.mark.parametrize(
    ("language", "variant", "more"),
    [
        ("es", "spanish", "Errores y más"),
        ("es", "american", "Matadores, errores, más"),
        ("de", "spanish", "Fehler und mehr"),
        ("de", "american", "Matadore, Fehler, mehr"),
    ],
)
def test_the_more_box_names_matadores_only_for_a_game_that_has_them(
    phones: Any, api: Api, language: str, variant: str, more: str, width: int
) -> None:
    page, _ = open_form(phones, api, language, variant, 4)
    page.set_viewport_size({"width": width, "height": 780})
    page.locator('button.contract[data-value="solo"]').first.click()
    summary = page.locator("details.more summary")
    expect(summary).to_contain_text(more)


def test_a_spanish_hands_counter_and_line_have_no_gender(phones: Any, api: Api) -> None:
    page, _ = open_form(phones, api, "es", "american", 4)
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", "Bernd")).click()
    expect(page.get_by_role("button", name=re.compile(r": sumar 1$"))).to_be_visible()
    assert page.get_by_role("button", name=re.compile(r"uno más")).count() == 0
    wait_preview(page)
    expect(page.locator(".preview p.result")).to_have_text(
        re.compile(r"cada pago vale \d+ fichas?$")
    )
    page.locator("button.save").click()
    wait_recorded(page, 1)
    expect(page.locator('.sheet .hand[data-number="1"] .line')).to_have_text(
        re.compile(r"^Solo ♥ Bernd: (victoria|derrota|empate)$")
    )
