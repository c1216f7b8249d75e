"""The pad in German and Spanish, in a real Chromium at phone size, against the real service.

A German phone (the browser's language de-DE) and a Spanish one (an English browser, switched
with the header's language switch, the choice kept over a reload and a new page) go through the
main flows: a club made, a table with long names opened, a won and a lost solo recorded (the
preview's explanation in the language, with the players' names), the balances and the sheet,
a hand corrected and one voided, the table settled up and closed, and the club's standings and a
player's page. The texts expected are read from the pad's catalogs (tests/e2e/words.py), plus a
few words a German or Spanish player must see. The page is asked in its language (<html lang>)
and asks the API in it (Accept-Language), which answers in it (Content-Language).

"No English left" visits every screen in German and Spanish and fails on any English word of a
stop list in the visible text or the accessible names (aria-label, title, alt, placeholder),
naming the screen and the text (its control: the same crawl finds English on an English phone).
Numbers, dates and plurals are Intl's, in the pad's language rather than the browser's: a date
and a thousands separator in German and Spanish, "1 Spiel"/"2 Spiele" and "1 mano"/"2 manos"
in the club's tables, and in the status line of a German phone offline with hands kept. The
language is the first of the browser's languages the pad speaks (fr-FR, es-419 → Spanish).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .support import (
    BALANCE_TEXT,
    Api,
    Network,
    go_offline,
    go_online,
    table_url,
    wait_preview,
)
from .test_league import club_scene
from .words import Words, number

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = (
    "Anna-Katharina Berger",
    "Bernd Huber",
    "Carla Moser-Lindqvist",
    "Maximiliane Theresia von Hohenberg-Wartenstein",
)
CLUB = "Schafkopf- und Solo-Freunde Obermühlbach"
LOCALES = {"de": "de-DE", "es": "es-ES"}
# Words a German or Spanish player must read (docs/i18n.md "Terms"), whatever else the
# translators chose: a hand, the table.
HAND_WORD = {
    "en": re.compile(r"\bhand\b", re.I),
    "de": re.compile(r"\bSpiel\b"),
    "es": re.compile(r"\bmano\b", re.I),
}
TABLE_WORD = {
    "en": re.compile(r"\btable\b"),
    "de": re.compile(r"\bTisch\b"),
    "es": re.compile(r"\bmesa\b", re.I),
}
WORDED_SEATS = re.compile(r"\b(?:[Ss]eats?|Platz|[Aa]sientos?) \d")


class Traffic:
    """The page's requests to the API: the Accept-Language each asked in, and the
    Content-Language each answer came in."""

    def __init__(self, page: Any) -> None:
        self.asked: list[tuple[str, str | None]] = []
        self.answered: list[tuple[str, str | None]] = []
        page.on("request", self._request)
        page.on("response", self._response)

    def _request(self, request: Any) -> None:
        # A table's stream (EventSource) cannot set the header, and its events carry no words.
        if "/api/" in request.url and "/events?" not in request.url:
            self.asked.append((request.url, request.headers.get("accept-language")))

    def _response(self, response: Any) -> None:
        if "/api/" in response.url and response.status != 304 and "/events?" not in response.url:
            self.answered.append((response.url, response.headers.get("content-language")))

    def check(self, language: str) -> None:
        assert self.asked, "the page asked the API nothing"
        wrong = [(u, a) for u, a in self.asked if a != language]
        assert not wrong, f"asked in another language than {language}: {wrong[:5]}"
        wrong = [(u, c) for u, c in self.answered if c != language]
        assert not wrong, f"answered in another language than {language}: {wrong[:5]}"


def assert_in_language(page: Any, language: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", language)
    width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def with_names(line: str, names: tuple[str, ...]) -> str:
    """What the pad does to an explanation line (hand.js withNames): seats become names."""
    pattern = r"\b(?:[Ss]eats?|Platz|[Aa]sientos?) (\d(?:(?:, | and | und | y )\d)*)\b"
    return re.sub(
        pattern, lambda m: re.sub(r"\d", lambda d: names[int(d.group(0)) - 1], m.group(1)), line
    )


def explanation_in(api: Api, table: dict[str, Any], language: str, number_: int) -> list[str]:
    answer = api.http.get(
        f"{api.base}/api/v1/tables/{table['id']}/hands?page_size=100",
        headers={"Authorization": f"Bearer {table['table_token']}", "Accept-Language": language},
        timeout=10,
    )
    answer.raise_for_status()
    assert answer.headers["Content-Language"] == language
    (hand,) = [h for h in answer.json() if h["number"] == number_]
    return [with_names(line, NAMES) for line in hand["settlement"]["explanation"]]


def known_table(page: Any) -> dict[str, Any]:
    tables = page.evaluate("JSON.parse(localStorage.getItem('solo-pad:tables'))")
    (entry,) = tables.values()
    return {"id": entry["id"], "table_token": entry["token"]}


def create_club_and_table(page: Any, w: Words) -> dict[str, Any]:
    page.goto("/")
    page.get_by_label(w("Club name")).fill(CLUB)
    page.get_by_role("button", name=w("Create the club")).click()
    page.locator(".newtable form").wait_for()
    for name in NAMES:
        page.locator(".addplayer input").fill(name)
        page.locator(".addplayer button").click()
        page.locator(f'button.player:has-text("{name}")[aria-pressed="true"]').wait_for()
    page.get_by_label(w("Table name")).fill("Donnerstag")
    page.locator("details.options summary").click()
    page.locator(".newtable button[type=submit]").click()
    page.locator("#new-hand").wait_for()
    return known_table(page)


def change_and_wait(page: Any, button: Any) -> None:
    """Click `button` on a hand form showing a preview, and wait for the preview of the changed
    hand (asked 150 ms after the click): what is saved then comes with its settlement."""
    wait_preview(page)
    shown = page.locator(".preview").inner_text()
    button.click()
    expect(page.locator(".preview")).not_to_have_text(shown)
    wait_preview(page)


def open_hand(page: Any, number_: int) -> Any:
    """A hand's row in the sheet opened (its details: the settlement, Correct and Void)."""
    hand = page.locator(f'.sheet .hand[data-number="{number_}"]')
    toggle = hand.locator("button.what")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    more = hand.locator("tr.more")
    more.wait_for()
    return more


