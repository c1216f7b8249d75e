"""German Solo's table options in the pad's hand form: the mediateur offered only where the table
plays it (with its giver), the 24-card deck's six tricks, and explanations that name the players."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

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
    preview = page.locator("section.preview")
    expect(preview).to_contain_text(
        f"{NAMES[2]} plays alone after demanding an ace from {NAMES[0]}"
    )
    expect(preview).to_contain_text(f"{NAMES[1]} deals next")  # "seat 2", numbered from 1
    page.locator("button.save").click()
    wait_recorded(page, 1)
    (hand,) = api.hands(table)
    assert (
        hand["hand"]["contract"],
        hand["hand"]["declarer"],
        hand["hand"]["giver"],
        hand["hand"]["tricks"],
    ) == ("mediateur", 2, 0, 4)
    assert [s["balance"] for s in api.table(table)["seats"]] == [0, 0, 4, 0]


def test_no_mediateur_where_the_table_does_not_play_it(phones: Any, api: Api) -> None:
    page, _ = open_form(phones, api)
    page.locator('button.contract[data-value="frage"]').wait_for()
    assert page.locator('button.contract[data-value="mediateur"]').count() == 0
    assert (
        page.locator('[data-field="giver"]').count() == 0
        or page.locator('[data-field="giver"]').is_hidden()
    )


def test_the_table_setup_offers_the_german_options(phones: Any, api: Api) -> None:
    page = phones().page
    page.goto("/")
    page.get_by_label("Club name").fill("Münster club")
    page.get_by_role("button", name="Create the club").click()
    page.locator(".newtable form").wait_for()
    page.get_by_label("Game").select_option("german")
    for name in NAMES:
        page.get_by_label("New player’s name").fill(name)
        page.locator(".addplayer button").click()
        page.locator(f'button.player:has-text("{name}")[aria-pressed="true"]').wait_for()
    page.locator("details.options summary").click()
    page.get_by_label("Mediateur", exact=True).select_option("true")
    page.get_by_label("Deck", exact=True).select_option("24")
    page.get_by_label("Preferred suit", exact=True).select_option("first_won")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#new-hand").wait_for()
    tables = page.evaluate("JSON.parse(localStorage.getItem('solo-pad:tables'))")
    (entry,) = tables.values()
    shown = api.table({"id": entry["id"], "table_token": entry["token"]})
    assert shown["options"] == {"preferred_suit": "first_won", "mediateur": True, "deck": 24}


def test_the_preferred_suit_is_called_so(phones: Any, api: Api) -> None:
    table = api.table_setup(NAMES, variant="german", preferred_suit="hearts")
    page = phones().page
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    facts = page.locator("dl.facts dt").all_inner_texts()
    assert "Preferred suit" in facts and "Couleur" not in facts
    page.locator("#new-hand").click()
    expect(page.locator("[data-next=dealer]")).to_contain_text("preferred suit ♥ hearts")
