"""A table's season and money on the pad, in German and Spanish at 360 px: the new-table form
offers the club's one open season of the game (and "no season"), and a rate; the settle-up of a
point game then says who pays whom in money, as the language writes money ("12,50 €",
"−3,00 €"), never "Niemand zahlt etwas"; the table's season is changed from the settle-up
screen, and the standings follow; a closed table's season is set there by the club's admin."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .support import Api
from .test_league import assert_fits
from .words import Words

pytestmark = [pytest.mark.e2e]

NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Schmid")
SPANISH_HANDS = [
    {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 6},
    {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 3},
    {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 7},
]
# Money as the language writes it: a decimal comma, the euro sign after a space, a real minus.
MONEY = re.compile(r"^[+−]?\d{1,3}(\.\d{3})*,\d{2}\s€$")


SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shoot(page: Any, name: str) -> None:
    """With SCREENSHOTS=1, the screen as docs/league.md shows it."""
    if os.environ.get("SCREENSHOTS") == "1":
        page.evaluate(
            "document.getElementById('toast').hidden = true; "
            "document.querySelector('header.top').style.position = 'static'"
        )
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def club_with_seasons(api: Api) -> dict[str, Any]:
    club = api._call("POST", "/clubs", json={"name": "Solo-Freunde Obermühlbach"})
    token = club["admin_token"]
    for name in NAMES:
        api._call("POST", f"/clubs/{club['id']}/players", token, json={"name": name})
    seasons = {
        name: api._call(
            "POST",
            f"/clubs/{club['id']}/seasons",
            token,
            json={"name": name, "variant": variant, **dates},
        )
        for name, variant, dates in (
            ("Winterrunde", "spanish", {}),
            ("Vorjahr", "spanish", {"starts_on": "2020-01-01", "ends_on": "2020-12-31"}),
            ("American", "american", {}),
        )
    }
    return {**club, "seasons": seasons}


@pytest.mark.parametrize("width", [360, 800])
@pytest.mark.parametrize("language", ["de", "es"])
def test_a_point_table_opened_on_the_pad_counts_for_its_season_and_settles_in_money(
    phones: Any, api: Api, language: str, width: int
) -> None:
    w = Words(language)
    club = club_with_seasons(api)
    winter = club["seasons"]["Winterrunde"]
    phone = phones(viewport={"width": width, "height": 780})
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    page = phone.page
    page.goto(f"/#club={club['id']}&key={club['admin_token']}")
    page.locator(".newtable form").wait_for()

    page.get_by_label(w("Game|variant")).select_option("spanish")
    season = page.get_by_label(w("Counts for the season"))
    # The one open season of the game is chosen; "no season" and the closed one (newest
    # first, as the club's seasons are listed) are offered too; the other game's is not.
    expect(season).to_have_value(winter["id"])
    assert season.locator("option").all_inner_texts() == [w("No season"), "Vorjahr", "Winterrunde"]
    for name in NAMES:
        page.locator(f'button.player:has-text("{name}")').click()
    page.locator("details.money summary").click()
    per_point = page.get_by_label(w("Money per point ({currency})", currency="€"))
    fee_field = page.get_by_label(w("Table fee per player ({currency})", currency="€"))
    # An amount that is none is refused before anything is sent, naming its field.
    per_point.fill("0,0,5")
    page.get_by_role("button", name=w("Open the table")).click()
    expect(page.locator("#toast")).to_contain_text(
        w(
            "{field}: write an amount such as {example}.",
            field=w("Money per point ({currency})", currency="€"),
            example="0,05",
        )
    )
    expect(per_point).to_have_attribute("aria-invalid", "true")
    assert page.evaluate("localStorage.getItem('solo-pad:tables')") in (None, "{}")
    # The language's decimal comma (the keyboard's point is read too).
    per_point.fill("0,05")
    fee_field.fill("1.5")
    assert_fits(page, f"the new-table form at {width} px")
    if width == 360:
        shoot(page, f"money-new-table-{language}")
    page.get_by_role("button", name=w("Open the table")).click()
    page.locator("#new-hand").wait_for()

    tables = json.loads(page.evaluate("localStorage.getItem('solo-pad:tables')"))
    (entry,) = tables.values()
    table = {"id": entry["id"], "table_token": entry["token"]}
    shown = api.table(table)
    assert shown["season_id"] == winter["id"]
    assert shown["rate"] == {
        "cents": 5,
        "per": 1,
        "currency": "EUR",
        "table_fee_cents": 150,
        "point_settlement": "pairs",
    }
    for hand in SPANISH_HANDS:
        api.record(table, hand)
    money = api.settle_up(table)["money"]
    assert money["transfers"]

    page.goto(f"/#table={table['id']}&go=settle")
    screen = page.locator(".screen.settle")  # (the table screen's print view has them too)
    payments = screen.locator("ul.payments.money li")
    expect(payments).to_have_count(len(money["transfers"]))
    expect(screen.locator(".settleup h2").first).to_have_text(w("Who pays whom"))
    assert w("Nobody pays anybody") not in screen.locator(".settleup").inner_text()
    amounts = screen.locator("ul.deltas.money .num").all_inner_texts()
    assert len(amounts) == 4, amounts
    assert all(MONEY.match(a.replace("\u00a0", " ")) for a in amounts), amounts
    assert any(a.startswith("−") for a in amounts) and not any("-" in a for a in amounts)
    fee = w("Each player also pays the club {amount} for the table.", amount="1,50\u00a0€")
    expect(screen.locator(".settleup")).to_contain_text(fee)
    # How the points were settled, in a sentence of its own (not "…: Paarweise Differenz.")
    pairs = w("Each pair settles the difference of their scores.")
    expect(screen.locator(".settleup")).to_contain_text(pairs)
    page.locator("details.settings summary").click()
    page.get_by_label(w("Counts for the season")).wait_for()
    assert_fits(page, f"the settle-up at {width} px")
    if width == 360:
        shoot(page, f"money-settle-up-{language}")

    # The season is changed on the settle-up screen: the table leaves the winter standings.
    page.get_by_label(w("Counts for the season")).select_option("")
    for _ in range(150):  # a condition waited for, up to 15 s
        if api.table(table)["season_id"] is None:
            break
        page.wait_for_timeout(100)
    assert api.table(table)["season_id"] is None
    standings = api._call("GET", f"/seasons/{winter['id']}/standings", club["admin_token"])
    assert standings["rows"] == []

    # The table's print view carries the same money.
    page.goto(f"/#table={table['id']}")
    page.locator("#new-hand").wait_for()
    printed = page.locator(".printonly ul.deltas.money .num")
    expect(printed).to_have_count(4)
    assert printed.all_text_contents() == amounts

    # The rate as the language writes it, in the table's settings.
    page.goto(f"/#table={table['id']}&go=settle")
    settings = page.locator(".screen.settle details.settings")
    settings.wait_for()
    if settings.get_attribute("open") is None:  # it stays open once opened on this phone
        settings.locator("summary").click()
    expect(settings.get_by_label(w("Money per point ({currency})", currency="€"))).to_have_value(
        "0,05"
    )
    expect(
        settings.get_by_label(w("Table fee per player ({currency})", currency="€"))
    ).to_have_value("1,50")  # whole cents, with the currency's digits


@pytest.mark.parametrize("language", ["de", "es"])
def test_a_closed_tables_season_is_set_on_the_pad_by_the_clubs_admin(
    phones: Any, api: Api, language: str
) -> None:
    """A table played and closed without its season (the issue's "Noch keine Spiele gezählt") is
    attached on the club admin's phone, from the settle-up screen: the season's standings then
    count its hands and sitting, and the table's history keeps the change. A phone with only the
    table's link is offered no season."""
    w = Words(language)
    club = club_with_seasons(api)
    winter = club["seasons"]["Winterrunde"]
    admin = club["admin_token"]
    players = [p["id"] for p in api._call("GET", f"/clubs/{club['id']}/players", admin)]
    table = api._call(
        "POST",
        "/tables",
        admin,
        json={"club_id": club["id"], "name": "Mesa 3", "variant": "spanish", "seats": players},
    )
    assert table["season_id"] is None
    for hand in SPANISH_HANDS:
        api.record(table, hand)
    api._call("POST", f"/tables/{table['id']}/close", table["table_token"])
    standings = api._call("GET", f"/seasons/{winter['id']}/standings", admin)
    assert standings["rows"] == []

    # The table's own link reads the closed table, and offers no season to change.
    linked = phones(viewport={"width": 360, "height": 780})
    linked.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    linked.page.goto(f"/#table={table['id']}&token={table['table_token']}&go=settle")
    linked.page.locator(".screen.settle details.settings").wait_for()
    expect(linked.page.get_by_label(w("Counts for the season"))).to_have_count(0)
    # Points without a rate are the result, not debts: never "Niemand zahlt etwas" alone.
    settled = linked.page.locator(".screen.settle .settleup")
    expect(settled.locator("h2").first).to_have_text(
        w("Not for money: the final score is the result")
    )

    phone = phones(viewport={"width": 360, "height": 780})
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    page = phone.page
    page.goto(f"/#club={club['id']}&key={admin}")
    page.locator(".newtable form").wait_for()
    # The admin finds the table among the club's tables, and opens it there.
    page.goto(f"/#league={club['id']}&view=tables")
    page.locator(f'a[href="#table={table["id"]}"]').click()
    page.locator("#new-hand, p.notice").first.wait_for()
    page.goto(f"/#table={table['id']}&go=settle")
    settings = page.locator(".screen.settle details.settings")
    settings.wait_for()
    if settings.get_attribute("open") is None:
        settings.locator("summary").click()
    season = page.get_by_label(w("Counts for the season"))
    expect(season).to_have_value("")
    season.select_option(winter["id"])
    for _ in range(150):  # a condition waited for, up to 15 s
        if api._call("GET", f"/tables/{table['id']}", admin)["season_id"] == winter["id"]:
            break
        page.wait_for_timeout(100)
    assert api._call("GET", f"/tables/{table['id']}", admin)["season_id"] == winter["id"]
    rows = api._call("GET", f"/seasons/{winter['id']}/standings", admin)["rows"]
    assert {r["player_id"] for r in rows} == set(players)
    assert {r["sittings"] for r in rows} == {1}
    assert {r["hands"] for r in rows} == {len(SPANISH_HANDS)}
    changes = api._call("GET", f"/tables/{table['id']}/history", admin)["changes"]
    assert [(c["setting"], c["before"], c["after"]) for c in changes] == [
        ("season", None, winter["id"])
    ]
    expect(season).to_have_value(winter["id"])
