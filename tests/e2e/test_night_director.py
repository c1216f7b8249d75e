"""The club night's traps on the director's side (issue 39), each in Chromium in German and
Spanish, on a 360 px phone and an 800 px tablet, with long real names:

1. the admin screen, the printed cards and a reprint (after hands are recorded) show one set
   of links, and a phone that scanned one keeps its table;
2. a refusal or a question appears beside the button tapped, in view, and takes the focus;
3. a late arrival ticked but not saved is seated by the next draw (saved first, and said so);
4. closing the whole night asks again;
6. a table's phone offers no closing of its night's table (the service would refuse it): it
   reads that the director closes it;
8. a returning director finds the open night first;
15. the way back to the club, "same players as last night", the money by amount, counts in
    the language's plural ("1 Spiel", "1 mano").

``NIGHT_SCREENSHOTS=docs/screenshots`` writes the German phone's screenshots docs/league.md
shows."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Phone
from .support import SOLO_WON, NightClub, suit_button, tokens_in, wait_recorded

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOUND_MS = 60_000  # generous: a loaded machine may take seconds where a quiet one takes 100 ms
WORDS = {
    "de": {
        "draw": "Serie 2 auslosen",
        "pending": "hat 0 von 2 Spielen gespielt",
        "close": "Spieleabend schließen",
        "ask_close": "Spieleabend schließen? Seine Tische werden mit geschlossen",
        "yes_close": "Ja, Spieleabend schließen",
        "not_yet": "Noch nicht",
        "closed": "Der Spieleabend ist geschlossen",
        "saved_first": "Erst gespeichert, wer da ist",
        "drawn": "Serie 2 ausgelost",
        "table": "Tisch",
        "settle": "Abrechnen",
        "settle_close": "Abrechnen / schließen",
        "table_close": "Tisch schließen",
        "directors": "Ihn schließt die Spielleitung",
        "same": "Dieselben Leute wie beim letzten Abend",
        "one_hand": "1 Spiel",
        "one_per_series": "1 Spiel pro Serie",
        "back": "Zurück zum Club",
        "renew": "Neue Links erstellen",
        "yes_renew": "Ja, neue Links erstellen",
    },
    "es": {
        "draw": "Sortear la ronda 2",
        "pending": "lleva 0 de 2 manos",
        "close": "Cerrar la noche de club",
        "ask_close": "¿Cerrar la noche de club? Sus mesas se cierran con ella",
        "yes_close": "Sí, cerrar la noche de club",
        "not_yet": "Todavía no",
        "closed": "La noche de club está cerrada",
        "saved_first": "Primero se ha guardado quién está",
        "drawn": "Ronda 2 sorteada",
        "table": "Mesa",
        "settle": "Liquidar",
        "settle_close": "Liquidar / cerrar",
        "table_close": "Cerrar la mesa",
        "directors": "la cierra quien dirige la noche",
        "same": "Las mismas personas que la última noche",
        "one_hand": "1 mano",
        "one_per_series": "1 mano por ronda",
        "back": "Volver al club",
        "renew": "Crear enlaces nuevos",
        "yes_renew": "Sí, crear enlaces nuevos",
    },
}
PHONE_SIZE, TABLET_SIZE = {"width": 360, "height": 780}, {"width": 800, "height": 1000}
RUNS = pytest.mark.parametrize(
    ("language", "viewport"),
    [("de", PHONE_SIZE), ("es", PHONE_SIZE), ("de", TABLET_SIZE), ("es", TABLET_SIZE)],
    ids=["de-360", "es-360", "de-800", "es-800"],
)


def shots(language: str, viewport: dict[str, int]) -> Path | None:
    """Where the German phone's run puts its screenshots (NIGHT_SCREENSHOTS), else None."""
    folder = os.environ.get("NIGHT_SCREENSHOTS")
    return Path(folder) if folder and language == "de" and viewport == PHONE_SIZE else None


def admin_screen(phones: Any, club: NightClub, language: str, viewport: dict[str, int]) -> Phone:
    """The director's phone, keeping the club's admin token as the pad does."""
    phone: Phone = club.director(phones, language, viewport)
    return phone