def record_solo(page: Any, declarer: int, tricks_less: int = 0) -> str:
    """A solo in hearts by `declarer` (a seat), with `tricks_less` tricks below the target;
    saved once its preview shows the finished hand, whose text is given back."""
    previews: list[Any] = []

    def note(request: Any) -> None:
        if request.url.endswith("/settlements/preview"):
            previews.append(request)

    page.on("request", note)
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator('[data-field="trump"] button[data-value="hearts"]').click()
    page.locator(f'[data-field="declarer"] button[data-value="{declarer}"]').click()
    for _ in range(tricks_less):
        page.locator('[data-field="tricks"] button.step').first.click()
    # The preview is asked 150 ms after the last change: wait for the request of the hand as
    # it stands, then for the page to show what it answered (not an earlier answer).
    tricks = int(page.locator('[data-field="tricks"] output').inner_text())
    asked = []
    for _ in range(200):
        asked = [
            r
            for r in previews
            if json.loads(r.post_data)["hand"].get("tricks") == tricks
            and json.loads(r.post_data)["hand"].get("declarer") == declarer
        ]
        if asked:
            break
        page.wait_for_timeout(50)
    assert asked, "no preview asked for the finished hand"
    answer = asked[-1].response()
    lines = [with_names(line, NAMES) for line in answer.json()["explanation"]]
    preview = page.locator(".preview")
    expect(preview.locator(".explanation li")).to_have_text(lines)
    page.remove_listener("request", note)
    text = preview.inner_text()
    page.locator("button.save").click()
    return text


