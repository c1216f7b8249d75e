"""The score pad in a real Chromium at phone size, against the real service."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from service.api.pages import PAD_DIR, read_pad

from .support import (
    Api,
    Network,
    Taps,
    go_offline,
    go_online,
    seat_button,
    shown_balances,
    suit_button,
    table_url,
    wait_preview,
    wait_recorded,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

POLL_SECONDS = 3  # the page polls every 3 s (index.html data-poll-ms)


def known_table(page: Any) -> dict[str, Any]:
    """The table the page opened, with the table token it keeps in localStorage."""
    tables = json.loads(page.evaluate("localStorage.getItem('solo-pad:tables')"))
    (entry,) = tables.values()
    return {"id": entry["id"], "table_token": entry["token"]}


def create_table_in_the_page(page: Any) -> dict[str, Any]:
    page.goto("/")
    page.get_by_label("Club name").fill("Thursday club")
    page.get_by_role("button", name="Create the club").click()
    page.locator(".newtable form").wait_for()
    for name in ("Anna", "Bob", "Carl", "Dora"):
        page.get_by_label("New player’s name").fill(name)
        page.locator(".addplayer button").click()
        page.locator(f'button.player:has-text("{name}")[aria-pressed="true"]').wait_for()
        expect(page.get_by_label("New player’s name")).to_have_value("")  # ready for the next
    page.get_by_label("Table name").fill("Thursday")
    page.locator("details.options summary").click()
    assert page.get_by_label("Stake", exact=True).input_value() == "2"
    assert page.get_by_label("Couleur", exact=True).input_value() == "clubs"
    page.get_by_role("button", name="Open the table").click()
    page.locator("#new-hand").wait_for()
    return known_table(page)


def open_more(page: Any) -> None:
    """Open "Matadores, errors, more". The preview updating beside it can move the summary
    between Playwright's scroll and its click, so the click is checked and made again."""
    more = page.locator("details.more")
    for _ in range(3):
        more.locator("summary").click()
        try:
            expect(more).to_have_attribute("open", "", timeout=3000)
            return
        except AssertionError:
            continue
    expect(more).to_have_attribute("open", "")


