"""Entering hands as a table does: few taps, nothing lost on a reload, the right dealer offline,
words a player uses, the score sheet, the chart and the printed sheet."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from service.i18n import gettext

from .support import (
    Api,
    Network,
    Taps,
    go_offline,
    go_online,
    seat_button,
    suit_button,
    table_url,
    wait_preview,
    wait_recorded,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Schmidt")


def open_table(
    phones: Any, api: Api, names: tuple[str, ...] = NAMES, variant: str = "american", **options: Any
) -> tuple[Any, dict[str, Any], Any]:
    table = api.table_setup(names, variant=variant, **options)
    phone = phones()
    phone.page.goto(table_url("", table))
    phone.page.locator("#new-hand").wait_for()
    return phone.page, table, phone


def test_short_names_on_the_buttons_and_the_full_name_where_chosen(phones: Any, api: Api) -> None:
    names = ("Anna-Katharina Berger", "Anna-Katharina Bauer", "Bernd Huber", "Carla Moser")
    page, table, _ = open_table(phones, api, names)
    page.locator("#new-hand").click()
    page.locator('[data-field="declarer"] .short').first.wait_for()  # its module comes now
    shown = page.locator('[data-field="declarer"] .short').all_inner_texts()
    assert shown == ["Anna-Katharina Be", "Anna-Katharina Ba", "Bernd", "Carla"]
    # The button's name is the full name (it starts with what the button shows).
    button = page.get_by_role("button", name="Anna-Katharina Bauer", exact=True).first
    button.click()
    legend = page.locator('[data-field="declarer"] legend')
    expect(legend).to_have_text("Declarer: Anna-Katharina Bauer")


def test_a_won_solo_is_five_taps_and_a_revoke_three_more(phones: Any, api: Api) -> None:
    page, table, _ = open_table(phones, api)
    tap = Taps(page)
    tap("#new-hand")
    tap('button.contract[data-value="solo"]')
    tap(suit_button("trump", "hearts"))
    tap(seat_button("declarer", "Bernd"))
    wait_preview(page)
    tap("button.save")
    wait_recorded(page, 1)
    assert tap.count == 5

    # A simple game lost to a revoke: the game's taps, then the box, then who revoked.
    tap = Taps(page)
    tap("#new-hand")
    tap(suit_button("trump", "spades"))
    tap(seat_button("declarer", "Carla"))
    tap(suit_button("called", "diamonds"))
    tap(seat_button("partner", "Dieter"))
    tap("details.more summary")
    tap('[data-field="errors"] button.seat[data-value="1"]')  # revoke is chosen already
    wait_preview(page)
    assert "Revoke by Bernd Huber" in page.locator("ul.errors").inner_text()
    tap("button.save")
    wait_recorded(page, 2)
    assert tap.count == 8
    assert api.hands(table)[1]["hand"]["errors"] == [{"kind": "revoke", "seat": 1}]


def test_a_reload_keeps_the_hand_form_and_the_table_setup(phones: Any, api: Api) -> None:
    page, table, _ = open_table(phones, api)
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "clubs")).click()
    page.locator(seat_button("declarer", "Carla")).click()
    page.get_by_role("button", name="Tricks taken: one more").click()
    page.reload()
    expect(page.locator('button.contract[data-value="solo"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator(suit_button("trump", "clubs"))).to_have_attribute("aria-pressed", "true")
    expect(page.locator(seat_button("declarer", "Carla"))).to_have_attribute("aria-pressed", "true")
    assert page.locator('[data-field="tricks"] output').inner_text() == "6"
    page.get_by_role("button", name="Discard").click()
    page.locator("#new-hand").click()
    expect(page.locator(seat_button("declarer", "Carla"))).to_have_attribute(
        "aria-pressed", "false"
    )

    # The table setup on the start page too.
    page.goto("/")
    page.get_by_label("Club name").fill("Reload club")
    page.get_by_role("button", name="Create the club").click()
    page.locator(".newtable form").wait_for()
    for name in ("Anke", "Bernd", "Carla", "Dirk"):
        page.get_by_label("New player’s name").fill(name)
        page.locator(".addplayer button").click()
        page.locator(f'button.player:has-text("{name}")[aria-pressed="true"]').wait_for()
    page.get_by_label("Table name").fill("Friday")
    page.get_by_label("Game").select_option("german")
    page.reload()
    page.locator(".newtable form").wait_for()
    assert page.get_by_label("Table name").input_value() == "Friday"
    assert page.get_by_label("Game").input_value() == "german"
    assert page.locator('button.player[aria-pressed="true"]').count() == 4


def test_new_table_comes_before_the_token_on_a_first_visit(phones: Any) -> None:
    page = phones().page
    page.goto("/")
    page.get_by_label("Club name").fill("First visit club")
    page.get_by_role("button", name="Create the club").click()
    page.locator(".newtable form").wait_for()
    order = page.locator(".start > section h2, .start > details summary").all_inner_texts()
    assert order.index("New table") < order.index("Club: First visit club")


def test_offline_the_next_hand_follows_the_queued_ones(
    phones: Any, api: Api, network: Network
) -> None:
    page, table, phone = open_table(phones, api, stake=3)
    # The stake's amount is the option the game's description names for it.
    expect(page.locator('dd[data-fact="stake"]')).to_have_text("3 due")
    go_offline(phone.context, network)
    page.locator("#new-hand").click()
    page.locator('[data-field="kind"] button[data-value="misdeal"]').click()
    page.locator("button.save").click()  # a misdeal: the same dealer deals again
    page.locator('.card.pending[data-outbox="1"]').wait_for()
    expect(page.locator('dd[data-fact="stake"]')).to_have_text("paid (redeal)")
    # A screen is drawn after the click returns: expect() waits for it, a bare read would not.
    expect(page.locator('dd[data-fact="deals next"]')).to_have_text("Anna-Katharina Berger")
    page.locator("#new-hand").click()
    expect(page.locator("h1")).to_have_text("Hand 2")
    expect(page.locator("[data-next=dealer]")).to_have_text(
        re.compile(r"^Anna-Katharina Berger deals")
    )
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", "Bernd")).click()
    page.locator("button.save").click()
    page.locator('.card.pending[data-outbox="2"]').wait_for()
    expect(page.locator('dd[data-fact="deals next"]')).to_have_text("Bernd Huber")
    expect(page.locator('dd[data-fact="pool"]')).to_have_text("not known yet")
    page.locator("#new-hand").click()
    expect(page.locator("h1")).to_have_text("Hand 3")
    # a fixed couleur (the default) cannot change, so it is shown offline too; the pool is not
    expect(page.locator("[data-next=dealer]")).to_have_text(
        "Bernd Huber deals and stakes · couleur ♣ clubs"
    )
    # the default couleur is fixed: only the pool and the balances wait for the hands
    expect(page.locator(".record > .notice")).to_have_text(
        "2 hands wait to be sent: the pool and the balances are known once they are recorded."
    )
    page.get_by_role("link", name="← Table").click()
    go_online(phone.context, network)
    wait_recorded(page, 2)
    assert api.table(table)["dealer"] == 1  # what the pad said offline
    expect(page.locator('dd[data-fact="deals next"]')).to_have_text("Bernd Huber")
    expect(page.locator('dd[data-fact="pool"]')).to_have_text(str(api.table(table)["pool"]))


def test_offline_a_game_without_a_pool_waits_only_for_the_balances(
    phones: Any, api: Api, network: Network
) -> None:
    """Solo 66 has no pool and no couleur: the notice (here in Spanish) names the balances."""
    names = (*NAMES[:4], "Eva Weiß")
    page, _, phone = open_table(phones, api, names, variant="solo66")
    phone.context.add_init_script("localStorage.setItem('solo-pad:lang', 'es')")
    page.reload()
    page.locator("#new-hand").wait_for()
    go_offline(phone.context, network)
    page.locator("#new-hand").click()
    page.get_by_role("button", name="Sin triunfo").click()
    page.locator(seat_button("last_trick", "Eva")).click()
    page.locator("button.save").click()
    page.locator('.card.pending[data-outbox="1"]').wait_for()
    page.locator("#new-hand").click()
    expect(page.locator(".record > .notice")).to_have_text(
        "1 mano espera envío: los saldos se sabrán cuando se anote."
    )


def test_eight_tricks_set_tout_after_five_and_say_so(phones: Any, api: Api) -> None:
    page, table, _ = open_table(phones, api)
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", "Bernd")).click()
    more = page.get_by_role("button", name="Tricks taken: one more")
    for _ in range(3):
        more.click()
    assert "Tout after five is set" in page.locator('[data-field="tricks"] .hint').inner_text()
    toggle = page.locator('[data-field="tout_after_five"] button')
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.locator("details.more summary").click()
    # Its name is its words, not the box drawn before them.
    expect(toggle).to_have_accessible_name("Tout after five")
    wait_preview(page)
    page.locator("button.save").click()
    wait_recorded(page, 1)
    assert api.hands(table)[0]["hand"]["tout_after_five"] is True


def test_solo66_points_without_the_keyboard(phones: Any, api: Api) -> None:
    names = ("Ada Lang", "Ben Ott", "Cy Roth", "Di Vogt", "Ed Wolf")
    page, table, _ = open_table(phones, api, names, variant="solo66")
    page.locator("#new-hand").click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("soloist", "Ben")).click()
    plus10 = page.get_by_role("button", name="Soloist’s card points: plus 10")
    plus10.click()  # from 60: the first tap lands on 70
    page.get_by_role("button", name="Soloist’s card points: minus 1", exact=True).click()
    assert page.get_by_role("spinbutton", name="Soloist’s card points").input_value() == "69"
    wait_preview(page)
    page.locator("button.save").click()
    wait_recorded(page, 1)
    hand = api.hands(table)[0]["hand"]
    assert (hand["soloist"], hand["soloist_points"]) == (1, 69)


IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|\(null|\bbete\b|a payment|split / carry")


def test_no_api_words_on_screen(phones: Any, api: Api) -> None:
    page, table, _ = open_table(phones, api)
    api.record(table, {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 3})
    api.record(
        table,
        {
            "contract": "simple",
            "trump": "spades",
            "declarer": 2,
            "called": {"rank": "ace", "suit": "diamonds"},
            "partner": 0,
            "tricks": 4,
        },
    )
    page.reload()
    page.locator('.sheet .hand[data-number="2"]').wait_for()
    texts = []
    for n in (1, 2):
        page.locator(f'.sheet .hand[data-number="{n}"] button.what').click()
    page.locator(".sheet tr.more .transfers").first.wait_for()
    texts.append(page.locator("main").inner_text())
    assert "bête" in texts[-1]  # a lost solo pays a bête, spelled so in the transfers too
    # A refused hand says what to change, in words: the service's field paths are not shown.
    problem = {
        "type": "about:blank",
        "title": "Unprocessable",
        "status": 422,
        "detail": "The hand breaks a rule.",
        "errors": {
            "hand.tout_after_five": ["must be true when the declarer took all 8"],
            "hand.errors.0.seat": ["must be a seat from 0 to 3"],
        },
    }
    page.route(
        "**/api/v1/settlements/preview",
        lambda route: route.fulfill(
            status=422, content_type="application/problem+json", body=json.dumps(problem)
        ),
    )
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", "Bernd")).click()
    refusal = page.locator(".preview .notice.error")
    expect(refusal).to_contain_text("Tout after five: must be true when the declarer took all 8")
    expect(refusal).to_contain_text("Error 1, seat: must be a seat")
    texts.append(page.locator("main").inner_text())
    page.unroute("**/api/v1/settlements/preview")
    page.goto("/")
    page.get_by_label("Club name").fill("Words club")
    page.get_by_role("button", name="Create the club").click()
    page.locator(".newtable form").wait_for()
    for variant in ("american", "spanish", "german", "solo66"):
        page.get_by_label("Game").select_option(variant)
        if page.locator("details.options").get_attribute("open") is None:
            page.locator("details.options summary").click()
        texts.append(page.locator("main").inner_text())
        texts += page.locator("select option").all_inner_texts()
    found = sorted({m for t in texts for m in IDENTIFIER.findall(t)})
    assert not found, found


def test_the_sheet_the_chart_and_the_print(phones: Any, api: Api) -> None:
    page, table, _ = open_table(phones, api)
    hands = [
        {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
        {"contract": "solo", "trump": "clubs", "declarer": 3, "tricks": 2},
        {"kind": "misdeal"},
    ]
    for hand in hands:
        api.record(table, hand)
    page.reload()
    page.locator('.sheet .hand[data-number="3"]').wait_for()
    rows = api.hands(table)
    # Each row: the running balances and the hand's own chips, in the seat order.
    running = [0, 0, 0, 0]
    for hand in rows:
        running = [b + d for b, d in zip(running, hand["settlement"]["deltas"], strict=True)]
        row = page.locator(f'.sheet .hand[data-number="{hand["number"]}"]')
        shown = row.locator(".nums .run").all_text_contents()
        assert [int(x.replace("\u2212", "-")) for x in shown] == running
    assert page.locator('.sheet .hand[data-number="1"] .line').inner_text() == "Solo ♥ Bernd, won"
    lines = page.locator("svg.balchart polyline.l")
    assert lines.count() == 4
    label = page.locator("svg.balchart title").text_content() or ""
    assert "Bernd Huber" in label and "after hand 3" in label
    page.emulate_media(media="print")
    page.locator(".printonly .payments").wait_for(state="attached")
    assert page.locator(".printonly").is_visible()
    assert page.locator("#new-hand").is_hidden() and page.locator(".top").is_hidden()
    page.emulate_media(media="screen")


def test_a_wrong_seating_is_put_right_from_the_pad(phones: Any, api: Api) -> None:
    page, table, _ = open_table(phones, api)
    for hand in (
        {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
        {
            "contract": "simple",
            "trump": "spades",
            "declarer": 2,
            "called": {"rank": "ace", "suit": "diamonds"},
            "partner": 0,
            "tricks": 5,
        },
    ):
        api.record(table, hand)
    page.reload()
    page.locator('.sheet .hand[data-number="2"]').wait_for()
    page.get_by_role("link", name="Seating").click()
    page.get_by_role("button", name="Move Bernd Huber down").click()  # he sat after Carla
    page.locator(".seating table.compare").wait_for()
    shown = page.locator(".seating table.compare tbody tr").all_inner_texts()
    page.get_by_role("button", name="Save the seating").click()
    page.locator("p.notice.ok").wait_for()
    assert "The seating is changed" in page.locator("p.notice.ok").inner_text()
    after = api.table(table)
    assert [s["name"] for s in after["seats"]] == [NAMES[0], NAMES[2], NAMES[1], NAMES[3]]
    # The preview said what the table became, and the hands stayed their players'.
    assert [row.split("\t")[0] for row in shown][:4] == [s["name"] for s in after["seats"]]
    assert [row.split("\t")[2] for row in shown][:4] == [
        shown_number(s["balance"]) for s in after["seats"]
    ]
    assert api.hands(table)[0]["hand"]["declarer"] == 2  # Bernd, now in seat 2
    assert page.locator('.sheet .hand[data-number="1"] .line').inner_text() == "Solo ♥ Bernd, won"


def shown_number(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def test_a_void_shows_the_whole_table_first_and_the_chart_follows(phones: Any, api: Api) -> None:
    page, table, _ = open_table(phones, api)
    for hand in (
        {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 3},
        {"contract": "solo", "trump": "clubs", "declarer": 3, "tricks": 6},
        {"contract": "solo", "trump": "spades", "declarer": 0, "tricks": 5},
    ):
        api.record(table, hand)
    page.reload()
    page.locator('.sheet .hand[data-number="3"]').wait_for()
    before = page.locator("svg.balchart polyline.l").first.get_attribute("points")
    page.locator('.sheet .hand[data-number="1"] button.what').click()
    page.get_by_role("button", name="Void hand 1").click()
    box = page.locator('.sheet .hand[data-number="1"] .confirm')
    box.locator("table.compare").wait_for()
    shown = box.locator("table.compare tbody tr").all_inner_texts()
    assert [h["status"] for h in api.hands(table)] == ["recorded"] * 3  # the preview stored nothing
    box.get_by_role("button", name="Yes, void hand 1").click()
    page.locator('.sheet .hand.void[data-number="1"]').wait_for()
    after = api.table(table)
    assert [row.split("\t")[2] for row in shown] == [
        *(shown_number(s["balance"]) for s in after["seats"]),
        str(after["pool"]),
    ]
    notice = page.locator("p.notice.ok").inner_text()
    assert notice.startswith("Hand 1 is void. Balances:") and "pool" in notice
    expect(page.locator('.sheet .hand[data-number="1"]')).to_have_class(re.compile(r"\bvoid\b"))
    assert page.locator("svg.balchart polyline.l").first.get_attribute("points") != before


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_a_refused_hand_in_the_outbox_names_its_field_in_the_players_words(
    phones: Any, api: Api, network: Network, language: str
) -> None:
    """A hand kept on the phone that the service refuses (here one changed in the phone's
    storage to name a fifth seat at a table of four) waits with the refusal: its field by its
    title in the game's description, in the page's language ("Spieler: …"), not as the API
    names it ("declarer: …")."""
    page, table, phone = open_table(phones, api)
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    page.reload()
    page.locator("#new-hand").wait_for()
    go_offline(phone.context, network)
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(seat_button("declarer", "Bernd")).click()
    page.locator("button.save").click()
    page.locator('.card.pending[data-outbox="1"]').wait_for()
    page.evaluate(
        """() => {
            const outbox = JSON.parse(localStorage.getItem('solo-pad:outbox'));
            outbox[0].body.declarer = 4;
            localStorage.setItem('solo-pad:outbox', JSON.stringify(outbox));
        }"""
    )
    go_online(phone.context, network)
    page.reload()
    refusal = page.locator('.card.error[data-outbox="1"] li')
    expect(refusal).to_have_count(1)
    title = gettext("Declarer", language)
    expect(refusal).to_have_text(re.compile(rf"^{re.escape(title)}: \S"))
    assert api.hands(table) == []


@pytest.mark.parametrize("language", ["de", "es"])
def test_a_hand_queued_while_its_table_was_closed_is_refused_and_the_state_stays_final(
    phones: Any, api: Api, network: Network, language: str
) -> None:
    """A phone records a hand offline; meanwhile the table is closed (the club night's closing
    does this to every table). Back online, the hand is refused in the service's words (a
    capital after the German colon: a whole sentence), and the table shows its final state:
    no "balances before the hand waiting to be sent", the pool known, nothing waits."""
    table = api.table_setup(NAMES)
    phone = phones(locale=language)
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    page = phone.page
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    go_offline(phone.context, network)
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator('[data-field="declarer"] button.choice').nth(1).click()
    page.locator("button.save").click()
    page.locator('.card.pending[data-outbox="1"]').wait_for()
    api._call("POST", f"/tables/{table['id']}/close", table["admin_token"])
    go_online(phone.context, network)
    refused = page.locator('.card.error[data-outbox="1"]')
    words = gettext("The table is closed: no more hands can be recorded.", language)
    expect(refused).to_contain_text(words, timeout=30_000)
    if language == "de":  # a whole sentence after the colon starts with a capital
        assert "geschlossen: Es können" in words, words
    expect(page.locator("ol.seats + p.hint")).to_have_count(0)
    expect(page.locator('dd[data-fact="pool"]')).to_have_text(str(api.table(table)["pool"]))
    assert api.hands(table) == []