def main_flows(page: Any, api: Api, language: str) -> None:
    w = Words(language)
    traffic = Traffic(page)
    table = create_club_and_table(page, w)
    assert_in_language(page, language)
    assert [s["name"] for s in api.table(table)["seats"]] == list(NAMES)
    expect(page.locator('[data-seat="0"] .tag')).to_have_text(w("deals"))
    expect(page.locator("#new-hand")).to_have_text(w("New hand {number}", number=1))
    assert HAND_WORD[language].search(page.locator("#new-hand").inner_text())

    # A won solo and a lost one; each preview explains the hand in the language, with names.
    won = record_solo(page, declarer=1)
    page.locator('.sheet .hand[data-number="1"]').wait_for()
    lost = record_solo(page, declarer=2, tricks_less=3)
    page.locator('.sheet .hand[data-number="2"]').wait_for()
    for number_, preview in ((1, won), (2, lost)):
        lines = explanation_in(api, table, language, number_)
        assert lines and all(line in preview for line in lines), (lines, [preview])
        assert not WORDED_SEATS.search(preview), preview
    assert w("Won") in won and w("Lost") in lost
    assert_in_language(page, language)

    # The balances and the sheet.
    state = api.table(table)
    balances = page.eval_on_selector_all("ol.seats .balance", BALANCE_TEXT)
    assert balances == [shown_number(language, s["balance"]) for s in state["seats"]]
    details = open_hand(page, 1).locator(".settlement")
    expect(details.locator(".explanation")).to_contain_text(NAMES[1])
    for line in explanation_in(api, table, language, 1):
        expect(details.locator(".explanation")).to_contain_text(line)

    # Correct hand 2 (one trick more), after the confirmation that says what changes.
    open_hand(page, 2).locator("button.small:not(.danger)").first.click()
    expect(page.locator("h1")).to_contain_text("2")
    change_and_wait(page, page.locator('[data-field="tricks"] button.step').last)
    page.locator("button.save").click()
    confirm = page.locator("section.confirm")
    expect(confirm.locator("ul.changes")).to_contain_text("2 → 3")
    expect(confirm.locator("h2#confirm-h")).to_have_text(w("Change hand {number}?", number=2))
    confirm.locator("button.primary:not([disabled])").click()
    notice = page.locator("p.notice.ok")
    expect(notice).to_contain_text("2")
    assert HAND_WORD[language].search(notice.inner_text()), notice.inner_text()
    assert api.hands(table)[1]["revision"] == 2
    assert_in_language(page, language)

    # Void hand 1: the confirmation shows what the table becomes.
    open_hand(page, 1).locator("button.small.danger").click()
    box = page.locator('.sheet .hand[data-number="1"] .confirm')
    expect(box.locator("table.compare")).to_be_visible()
    box.locator("button.danger:not([disabled])").click()
    page.locator('.sheet .hand.void[data-number="1"]').wait_for()
    assert [h["status"] for h in api.hands(table)] == ["void", "recorded"]
    assert_in_language(page, language)

    # Settle up and close.
    page.locator('a.button[href$="&go=settle"]').click()
    page.locator("ul.payments").wait_for()
    expect(page.locator("h1")).to_have_text(w("Settle up"))
    close = page.locator(".settle > button.danger")
    assert TABLE_WORD[language].search(close.inner_text()), close.inner_text()
    close.click()
    page.locator(".confirm button.danger").click()
    expect(page.locator("p.notice")).to_have_text(w("Final: the table is closed."))
    settle = api.settle_up(table)
    shown = page.locator("ul.payments li").all_inner_texts()
    assert len(shown) == len(settle["transfers"])
    names = {s["seat"]: s["name"] for s in state["seats"]}
    for text, transfer in zip(shown, settle["transfers"], strict=True):
        assert names[transfer["from"]] in text and names[transfer["to"]] in text, text
        assert number(language, transfer["amount"]) in text, text
        assert " pays " not in text or language == "en", text
    assert_in_language(page, language)

    # The club: its tables, the standings and a player's page.
    page.goto("/")
    page.locator('a.button[href^="#league="]').click()
    page.locator("nav.tabs").wait_for()
    expect(page.locator("ul.sittings > li h3")).to_have_text(["Donnerstag"])
    # A season started on the phone; a sitting of it played (by the API), then its standings.
    page.locator('nav.tabs a[href*="view=manage"]').click()
    page.get_by_role("button", name=w("Start the season")).wait_for()
    page.get_by_label(w("Name"), exact=True).fill("Winter 2026")
    page.get_by_role("button", name=w("Start the season")).click()
    page.locator(".period:has-text('Winter 2026')").wait_for()
    played_in_season(page, api)
    page.locator('nav.tabs a[href*="view=standings"]').click()
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(4)
    expect(page.locator('nav.tabs a[href*="view=standings"]')).to_have_text(w("Standings"))
    page.locator("table.standings tbody th a", has_text=NAMES[1]).click()
    page.locator("figure.lchart svg.plot").first.wait_for()
    expect(page.locator("h2").first).to_have_text(NAMES[1])
    assert_in_language(page, language)
    traffic.check(language)


