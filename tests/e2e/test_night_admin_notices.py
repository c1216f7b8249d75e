"""The club night's admin screen keeps the admin's latest notice: a button is disabled while its
request is in flight (a second tap sends nothing twice), and an earlier action whose answer
comes late (here a change of the rate) never overwrites what a later one said."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOUND_MS = 60_000  # generous: a loaded machine may take seconds where a quiet one takes 100 ms


def test_a_late_answer_never_overwrites_a_later_notice(api: Any, phones: Any) -> None:
    club = api._call("POST", "/clubs", json={"name": "Abendrunde"})
    admin_token = club["admin_token"]
    players = [
        api._call("POST", f"/clubs/{club['id']}/players", admin_token, json={"name": name})["id"]
        for name in ("Anna", "Bernd", "Carla", "Dieter", "Emil")
    ]
    night = api._call(
        "POST",
        f"/clubs/{club['id']}/nights",
        admin_token,
        json={
            "name": "Dienstag",
            "variant": "american",
            "players": players[:4],
            "series": 2,
            "hands_per_series": 2,
        },
    )
    api._call("POST", f"/nights/{night['id']}/series", admin_token, json={})  # no hand yet

    page = phones().page
    page.goto("/")
    page.evaluate(
        "([id, token]) => localStorage.setItem('solo-pad:clubs', "
        "JSON.stringify({[id]: {id, name: 'Abendrunde', token}}))",
        [club["id"], admin_token],
    )
    held: list[Any] = []

    def hold_the_rate(route: Any) -> None:
        if route.request.method == "PATCH":
            held.append(route)
        else:
            route.continue_()

    page.route(f"**/api/v1/nights/{night['id']}", hold_the_rate)
    page.goto(f"/clubs/{club['id']}/night-admin?lang=en#night={night['id']}")
    summary = page.locator("section.summary")
    summary.wait_for(timeout=BOUND_MS)

    # The admin changes the rate: the answer is held back, and its button waits with it.
    summary.locator("summary").click()
    summary.locator("#rate-amount").fill("0.05")
    save = summary.locator("form.rate-form button[type=submit]")
    save.click()
    expect(save).to_be_disabled(timeout=BOUND_MS)

    # Meanwhile the admin asks for the next draw: refused, the tables have played nothing.
    page.locator("section.draw button.primary").click()
    notice = page.locator(".notice")
    expect(notice).to_contain_text("has played 0 of 2 hands", timeout=BOUND_MS)
    expect(notice).to_contain_text("or end the series now anyway")
    expect(notice.locator("button")).to_have_count(1)

    # The rate's answer comes now: saved, the screen redrawn (a new form: the action is over,
    # its notice said or dropped), the refusal still there.
    assert len(held) == 1
    page.locator("section.presence, form.presence").first.evaluate(
        "form => form.setAttribute('data-answered', 'not yet')"
    )
    held[0].continue_()
    expect(page.locator("form.presence:not([data-answered])")).to_have_count(1, timeout=BOUND_MS)
    expect(page.locator("section.summary form.rate-form button[type=submit]")).to_be_enabled()
    expect(page.locator("section.summary .rate")).to_contain_text("0.05")
    expect(notice).to_contain_text("has played 0 of 2 hands")
    expect(notice).not_to_contain_text("Rate saved")
    expect(notice.locator("button")).to_have_count(1)
    shown = api._call("GET", f"/nights/{night['id']}", admin_token)
    assert shown["rate"]["cents"] == 5
