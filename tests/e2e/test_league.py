"""The club area of the pad (league.js, league-admin.js) in a real Chromium at phone size
(360 px) and tablet width, against the real service: the club's tables, standings (sorted,
filtered, CSV, print), a player's page with its charts, and running the club with the admin
token. Every screen is checked for cut text, and photographed into docs/screenshots/club-*.png
when SCREENSHOTS=1."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from .support import Api, table_url

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PHONE = {"width": 360, "height": 640}
TABLET = {"width": 800, "height": 1100}
NAMES = (
    "Anna-Katharina Berger",
    "Carla Moser-Lindqvist",
    "Maximilian Oberhuber",
    "Dora Pfeiffer-Schmidt",
    '=HYPERLINK("http://x","y")',
)
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}
SIMPLE = {
    "contract": "simple",
    "trump": "spades",
    "declarer": 0,
    "called": {"rank": "ace", "suit": "hearts"},
    "partner": 2,
    "tricks": 5,
}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# The table screens' fit test (tests/e2e/measure_fit.js): no text cut or sticking out of its
# box or the viewport, and no sideways page scroll.
FIT = (Path(__file__).parent / "measure_fit.js").read_text()


def assert_fits(page: Any, where: str) -> None:
    problems = page.evaluate(FIT)
    assert not problems, f"{where}: {problems}"


def shoot(page: Any, name: str) -> None:
    if os.environ.get("SCREENSHOTS") == "1" and not name.endswith(("-320", "-412")):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate(
            "document.getElementById('toast').hidden = true; "
            "document.querySelector('header.top').style.position = 'static'"
        )
        page.screenshot(path=str(SHOTS / f"club-{name}.png"), full_page=True)


def club_scene(api: Api) -> dict[str, Any]:
    """A club with five players, a season, a closed sitting and an open one."""
    club = api._call("POST", "/clubs", json={"name": "Skatfreunde Kreuzberg e.V."})
    token = club["admin_token"]
    players = [
        api._call("POST", f"/clubs/{club['id']}/players", token, json={"name": n})["id"]
        for n in NAMES
    ]
    season = api._call(
        "POST",
        f"/clubs/{club['id']}/seasons",
        token,
        json={"name": "Winter 2026", "variant": "american"},
    )
    tables = []
    for name, seats, hands, close in (
        ("Monday", players[:4], [SOLO, LOST, SIMPLE], True),
        ("Thursday", players[1:], [LOST, SOLO], True),
        ("Friday", players[:4], [SIMPLE], False),
    ):
        table = api._call(
            "POST",
            "/tables",
            token,
            json={
                "club_id": club["id"],
                "name": name,
                "variant": "american",
                "seats": seats,
                "season_id": season["id"],
            },
        )
        for hand in hands:
            api.record(table, hand)
        if close:
            api._call("POST", f"/tables/{table['id']}/close", token)
        tables.append(table)
    return {"club": club, "token": token, "players": players, "season": season, "tables": tables}


def open_club(phone: Any, scene: dict[str, Any], view: str = "") -> Any:
    page = phone.page
    page.goto("/")
    club = scene["club"]
    page.evaluate(
        "([id, entry]) => localStorage.setItem('solo-pad:clubs', JSON.stringify({[id]: entry}))",
        [club["id"], {"id": club["id"], "name": club["name"], "token": scene["token"]}],
    )
    page.goto(f"/#league={club['id']}{view}")
    page.locator("nav.tabs").wait_for()
    return page


@pytest.fixture
def scene(api: Api) -> dict[str, Any]:
    return club_scene(api)


@pytest.mark.parametrize(
    "size",
    [PHONE, {"width": 320, "height": 640}, {"width": 412, "height": 800}, TABLET],
    ids=["phone", "320px", "412px", "tablet"],
)
def test_tables_standings_and_a_player_page(
    phones: Any, scene: dict[str, Any], size: dict[str, int]
) -> None:
    phone = phones()
    phone.page.set_viewport_size(size)
    suffix = {360: "", 800: "-tablet"}.get(size["width"], f"-{size['width']}")
    page = open_club(phone, scene)

    cards = page.locator("ul.sittings > li")
    cards.nth(2).wait_for()
    assert cards.locator("h3").all_inner_texts() == ["Friday", "Thursday", "Monday"]
    friday = cards.nth(0)
    assert "open" in friday.inner_text() and "1 hand" in friday.inner_text()
    assert friday.locator(".result .who").all_inner_texts() == list(NAMES[:4])
    assert len(friday.locator(".result .balance").all_inner_texts()) == 4
    assert "closed" in cards.nth(2).inner_text()
    assert_fits(page, "tables")
    shoot(page, f"tables{suffix}")

    page.get_by_role("link", name="Standings").click()
    rows = page.locator("table.standings tbody tr")
    rows.first.wait_for()
    assert rows.count() == 5
    names = page.locator("table.standings tbody th").all_inner_texts()
    assert sorted(names) == sorted(NAMES)
    assert_fits(page, "standings")
    shoot(page, f"standings{suffix}")
    if size is TABLET:
        assert page.locator("table.standings thead").is_visible()
        page.locator("th:has(button.sort:text-is('Hands')) button").click()
        hands = [int(t) for t in page.locator("td.c-hands").all_inner_texts()]
        assert hands == sorted(hands, reverse=True)
        assert page.locator("th[aria-sort=descending]").inner_text().startswith("Hands")
        page.locator("th:has(button.sort:text-is('Player')) button").click()
        shown = page.locator("table.standings tbody th").all_inner_texts()
        assert shown == sorted(shown, key=str.lower) or shown == sorted(shown)

    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    text = Path(download.value.path()).read_text()
    assert text.splitlines()[0].startswith("rank,player_id,name")
    assert '"\'=HYPERLINK(""http://x"",""y"")"' in text  # neutralised, not a formula

    page.get_by_label("Min. hands").fill("4")
    page.get_by_role("button", name="Show").click()
    page.locator(".period:has-text('at least 4 hands')").wait_for()
    shown = page.locator("table.standings tbody th").all_inner_texts()
    assert sorted(shown) == sorted(NAMES[:4])  # the fifth played 2 hands

    page.locator("table.standings tbody th a", has_text=NAMES[1]).click()
    page.locator("figure.lchart svg.plot").first.wait_for()
    assert page.locator("h2").first.inner_text() == NAMES[1]
    charts = page.locator("figure.lchart")
    assert charts.count() == 2
    net = charts.nth(0).locator("svg").get_attribute("aria-label")
    assert net.startswith("Net at each sitting: 3 values")  # Monday, Thursday, Friday
    rating = charts.nth(1).locator("svg").get_attribute("aria-label")
    assert rating.startswith("Rating after each closed sitting (mu − 3·sigma): 2 values")
    charts.nth(0).locator("summary").click()
    assert charts.nth(0).locator("ol.numbers li").count() == 3
    assert page.locator("section.card h3", has_text="Career: American Solo").count() == 1
    assert_fits(page, "player")
    shoot(page, f"player{suffix}")


def test_the_standings_print_on_a4(phones: Any, scene: dict[str, Any], tmp_path: Path) -> None:
    page = open_club(phones(), scene, "&view=standings")
    page.locator("table.standings tbody tr").first.wait_for()
    page.emulate_media(media="print")
    assert page.locator("table.standings thead").is_visible()
    for hidden in ("header.top", "nav.tabs", "form.filters", ".buttons.noprint"):
        assert not page.locator(hidden).is_visible(), hidden
    pdf = tmp_path / "standings.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True)
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf.read_bytes())
    assert boxes and all(round(float(w)) == 595 and round(float(h)) == 842 for w, h in boxes)
    page.set_viewport_size({"width": 718, "height": 1000})  # A4 less its margins, at 96 dpi
    assert_fits(page, "standings printed")
    shoot(page, "standings-print")


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_running_the_club_with_the_admin_token(
    phones: Any, api: Api, scene: dict[str, Any], size: dict[str, int]
) -> None:
    phone = phones()
    phone.page.set_viewport_size(size)
    suffix = "" if size is PHONE else "-tablet"
    page = open_club(phone, scene, "&view=players")
    club_id = scene["club"]["id"]

    page.locator("ul.players li").first.wait_for()
    page.get_by_label("Name", exact=True).fill("Jürgen Weißenböck-Hohenstein")
    page.get_by_role("button", name="Add", exact=True).click()
    entry = page.locator("ul.players li", has_text="Jürgen Weißenböck-Hohenstein")
    entry.wait_for()
    entry.get_by_role("button", name="Rename").click()
    page.get_by_label("New name for Jürgen Weißenböck-Hohenstein").fill("Jürgen Weißenböck")
    page.get_by_role("button", name="Save").click()
    entry = page.locator("ul.players li", has_text="Jürgen Weißenböck")
    entry.get_by_role("button", name="Retire").wait_for()
    entry.get_by_role("button", name="Retire").click()
    entry.get_by_role("button", name="Retire? Tap again").click()
    page.locator("ul.players li", has_text="(retired)").wait_for()
    listed = api._call("GET", f"/clubs/{club_id}/players", scene["token"])
    assert "Jürgen Weißenböck" not in [p["name"] for p in listed]  # not offered any more
    page.goto("/#")
    page.locator(".newtable button.player").first.wait_for()
    assert page.locator("button.player", has_text="Maximilian Oberhuber").count() == 1
    assert page.locator("button.player", has_text="Jürgen").count() == 0
    page.get_by_role("link", name="Tables, standings and players").click()
    page.get_by_role("link", name="Players").click()
    page.locator("ul.players li", has_text="(retired)").wait_for()
    assert_fits(page, "players")
    shoot(page, f"players{suffix}")

    page.get_by_role("link", name="Tables").click()
    friday = page.locator("ul.sittings > li", has_text="Friday")
    friday.get_by_role("button", name="Revoke its link").click()
    friday.get_by_role("button", name="Revoke: the shared link stops working. Tap again").click()
    page.locator(".toast:has-text('no longer works')").wait_for()
    friday.get_by_role("button", name="Close the sitting").click()
    friday.get_by_role("button", name="Close “Friday”? Tap again").click()
    page.locator("ul.sittings > li", has_text="Friday").locator(".status.closed").wait_for()
    assert_fits(page, "tables, admin")
    page.locator("ul.sittings > li", has_text="Monday").get_by_role("link", name="Open").click()
    page.locator("ol.seats").wait_for()  # the table screen, read with the admin token
    page.go_back()
    page.locator("ul.sittings > li").first.wait_for()

    page.get_by_role("link", name="Manage").click()
    page.get_by_role("button", name="Start the season").wait_for()
    page.get_by_label("Name", exact=True).fill("Frühjahr 2027")
    page.get_by_role("button", name="Start the season").click()
    page.locator(".period:has-text('Frühjahr 2027')").wait_for()
    page.get_by_role("link", name="Manage").click()
    page.get_by_role("button", name="Make the read-only link").click()
    # No link on this phone yet: no "old link" to warn of, only one another phone may have made.
    assert page.get_by_role("button", name="The old link stops working. Tap again").count() == 0
    page.get_by_role(
        "button", name="A read-only link another phone made would stop working. Tap again"
    ).click()
    page.get_by_role("button", name="Make a new read-only link").wait_for()
    link = page.get_by_label("Read-only link to the club", exact=True).input_value()
    assert page.locator("svg.qr").count() == 1
    page.get_by_label("URL to send every change to").fill("https://hooks.example.com/solo")
    page.get_by_role("button", name="Add the webhook").click()
    secret = page.get_by_label("Signing secret", exact=True).input_value()
    assert secret.startswith("whsec_")
    hook = page.locator("ul.webhooks li")
    hook.get_by_text("Delivering").wait_for()
    hooks = api._call("GET", f"/clubs/{club_id}/webhooks", scene["token"])
    assert [h["url"] for h in hooks] == ["https://hooks.example.com/solo"]
    assert_fits(page, "manage")
    shoot(page, f"manage{suffix}")
    api._call(
        "PATCH",
        f"/clubs/{club_id}/webhooks/{hooks[0]['id']}",
        scene["token"],
        json={"enabled": False},
    )
    page.reload()
    hook.get_by_text("Turned off on").wait_for()
    hook.get_by_role("button", name="Turn back on").click()
    page.locator(".toast:has-text('Webhook turned back on')").wait_for()
    hook.get_by_text("Delivering").wait_for()
    hook.get_by_role("button", name="Delete").click()
    hook.get_by_role("button", name="Delete the webhook? Tap again").click()
    page.get_by_text("No webhook yet.").wait_for()
    assert page.get_by_label("Signing secret", exact=True).count() == 0  # shown once only
    assert api._call("GET", f"/clubs/{club_id}/webhooks", scene["token"]) == []

    with page.expect_download() as download:
        page.get_by_role("button", name="Download the export").click()
    exported = Path(download.value.path())
    assert json.loads(exported.read_text())["club"]["id"] == club_id
    page.get_by_label("Club file to import (a new club is made)").set_input_files(str(exported))
    page.get_by_role("button", name="Import", exact=True).click()
    page.locator(".notice.ok:has-text('Imported as a new club')").wait_for()
    assert "3 tables" in page.locator(".notice.ok").inner_text()
    broken = Path(exported.parent / "broken.json")
    broken.write_text(exported.read_text()[:200])
    page.get_by_label("Club file to import (a new club is made)").set_input_files(str(broken))
    page.get_by_role("button", name="Import", exact=True).click()
    page.locator(".notice.error:has-text('Nothing was imported')").wait_for()

    page.get_by_role("button", name="Rotate the admin token").click()
    page.get_by_role("button", name="Other phones lose the admin token. Tap again").click()
    page.locator(".toast:has-text('New admin token')").wait_for()
    page.locator("nav.tabs").wait_for()
    kept = json.loads(page.evaluate("localStorage.getItem('solo-pad:clubs')"))[club_id]["token"]
    assert kept != scene["token"]
    assert (
        api.http.get(
            f"{api.base}/api/v1/clubs/{club_id}",
            headers={"Authorization": f"Bearer {scene['token']}"},
        ).status_code
        == 401
    )

    # The noticeboard: the read-only link on another screen reads, and offers nothing to run.
    board = phones()
    board.page.set_viewport_size(size)
    board.page.goto(link)
    board.page.get_by_role("link", name="Standings").click()
    board.page.get_by_label("Season").select_option(label="Winter 2026 (American Solo)")
    board.page.locator("table.standings tbody tr").first.wait_for()
    assert board.page.get_by_role("link", name="Manage").count() == 0
    assert "viewer=" not in board.page.url  # the token leaves the address bar at once
    board.page.get_by_role("link", name="Players").click()
    board.page.locator("ul.players li").first.wait_for()
    assert board.page.get_by_role("button", name="Rename").count() == 0
    assert_fits(board.page, "noticeboard")
    shoot(board.page, f"noticeboard{suffix}")

    # It stays current: it reads again by itself (every 20 polls: 2 s with a 100 ms poll).
    board.page.evaluate("document.documentElement.dataset.pollMs = '100'")
    board.page.get_by_role("link", name="Tables").click()
    board.page.locator("ul.sittings > li").first.wait_for()
    table = api._call(
        "POST",
        "/tables",
        kept,
        json={
            "club_id": club_id,
            "name": "Late game",
            "variant": "american",
            "seats": scene["players"][:4],
        },
    )
    assert table["name"] == "Late game"
    board.page.locator("ul.sittings h3:text-is('Late game')").wait_for(timeout=10_000)


def test_a_phone_whose_table_link_was_revoked_is_told_so(
    phones: Any, api: Api, scene: dict[str, Any]
) -> None:
    table = scene["tables"][2]
    phone = phones()
    page = phone.page
    page.goto(table_url(str(api.base), table))
    page.locator("ol.seats").wait_for()
    api.http.delete(
        f"{api.base}/api/v1/tables/{table['id']}/token",
        headers={"Authorization": f"Bearer {scene['token']}"},
    ).raise_for_status()
    page.locator("h1:text-is('This link no longer works')").wait_for(timeout=20_000)
    assert "revoked by the club's admin" in page.locator(".notice.error").inner_text()
    assert_fits(page, "revoked")
    shoot(page, "revoked")
    page.get_by_role("button", name="Forget this table on this phone").click()
    page.locator("h1:text-is('Solo score pad')").wait_for()
    assert json.loads(page.evaluate("localStorage.getItem('solo-pad:tables')")) == {}