def open_night(page: Any, club: NightClub, night: dict[str, Any], language: str) -> None:
    page.goto(f"/clubs/{club.id}/night-admin?lang={language}#night={night['id']}")
    page.locator("section.summary").wait_for(timeout=BOUND_MS)


def in_view_and_focused(page: Any, locator: Any) -> None:
    """The notice is within the viewport, and the focus is on it (or inside it)."""
    expect(locator).to_be_visible(timeout=BOUND_MS)
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 60) <= height, (
        box,
        height,
    )
    focused = locator.evaluate("n => n.contains(document.activeElement)")
    assert focused, page.evaluate("document.activeElement.outerHTML.slice(0, 120)")


@RUNS
def test_printing_the_cards_keeps_the_links_the_admin_screen_shows(
    browser, base_url, api, night_club, phones, language, viewport
) -> None:
    club = night_club
    night = club.night()
    club.draw(night)
    admin = admin_screen(phones, club, language, viewport).page
    open_night(admin, club, night, language)
    links = admin.locator('section.series[data-series="1"] .cards-here .scan a')
    expect(links).to_have_count(2, timeout=BOUND_MS)
    shown = [links.nth(i).get_attribute("href") for i in range(2)]
    # A phone scans the first table's QR code from the admin screen.
    phone = phones(locale=language)
    phone.page.goto(shown[0])
    phone.page.locator("#new-hand").wait_for(timeout=BOUND_MS)
    # The director prints the cards (the print page, from the admin screen's link).
    with admin.context.expect_page() as opened:
        admin.locator('section.series[data-series="1"] .links a').first.click()
    cards = opened.value
    cards.locator(".card .scan a").first.wait_for(timeout=BOUND_MS)
    printed = cards.locator(".card .scan a").evaluate_all("els => els.map(a => a.href)")
    assert printed == shown
    # The phone still keeps its table: it records a hand.
    page = phone.page
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator('[data-field="declarer"] button.choice').first.click()
    page.locator("button.save").click()
    wait_recorded(page, 1)
    # A reprint once a hand is recorded: the same cards, and every link still opens its table.
    cards.reload()
    cards.locator(".card .scan a").first.wait_for(timeout=BOUND_MS)
    again = cards.locator(".card .scan a").evaluate_all("els => els.map(a => a.href)")
    assert again == shown
    admin.reload()
    expect(links).to_have_count(2, timeout=BOUND_MS)
    assert [links.nth(i).get_attribute("href") for i in range(2)] == shown
    for table_id, token in tokens_in("".join(f'{link}"' for link in shown)):
        assert club.reads(table_id, token) == 200
    # New links only on purpose, asked again beside the button: then the old ones stop.
    admin.get_by_role("button", name=WORDS[language]["renew"]).click()
    ask = admin.locator('section.series[data-series="1"] .notice.ask')
    in_view_and_focused(admin, ask)
    ask.get_by_role("button", name=WORDS[language]["yes_renew"]).click()
    expect(admin.locator('section.series[data-series="1"] .notice')).to_have_count(
        0, timeout=BOUND_MS
    )
    renewed = admin.locator('section.series[data-series="1"] .cards-here .scan a')
    expect(renewed.first).not_to_have_attribute("href", shown[0], timeout=BOUND_MS)
    table_id, token = tokens_in(f'{shown[0]}"')[0]
    assert club.reads(table_id, token) == 401


@RUNS
def test_a_refusal_appears_where_the_tap_was_and_takes_the_focus(
    api, night_club, phones, language, viewport
) -> None:
    words = WORDS[language]
    club = night_club
    night = club.night()
    club.draw(night)
    admin = admin_screen(phones, club, language, viewport).page
    open_night(admin, club, night, language)
    # The next draw, refused (no table has played its hands): beside its button, focused.
    admin.get_by_role("button", name=words["draw"]).click()
    refusal = admin.locator("section.draw .notice.error")
    expect(refusal).to_contain_text(words["pending"], timeout=BOUND_MS)
    in_view_and_focused(admin, refusal)
    expect(admin.locator(".notice")).to_have_count(1)
    # Closing the night, far down the page: its question, then its refusal, where the tap was.
    admin.get_by_role("button", name=words["close"], exact=True).click()
    ask = admin.locator("section.close .notice.ask")
    expect(ask).to_contain_text(words["ask_close"], timeout=BOUND_MS)
    in_view_and_focused(admin, ask)
    if folder := shots(language, viewport):
        admin.screenshot(path=str(folder / "night-admin-close-asks-de.png"))
    ask.get_by_role("button", name=words["yes_close"]).click()
    refused = admin.locator("section.close .notice.error")
    expect(refused).to_contain_text(words["pending"], timeout=BOUND_MS)
    in_view_and_focused(admin, refused)
    if folder := shots(language, viewport):
        admin.screenshot(path=str(folder / "night-admin-refusal-de.png"))
    assert club.get(night)["status"] == "open"


