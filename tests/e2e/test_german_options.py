"""German Solo's table options in the pad's hand form: the mediateur offered only where the table
plays it (with its giver), the 24-card deck's six tricks, and explanations that name the players."""

from __future__ import annotations

from typing import Any

import pytest

from .support import Api, seat_button, suit_button, table_url, wait_preview, wait_recorded

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Roth")


def open_form(phones: Any, api: Api, **options: Any) -> tuple[Any, dict[str, Any]]:
    table = api.table_setup(NAMES, variant="german", **options)
    page = phones().page
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    page.locator("#new-hand").click()
    return page, table


def test_a_mediateur_on_a_24_card_table(phones: Any, api: Api) -> None:
    page, table = open_form(phones, api, mediateur=True, deck=24)
    page.locator('button.contract[data-value="mediateur"]').click()
    assert page.locator('[data-field="partner"]').is_hidden()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", NAMES[2])).click()
    page.locator(seat_button("giver", NAMES[0])).click()
    tricks = page.locator('[data-field="tricks"]')
    assert "target 4" in tricks.inner_text()
    wait_preview(page)
    preview = page.locator("section.preview").inner_text()
    assert f"{NAMES[2]} plays alone after demanding an ace from {NAMES[0]}" in preview
    assert f"{NAMES[1]} deals next" in preview  # the explanation says "seat 2", numbered from 1
    page.locator("button.save").click()
    wait_recorded(page, 1)
    (hand,) = api.hands(table)
    assert (hand["hand"]["contract"], hand["hand"]["declarer"], hand["hand"]["giver"],
            hand["hand"]["tricks"]) == ("mediateur", 2, 0, 4)
    assert [s["balance"] for s in api.table(table)["seats"]] == [0, 0, 4, 0]


def test_no_mediateur_where_the_table_does_not_play_it(phones: Any, api: Api) -> None:
    page, _ = open_form(phones, api)
    page.locator('button.contract[data-value="frage"]').wait_for()
    assert page.locator('button.contract[data-value="mediateur"]').count() == 0
    assert page.locator('[data-field="giver"]').count() == 0 or page.locator(
        '[data-field="giver"]').is_hidden()