def test_create_record_correct_void_and_settle(phones: Any, api: Api) -> None:
    page = phones().page
    table = create_table_in_the_page(page)
    assert [s["name"] for s in api.table(table)["seats"]] == ["Anna", "Bob", "Carl", "Dora"]
    assert page.locator('[data-seat="0"] .tag').inner_text() == "deals"

    # 1. A won solo: five taps from the table screen to saved.
    tap = Taps(page)
    tap("#new-hand")
    tap('button.contract[data-value="solo"]')
    tap(suit_button("trump", "hearts"))
    tap(seat_button("declarer", "Bob"))
    wait_preview(page)
    assert "Bob plays a solo in hearts" in page.locator(".preview .explanation").inner_text()
    tap("button.save")
    wait_recorded(page, 1)
    assert tap.count == 5

    # 2. A simple game with a partner: six taps.
    tap = Taps(page)
    tap("#new-hand")
    tap(suit_button("trump", "spades"))
    tap(seat_button("declarer", "Carl"))
    tap(suit_button("called", "diamonds"))
    tap(seat_button("partner", "Anna"))
    wait_preview(page)
    tap("button.save")
    wait_recorded(page, 2)
    assert tap.count == 6

    # 3. A tout with the matadores, lost with 7 tricks.
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="tout"]').click()
    page.locator(suit_button("trump", "clubs")).click()
    page.locator(seat_button("declarer", "Dora")).click()
    assert page.locator('[data-field="tricks"] output').inner_text() == "8"
    page.get_by_role("button", name="Tricks taken: one less").click()
    open_more(page)
    page.get_by_role("button", name="Held by declarers").click()
    page.get_by_role("button", name="Lower matadores: one more").click()
    expect(page.locator(".preview .result")).to_contain_text("Lost")
    page.locator("button.save").click()
    wait_recorded(page, 3)

    # 4. A forfeit, 5. a misdeal.
    page.locator("#new-hand").click()
    page.locator('[data-field="kind"] button[data-value="forfeit"]').click()
    page.locator(seat_button("seat", "Bob")).click()
    wait_preview(page)
    page.locator("button.save").click()
    wait_recorded(page, 4)
    page.locator("#new-hand").click()
    page.locator('[data-field="kind"] button[data-value="misdeal"]').click()
    wait_preview(page)
    page.locator("button.save").click()
    wait_recorded(page, 5)

    records = [h["hand"] for h in api.hands(table)]
    assert [(r["kind"], r.get("contract")) for r in records] == [
        ("played", "solo"),
        ("played", "simple"),
        ("played", "tout"),
        ("forfeit", None),
        ("misdeal", None),
    ]
    assert records[1]["called"] == {"rank": "ace", "suit": "diamonds"}
    assert (records[1]["declarer"], records[1]["partner"]) == (2, 0)
    assert records[2]["matadores"] == {"side": "declarers", "lower": 1}
    assert records[2]["tricks"] == 7
    assert records[3]["seat"] == 1
    assert shown_balances(page) == [s["balance"] for s in api.table(table)["seats"]]

    # Correct hand 2: the partner took one trick less. The confirmation says what changes.
    page.locator('.sheet .hand[data-number="2"] button.what').click()
    page.get_by_role("button", name="Correct hand 2").click()
    page.get_by_role("button", name="Tricks taken: one less").click()
    # The preview of the stored hand may still be on screen: wait for the changed one.
    expect(page.locator(".preview .result")).to_contain_text("Lost")
    page.get_by_role("button", name="Review the change").click()
    confirm = page.locator("section.confirm")
    assert "Tricks taken: 5 → 4" in confirm.locator("ul.changes").inner_text()
    assert "Lost" in confirm.locator(".settlement .result").inner_text()
    confirm.get_by_role("button", name="Save the correction").click()
    page.locator("p.notice.ok").wait_for()
    assert "Hand 2 is corrected. Balances:" in page.locator("p.notice.ok").inner_text()
    hand2 = api.hands(table)[1]
    assert (hand2["hand"]["tricks"], hand2["revision"], hand2["settlement"]["result"]) == (
        4,
        2,
        "lost",
    )

    # Void hand 3, after a confirmation that shows the chips going back.
    page.locator('.sheet .hand[data-number="3"] button.what').click()
    page.get_by_role("button", name="Void hand 3").click()
    box = page.locator('.sheet .hand[data-number="3"] .confirm')
    expect(box.locator("table.compare")).to_be_visible()
    shown_after = box.locator("table.compare tbody tr").all_inner_texts()
    box.get_by_role("button", name="Yes, void hand 3").click()
    page.locator('.sheet .hand.void[data-number="3"]').wait_for()
    # The confirmation showed what the whole table became: every balance and the pool.
    after = api.table(table)
    assert [row.split("\t")[2] for row in shown_after] == [
        *(shown_number(s["balance"]) for s in after["seats"]),
        str(after["pool"]),
    ]
    notice = page.locator("p.notice.ok").inner_text()
    assert "Hand 3 is void. Balances:" in notice and "pool" in notice
    assert [h["status"] for h in api.hands(table)] == [
        "recorded",
        "recorded",
        "void",
        "recorded",
        "recorded",
    ]

    # What the pad shows is what the service says.
    state = api.table(table)
    assert shown_balances(page) == [s["balance"] for s in state["seats"]]
    assert page.locator('dd[data-fact="pool"]').inner_text() == str(state["pool"])
    assert page.locator(".sheet tbody.hand").count() == 5

    # Close the sitting: who pays whom.
    page.get_by_role("link", name="Settle up / close").click()
    page.locator("ul.payments").wait_for()
    page.get_by_role("button", name="Close the table").click()
    page.get_by_role("button", name="Yes, close the table").click()
    page.get_by_text("Final: the table is closed.").wait_for()
    settle = api.settle_up(table)
    assert settle["final"] is True
    shown = page.locator("ul.payments li").all_inner_texts()
    names = {s["seat"]: s["name"] for s in state["seats"]}
    unit = {True: "chip", False: "chips"}
    assert shown == [
        f"{names[t['from']]} pays {names[t['to']]} {t['amount']} {unit[t['amount'] == 1]}"
        for t in settle["transfers"]
    ]