@RUNS
def test_the_draw_seats_a_late_arrival_ticked_but_not_saved(
    api, night_club, phones, language, viewport
) -> None:
    words = WORDS[language]
    club = night_club
    night = club.night(present=9, hands_per_series=None)
    club.draw(night)
    admin = admin_screen(phones, club, language, viewport).page
    open_night(admin, club, night, language)
    late = club.players[9]
    admin.locator(f'form.presence input[value="{late["id"]}"]').check()
    # No "Save who is here": the director draws at once.
    admin.get_by_role("button", name=words["draw"]).click()
    notice = admin.locator("section.draw .notice")
    expect(notice).to_contain_text(words["saved_first"], timeout=BOUND_MS)
    expect(notice).to_contain_text(words["drawn"])
    series = club.get(night)["series"]
    assert len(series) == 2
    seated = {s["player_id"] for t in series[1]["tables"] for s in t["seats"]}
    assert late["id"] in seated and len(seated) == 10
    expect(admin.locator(f'form.presence input[value="{late["id"]}"]')).to_be_checked()


@RUNS
def test_closing_the_night_asks_again(api, night_club, phones, language, viewport) -> None:
    words = WORDS[language]
    club = night_club
    night = club.night(hands_per_series=None)
    club.draw(night)
    admin = admin_screen(phones, club, language, viewport).page
    open_night(admin, club, night, language)
    close = admin.get_by_role("button", name=words["close"], exact=True)
    close.click()
    ask = admin.locator("section.close .notice.ask")
    expect(ask).to_contain_text(words["ask_close"], timeout=BOUND_MS)
    assert club.get(night)["status"] == "open"  # one tap closed nothing
    ask.get_by_role("button", name=words["not_yet"]).click()
    expect(ask).to_have_count(0, timeout=BOUND_MS)
    assert club.get(night)["status"] == "open"
    close.click()
    admin.locator("section.close .notice.ask").get_by_role(
        "button", name=words["yes_close"]
    ).click()
    expect(admin.locator("section.close .notice")).to_contain_text(
        words["closed"], timeout=BOUND_MS
    )
    assert club.get(night)["status"] == "closed"


@RUNS
def test_a_table_phone_offers_no_closing_of_its_night_table(
    api, night_club, phones, language, viewport
) -> None:
    """The phone at a night's table settles up but offers no closing: the service would refuse
    it (403 ``night-table-closed-by-director``); it says who closes the table instead."""
    words = WORDS[language]
    club = night_club
    night = club.night()
    series = club.draw(night)
    tokens = club.card_tokens(night)
    table_id = series["tables"][0]["table_id"]
    club.record(table_id, tokens[table_id])
    phone = phones(locale=language, viewport=viewport)
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    page = phone.page
    refused: list[str] = []
    page.on("response", lambda answer: refused.append(answer.url) if answer.status == 403 else 0)
    page.goto(f"/#table={table_id}&token={tokens[table_id]}")
    actions = page.get_by_role("navigation", name=words["table"])
    settle = actions.get_by_role("link", name=words["settle"], exact=True)
    settle.wait_for(timeout=BOUND_MS)
    assert actions.get_by_role("link", name=words["settle_close"]).count() == 0
    settle.click()
    notice = page.locator("[data-closes=director]")
    expect(notice).to_contain_text(words["directors"], timeout=BOUND_MS)
    expect(page.locator(".settle .settle-up, .settle .notice").first).to_be_visible()
    assert page.get_by_role("button", name=words["table_close"], exact=True).count() == 0
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    if folder := shots(language, viewport):
        notice.scroll_into_view_if_needed()
        page.screenshot(path=str(folder / "night-phone-settle-de.png"))
    table = api._call("GET", f"/tables/{table_id}", club.admin)
    assert table["status"] == "open"
    assert not refused, refused


