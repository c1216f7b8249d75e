"""A whole club night in Chromium, as a club runs it: the admin starts it on the admin screen
(/clubs/{id}/night-admin, with the admin token the pad keeps), ten players in two series of two
tables, each table's hands recorded on the pad from two phones opened on the table's link, a
late arrival before series 2, the big screen following by itself, a refusal to close shown with
its own words, the money settle-up, the night's standings and the season's. Two runs: German on
a 360 px phone, Spanish on an 800 px tablet. Each language's words and each width's layout are
walked through once; the story is the same in both, and the admin screen's fit in each language
at each phone width is tests/e2e/test_fit.py's (the club night's admin screen with long names).

``NIGHT_SCREENSHOTS=docs/screenshots`` writes the screenshots docs/league.md shows."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Phone
from .support import NightClub, suit_button, wait_recorded
from .test_night_screen import PROJECTOR

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOUND_MS = 60_000  # generous: a loaded machine may take seconds where a quiet one takes 100 ms
WORDS = {
    "de": {
        "start": "Spieleabend beginnen",
        "pending": "hat 1 von 2 Spielen gespielt",
        "close_anyway": "Trotzdem schließen",
        "yes_close": "Ja, Spieleabend schließen",
        "closed": "Der Spieleabend ist geschlossen",
        "one": "1 von 2 Spielen",
        "pays": " zahlt an ",
        "over": "Der Abend ist vorbei",
        "settle_up": "Abrechnung in Geld",
        "who_pays": "Wer zahlt wem",
        "presence_saved": "Gespeichert: Die nächste Auslosung",
    },
    "es": {
        "start": "Empezar la noche",
        "pending": "lleva 1 de 2 manos",
        "close_anyway": "Cerrar de todos modos",
        "yes_close": "Sí, cerrar la noche de club",
        "closed": "La noche de club está cerrada",
        "one": "1 de 2 manos",
        "pays": " paga a ",
        "over": "La noche ha terminado",
        "settle_up": "Liquidación en dinero",
        "who_pays": "Quién paga a quién",
        "presence_saved": "Guardado: el próximo sorteo",
    },
}
PHONE_SIZE, TABLET_SIZE = {"width": 360, "height": 780}, {"width": 800, "height": 1000}
RUNS = [("de", PHONE_SIZE), ("es", TABLET_SIZE)]


def club_scene(club: NightClub) -> dict[str, Any]:
    """The club of ten (the tenth comes late), its read-only link, a season of American Solo
    open today."""
    return {
        "club": club.club,
        "admin": club.admin,
        "viewer": club.viewer,
        "players": club.players,
        "season": club.season(),
    }


def cents_shown(cents: int, language: str) -> str:
    """Whole cents as the page writes them in German and Spanish: "1,50 €" (a no-break space)."""
    return f"{abs(cents) // 100},{abs(cents) % 100:02d}\u00a0€"


def table_links(admin: Any, number: int) -> list[str]:
    """The share links of series `number`'s tables, as the admin screen shows them."""
    links = admin.locator(f'section.series[data-series="{number}"] .cards-here .scan a')
    expect(links).to_have_count(2, timeout=BOUND_MS)
    return [links.nth(i).get_attribute("href") for i in range(2)]


def play_table(phones: Any, link: str, language: str, hands: int = 2) -> None:
    """Two phones open the table's link; they take turns recording won solos on the pad, each
    phone seeing the other's hand before it records its own."""
    pair: list[Phone] = [phones(locale=language), phones(locale=language)]
    for phone in pair:
        phone.page.goto(link)
        phone.page.locator("#new-hand").wait_for(timeout=BOUND_MS)
    for number in range(1, hands + 1):
        page = pair[(number - 1) % 2].page
        if number > 1:
            page.locator(f'.sheet .hand[data-number="{number - 1}"]').wait_for(timeout=BOUND_MS)
        page.locator("#new-hand").click()
        page.locator('button.contract[data-value="solo"]').click()
        page.locator(suit_button("trump", "hearts")).click()
        # The declarer by position: the buttons show short names, the full ones in aria-label.
        page.locator('[data-field="declarer"] button.choice').nth(number % 2).click()
        page.locator("button.save").click()
        wait_recorded(page, number)
    for phone in pair:
        phone.close()


