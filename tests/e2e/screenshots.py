"""Screenshots of the score pad's main screens at phone size (360×640), for the README.

    .venv/bin/python -m tests.e2e.screenshots [OUT_DIR]     # default docs/screenshots

starts the real service on a temporary SQLite database, drives Debian's Chromium through a
sitting and writes one PNG per screen. tests/e2e/test_screenshots.py runs the same into a
temporary folder so that this script keeps working.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from .support import (
    CHROMIUM_ARGS,
    PHONE,
    Api,
    Network,
    chromium_path,
    go_offline,
    go_online,
    live_service,
    seat_button,
    suit_button,
    table_url,
    wait_preview,
    wait_recorded,
)

TABLET = {"width": 1024, "height": 768}
NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Schmidt")
SOLO66_NAMES = (
    "Anna-Katharina Berger",
    "Bernd Huber",
    "Carla Moser-Lindqvist",
    "Dieter Schmidt",
    "Elif Yılmaz-Hofer",
)
HANDS = [
    {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
    {
        "contract": "simple",
        "trump": "spades",
        "declarer": 2,
        "called": {"rank": "ace", "suit": "diamonds"},
        "partner": 0,
        "tricks": 5,
    },
    {
        "contract": "solo",
        "trump": "clubs",
        "declarer": 3,
        "tricks": 5,
        "matadores": {"side": "declarers", "lower": 2},
    },
    {"kind": "forfeit", "seat": 0},
    {
        "contract": "simple",
        "trump": "hearts",
        "declarer": 0,
        "called": {"rank": "ace", "suit": "clubs"},
        "partner": 1,
        "tricks": 3,
    },
]


def take(browser: Any, base_url: str, network: Network, out: Path) -> list[Path]:
    """Drive one sitting and write the screenshots into `out`; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    api = Api(base_url)
    context = browser.new_context(viewport=PHONE, base_url=base_url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    shots: list[Path] = []

    def shot(name: str) -> None:
        page.locator("#toast").wait_for(state="hidden")
        page.evaluate("document.activeElement && document.activeElement.blur()")
        path = out / f"{name}.png"
        page.screenshot(path=str(path))
        shots.append(path)

    try:
        # Start: a new club, its players picked in the order they sit.
        page.goto("/")
        page.get_by_label("Club name").fill("The Thursday club")
        page.get_by_role("button", name="Create the club").click()
        page.locator(".newtable form").wait_for()
        for name in NAMES:
            page.get_by_label("New player’s name").fill(name)
            page.locator(".addplayer button").click()
            page.locator(f'button.player:has-text("{name}")').wait_for()
        page.get_by_label("Table name").fill("Thursday")
        page.locator(".newtable h2").scroll_into_view_if_needed()
        shot("1-start")
        page.get_by_role("button", name="Open the table").click()
        page.locator("#new-hand").wait_for()

        # The table after five hands recorded by the phones.
        (entry,) = json.loads(page.evaluate("localStorage.getItem('solo-pad:tables')")).values()
        table = {"id": entry["id"], "table_token": entry["token"]}
        for hand in HANDS:
            api.record(table, hand)
        page.goto(table_url("", table))
        page.reload()
        page.locator('.sheet .hand[data-number="5"]').wait_for()
        shot("2-table")
        page.locator(".sheet").evaluate("(el) => el.scrollIntoView()")
        page.evaluate("window.scrollBy(0, -60)")
        shot("10-sheet")

        # Recording a hand: a simple game with a partner, previewed before it is saved.
        page.locator("#new-hand").click()
        page.locator(suit_button("trump", "diamonds")).click()
        page.locator(seat_button("declarer", "Bernd")).click()
        page.locator(suit_button("called", "hearts")).click()
        page.locator(seat_button("partner", "Dieter")).click()
        wait_preview(page)
        page.locator('[data-field="trump"]').scroll_into_view_if_needed()
        page.evaluate("window.scrollTo(0, 0)")
        shot("3-record")
        page.locator(".preview").scroll_into_view_if_needed()
        shot("4-preview")
        page.locator("button.save").click()
        wait_recorded(page, 6)

        # A correction, confirmed with what changes.
        page.locator('.sheet .hand[data-number="2"] button.what').click()
        page.get_by_role("button", name="Correct hand 2").click()
        page.get_by_role("button", name="Tricks taken: one less").click()
        wait_preview(page)
        page.get_by_role("button", name="Review the change").click()
        page.locator("section.confirm").wait_for()
        page.evaluate("window.scrollTo(0, 0)")
        shot("5-correct")
        page.get_by_role("button", name="Save the correction").click()
        page.locator("p.notice.ok").wait_for()

        # Offline, and someone else took the hand's number: both versions, plainly.
        go_offline(context, network)
        page.locator("#new-hand").click()
        page.locator('button.contract[data-value="solo"]').click()
        page.locator(suit_button("trump", "spades")).click()
        page.locator(seat_button("declarer", "Carla")).click()
        page.locator("button.save").click()
        page.locator(".card.pending").wait_for()
        api.record(table, {"contract": "solo", "trump": "clubs", "declarer": 1, "tricks": 4})
        go_online(context, network)
        page.locator('.sheet .hand[data-number="7"]').wait_for()  # theirs, polled in
        page.locator(".card.conflict").wait_for()
        page.locator(".card.conflict h3").evaluate("(el) => el.scrollIntoView()")
        shot("6-conflict")
        page.get_by_role("button", name="Keep theirs, drop mine").click()

        page.get_by_role("link", name="Share").click()
        page.locator("svg.qr").wait_for()
        shot("7-share")
        page.get_by_role("link", name="← Table").click()
        page.get_by_role("link", name="Settle up / close").click()
        page.locator("ul.payments").wait_for()
        shot("8-settle")

        # The same table on a tablet: seats and actions beside the history.
        page.set_viewport_size(TABLET)
        page.get_by_role("link", name="← Table").click()
        page.locator('.sheet .hand[data-number="7"]').wait_for()
        shot("9-tablet")

        # A five-seat Solo 66 table: the points entered by steps, no keyboard.
        page.set_viewport_size(PHONE)
        solo66 = api.table_setup(SOLO66_NAMES, variant="solo66")
        page.goto(table_url("", solo66))
        page.reload()  # the same page showed the first table: wait for this one
        page.locator(".titlebar .hint", has_text="Solo 66").wait_for()
        page.locator("#new-hand").click()
        page.locator(suit_button("trump", "hearts")).click()
        page.locator(seat_button("soloist", "Carla")).click()
        page.get_by_role("button", name="Soloist’s card points: plus 10").click()
        page.get_by_role("button", name="Soloist’s card points: plus 1", exact=True).click()
        wait_preview(page)
        page.locator('[data-field="soloist"]').evaluate("(el) => el.scrollIntoView()")
        page.evaluate("window.scrollBy(0, -60)")
        shot("11-solo66")

        # The first table in the dark.
        page.emulate_media(color_scheme="dark")
        page.goto(table_url("", table))
        page.reload()
        page.locator('.sheet .hand[data-number="7"]').wait_for()
        shot("12-dark")
    finally:
        context.close()
        api.close()
    return shots


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    out = Path(argv[1] if len(argv) > 1 else "docs/screenshots")
    executable = chromium_path()
    if executable is None:
        print("no Chromium found: apt-get install chromium", file=sys.stderr)
        return 1
    with (
        tempfile.TemporaryDirectory() as tmp,
        live_service(Path(tmp)) as (base_url, network),
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            for path in take(browser, base_url, network, out):
                print(path)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
