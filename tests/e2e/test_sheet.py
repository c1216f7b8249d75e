"""The score sheet as good as paper, and the end of a table: a line per hand with its glyphs,
the balances and the order as the player chooses (kept on the phone), heads that stay in view,
the chart's axes and markers, what a void does to later deals, the players named in a
correction, and a finished session or a closed table shown as such."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .support import Api, seat_button, table_url

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Schmidt")
WORDED_SEATS = re.compile(r"\b(?:[Ss]eats?|Platz|[Aa]sientos?) \d")
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


def opened(phones: Any, api: Api, hands: list[dict[str, Any]], **setup: Any) -> tuple[Any, Any]:
    table = api.table_setup(setup.pop("names", NAMES), **setup)
    for hand in hands:
        api.record(table, hand)
    page = phones().page
    page.goto(table_url("", table))
    page.locator("main h1").wait_for()
    if hands:
        page.locator(f'.sheet .hand[data-number="{len(hands)}"]').wait_for()
    return page, table


def order(page: Any) -> list[int]:
    return [
        int(n)
        for n in page.eval_on_selector_all(".sheet tbody", "b => b.map(x => x.dataset.number)")
    ]


def test_the_sheet_is_a_line_per_hand_with_choices_kept_on_the_phone(phones: Any, api: Api) -> None:
    own_ace = {
        "contract": "simple",
        "trump": "spades",
        "declarer": 2,
        "called": {"rank": "ace", "suit": "diamonds"},
        "partner": 2,
        "tricks": 5,
    }
    page, table = opened(phones, api, [SOLO, own_ace, {"kind": "misdeal"}])
    assert order(page) == [3, 2, 1]  # newest first, as before
    runs = page.locator('.sheet .hand[data-number="1"] .run').first
    expect(runs).to_be_hidden()
    # one line: the number, the glyphs, the dealer's initials, then each seat's change
    row = page.locator('.sheet .hand[data-number="2"] tr.nums')
    assert row.locator(".glyph").inner_text() == "S♠"  # counted as a solo, and says so
    assert "counted as Solo" in row.locator(".line").inner_text()
    assert row.locator(".mark").inner_text() == "BH"
    box = row.bounding_box()
    assert box is not None and box["height"] < 60, box
    page.get_by_role("button", name="Balances").click()
    page.get_by_role("button", name="Newest first").click()
    assert order(page) == [1, 2, 3]
    page.reload()
    page.locator('.sheet .hand[data-number="3"]').wait_for()
    assert order(page) == [1, 2, 3]
    expect(page.get_by_role("button", name="Balances")).to_have_attribute("aria-pressed", "true")
    running = [0, 0, 0, 0]
    for hand in api.hands(table):
        running = [b + d for b, d in zip(running, hand["settlement"]["deltas"], strict=True)]
        shown = page.locator(f'.sheet .hand[data-number="{hand["number"]}"] .run').all_inner_texts()
        assert [int(x.replace("\u2212", "-")) for x in shown] == running
    head = page.locator(".sheet thead th").first
    assert head.evaluate("th => getComputedStyle(th).position") == "sticky"
    page.emulate_media(media="print")
    assert head.evaluate("th => getComputedStyle(th.parentElement.parentElement).display") == (
        "table-header-group"  # repeated on every printed page
    )
    page.emulate_media(media="screen")


def test_the_chart_has_axes_and_a_marked_line_per_player_as_its_legend(
    phones: Any, api: Api
) -> None:
    hands = [SOLO, {**SOLO, "declarer": 2}, {**SOLO, "declarer": 3, "tricks": 2}]
    page, _ = opened(phones, api, hands)
    chart = page.locator("svg.balchart")
    values = chart.locator("text").all_text_contents()
    assert "0" in values and "start" in values and "3" in values, values
    for i in range(len(NAMES)):
        line = chart.locator(f"g.l{i}")
        assert line.locator("polyline.l").count() == 1
        assert line.locator(".m").count() == len(hands) + 1  # a marker at every point
        key = page.locator(".chartbox ul.legend li").nth(i)
        assert key.locator(f"svg.key.l{i} .m").count() == 1 and NAMES[i] in key.inner_text()
    # Seats 0 and 3 both stand at −6 … their lines are drawn apart, not on top of each other
    ys = [
        chart.locator(f"g.l{i} polyline.l").get_attribute("points").split()[1].split(",")[1]
        for i in (0, 3)
    ]
    assert ys[0] != ys[1]


def test_a_void_lists_the_later_deals_it_moves(phones: Any, api: Api) -> None:
    hands = [SOLO, {**SOLO, "declarer": 2}, {**SOLO, "declarer": 3}]
    page, table = opened(phones, api, hands, variant="german")
    page.locator('.sheet .hand[data-number="1"] button.what').click()
    page.get_by_role("button", name="Void hand 1").click()
    box = page.locator('.sheet .hand[data-number="1"] .confirm')
    moves = box.locator("ul.moves li")
    expect(moves).to_have_count(3)
    shown = moves.all_inner_texts()
    box.get_by_role("button", name="Yes, void hand 1").click()
    page.locator('.sheet .hand.void[data-number="1"]').wait_for()
    after = {h["number"]: NAMES[h["dealer"]] for h in api.hands(table)}
    assert shown[0] == f"Hand 2: {NAMES[1]} → {after[2]}"
    assert shown[1] == f"Hand 3: {NAMES[2]} → {after[3]}"
    assert shown[2] == f"Next hand: {NAMES[3]} → {NAMES[api.table(table)['dealer']]}"


def test_a_correction_names_the_giver(phones: Any, api: Api) -> None:
    mediateur = {
        "contract": "mediateur",
        "trump": "hearts",
        "declarer": 1,
        "called": {"rank": "ace", "suit": "clubs"},
        "giver": 0,
        "tricks": 5,
    }
    page, table = opened(phones, api, [mediateur], variant="german", mediateur=True)
    page.locator('.sheet .hand[data-number="1"] button.what').click()
    # the demanded ace is worded as demanded, of the player who gave it
    details = page.locator('.sheet .hand[data-number="1"] .body > p').first
    expect(details).to_contain_text("demanded ace ♣ from Anna-Katharina Berger")
    for language, words in (
        ("de", "verlangt: Ass ♣ von Anna-Katharina Berger"),
        ("es", "pide el as ♣ a Anna-Katharina Berger"),
    ):
        phone = phones()
        phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
        phone.page.goto(table_url("", table))
        phone.page.locator('.sheet .hand[data-number="1"] button.what').click()
        there = phone.page.locator('.sheet .hand[data-number="1"] .body > p').first
        expect(there).to_contain_text(words)
    page.get_by_role("button", name="Correct hand 1").click()
    # the demanded ace is part of the form (and kept)
    expect(page.locator('[data-field="called"] button[data-value="clubs"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    page.locator(seat_button("giver", "Carla")).click()
    page.get_by_role("button", name="Review the change").click()
    expect(page.locator("ul.changes")).to_have_text(
        "Giver of the ace: Anna-Katharina Berger → Carla Moser-Lindqvist"
    )


def test_solo66_offers_no_nobody_as_soloist(phones: Any, api: Api) -> None:
    page, _ = opened(phones, api, [], variant="solo66", names=(*NAMES, "Elif Yılmaz-Hofer"))
    page.locator("#new-hand").click()
    page.locator('[data-field="trump"] button[data-value="hearts"]').click()
    soloist = page.locator('[data-field="soloist"] button')
    expect(soloist).to_have_count(5)  # the five players, never "Nobody"


def test_a_finished_session_names_its_winner_and_offers_no_next_hand(phones: Any, api: Api) -> None:
    page, table = opened(phones, api, [SOLO], variant="spanish", target_hands=1)
    notice = page.locator('[data-session="over"]')
    expect(notice).to_contain_text("Winner: Bernd Huber")
    # the service's reason names seats; the pad reads the players' names into it
    expect(notice).to_contain_text("Bernd Huber won with the highest total")
    assert not WORDED_SEATS.search(notice.inner_text()), notice.inner_text()
    expect(page.locator("#new-hand")).to_have_count(0)
    expect(page.locator('[data-fact="deals next"]')).to_have_count(0)
    expect(page.locator('[data-fact="couleur"]')).to_have_text("♣ clubs")  # the colour, shown
    expect(page.locator("li.seat .tag", has_text="deals")).to_have_count(0)
    api._call("POST", f"/tables/{table['id']}/close", table["table_token"])
    page.reload()
    expect(page.locator('[data-session="over"]')).to_contain_text("final balances")
    spanish = phones()
    spanish.context.add_init_script("localStorage.setItem('solo-pad:lang', 'es')")
    spanish.page.goto(table_url("", table))
    notice = spanish.page.locator('[data-session="over"]')
    expect(notice).to_contain_text("Bernd Huber")
    assert not WORDED_SEATS.search(notice.inner_text()), notice.inner_text()


def test_a_closed_table_shows_its_final_state(phones: Any, api: Api) -> None:
    page, table = opened(phones, api, [SOLO])
    api._call("POST", f"/tables/{table['id']}/close", table["table_token"])
    page.reload()
    expect(page.locator("p.notice", has_text="final balances")).to_be_visible()
    expect(page.locator('[data-fact="deals next"]')).to_have_count(0)
    expect(page.locator('[data-fact="stake"]')).to_have_count(0)
    expect(page.locator("li.seat.dealer")).to_have_count(0)


def test_a_german_solo_player_page_shows_no_betes_or_stamms(phones: Any, api: Api) -> None:
    table = api.table_setup(NAMES, variant="german")
    api.record(table, SOLO)
    page = phones().page
    page.goto("/")
    club = table["club_id"]
    entry = {"id": club, "name": "E2E club", "token": table["admin_token"]}
    page.evaluate(
        "([id, entry]) => localStorage.setItem('solo-pad:clubs', JSON.stringify({[id]: entry}))",
        [club, entry],
    )
    player = table["seats"][1]["player_id"]
    page.goto(f"/#league={club}&view=player&player={player}")
    stats = page.locator("dl.stats").first
    expect(stats).to_contain_text("Solos won")
    assert "Bêtes paid" not in stats.inner_text() and "Stamms drawn" not in stats.inner_text()


def test_a_german_solo_season_shows_no_betes_or_stamms_columns(phones: Any, api: Api) -> None:
    first = api.table_setup(NAMES, variant="german")
    club, token = first["club_id"], first["admin_token"]
    season = api._call(
        "POST", f"/clubs/{club}/seasons", token, json={"name": "Winter", "variant": "german"}
    )
    players = [seat["player_id"] for seat in first["seats"]]
    json = {"club_id": club, "name": "Friday", "variant": "german", "seats": players}
    table = api._call("POST", "/tables", token, json={**json, "season_id": season["id"]})
    api.record(table, SOLO)
    page = phones().page
    page.goto("/")
    entry = {"id": club, "name": "E2E club", "token": token}
    page.evaluate(
        "([id, entry]) => localStorage.setItem('solo-pad:clubs', JSON.stringify({[id]: entry}))",
        [club, entry],
    )
    page.goto(f"/#league={club}&view=standings")
    heads = page.locator("table.standings thead th button")
    expect(heads.first).to_be_visible()
    names = [heads.nth(i).get_attribute("aria-label") for i in range(heads.count())]
    assert "Solos" in names and "Touts" in names, names
    assert "Bêtes" not in names and "Stamms" not in names, names


def test_a_players_net_per_100_hands_has_a_real_minus_sign(phones: Any, api: Api) -> None:
    table = api.table_setup(NAMES)
    api.record(table, SOLO)  # Bernd's solo: Anna-Katharina pays
    club, token = table["club_id"], table["admin_token"]
    player = table["seats"][0]["player_id"]
    career = api._call("GET", f"/players/{player}/stats", token)["career"][0]
    assert career["net_per_100_hands"] < 0, career
    page = phones().page
    page.goto("/")
    entry = {"id": club, "name": "E2E club", "token": token}
    page.evaluate(
        "([id, entry]) => localStorage.setItem('solo-pad:clubs', JSON.stringify({[id]: entry}))",
        [club, entry],
    )
    page.goto(f"/#league={club}&view=player&player={player}")
    value = page.locator("dl.stats").first.locator("div", has_text="Net / 100 hands").locator("dd")
    expect(value).to_have_text(re.compile("^\u2212\\d"))