@pytest.mark.parametrize(("language", "viewport"), RUNS, ids=["de-360", "es-800"])
def test_a_whole_club_night(browser, base_url, api, night_club, phones, language, viewport) -> None:
    words = WORDS[language]
    scene = club_scene(night_club)
    club, players = scene["club"], scene["players"]
    # The screenshots docs/league.md shows: the German phone's run only.
    shots = os.environ.get("NIGHT_SCREENSHOTS") if viewport == PHONE_SIZE else None

    # The admin's phone keeps the club's admin token (and its read-only link) as the pad does.
    admin_phone = phones(locale=language, viewport=viewport)
    admin = admin_phone.page
    admin.goto("/")
    admin.evaluate(
        "([id, token, viewer]) => localStorage.setItem('solo-pad:clubs', "
        "JSON.stringify({[id]: {id, name: 'Skatfreunde', token, viewer}}))",
        [club["id"], scene["admin"], scene["viewer"]],
    )
    admin.goto(f"/clubs/{club['id']}/night-admin?lang={language}")
    form = admin.locator("form.start")
    form.wait_for(timeout=BOUND_MS)

    # Start: nine present (the tenth comes late), two hands a series, two series, the open
    # season chosen by itself, five cents a chip and 1,50 € a player, typed with a comma.
    for player in players[:9]:
        form.locator(f'input[name="present"][value="{player["id"]}"]').check()
    fields = form.locator(".money input")
    fields.nth(0).fill("0,05")
    fields.nth(1).fill("1,50")
    form.locator(".field:has(input[type=number]) input").first.fill("2")
    expect(form.locator("select").nth(1)).to_have_value(scene["season"]["id"])
    if shots and language == "de":
        admin.screenshot(path=str(Path(shots) / "night-admin-start-de.png"), full_page=True)
    form.get_by_role("button", name=words["start"]).click()
    admin.locator("section.summary").wait_for(timeout=BOUND_MS)
    night_id = admin.evaluate("new URLSearchParams(location.hash.slice(1)).get('night')")
    night = api._call("GET", f"/nights/{night_id}", scene["admin"])
    assert night["rate"] == {
        "cents": 5,
        "per": 1,
        "currency": "EUR",
        "table_fee_cents": 150,
        "point_settlement": None,
    }
    assert night["season_id"] == scene["season"]["id"] and night["hands_per_series"] == 2
    assert "0,05\u00a0€" in admin.locator("section.summary .rate").inner_text()

    # The big screen, on a projector, with the club's read-only link.
    screen_context = browser.new_context(viewport=PROJECTOR, base_url=base_url)
    screen = screen_context.new_page()

    # Series 1: nine players, tables of 5 and 4; its seed shown; each table played.
    admin.locator("section.draw button.primary").click()
    expect(admin.locator("section.series .seed").first).to_contain_text(
        re.compile(r"\d+"), timeout=BOUND_MS
    )
    first = table_links(admin, 1)
    screen.goto(f"/nights/{night_id}/screen?lang={language}#token={scene['viewer']}")
    screen.locator(".board").wait_for(timeout=BOUND_MS)
    play_table(phones, first[0], language)
    # The second table plays only one hand: the admin's closing is refused, with its words.
    play_table(phones, first[1], language, hands=1)
    expect(screen.locator(".table.done")).to_have_count(1, timeout=BOUND_MS)  # by itself
    expect(screen.locator(".table", has_text=words["one"])).to_have_count(1, timeout=BOUND_MS)

    # A late arrival before series 2: the tenth player is marked present; the draw seats ten.
    admin.locator("section.draw button.primary").click()
    expect(admin.locator(".notice")).to_contain_text(words["pending"], timeout=BOUND_MS)
    end_anyway = admin.locator(".notice button")
    expect(end_anyway).to_have_count(1)
    late = admin.locator(f'form.presence input[value="{players[9]["id"]}"]')
    late.check()
    admin.locator("form.presence button[type=submit]").click()
    # The draw waits for the presence to be saved (its answer rewrites the notice).
    expect(admin.locator(".notice")).to_contain_text(words["presence_saved"], timeout=BOUND_MS)
    expect(late).to_be_checked(timeout=BOUND_MS)
    admin.locator("section.draw button.primary").click()
    expect(admin.locator(".notice")).to_contain_text(words["pending"], timeout=BOUND_MS)
    admin.locator(".notice button").click()  # end series 1 now, one table short
    second = table_links(admin, 2)
    drawn = api._call("GET", f"/nights/{night_id}", scene["admin"])["series"][1]
    assert sorted(len(t["seats"]) for t in drawn["tables"]) == [5, 5]
    assert {s["player_id"] for t in drawn["tables"] for s in t["seats"]} == {
        p["id"] for p in players
    }
    if shots and language == "de":
        admin.locator('section.series[data-series="2"]').screenshot(
            path=str(Path(shots) / "night-admin-series-de.png")
        )

    # Series 2: the first table plays its two hands, the second one: closing is refused.
    play_table(phones, second[0], language)
    play_table(phones, second[1], language, hands=1)
    expect(screen.locator(".table.done")).to_have_count(1, timeout=BOUND_MS)
    expect(screen.locator(".table", has_text=words["one"])).to_have_count(1, timeout=BOUND_MS)
    admin.locator("section.close button").click()  # it asks again: closing is for good
    admin.locator(".notice button", has_text=words["yes_close"]).click()
    expect(admin.locator(".notice")).to_contain_text(words["pending"], timeout=BOUND_MS)
    if shots and language == "de":
        screen.screenshot(path=str(Path(shots) / "night-screen-money-de.png"))
    admin.locator(".notice button", has_text=words["close_anyway"]).click()
    expect(admin.locator(".notice")).to_contain_text(words["closed"], timeout=BOUND_MS)

    # The night's standings and money, as the API has them, on the admin screen.
    board = api._call("GET", f"/nights/{night_id}/standings", scene["admin"])
    money = board["money"]
    assert len(board["standings"]) == 10
    assert sum(p["cents"] for p in money["players"]) + (money["pool_cents"] or 0) == 0
    rows = admin.locator("section.standings tbody tr")
    expect(rows).to_have_count(10, timeout=BOUND_MS)
    for index, line in enumerate(board["standings"]):
        expect(rows.nth(index).locator("td.name")).to_have_text(line["name"])
    settle = admin.locator("section.settle-up")
    for player in money["players"]:
        row = settle.locator("tr", has=admin.locator("td.name", has_text=player["name"]))
        expect(row.locator("td.cents")).to_contain_text(cents_shown(player["cents"], language))
    payments = settle.locator("ul.payments li")
    expect(payments).to_have_count(max(len(money["transfers"]), 1))
    for index, transfer in enumerate(money["transfers"]):
        text = payments.nth(index).inner_text()
        assert words["pays"] in text and cents_shown(transfer["cents"], language) in text
    # Nine sat twice at a table with a fee, one (the late arrival) once: 19 × 1,50 €.
    assert money["fees_cents"] == 19 * 150
    expect(settle).to_contain_text(cents_shown(19 * 150, language))

    # The big screen, by itself: the night is over, who pays whom.
    expect(screen.locator(".board")).to_contain_text(words["over"], timeout=BOUND_MS)
    expect(screen.locator(".board")).to_contain_text(words["who_pays"])
    if shots and language == "de":
        screen.screenshot(path=str(Path(shots) / "night-screen-paid-de.png"))
        admin.locator("section.settle-up").screenshot(
            path=str(Path(shots) / "night-admin-settle-up-de.png")
        )
        admin.locator("section.standings").screenshot(
            path=str(Path(shots) / "night-admin-standings-de.png")
        )
    screen_context.close()

    # The season's standings count every table of the night: each player sat in it.
    standings = api._call("GET", f"/seasons/{scene['season']['id']}/standings", scene["admin"])
    counted = {row["player_id"]: row["sittings"] for row in standings["rows"]}
    late = players[9]["id"]
    assert counted == {p["id"]: 1 if p["id"] == late else 2 for p in players}
    # And on the pad's club screens, as the admin's phone shows the season's standings.
    admin.goto(f"/#league={club['id']}&view=standings")
    shown = admin.locator("table.standings tbody th")
    expect(shown).to_have_count(len(players), timeout=BOUND_MS)
    assert sorted(shown.all_inner_texts()) == sorted(row["name"] for row in standings["rows"])