def played_in_season(page: Any, api: Api) -> None:
    """A sitting of the club's season with the same four players, two hands recorded."""
    clubs = page.evaluate("JSON.parse(localStorage.getItem('solo-pad:clubs'))")
    (club,) = clubs.values()
    token = club["token"]
    (season,) = api._call("GET", f"/clubs/{club['id']}/seasons", token)
    players = api._call("GET", f"/clubs/{club['id']}/players", token)
    seats = [next(p["id"] for p in players if p["name"] == name) for name in NAMES]
    table = api._call(
        "POST",
        "/tables",
        token,
        json={
            "club_id": club["id"],
            "name": "Freitag",
            "variant": "american",
            "seats": seats,
            "season_id": season["id"],
        },
    )
    api.record(table, {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6})
    api.record(table, {"contract": "solo", "trump": "clubs", "declarer": 2, "tricks": 3})


def shown_number(language: str, n: int) -> str:
    """A balance as the pad writes it: +3, −2 (a real minus sign), 0, grouped by Intl."""
    sign = "+" if n > 0 else "\u2212" if n < 0 else ""
    return sign + number(language, abs(n))


def test_a_german_phone_speaks_german(phones: Any, api: Api) -> None:
    page = phones(locale=LOCALES["de"], viewport={"width": 320, "height": 640}).page
    main_flows(page, api, "de")


def test_a_spanish_player_switches_an_english_phone_to_spanish(phones: Any, api: Api) -> None:
    phone = phones(locale="en-US")
    page = phone.page
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Solo score pad")
    switch = page.locator("select#lang")
    expect(switch).to_have_attribute("aria-label", "Language")
    switch.select_option("es")  # the page starts again in Spanish
    expect(page.locator("html")).to_have_attribute("lang", "es")
    w = Words("es")
    expect(page.locator("h1")).to_have_text(w("Solo score pad"))
    expect(page.locator("select#lang")).to_have_attribute("aria-label", w("Language"))
    expect(page.locator("select#lang")).to_have_value("es")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    other = phone.context.new_page()  # the phone remembers it, in a new tab too
    other.goto("/")
    expect(other.locator("html")).to_have_attribute("lang", "es")
    expect(other.locator("h1")).to_have_text(w("Solo score pad"))
    other.close()
    main_flows(page, api, "es")


# ---------------------------------------------------------------------------------------------
# No English left.

STOP_WORDS = """the and with hand hands table tables tap save cancel new players player won lost
    of to is are be by for from at or on this that these those here there when what who which
    your you it its each every all none other again first last next only yes not back
    more less one two than then any after before into out off up down
    deal deals dealt dealer trick tricks trump suit seat seats score sheet pool pays
    round rounds game games declarer declared defenders misdeal forfeit revoke revoked
    correct corrected correction void restore settle share seating print copy
    close closed open opened loading add rename retire retired show download rotate
    standings season seasons rating sitting sittings hint value values chart
    hearts spades diamonds keep kept send sending waiting phone phones
    american spanish german"""
