"""A club's noticeboard whose read-only link was replaced says so in place of the club's screen
(the club's screen draws it from its state), and leads back to the start."""

from __future__ import annotations

from typing import Any

import pytest

from .support import Api

pytestmark = [pytest.mark.e2e]


def test_a_noticeboard_whose_read_only_link_was_replaced_is_told_so(phones: Any, api: Api) -> None:
    table = api.table_setup()
    club, token = table["club_id"], table["admin_token"]
    old = api._call("POST", f"/clubs/{club}/viewer-token", token)["token"]
    page = phones().page
    page.goto(f"/#league={club}&viewer={old}")
    page.locator("nav.tabs").wait_for()
    api._call("POST", f"/clubs/{club}/viewer-token", token)  # a new link: the old one stops
    page.goto(f"/#league={club}&view=players")
    page.locator("h1:text-is('This link no longer works')").wait_for(timeout=20_000)
    # In place of the club's screen, not beside it; no table to forget.
    assert page.locator("nav.tabs").count() == 0
    assert page.locator("h1").count() == 1
    assert page.get_by_role("button", name="Forget this table on this phone").count() == 0
    page.get_by_role("link", name="Start").click()
    page.locator("h1:text-is('Solo score pad')").wait_for()