def test_axe_finds_nothing_on_the_admin_screen(browser, base_url, night_club) -> None:
    """The start form, and a night for money with a series drawn and a hand at each table."""
    from .test_access import violations

    scene = club_scene(night_club)
    api = night_club.api
    club, admin = scene["club"], scene["admin"]
    context = browser.new_context(viewport={"width": 360, "height": 780}, base_url=base_url)
    page = context.new_page()
    try:
        page.goto(f"/clubs/{club['id']}/night-admin?lang=de#token={admin}")
        page.locator("form.start").wait_for(timeout=BOUND_MS)
        assert violations(page) == []
        night = api._call(
            "POST",
            f"/clubs/{club['id']}/nights",
            admin,
            json={
                "name": "Spieleabend",
                "variant": "american",
                "players": [p["id"] for p in scene["players"]],
                "rate": {"cents": 5, "table_fee_cents": 150},
            },
        )
        page.goto(f"/clubs/{club['id']}/night-admin?lang=es#night={night['id']}&token={admin}")
        page.locator("section.draw button.primary").click()
        page.locator("section.series .cards-here article.card").first.wait_for(timeout=BOUND_MS)
        assert violations(page) == []
    finally:
        context.close()


def test_without_an_admin_token_the_screen_says_what_to_do(browser, base_url, api) -> None:
    club = api._call("POST", "/clubs", json={"name": "Skatfreunde"})
    context = browser.new_context(viewport={"width": 360, "height": 780}, base_url=base_url)
    page = context.new_page()
    try:
        page.goto(f"/clubs/{club['id']}/night-admin?lang=de")
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("keinen Admin-Schlüssel dieses Clubs", timeout=BOUND_MS)
        # in the infinitive, as the German catalog addresses its reader (never "Öffne …")
        expect(alert).to_contain_text("Den Club im Solo-Block mit seinem Admin-Schlüssel öffnen")
        expect(page.get_by_role("link", name="Zum Solo-Block")).to_have_attribute("href", "/")
    finally:
        context.close()