def shown_number(n: int) -> str:
    """How the pad writes a balance: +3, −2 (a real minus sign), 0."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def record_solo(page: Any, declarer: str = "Bob", trump: str = "hearts") -> None:
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", trump)).click()
    page.locator(seat_button("declarer", declarer)).click()
    page.locator("button.save").click()


def test_offline_hand_is_queued_and_sent_exactly_once(
    phones: Any, api: Api, network: Network
) -> None:
    table = api.table_setup()
    phone = phones()
    page = phone.page
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    # The service worker keeps the page shell: the pad opens again without a network.
    # Its cache is named after the pad's version (service/api/pages.py).
    assert page.evaluate("navigator.serviceWorker.ready.then(() => caches.keys())") == [
        f"solo-pad-{read_pad(PAD_DIR).version}"
    ]

    blocked: list[str] = []
    go_offline(phone.context, network, blocked)
    record_solo(page)
    pending = page.locator('.card.pending[data-outbox="1"]')
    pending.wait_for()
    assert "waiting to send" in pending.inner_text()
    page.locator("#line", has_text="Offline").wait_for()
    page.reload()  # offline: the shell from the cache, the hand from the phone's outbox
    pending.wait_for()
    assert page.locator("h1").inner_text() == "Thursday"
    page.wait_for_timeout(POLL_SECONDS * 1000 + 500)  # a poll passes: still kept, nothing sent
    queued = json.loads(page.evaluate("localStorage.getItem('solo-pad:outbox')"))
    assert [(e["number"], e["state"]) for e in queued] == [(1, "queued")]
    assert len(queued[0]["key"]) == 32
    assert api.table(table)["hands_recorded"] == 0

    assert any(b.startswith("POST ") for b in blocked)  # it tried, and kept the hand
    go_online(phone.context, network)
    wait_recorded(page, 1)
    page.wait_for_timeout(POLL_SECONDS * 1000 + 500)
    assert [h["number"] for h in api.hands(table)] == [1]
    assert api.table(table)["hands_recorded"] == 1

    # The answer is lost on the way back: the page retries with the same Idempotency-Key
    # and the service records the hand once.
    sent: list[dict[str, Any]] = []

    def lose_first_answer(route: Any) -> None:
        request = route.request
        sent.append({"key": request.headers.get("idempotency-key"), "body": request.post_data})
        if len(sent) == 1:
            route.fetch()  # the service records it …
            route.abort("connectionreset")  # … and the phone never hears back
        else:
            route.continue_()

    page.route("**/api/v1/tables/*/hands", lose_first_answer)
    record_solo(page, declarer="Carl", trump="spades")
    wait_recorded(page, 2)
    page.unroute("**/api/v1/tables/*/hands")
    assert len(sent) == 2 and sent[0] == sent[1]
    assert json.loads(sent[0]["body"])["expected_number"] == 2
    assert [h["number"] for h in api.hands(table)] == [1, 2]
    assert shown_balances(page) == [s["balance"] for s in api.table(table)["seats"]]


def test_conflict_shows_both_versions(phones: Any, api: Api, network: Network) -> None:
    table = api.table_setup()
    phone = phones()
    page = phone.page
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()

    go_offline(phone.context, network)
    record_solo(page, declarer="Bob")
    page.locator('.card.pending[data-outbox="1"]').wait_for()
    # Meanwhile another phone records hand 1.
    api.record(
        table,
        {
            "contract": "simple",
            "trump": "spades",
            "declarer": 0,
            "called": {"rank": "ace", "suit": "hearts"},
            "partner": 2,
            "tricks": 6,
        },
    )
    go_online(phone.context, network)

    card = page.locator(".card.conflict")
    card.wait_for()
    assert "Hand 1 was recorded on another phone" in card.inner_text()
    assert "Simple game ♠ · Anna & Carl" in card.locator(".theirs").inner_text()
    assert "Solo ♥ · Bob" in card.locator(".mine").inner_text()
    assert api.table(table)["hands_recorded"] == 1

    card.get_by_role("button", name="Add mine as hand 2").click()
    wait_recorded(page, 2)
    hands = api.hands(table)
    assert [(h["number"], h["hand"]["contract"]) for h in hands] == [(1, "simple"), (2, "solo")]


def test_a_second_phone_sees_the_hands_appear(phones: Any, api: Api) -> None:
    table = api.table_setup()
    first = phones().page
    first.goto(table_url("", table))
    first.get_by_role("link", name="Share").click()
    link = first.get_by_label("Link to this table").input_value()
    # The link the service answers with the table's first screen in the page.
    assert link.endswith(f"/?table={table['id']}&token={table['table_token']}")
    assert first.locator("svg.qr path").get_attribute("d")

    second = phones()
    not_modified: list[int] = []
    second.page.on("response", lambda r: r.status == 304 and not_modified.append(r.status))
    requested: list[str] = []
    second.page.on("request", lambda r: requested.append(r.url))
    second.page.goto(link)
    second.page.locator("#new-hand").wait_for()
    assert "token" not in second.page.url  # the token leaves the address bar …
    # … and every request line but the page's own (the service reads the table with it for the
    # page; its access line never has the query string).
    assert requested[0] == link
    assert all(table["table_token"] not in url for url in requested[1:])

    first.get_by_role("link", name="← Table").click()
    record_solo(first, declarer="Dora", trump="diamonds")
    wait_recorded(first, 1)
    started = time.monotonic()
    second.page.locator('.sheet .hand[data-number="1"]').wait_for(timeout=(POLL_SECONDS + 5) * 1000)
    assert time.monotonic() - started < POLL_SECONDS + 5
    assert shown_balances(second.page) == shown_balances(first)
    assert not_modified, "the second phone polls with If-None-Match and gets 304s"
    assert shown_balances(second.page)[3] > 0


UNNAMED_CONTROLS = """() => [
  ...document.querySelectorAll('button, a[href], input, select, summary')]
  .filter((el) => el.offsetParent !== null || el.tagName === 'SUMMARY')
  .filter((el) => !(el.getAttribute('aria-label') || (el.labels && el.labels.length)
                    || el.textContent.trim()))
  .map((el) => el.outerHTML.slice(0, 120))"""


def test_every_control_has_a_name_for_screen_readers(phones: Any, api: Api) -> None:
    table = api.table_setup()
    api.record(table, {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6})
    page = phones().page
    base = f"/#table={table['id']}"
    page.goto(table_url("", table))
    page.locator('.sheet .hand[data-number="1"]').wait_for()
    assert page.evaluate(UNNAMED_CONTROLS) == []
    for screen, ready in (
        ("&go=new", "form.handform"),
        ("&go=edit&n=1", "form.handform"),
        ("&go=share", "svg.qr"),
        ("&go=settle", "ul.payments"),
    ):
        page.goto(base + screen)
        page.locator(ready).wait_for()
        if page.locator("details.more summary").count():
            page.locator("details.more summary").click()
        assert page.evaluate(UNNAMED_CONTROLS) == [], screen
        if screen == "&go=new":
            assert page.locator(".preview").get_attribute("aria-live") == "polite"
    assert page.locator("html").get_attribute("lang") == "en"


@pytest.mark.parametrize("asked", ["toString", "constructor", "nonsense"])
def test_an_unknown_screen_in_the_link_opens_the_table(phones: Any, api: Api, asked: str) -> None:
    """A link naming no screen of the pad (a name every object inherits, or none) opens the
    table's own screen rather than breaking the page."""
    table = api.table_setup()
    page = phones().page
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(table_url("", table) + f"&go={asked}")
    page.locator("#new-hand").wait_for()
    expect(page.locator("#new-hand")).to_be_visible()
    assert errors == []