STOP = frozenset(STOP_WORDS.split())
# The variants' names (the API's "american") are English words too. Not "clubs": German says
# "des Clubs", Spanish "clubs" (the other three suits are on the same screens as the fourth).
# Kept in every language (docs/i18n.md "Terms"), and the languages' names in the switch.
KEPT = (
    "Solo",
    "Tout",
    "Forcée",
    "bête",
    "stamm",
    "couleur",
    "Frage",
    "Grossfrage",
    "Mediateur",
    "Force",
    "Matadore",
    "Spadille",
    "Manille",
    "Basta",
    "English",
)
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ’']+")

COLLECT = """() => {
  const out = [];
  const add = (kind, text) => {
    text = (text || '').replace(/\\s+/g, ' ').trim();
    if (text) out.push([kind, text]);
  };
  for (const d of document.querySelectorAll('details')) d.open = true;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, code, #lang, [hidden]')) continue;
    const read = el.closest('.sr, .printonly, title') || el.getClientRects().length;
    if (read) add('text', n.textContent);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
    if (el.closest('[hidden], #lang')) continue;
    for (const a of ['aria-label', 'title', 'alt', 'placeholder']) {
      if (el.hasAttribute(a)) add(a, el.getAttribute(a));
    }
  }
  for (const o of document.querySelectorAll('select:not(#lang) option')) {
    add('option', o.textContent);
  }
  add('document title', document.title);
  return out;
}"""


def english_in(texts: list[list[str]], names: tuple[str, ...]) -> list[str]:
    """The texts with a stop-list word, once each: "aria-label: 'New hand 2' (new, hand)"."""
    found: dict[str, None] = {}
    for kind, text in texts:
        rest = text
        for kept in sorted((*names, *KEPT), key=len, reverse=True):
            rest = rest.replace(kept, " ")
        words = sorted({word for word in WORD.findall(rest) if word.lower() in STOP})
        if words:
            found[f"{kind}: {text!r} ({', '.join(words)})"] = None
    return list(found)


class Crawl:
    """Each screen looked at; each English text found, with the screens it is on."""

    def __init__(self, page: Any, names: tuple[str, ...]) -> None:
        self.page = page
        self.names = names
        self.found: dict[str, list[str]] = {}
        self.screens: list[str] = []

    def __call__(self, screen: str) -> None:
        self.screens.append(screen)
        for text in english_in(self.page.evaluate(COLLECT), self.names):
            self.found.setdefault(text, []).append(screen)

    def report(self) -> str:
        lines = []
        for text, screens in self.found.items():
            more = f" (+{len(screens) - 3} more)" if len(screens) > 3 else ""
            lines.append(f"{text} — on {'; '.join(screens[:3])}{more}")
        return f"{len(lines)} English texts:\n" + "\n".join(lines)