AMOUNTS = [
    # typed, language, the rate it makes (None: refused as no amount, or too fine)
    ("0,05", "de", {"cents": 5, "per": 1}),
    ("0,05", "es", {"cents": 5, "per": 1}),
    ("0.05", "de", {"cents": 5, "per": 1}),  # a phone's number pad may offer only the point
    ("0,005", "es", {"cents": 1, "per": 2}),
    ("1.000,50", "de", {"cents": 100050, "per": 1}),
    ("0.05", "en", {"cents": 5, "per": 1}),
    ("1,000.5", "en", {"cents": 100050, "per": 1}),
    ("0,00001", "de", {"cents": 1, "per": 1000}),  # a thousandth of a cent
    ("0,000001", "de", None),  # finer than that
    ("1.000.000", "de", None),
    ("-1", "de", None),
    ("zwei", "de", None),
]


def test_amounts_are_read_as_each_language_writes_them_and_shown_so(browser, base_url) -> None:
    context = browser.new_context(base_url=base_url)
    page = context.new_page()
    try:
        page.goto("/night-assets/night.css")
        read = page.evaluate(
            """async (cases) => {
              const m = await import('/night-assets/money.js');
              return cases.map(([typed, lang]) => {
                const amount = m.parseAmount(typed, lang);
                return amount ? m.rateFromAmount(amount, 'EUR') : null;
              });
            }""",
            [[typed, language] for typed, language, _ in AMOUNTS],
        )
        assert read == [rate for _, _, rate in AMOUNTS]
        shown = page.evaluate(
            """async () => {
              const m = await import('/night-assets/money.js');
              return [m.formatCents(-150, 'EUR', 'de', true), m.formatCents(150, 'EUR', 'es'),
                m.formatCents(5, 'EUR', 'en', true), m.formatCents(1500, 'JPY', 'de'),
                m.rateAmount({cents: 1, per: 2, currency: 'EUR'}, 'de')];
            }"""
        )
        assert shown == [
            "\u22121,50\u00a0€",
            "1,50\u00a0€",
            "+€0.05",
            "1.500\u00a0¥",
            "0,005\u00a0€",
        ]
    finally:
        context.close()