@RUNS
def test_a_returning_director_finds_the_open_night_first(
    api, night_club, phones, language, viewport
) -> None:
    club = night_club
    older = club.night(name="Dienstagsrunde")
    club.draw(older)
    api._call("POST", f"/nights/{older['id']}/close", club.admin, json={"early": True})
    night = club.night()
    club.draw(night)
    admin = admin_screen(phones, club, language, viewport).page
    # From the pad (Club, Manage, Club night): the address names no night.
    admin.goto(f"/clubs/{club.id}/night-admin?lang={language}")
    summary = admin.locator("section.summary")
    expect(summary.locator("h2")).to_have_text("Donnerstagsrunde", timeout=BOUND_MS)
    box = summary.bounding_box()
    assert box is not None and box["y"] < viewport["height"] / 2
    # The club's nights, asked for: the open one first, above the new night's form.
    admin.locator("nav.crumbs a").last.click()
    first = admin.locator("main section, main form").first
    expect(first).to_have_class("card open-nights", timeout=BOUND_MS)
    expect(first.locator("a")).to_contain_text("Donnerstagsrunde")


@RUNS
def test_the_way_back_last_nights_players_the_money_by_amount_and_counts(
    api, night_club, phones, language, viewport
) -> None:
    words = WORDS[language]
    club = night_club
    # Last night: eight players, one hand a series, for money; one hand at each table.
    last = club.night(
        name="Dienstagsrunde",
        hands_per_series=1,
        series=1,
        rate={"cents": 5, "table_fee_cents": 0},
    )
    series = club.draw(last)
    tokens = club.card_tokens(last)
    for number, table in enumerate(series["tables"]):
        hand = {**SOLO_WON, "declarer": number % 4, "tricks": 6 if number else 3}
        club.record(table["table_id"], tokens[table["table_id"]], hand)
    api._call("POST", f"/nights/{last['id']}/close", club.admin, json={})
    admin = admin_screen(phones, club, language, viewport).page
    open_night(admin, club, last, language)
    folder = shots(language, viewport)
    # The way back to the club, on the Solo pad.
    back = admin.locator("nav.crumbs a").first
    expect(back).to_have_attribute("href", f"/#league={club.id}")
    expect(admin.locator("nav.crumbs")).to_have_attribute("aria-label", words["back"])
    # Counts in the language's words: "1 Spiel pro Serie", "1 Spiel" (never "1 Spiele").
    expect(admin.locator("section.summary .meta")).to_contain_text(words["one_per_series"])
    expect(admin.locator("section.series ol.tables li").first).to_contain_text(
        f"· {words['one_hand']}"
    )
    # The money, by amount: who gets most first.
    board = api._call("GET", f"/nights/{last['id']}/standings", club.admin)
    expected = [
        p["name"] for p in sorted(board["money"]["players"], key=lambda p: (-p["cents"], p["name"]))
    ]
    names = admin.locator("section.settle-up table.each td.name")
    expect(names).to_have_count(len(expected), timeout=BOUND_MS)
    shown = names.all_inner_texts()
    amounts = [p["cents"] for p in board["money"]["players"]]
    assert len(set(amounts)) > 1, amounts  # the order is something to check
    by_name = {p["name"]: p["cents"] for p in board["money"]["players"]}
    assert [by_name[name] for name in shown] == sorted(amounts, reverse=True)
    if folder:
        admin.locator("section.settle-up").screenshot(path=str(folder / "night-admin-money-de.png"))
    # A new night with last night's players: one tap.
    admin.goto(f"/clubs/{club.id}/night-admin?lang={language}#nights")
    form = admin.locator("form.start")
    form.wait_for(timeout=BOUND_MS)
    form.get_by_role("button", name=words["same"]).click()
    ticked = form.locator("input[name=present]:checked").evaluate_all(
        "boxes => boxes.map(b => b.value)"
    )
    assert sorted(ticked) == sorted(p["id"] for p in club.players[:8])
    if folder:
        admin.screenshot(path=str(folder / "night-admin-start-same-de.png"))