FIRST_HANDS = {
    "american": {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
    "spanish": {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
    "german": {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
    "solo66": {"trump": "hearts", "soloist": 1, "soloist_points": 70, "defender_points": 50},
}
SEATS = {"american": 4, "spanish": 4, "german": 4, "solo66": 5}
OPTIONS: dict[str, dict[str, Any]] = {"german": {"mediateur": True}}
CRAWL_NAMES = (*NAMES, "Bernd Huber-Obermaier")


def visible(page: Any, selector: str) -> list[Any]:
    located = page.locator(selector)
    return [b for b in (located.nth(i) for i in range(located.count())) if b.is_visible()]


def crawl_form(page: Any, crawl: Crawl, where: str) -> None:
    """Every kind of hand and every contract of the form, each looked at."""
    page.locator("form.handform").wait_for()
    kinds = visible(page, '[data-field="kind"] button') or [None]
    for kind in kinds:
        if kind is not None:
            kind.click()
        for contract in visible(page, '[data-field="contract"] button') or [None]:
            if contract is not None:
                contract.click()
            label = " ".join(
                str(b.get_attribute("data-value")) for b in (kind, contract) if b is not None
            )
            crawl(f"{where} [{label}]" if label else where)


def crawl_table_screens(page: Any, api: Api, crawl: Crawl, variant: str) -> dict[str, Any]:
    names = CRAWL_NAMES[: SEATS[variant]]
    table = api.table_setup(names, variant=variant, **OPTIONS.get(variant, {}))
    api.record(table, FIRST_HANDS[variant])
    base = f"/#table={table['id']}"
    page.goto(table_url("", table))
    page.locator('.sheet .hand[data-number="1"]').wait_for()
    crawl(f"{variant}: table")
    page.locator('.sheet .hand[data-number="1"] button.what').click()
    page.locator(".sheet tr.more .settlement").wait_for()
    crawl(f"{variant}: table, hand 1 open")
    page.locator(".sheet tr.more button.small.danger").click()
    page.locator(".sheet .confirm table.compare").wait_for()
    crawl(f"{variant}: void hand 1?")

    page.goto(base + "&go=new")
    crawl_form(page, crawl, f"{variant}: new hand")
    page.goto(base + "&go=edit&n=1")
    wait_preview(page)
    crawl(f"{variant}: correct hand 1")
    # One more trick (or point): the preview changes (asked 150 ms after the click), and the
    # confirmation shows the corrected hand's settlement.
    more = visible(page, '[data-field="tricks"] button.step:not([disabled])')
    more = more or visible(page, "[data-field] button.step:not([disabled])")
    change_and_wait(page, more[-1])
    page.locator("button.save").click()
    page.locator("section.confirm .settlement").wait_for()
    crawl(f"{variant}: correct hand 1, the confirmation")

    page.goto(base + "&go=settle")
    page.locator("ul.deltas").first.wait_for()
    crawl(f"{variant}: settle up")
    page.locator(".settle > button.danger").click()
    page.locator(".settle .confirm").wait_for()
    crawl(f"{variant}: close the table?")
    for screen, ready in (("share", "svg.qr"), ("seating", "ol.reseat li")):
        page.goto(f"{base}&go={screen}")
        page.locator(ready).first.wait_for()
        crawl(f"{variant}: {screen}")
    return table


def crawl_offline_and_refused(phone: Any, api: Api, network: Network, crawl: Crawl) -> None:
    """A hand kept on the phone while offline; a table without its token; a revoked link."""
    page = phone.page
    table = api.table_setup(CRAWL_NAMES[:4])
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    go_offline(phone.context, network)
    page.locator("#new-hand").click()
    page.locator('[data-field="kind"] button[data-value="misdeal"]').click()
    page.locator("button.save").click()
    page.locator('.card.pending[data-outbox="1"]').wait_for()
    crawl("table, offline, a hand kept on the phone")
    go_online(phone.context, network)
    page.locator("section.outbox").wait_for(state="detached")
    page.goto("/#table=0123456789abcdef0123456789abcdef")
    page.locator("h1").wait_for()
    crawl("a table without its token")
    api.http.delete(
        f"{api.base}/api/v1/tables/{table['id']}/token",
        headers={"Authorization": f"Bearer {table['admin_token']}"},
    ).raise_for_status()
    page.goto("/#")
    page.goto(f"/#table={table['id']}")
    page.locator(".screen.revoked").wait_for()
    crawl("a revoked table link")


def crawl_start_and_league(page: Any, api: Api, crawl: Crawl, scene: dict[str, Any]) -> None:
    page.goto("/")
    page.locator("form.card input").first.wait_for()
    crawl("start, first visit")
    club = scene["club"]
    page.evaluate(
        """([id, entry]) => {
          localStorage.setItem('solo-pad:clubs', JSON.stringify({[id]: entry}));
          localStorage.setItem('solo-pad:club', JSON.stringify(id));
        }""",
        [club["id"], {"id": club["id"], "name": club["name"], "token": scene["token"]}],
    )
    page.goto("/#")
    page.reload()
    page.locator(".newtable form").wait_for()
    for variant in api.variants():
        page.locator(".newtable select").first.select_option(variant)
        page.locator("details.options").wait_for()
        crawl(f"start, new table, {variant}")
    base = f"/#league={club['id']}"
    for view, ready in (
        ("tables", "ul.sittings > li"),
        ("standings", "table.standings tbody tr"),
        ("players", "ul.players li"),
        ("manage", "form"),
    ):
        page.goto(f"{base}&view={view}")
        page.locator(ready).first.wait_for()
        crawl(f"club: {view}")
    page.goto(f"{base}&view=player&player={scene['players'][1]}")
    page.locator("figure.lchart svg.plot").first.wait_for()
    crawl("club: a player")


@pytest.mark.parametrize("language", ["de", "es"])
def test_no_english_is_left_on_any_screen(
    phones: Any, api: Api, network: Network, language: str
) -> None:
    scene = club_scene(api)
    from .test_league import NAMES as CLUB_NAMES

    names = (*CRAWL_NAMES, *CLUB_NAMES, scene["club"]["name"], "Thursday", "Monday", "Friday")
    phone = phones(locale=LOCALES[language])
    page = phone.page
    crawl = Crawl(page, names)
    crawl_start_and_league(page, api, crawl, scene)
    for variant in api.variants():
        crawl_table_screens(page, api, crawl, variant)
    crawl_offline_and_refused(phone, api, network, crawl)
    expect(page.locator("html")).to_have_attribute("lang", language)
    assert len(crawl.screens) > 30, crawl.screens
    assert not crawl.found, f"English on the {language} screens: {crawl.report()}"


# ---------------------------------------------------------------------------------------------
# Numbers, dates and plurals by Intl.

MONTHS = {
    "de": ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni"]
    + ["Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
    "es": ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"],
}


PLURAL_HANDS = {"de": ("1 Spiel", "2 Spiele"), "es": ("1 mano", "2 manos")}


def short_day(language: str, day: dt.date) -> str:
    """A date as Intl.DateTimeFormat(lang, {year, month: 'short', day}) writes it in Chromium."""
    month = MONTHS[language][day.month - 1]
    return f"{day.day}. {month} {day.year}" if language == "de" else f"{day.day} {month} {day.year}"


@pytest.mark.parametrize("language", ["de", "es"])
def test_dates_numbers_and_plurals_the_languages_way(phones: Any, api: Api, language: str) -> None:
    scene = club_scene(api)
    # The Spanish phone is an English browser switched to Spanish: Intl must follow the pad's
    # language, not the browser's.
    phone = phones(locale="de-DE" if language == "de" else "en-US", timezone_id="UTC")
    page = phone.page
    page.goto("/")
    if language == "es":
        page.locator("select#lang").select_option("es")
        expect(page.locator("html")).to_have_attribute("lang", "es")
    club = scene["club"]
    page.evaluate(
        "([id, entry]) => localStorage.setItem('solo-pad:clubs', JSON.stringify({[id]: entry}))",
        [club["id"], {"id": club["id"], "name": club["name"], "token": scene["token"]}],
    )
    page.goto(f"/#league={club['id']}&view=tables")
    card = page.locator("ul.sittings > li").first
    card.wait_for()
    listed = api._call("GET", f"/clubs/{club['id']}/tables", scene["token"])
    listed = listed.get("items", listed) if isinstance(listed, dict) else listed
    created = dt.datetime.fromisoformat(listed[0]["created_at"].replace("Z", "+00:00"))
    expect(card).to_contain_text(short_day(language, created.astimezone(dt.UTC).date()))
    assert created.strftime("%b %-d") not in card.inner_text()  # not "Dec 2"
    # Friday's sitting has one hand, Thursday's two: the plural by Intl.PluralRules.
    one, two = PLURAL_HANDS[language]
    friday = page.locator("ul.sittings > li", has_text="Friday").locator("p.hint")
    thursday = page.locator("ul.sittings > li", has_text="Thursday").locator("p.hint")
    expect(friday).to_contain_text(one)
    expect(thursday).to_contain_text(two)
    assert two not in friday.inner_text() and f"{one}s" not in friday.inner_text()

    # A table whose stake and stamm run into thousands: the pool in the language's digits.
    table = api.table_setup(NAMES, stake=10_000, stamm=10_000)
    api.record(table, FIRST_HANDS["american"])
    page.goto(table_url("", table))
    page.locator('.sheet .hand[data-number="1"]').wait_for()
    state = api.table(table)
    assert state["pool"] >= 10_000
    expect(page.locator('dd[data-fact="pool"]')).to_have_text(number(language, state["pool"]))
    balances = page.eval_on_selector_all("ol.seats .balance", BALANCE_TEXT)
    assert balances == [shown_number(language, s["balance"]) for s in state["seats"]]


def test_a_german_phone_offline_counts_its_hands(phones: Any, api: Api, network: Network) -> None:
    w = Words("de")
    table = api.table_setup(NAMES)
    phone = phones(locale="de-DE")
    page = phone.page
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    go_offline(phone.context, network)
    line = page.locator("#line")
    for count in (1, 2):
        page.locator("#new-hand").click()
        page.locator('[data-field="kind"] button[data-value="misdeal"]').click()
        page.locator("button.save").click()
        page.locator(f'.card.pending[data-outbox="{count}"]').wait_for()
        kept = w.n(count, "{n} hand kept on this phone", "{n} hands kept on this phone")
        expect(line).to_have_text(f"{w('Offline')} · {kept}")
    expect(line).to_contain_text("2 Spiele ")
    assert "1 Spiel " in w.n(1, "{n} hand kept on this phone", "{n} hands kept on this phone")
    go_online(phone.context, network)
    expect(line).to_have_text(w("Online"), timeout=20_000)
    assert api.table(table)["hands_recorded"] == 2


def test_the_same_flows_in_english(phones: Any, api: Api) -> None:
    main_flows(phones(locale="en-US").page, api, "en")


def test_the_first_of_the_browsers_languages_the_pad_speaks(phones: Any) -> None:
    """French first, then Latin-American Spanish, then German: Spanish. French alone: English.
    The API is asked in the pad's language, not in the browser's own list."""
    phone = phones(locale="fr-FR")
    phone.context.add_init_script(
        "Object.defineProperty(navigator, 'languages', {get: () => ['fr-FR', 'es-419', 'de']})"
    )
    page = phone.page
    traffic = Traffic(page)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("select#lang")).to_have_value("es")
    page.wait_for_load_state("networkidle")  # GET /variants is asked at the start
    traffic.check("es")

    french = phones(locale="fr-FR").page
    french.goto("/")
    expect(french.locator("html")).to_have_attribute("lang", "en")
    expect(french.locator("select#lang")).to_have_value("en")


def test_the_crawl_finds_english_on_an_english_phone(phones: Any, api: Api) -> None:
    """The control: the same crawl, on an English phone, reads the texts and finds the words."""
    page = phones(locale="en-US").page
    crawl = Crawl(page, CRAWL_NAMES)
    table = crawl_table_screens(page, api, crawl, "american")
    found = "\n".join(crawl.found)
    for text in (
        "text: 'New hand 2' (New, hand)",  # the table screen's button: a visible text
        "aria-label: 'Tricks taken: one less' (Tricks, less, one)",  # an accessible name
        "text: 'Skip to the score' (score, the, to)",  # text for screen readers only
    ):
        assert text in found, (text, found)
    assert api.table(table)["hands_recorded"] == 1 and len(crawl.screens) > 10
