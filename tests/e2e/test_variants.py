"""The other variants' hand forms, built from GET /api/v1/variants: one hand each."""

from __future__ import annotations

from typing import Any

import pytest

from .support import (
    Api,
    seat_button,
    shown_balances,
    suit_button,
    table_url,
    wait_preview,
    wait_recorded,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def open_table(phones: Any, api: Api, variant: str, names: tuple[str, ...]) -> tuple[Any, Any]:
    # Every variant is offered: one missing is a failure, never a skip.
    assert variant in api.variants(), f"the service does not offer {variant}"
    table = api.table_setup(names, variant=variant)
    page = phones().page
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    page.locator("#new-hand").click()
    return page, table


def save(page: Any, api: Api, table: dict[str, Any]) -> dict[str, Any]:
    wait_preview(page)
    page.locator("button.save").click()
    wait_recorded(page, 1)
    (hand,) = api.hands(table)
    assert shown_balances(page) == [s["balance"] for s in api.table(table)["seats"]]
    return hand["hand"]


def test_spanish_simple_game(phones: Any, api: Api) -> None:
    page, table = open_table(phones, api, "spanish", ("Ana", "Blas", "Cruz", "Dani"))
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", "Blas")).click()
    page.locator(suit_button("called", "clubs")).click()
    page.locator(seat_button("partner", "Dani")).click()
    record = save(page, api, table)
    assert (record["contract"], record["declarer"], record["partner"]) == ("simple", 1, 3)


def test_german_frage_may_call_a_king(phones: Any, api: Api) -> None:
    page, table = open_table(phones, api, "german", ("Anke", "Bernd", "Carla", "Dirk"))
    page.locator('button.contract[data-value="frage"]').click()
    page.locator(suit_button("trump", "spades")).click()
    page.locator(seat_button("declarer", "Carla")).click()
    page.locator('[data-field="called"] button[data-value="king"]').click()
    page.locator(suit_button("called", "hearts")).click()
    page.locator(seat_button("partner", "Anke")).click()
    record = save(page, api, table)
    assert record["called"] == {"rank": "king", "suit": "hearts"}


def test_solo66_game_without_trump(phones: Any, api: Api) -> None:
    page, table = open_table(phones, api, "solo66", ("Ada", "Ben", "Cy", "Di", "Ed"))
    page.get_by_role("button", name="No trump").click()
    assert page.locator('[data-field="soloist"]').is_hidden()
    page.locator(seat_button("last_trick", "Cy")).click()
    record = save(page, api, table)
    assert (record["trump"], record["last_trick"]) == (None, 2)
