"""An open tournament in Chromium, as a host club runs it: of 40 players in German, and the
same story of 12 in Spanish (every screen and word of it; the field's size is no matter of
language, and the forty in German prove it once: the twenty phones take a minute). The director
creates it on the director's screen (/clubs/{id}/tournament-admin, with the admin token the pad
keeps), players register on the public page opened from its link (the one past the cap is told
the waiting list's place), the rest are registered through the link over the API or entered by
the director (players of the club picked from its players, and guests), everyone is checked in
with one tap each (a search finds "José" as "jose"), one withdraws between the series. The
results are published (over the API) and the public page, on a player's phone, follows. Two
series of one hand are drawn on the screen; each table plays on two phones opened from its
card's link (one enters the hand, in turn; the same phones scan the next series' cards), a hand
disputed on a phone is corrected by the director on the console, two players other than the
scorer confirm on the phones at PHONES_CONFIRMING tables and through the API at the rest; then
the standings, the prizes and the cash sheet summing to the fees, the ranking list to print and
its CSV, and the tournament closed, its final standings on the public page with no reload.

The screens at 320, 360 and 412 px in English, German and Spanish must not be wider than the
phone; ``TOURNAMENT_SCREENSHOTS=docs/screenshots`` writes the pictures docs/tournaments.md
shows."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .support import (
    Api,
    card_tokens,
    confirm_button,
    console_desk,
    correct_on_the_console,
    dispute_on_the_phone,
    record_won_solo,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOUND_MS = 60_000
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}

# The host club's players (some enter as its players), then the guests of other clubs.
MEMBERS = (
    "Anna-Katharina Berger",
    "Maximilian Oberhuber-Schmidt",
    "Carla Moser-Lindqvist",
    "Dieter Schmidt-Hohenstein",
    "Eva-Maria Sánchez Villanueva",
    "Friedrich Wilhelm Baumgartner",
)
GUESTS = (
    "José María Fernández-Castillo",
    "Gabriele Huber-Leitner",
    "Hans-Jürgen Oberndorfer",
    "Ingrid Katharina Weißenbach",
    "Johannes Maria Lindqvist",
    "María del Carmen Rodríguez Aguilar",
    "Francisco Javier Gutiérrez Ortega",
    "Lucía Fernández de la Fuente",
    "Sebastian Müller-Lüdenscheidt",
    "Henrike Schäfer-Brandstätter",
    "Pablo Ortega Villalobos",
    "Inés Navarro Montesinos",
    "Kai-Uwe Lindner",
    "Marta Ruiz Castellanos",
    "Wolfgang Amadeus Trautmann",
    "Almudena Grandes-Serrano",
    "Ursula von der Heydt",
    "Concepción Jiménez Mora",
    "Bernd Schwarzenbeck",
    "Rocío Martínez-Iglesias",
    "Theodor Wiesengrund",
    "Carmen Amaya Vargas",
    "Gottfried Kellermann",
    "Nuria Espert Romero",
    "Ottilie Brandenburger",
    "Salvador Puig-Antich",
    "Waltraud Eisenhauer",
    "Ignacio Zuloaga Echeverría",
    "Renate Kühnhackl",
    "Begoña Aranguren Goikoetxea",
    "Ludwig Erhard-Freiberg",
    "Esperanza Aguirre Solís",
    "Mechthild Oberschulte-Beckmann",
    "Ximena Ñúñez Peñalosa",
    "Rüdiger Vogelsang",
)
CLUB = "Skatfreunde Lüdenscheid"
WORDS = {
    "de": {
        "registered": "Angemeldet: ",
        "waiting": "Warteliste, Platz 1",
        "check_in": "Einchecken",
        "withdraw": "Abmelden",
        "draw": "Serie {n} auslosen",
        "fees": "Startgeld: {paying} × 12,50\u00a0€",
        "remains": "0,00\u00a0€",
        "csv": "Rang;Name;Club;S1;S2;Gesamt;Preis;Währung",
        "dispute": "Spiel beanstanden",
        "reason": "Das Solo war verloren.",
        "send": "An die Turnierleitung senden",
        "disputed": "Spiel 1 ist beanstandet: Warten auf die Turnierleitung.",
        "fixed": "Spiel 1 korrigiert",
        "corrected": "Die Turnierleitung hat Spiel 1 berichtigt.",
        "counts": "Bestätigt: Das Ergebnis zählt.",
        "next": "Die Turnierleitung lost die nächste Serie aus.",
        "last": "Das war die letzte Serie des Turniers.",
        "final": "Das Turnier ist beendet: der Endstand.",
    },
    "es": {
        "registered": "Inscripción hecha: ",
        "waiting": "lista de espera, en el puesto 1",
        "check_in": "Registrar llegada",
        "withdraw": "Dar de baja",
        "draw": "Sortear la ronda {n}",
        "fees": "Cuotas de inscripción: {paying} × 12,50\u00a0€",
        "remains": "0,00\u00a0€",
        "csv": "Puesto;Nombre;Club;R1;R2;Total;Premio;Moneda",
        "dispute": "Impugnar una mano",
        "reason": "El solo estaba perdido.",
        "send": "Enviar a la dirección del torneo",
        "disputed": "La mano 1 está impugnada: se espera a la dirección del torneo.",
        "fixed": "Mano 1 corregida",
        "corrected": "La dirección del torneo corrigió la mano 1.",
        "counts": "Confirmado: el resultado cuenta.",
        "next": "La dirección del torneo sortea la próxima ronda.",
        "last": "Fue la última ronda del torneo.",
        "final": "El torneo ha terminado: clasificación final.",
    },
}
WIDTHS = (320, 360, 412)


@dataclass(frozen=True)
class Field:
    """Who plays: the places (tables of four), how many register through the link over the
    API (three more on the public page) and how many guests the director enters (besides the
    club's six players); one more registers on the page when it is full: the waiting list."""

    cap: int
    by_api: int
    by_director: int

    def __post_init__(self) -> None:
        assert 3 + self.by_api + len(MEMBERS) + self.by_director == self.cap
        assert self.cap % 4 == 0 and self.cap < len(GUESTS) + len(MEMBERS)

    @property
    def tables(self) -> int:
        return self.cap // 4

    @property
    def waiting(self) -> str:
        """The one who registers last, when the places are taken."""
        return GUESTS[3 + self.by_api + self.by_director]


# Forty in German (ten tables, twenty phones); in Spanish the same steps with three tables,
# which show every word the forty would (all its tables confirm on the phones).
FIELDS = {
    "de": Field(cap=40, by_api=27, by_director=4),
    "es": Field(cap=12, by_api=2, by_director=1),
}
# The tables whose result is confirmed on the phones (the first, the disputed one, among them);
# the rest through the API: ten tables' phones confirming would take the suite's time, not add
# to what is shown.
PHONES_CONFIRMING = 3


def host_club(api: Api) -> dict[str, Any]:
    club = api._call("POST", "/clubs", json={"name": CLUB})
    club["players"] = [
        api._call("POST", f"/clubs/{club['id']}/players", club["admin_token"], json={"name": n})
        for n in MEMBERS
    ]
    return club


def keep_admin_token(page: Any, club: dict[str, Any]) -> None:
    """The director's phone keeps the club's admin token, as the pad does."""
    page.goto("/")
    page.evaluate(
        "([id, token]) => localStorage.setItem('solo-pad:clubs', "
        "JSON.stringify({[id]: {id, name: 'Skatfreunde', token}}))",
        [club["id"], club["admin_token"]],
    )


def register_on_the_page(page: Any, link: str, name: str, club: str, initial: bool) -> str:
    """One registration on the public page (opened anew: a link that differs from the page's
    address only in its fragment would not load it again); the answer's text."""
    page.goto("about:blank")
    page.goto(link)
    form = page.locator("form.register")
    form.locator("#reg-name").fill(name)
    form.locator("#reg-club").fill(club)
    form.locator("#reg-contact").fill("0171 2345678")
    form.locator('input[name="display"]').nth(1 if initial else 0).check()
    form.locator("button[type=submit]").click()
    answer = page.locator("section.answer")
    answer.wait_for(timeout=BOUND_MS)
    return answer.inner_text()


def record_series(api: Api, club: dict[str, Any], night_id: str, number: int) -> None:
    """The series' hands through the API (the screens' fit needs no phones)."""
    night = api._call("GET", f"/nights/{night_id}", club["admin_token"])
    for index, table in enumerate(night["series"][number - 1]["tables"]):
        hand = SOLO if (index + number) % 2 else LOST_SOLO
        api._call("POST", f"/tables/{table['table_id']}/hands", club["admin_token"], json=hand)


def tables_of(api: Api, club: dict[str, Any], night_id: str, number: int) -> list[dict[str, Any]]:
    night = api._call("GET", f"/nights/{night_id}", club["admin_token"])
    return night["series"][number - 1]["tables"]


def names_of(table: dict[str, Any]) -> list[str]:
    return [seat["name"] for seat in sorted(table["seats"], key=lambda seat: seat["seat"])]


def scan_the_cards(
    api: Api, club: dict[str, Any], night_id: str, number: int, pairs: list[tuple[Any, Any]]
) -> list[dict[str, Any]]:
    """Each table's two phones open its link from the series' cards, as its players scan it
    (the phones of the last series, on a new table now: the link's fragment alone is new);
    the series' tables, each with its card's token. The pages load together: each is waited
    for when it is used."""
    tables = tables_of(api, club, night_id, number)
    tokens = card_tokens(api, night_id, club["admin_token"], number)
    assert len(tables) == len(pairs) == len(tokens)
    for table, pair in zip(tables, pairs, strict=True):
        table["token"] = tokens[table["table_id"]]
        link = f"{api.base}/#table={table['table_id']}&token={table['token']}"
        for phone in pair:
            phone.page.evaluate("(link) => { location.href = link; }", link)
    return tables


def record_on_the_phones(pairs: list[tuple[Any, Any]], number: int) -> None:
    """The series' one hand at each table, entered on one of its two phones (which one
    alternates from table to table and from series to series); a solo won by the table's
    seat 0, 1, 2, 3, 0, …"""
    for index, pair in enumerate(pairs):
        scorer = pair[(index + number) % 2].page
        scorer.locator("#new-hand").wait_for(timeout=BOUND_MS)
        record_won_solo(scorer, declarer=index % 4, number=1)


def confirm(
    api: Api,
    tournament_id: str,
    tables: list[dict[str, Any]],
    pairs: list[tuple[Any, Any]],
    words: dict[str, str],
) -> None:
    """At each table two players other than the scorer (the first seat, who entered the
    hands) confirm: at the first PHONES_CONFIRMING tables on the result's panel, one on each
    phone (the result counts), at the others through the API with the table's token."""
    for index, (table, pair) in enumerate(zip(tables, pairs, strict=True)):
        names = names_of(table)
        if index < PHONES_CONFIRMING:
            for phone, name in zip(pair, names[1:3], strict=True):
                confirm_button(phone.page, name).click()
            pair[1].page.get_by_text(words["counts"]).wait_for(timeout=BOUND_MS)
            continue
        for seat in (1, 2):
            api._call(
                "POST",
                f"/tournaments/{tournament_id}/tables/{table['table_id']}/confirmations",
                table["token"],
                json={"seat": seat},
            )


def follows(page: Any, tables: int, played: str) -> None:
    """The public page shows `tables` tables, each having played `played` ("0", "1") of its
    hands, with no reload."""
    page.wait_for_function(
        "([tables, played]) => ((counts) => counts.length === tables"
        " && counts.every((e) => e.textContent.startsWith(played + ' ')))"
        "([...document.querySelectorAll('.tables .count')])",
        arg=[tables, played],
        timeout=BOUND_MS,
    )


def entrant_row(page: Any, name: str) -> Any:
    return page.locator(
        "li.entrant", has=page.locator(".name", has_text=re.compile(f"^{re.escape(name)}$"))
    )


@pytest.mark.parametrize("language", ["de", "es"])
def test_an_open_tournament(phones, api, language) -> None:
    words, field = WORDS[language], FIELDS[language]
    club = host_club(api)
    director = phones(locale=language, viewport={"width": 412, "height": 900}).page
    keep_admin_token(director, club)
    director.goto(f"/clubs/{club['id']}/tournament-admin?lang={language}")

    # The director creates it: two series of one hand, 12,50 € a player, its places, prizes.
    form = director.locator("form.start")
    form.wait_for(timeout=BOUND_MS)
    form.locator("#new-name").fill("Preis-Solo Lüdenscheid 2026")
    form.locator("#new-hands").fill("1")
    form.locator("#new-fee").fill("12,50")
    form.locator("#new-cap").fill(str(field.cap))
    form.locator("#new-prizes").fill("50, 30, 20")
    form.locator("button[type=submit]").click()
    director.locator("section.registration").wait_for(timeout=BOUND_MS)
    tournament_id = director.evaluate(
        "new URLSearchParams(location.hash.slice(1)).get('tournament')"
    )
    tournament = api._call("GET", f"/tournaments/{tournament_id}", club["admin_token"])
    assert tournament["entry_fee_cents"] == 1250 and tournament["cap"] == field.cap
    assert tournament["prizes"] == [{"per_mille": 500}, {"per_mille": 300}, {"per_mille": 200}]
    link = director.locator(".registration a.link").get_attribute("href")
    assert link and tournament["registration_token"] in link
    director.locator(".registration summary").click()  # the QR code, drawn on demand
    expect(director.locator(".registration .qrbox svg")).to_be_visible(timeout=BOUND_MS)

    # Registration: three guests on the public page, the others through the link over the API.
    player = phones(locale=language).page
    for index, name in enumerate(GUESTS[:3]):
        answer = register_on_the_page(player, link, name, "SC Bonn", initial=index == 1)
        # The answer names the player as the published results will ("Gabriele H.").
        shown = "Gabriele H." if index == 1 else name
        assert answer.startswith(f"{words['registered']}{shown}."), answer
    token = tournament["registration_token"]
    for name in GUESTS[3 : 3 + field.by_api]:
        api._call(
            "POST",
            f"/tournaments/{tournament_id}/registrations",
            token,
            json={"name": name, "club": "Real Club de Solo Sevilla"},
        )

    # The director enters the club's six players and guests, two of them checked in.
    director.reload()
    late = director.locator("details.late")
    late.wait_for(timeout=BOUND_MS)
    late.locator("summary").click()
    for index, member in enumerate(club["players"]):
        late.locator("#late-player").select_option(member["id"])
        late.locator('input[name="check_in"]').set_checked(index < 2)
        late.locator("button[type=submit]").click()
        expect(late.locator(".notice")).to_contain_text(member["name"], timeout=BOUND_MS)
    for name in GUESTS[3 + field.by_api : 3 + field.by_api + field.by_director]:
        late.locator("#late-guest").fill(name)
        late.locator("#late-club").fill("Solo-Club Wien")
        late.locator('input[name="check_in"]').set_checked(False)
        late.locator("button[type=submit]").click()
        expect(late.locator(".notice")).to_contain_text(name, timeout=BOUND_MS)
    # One more registers on the page: the cap is reached, the waiting list's first place.
    answer = register_on_the_page(player, link, field.waiting, "", initial=False)
    assert words["waiting"] in answer, answer
    entrants = api._call("GET", f"/tournaments/{tournament_id}/entrants", club["admin_token"])
    assert len(entrants) == field.cap + 1 and [e["status"] for e in entrants].count("waiting") == 1
    assert next(e for e in entrants if e["name"] == GUESTS[1])["display"] == "initial"

    # Check-in: a search for "jose" finds José María; then one tap for each of the others.
    search = director.locator("#entrant-search")
    search.fill("jose")
    expect(director.locator("li.entrant")).to_have_count(1, timeout=BOUND_MS)
    expect(director.locator("li.entrant .name")).to_have_text(GUESTS[0])
    search.fill("")
    for entrant in entrants:
        if entrant["status"] != "registered":
            continue
        row = entrant_row(director, entrant["name"])
        row.get_by_role("button", name=words["check_in"]).click()
        expect(row).to_have_class(re.compile(r"\bchecked_in\b"), timeout=BOUND_MS)
    counts = api._call("GET", f"/tournaments/{tournament_id}", club["admin_token"])["entrants"]
    assert counts == {"registered": 0, "waiting": 1, "checked_in": field.cap, "withdrawn": 0}

    # The director publishes the results, with the prize places, on the screen; the public
    # page, on the registering player's phone, follows from now on.
    public = director.locator("section.public")
    public.locator("input[type=checkbox]").check()
    expect(public.locator("input[type=checkbox]")).to_be_enabled(timeout=BOUND_MS)
    public.locator("button.primary").click()
    link = public.locator("a.link")
    link.wait_for(timeout=BOUND_MS)
    shown = api._call("GET", f"/tournaments/{tournament_id}", club["admin_token"])
    assert shown["public_results"] and shown["public_prizes"]
    assert link.get_attribute("href", timeout=BOUND_MS).endswith(f"/results/{shown['public_id']}")
    player.goto(f"/results/{shown['public_id']}?lang={language}")

    # Series 1, drawn on the screen: its tables and the link to their cards.
    director.get_by_role("button", name=words["draw"].format(n=1)).click()
    series = director.locator('section.series[data-series="1"]')
    series.wait_for(timeout=BOUND_MS)
    night_id = tournament["night_id"]
    cards = series.locator(".links a").first.get_attribute("href")
    assert cards and f"/nights/{night_id}/cards?series=1" in cards
    follows(player, field.tables, "0")
    # Two phones at each table open its card's link; one of them enters the hand.
    pairs = [(phones(locale=language), phones(locale=language)) for _ in range(field.tables)]
    tables = scan_the_cards(api, club, night_id, 1, pairs)
    record_on_the_phones(pairs, 1)
    follows(player, field.tables, "1")
    # The series is over: the phones say so in the tournament's words, not a night's.
    expect(pairs[1][0].page.locator("[data-series=over]")).to_contain_text(words["next"])
    # At table 1 the phone that did not enter the hand disputes it; the other phone waits.
    names = names_of(tables[0])
    other, scorer = pairs[0][0].page, pairs[0][1].page
    dispute_on_the_phone(other.locator("section.result"), words, names[2], words["reason"])
    scorer.get_by_text(words["disputed"]).wait_for(timeout=BOUND_MS)
    # The director corrects it on the console: three tricks, the solo lost.
    director.locator("section.to-console a.button").click()
    correct_on_the_console(director, tables[0]["number"], tricks=3)
    notice = console_desk(director, tables[0]["number"]).locator(".notice")
    expect(notice).to_contain_text(words["fixed"], timeout=BOUND_MS)
    history = api._call(
        "GET", f"/tables/{tables[0]['table_id']}/hands/1/history", club["admin_token"]
    )
    assert history["revisions"][-1]["hand"]["tricks"] == 3
    assert history["revisions"][-1]["changed_by"]["kind"] == "admin"
    for page in (other, scorer):
        page.get_by_text(words["corrected"]).wait_for(timeout=BOUND_MS)
    confirm(api, tournament_id, tables, pairs, words)
    director.locator("nav.crumbs a").last.click()

    # A withdrawal between the series: asked again, then done; the waiting one moves up.
    leaving = GUESTS[5]
    row = entrant_row(director, leaving)
    row.get_by_role("button", name=words["withdraw"]).click()
    row.locator(".notice button.danger").click()
    expect(row).to_have_class(re.compile(r"\bwithdrawn\b"), timeout=BOUND_MS)
    waiting = entrant_row(director, field.waiting)
    expect(waiting).to_have_class(re.compile(r"\bregistered\b"), timeout=BOUND_MS)
    waiting.get_by_role("button", name=words["check_in"]).click()
    expect(waiting).to_have_class(re.compile(r"\bchecked_in\b"), timeout=BOUND_MS)

    # Series 2: a full field again (the one who left is not seated), played.
    director.get_by_role("button", name=words["draw"].format(n=2)).click()
    director.locator('section.series[data-series="2"]').wait_for(timeout=BOUND_MS)
    night = api._call("GET", f"/nights/{night_id}", club["admin_token"])
    seated = [s["name"] for t in night["series"][1]["tables"] for s in t["seats"]]
    assert len(seated) == field.cap and leaving not in seated
    tables = scan_the_cards(api, club, night_id, 2, pairs)
    follows(player, field.tables, "0")
    record_on_the_phones(pairs, 2)
    follows(player, field.tables, "1")
    expect(pairs[1][1].page.locator("[data-series=over]")).to_contain_text(words["last"])
    confirm(api, tournament_id, tables, pairs, words)
    for pair in pairs:
        for phone in pair:
            phone.context.close()
    results = api._call("GET", f"/tournaments/{tournament_id}/standings", club["admin_token"])
    assert {s["confirmed"] for line in results["standings"] for s in line["series"] if s} == {True}

    # The standings, the prizes and the cash sheet: each entrant paid 12,50 €, all paid out.
    director.reload()
    standings = api._call("GET", f"/tournaments/{tournament_id}/standings", club["admin_token"])
    rows = director.locator("section.standings tbody tr")
    expect(rows).to_have_count(len(standings["standings"]), timeout=BOUND_MS)
    for index in (0, field.cap // 2, field.cap):
        line = standings["standings"][index]
        expect(rows.nth(index).locator("td.name")).to_contain_text(line["name"])
    prizes = api._call("GET", f"/tournaments/{tournament_id}/prizes", club["admin_token"])
    sheet = prizes["cash_sheet"]
    paying = field.cap + 1  # the one who withdrew paid too
    assert sheet["paying"] == paying and sheet["fees_cents"] == paying * 1250
    assert sheet["fees_cents"] == sheet["prizes_cents"] + sheet["remains_cents"]
    assert sheet["remains_cents"] == 0  # 50 + 30 + 20 % of the fees
    cash = director.locator("section.cash")
    expect(cash).to_contain_text(words["fees"].format(paying=paying))
    expect(cash).to_contain_text(words["remains"])
    paid = sum(p["cents"] for p in prizes["prize_list"])
    assert paid == paying * 1250

    # The ranking list to print, with its prizes; the CSV in the reader's language.
    director.locator("section.result a.button").click()
    ranking = director.locator(".ranking")
    ranking.wait_for(timeout=BOUND_MS)
    expect(ranking.locator(".scroll tbody tr")).to_have_count(len(standings["standings"]))
    director.emulate_media(media="print")
    assert not director.locator(".ranking .no-print").is_visible()
    director.emulate_media(media="screen")
    director.go_back()
    with director.expect_download() as download:
        director.locator("section.result button.csv").click()
    text = Path(download.value.path()).read_bytes().decode()  # its CRLF kept
    assert text.split("\r\n")[0] == words["csv"]
    assert len([line for line in text.split("\r\n")[1:] if line]) == len(standings["standings"])

    # The director closes the tournament: the public page shows the final standings.
    close = director.locator("section.close")
    close.locator("button.danger").click()
    close.locator(".notice.ask button.danger").click()
    expect(close.locator("strong")).to_be_visible(timeout=BOUND_MS)
    expect(player.locator(".progress")).to_contain_text(words["final"], timeout=BOUND_MS)
    final = api._call("GET", f"/public/results/{shown['public_id']}")
    names = player.locator(".standings td.name")
    expect(names).to_have_count(len(final["standings"]))
    expect(names.first).to_have_text(final["standings"][0]["name"])


def widest(page: Any) -> int:
    """How far the page reaches to the right (its scroll width)."""
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_the_screens_fit_phones_of_320_360_and_412_px(browser, base_url, api, language) -> None:
    """Each new screen at each width: nothing wider than the phone (long names, wrapping,
    buttons); with TOURNAMENT_SCREENSHOTS set, its picture."""
    shots = os.environ.get("TOURNAMENT_SCREENSHOTS")
    club = host_club(api)
    admin = club["admin_token"]
    tournament = api._call(
        "POST",
        f"/clubs/{club['id']}/tournaments",
        admin,
        json={
            "name": "Preis-Solo Lüdenscheid 2026",
            "variant": "american",
            "series": 2,
            "hands_per_series": 1,
            "entry_fee_cents": 1250,
            "cap": 12,
            "prizes": [{"per_mille": 500}, {"per_mille": 300}, {"per_mille": 200}],
        },
    )
    tid = tournament["id"]
    for index, name in enumerate(GUESTS[:13]):
        entrant = api._call(
            "POST",
            f"/tournaments/{tid}/registrations",
            tournament["registration_token"],
            json={"name": name, "club": "Real Club de Solo Sevilla"},
        )
        if index < 8:
            api._call(
                "PATCH",
                f"/tournaments/{tid}/entrants/{entrant['id']}",
                admin,
                json={"status": "checked_in"},
            )
    api._call("POST", f"/tournaments/{tid}/series", admin, json={"seed": 7})
    record_series(api, club, tournament["night_id"], 1)
    for width in WIDTHS:
        context = browser.new_context(
            viewport={"width": width, "height": 760}, base_url=base_url, locale=language
        )
        page = context.new_page()
        keep_admin_token(page, club)
        link = (
            f"/tournaments/{tid}/register?lang={language}#token="
            f"{tournament['registration_token']}&name=Preis-Solo%20L%C3%BCdenscheid%202026"
        )
        page.goto(link)
        page.locator("#reg-name").fill(GUESTS[0])
        assert widest(page) <= width, ("register", width)
        if shots:
            page.screenshot(path=str(Path(shots) / f"tournament-register-{language}-{width}.png"))
        page.goto(f"/clubs/{club['id']}/tournament-admin?lang={language}#tournament={tid}")
        page.locator("section.entrants").wait_for(timeout=BOUND_MS)
        assert widest(page) <= width, ("director", width)
        if shots:
            page.evaluate("document.querySelector('section.entrants').scrollIntoView()")
            page.screenshot(path=str(Path(shots) / f"tournament-director-{language}-{width}.png"))
        page.goto(f"/clubs/{club['id']}/tournament-admin?lang={language}#tournament={tid}&ranking")
        page.locator(".ranking tbody tr").first.wait_for(timeout=BOUND_MS)
        assert widest(page) <= width, ("ranking", width)
        if shots:
            page.screenshot(path=str(Path(shots) / f"tournament-ranking-{language}-{width}.png"))
        context.close()


def test_axe_finds_nothing_on_the_tournament_screens(browser, base_url, api) -> None:
    """The registration page, its answer, the director's screen with a series drawn and the
    ranking list, in German at 360 px (axe-core: WCAG 2.2 AA and 7:1 contrast)."""
    from .test_access import violations

    club = host_club(api)
    admin = club["admin_token"]
    tournament = api._call(
        "POST",
        f"/clubs/{club['id']}/tournaments",
        admin,
        json={
            "name": "Preis-Solo",
            "variant": "american",
            "hands_per_series": 1,
            "entry_fee_cents": 1000,
            "cap": 4,
            "prizes": [{"per_mille": 1000}],
        },
    )
    tid, token = tournament["id"], tournament["registration_token"]
    for name in GUESTS[1:5]:
        entrant = api._call(
            "POST",
            f"/tournaments/{tid}/registrations",
            token,
            json={"name": name, "contact": "0171 2345678"},
        )
        api._call(
            "PATCH",
            f"/tournaments/{tid}/entrants/{entrant['id']}",
            admin,
            json={"status": "checked_in"},
        )
    context = browser.new_context(viewport={"width": 360, "height": 780}, base_url=base_url)
    page = context.new_page()
    try:
        page.goto(f"/tournaments/{tid}/register?lang=de#token={token}&name=Preis-Solo")
        page.locator("form.register").wait_for(timeout=BOUND_MS)
        assert violations(page) == []
        page.locator("#reg-name").fill(GUESTS[0])
        page.locator("form.register button[type=submit]").click()
        page.locator("section.answer").wait_for(timeout=BOUND_MS)  # the waiting list
        assert violations(page) == []
        page.goto(f"/clubs/{club['id']}/tournament-admin?lang=de#tournament={tid}&token={admin}")
        page.locator("section.draw button.primary").click()
        page.locator('section.series[data-series="1"]').wait_for(timeout=BOUND_MS)
        page.locator(".registration summary").click()
        page.locator(".registration .qrbox svg").wait_for(timeout=BOUND_MS)
        assert violations(page) == []
        page.goto(
            f"/clubs/{club['id']}/tournament-admin?lang=de#tournament={tid}&ranking&token={admin}"
        )
        page.locator(".ranking tbody tr").first.wait_for(timeout=BOUND_MS)
        assert violations(page) == []
    finally:
        context.close()
