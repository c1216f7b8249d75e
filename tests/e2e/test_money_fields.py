"""The money fields of a table (its rate), drawn from their state: on the new-table form the
refused amount is marked invalid (and only it), another game's units bring new, empty fields,
and the point settlement chosen is sent; in a table's settings the rate is saved, shown again as
saved, and once the table is closed shown to its phones without a way to change it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .support import Api, table_url
from .test_table_money import NAMES, club_with_seasons

pytestmark = [pytest.mark.e2e]


def test_the_new_table_forms_money_fields_mark_the_refused_amount_and_follow_the_units(
    phones: Any, api: Api
) -> None:
    units = {v["name"]: v["units"] for v in api._call("GET", "/variants")}
    chips = next(n for n, u in units.items() if u != "points")
    assert units["spanish"] == "points"
    club = club_with_seasons(api)
    page = phones().page
    page.goto(f"/#club={club['id']}&key={club['admin_token']}")
    page.locator(".newtable form").wait_for()
    page.get_by_label("Game").select_option("spanish")
    for name in NAMES:
        page.locator(f'button.player:has-text("{name}")').click()
    page.locator("details.money summary").click()
    amount = page.get_by_label("Money per point (€)")
    fee = page.get_by_label("Table fee per player (€)")
    expect(amount).to_have_attribute("placeholder", "Not for money")
    assert amount.get_attribute("aria-invalid") is None  # not checked yet
    amount.fill("0.05")
    fee.fill("x")
    page.get_by_label("Settling the scores").select_option("average")
    page.get_by_role("button", name="Open the table").click()
    expect(fee).to_have_attribute("aria-invalid", "true")
    expect(amount).to_have_attribute("aria-invalid", "false")
    # Another game's units: new, empty fields (what was typed stays while the units do).
    page.get_by_label("Game").select_option(chips)
    chip = page.get_by_label("Money per chip (€)")
    expect(chip).to_have_value("")
    expect(page.get_by_label("Settling the scores")).to_have_count(0)
    page.get_by_label("Game").select_option("spanish")
    expect(page.get_by_label("Money per point (€)")).to_have_value("")
    page.get_by_label("Money per point (€)").fill("0,05")
    page.get_by_label("Table fee per player (€)").fill("1")
    page.get_by_label("Settling the scores").select_option("average")
    page.get_by_role("button", name="Open the table").click()
    page.locator("#new-hand").wait_for()
    tables = page.evaluate("JSON.parse(localStorage.getItem('solo-pad:tables'))")
    (entry,) = tables.values()
    rate = api.table({"id": entry["id"], "table_token": entry["token"]})["rate"]
    assert rate == {
        "cents": 5,
        "per": 1,
        "currency": "EUR",
        "table_fee_cents": 100,
        "point_settlement": "average",
    }


def test_a_tables_rate_is_saved_from_its_settings_and_only_shown_once_closed(
    phones: Any, api: Api
) -> None:
    table = api.table_setup(variant="spanish")
    page = phones().page
    page.goto(table_url("", table) + "&go=settle")
    settings = page.locator(".screen.settle details.settings")
    settings.wait_for()
    settings.locator("summary").click()
    amount = settings.get_by_label("Money per point (€)")
    amount.fill("0.05")
    settings.get_by_label("Settling the scores").select_option("average")
    settings.get_by_role("button", name="Save the rate").click()
    for _ in range(150):  # a condition waited for, up to 15 s
        if api.table(table)["rate"]:
            break
        page.wait_for_timeout(100)
    rate = api.table(table)["rate"]
    assert rate["cents"] == 5 and rate["point_settlement"] == "average", rate
    expect(settings).to_contain_text("Plays for")
    expect(settings.get_by_label("Settling the scores")).to_have_value("average")
    expect(settings.get_by_label("Money per point (€)")).to_have_value("0.05")
    api._call("POST", f"/tables/{table['id']}/close", table["table_token"])
    page.goto(f"/#table={table['id']}")
    page.locator("main h1").wait_for()
    page.goto(f"/#table={table['id']}&go=settle")
    settings = page.locator(".screen.settle details.settings")
    settings.wait_for()
    if settings.get_attribute("open") is None:
        settings.locator("summary").click()
    expect(settings.get_by_label("Money per point (€)")).to_be_disabled()
    expect(settings.get_by_label("Table fee per player (€)")).to_be_disabled()
    expect(settings.get_by_label("Settling the scores")).to_be_disabled()
    expect(settings.get_by_role("button", name="Save the rate")).to_have_count(0)
