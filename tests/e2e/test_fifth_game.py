"""The proof on the phone that a game owns its rules end to end: the made-up fifth game of
``tests/fifth_game`` (Duel), registered for this test only, is kept on the pad with nothing of
the pad changed for it. Its hand form is built from its description in ``GET /variants`` (two
seats, a required yes/no, errors), a hand goes to the sheet, and a correction names what
changed in words."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .support import Api, seat_button, shown_balances, table_url, wait_preview, wait_recorded

NAMES = ("Ada Lang", "Ben Ott", "Cy Roth")


def test_the_fifth_game_is_recorded_and_corrected_on_the_pad(
    phones: Any, api: Api, fifth_game: str
) -> None:
    assert fifth_game in api.variants()
    table = api.table_setup(NAMES, variant=fifth_game, stake=3)
    page = phones().page
    page.goto(table_url("", table))
    page.locator("#new-hand").click()

    # The form the description gives: the two seats and the yes/no in view, the errors under
    # "more"; nothing of the other games.
    form = page.locator("form.handform")
    expect(form.locator("[data-field]:visible")).to_have_count(3)
    fields = form.locator("[data-field]")
    assert [fields.nth(i).get_attribute("data-field") for i in range(fields.count())] == [
        "challenger",
        "opponent",
        "won",
        "errors",
    ]
    assert form.locator('details.more [data-field="errors"]').count() == 1
    assert form.locator('[data-field="contract"], [data-field="trump"]').count() == 0
    expect(page.locator("p.status")).to_have_text("To save: set Challenger, set Opponent, set Won.")
    page.locator(seat_button("challenger", "Ada")).click()
    page.locator(seat_button("opponent", "Ben")).click()
    page.locator('[data-field="won"] button[data-value="yes"]').click()
    expect(page.locator('[data-field="challenger"] legend')).to_have_text("Challenger: Ada Lang")
    wait_preview(page)
    expect(page.locator(".preview p.result")).to_have_text("Won · each payment 3 chips")
    page.locator("button.save").click()
    wait_recorded(page, 1)

    [recorded] = api.hands(table)
    assert {k: recorded["hand"][k] for k in ("challenger", "opponent", "won", "errors")} == {
        "challenger": 0,
        "opponent": 1,
        "won": True,
        "errors": [],
    }
    line = page.locator('.sheet .hand[data-number="1"] .line')
    expect(line).to_have_text("Duel Ada, won")
    assert shown_balances(page) == [3, -3, 0]

    # Corrected: Ben won the duel after all; the confirmation says so in words.
    page.locator('.sheet .hand[data-number="1"] button.what').click()
    page.get_by_role("button", name="Correct hand 1").click()
    expect(page.locator('[data-field="won"] button[data-value="yes"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    page.locator('[data-field="won"] button[data-value="no"]').click()
    wait_preview(page)
    page.locator("button.save").click()
    confirm = page.locator("section.confirm")
    expect(confirm.locator("ul.changes")).to_have_text("Won: yes → no")
    save = confirm.get_by_role("button", name="Save the correction")
    expect(save).to_be_enabled()
    save.click()
    expect(line).to_have_text("Duel Ada, lost")
    assert shown_balances(page) == [-3, 3, 0]
    corrected = api.hands(table)[0]
    assert (corrected["revision"], corrected["hand"]["won"]) == (2, False)


def test_the_fifth_games_standings_show_the_statistics_it_declares(
    phones: Any, api: Api, fifth_game: str
) -> None:
    """Duel's description lists its league statistics (no solo, tout, bête or stamm): its
    season's standings and a player's page show those, and nothing of the other games."""
    club = api._call("POST", "/clubs", json={"name": "Duel club"})
    token = club["admin_token"]
    seats = [
        api._call("POST", f"/clubs/{club['id']}/players", token, json={"name": n})["id"]
        for n in NAMES
    ]
    season = api._call(
        "POST",
        f"/clubs/{club['id']}/seasons",
        token,
        json={"name": "Duels 2026", "variant": fifth_game},
    )
    table = api._call(
        "POST",
        "/tables",
        token,
        json={
            "club_id": club["id"],
            "name": "Duels",
            "variant": fifth_game,
            "seats": seats,
            "season_id": season["id"],
        },
    )
    api.record(table, {"challenger": 0, "opponent": 1, "won": True})
    page = phones().page
    page.goto("/")
    page.evaluate(
        "([id, entry]) => localStorage.setItem('solo-pad:clubs', JSON.stringify({[id]: entry}))",
        [club["id"], {"id": club["id"], "name": club["name"], "token": token}],
    )
    page.goto(f"/#league={club['id']}&view=standings")
    heads = page.locator("table.standings thead button.sort")
    expect(heads).to_have_count(9)
    labels = [heads.nth(i).get_attribute("aria-label") for i in range(heads.count())]
    assert labels == [
        "Rank", "Player", "Net", "Hands", "Declared", "Won", "Lost", "Errors", "Rating",
    ]  # fmt: skip
    page.locator("table.standings tbody th a", has_text=NAMES[0]).click()
    stats = page.locator("section.card dl.stats").first
    expect(stats.locator("dt")).to_have_text(
        ["Sittings", "Hands", "Net", "Net / 100 hands", "Declared", "Won", "Lost", "Win rate",
         "Errors"]
    )  # fmt: skip
