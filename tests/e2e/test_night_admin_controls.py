"""The director's controls on the club night's admin screen (issue 39), in Chromium, in German
and Spanish on a 360 px phone with long real names:

- "+2 hands for this series" on each open series: its answer, and a refusal, beside the
  button, in view and focused, and the tables' length set in the API; "+1 hand at table N"
  for one table's last round, the other tables as they were;
- the start form's table fee basis (per person and series, per person for the evening, per
  table), with a line saying what a person pays, and the night started with it;
- the night's result: its standings CSV downloaded with the admin token as a file (the API's
  own CSV, in the screen's language), and the big screen to print as the result sheet.

``NIGHT_SCREENSHOTS=docs/screenshots`` writes the German phone's screenshot of the controls."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .support import NIGHT_NAMES as NAMES
from .support import SOLO_WON, NightClub
from .test_night_director import admin_screen, in_view_and_focused, open_night

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BOUND_MS = 60_000  # generous: a loaded machine may take seconds where a quiet one takes 100 ms
PHONE = {"width": 360, "height": 780}
WORDS = {
    "de": {
        "length": "Diese Serie: 2 Spiele pro Tisch",
        "longer": "+2 Spiele für diese Serie",
        "lengthened": "Serie 1 hat jetzt 4 Spiele pro Tisch.",
        "now_four": "Diese Serie: 4 Spiele pro Tisch",
        "closed": "Die Tische der Serie sind geschlossen",
        "per_series": "Jede Person zahlt 2,00 € für jede Serie, die sie spielt.",
        "per_night": "Jede Person zahlt einmal 2,00 € für den Abend",
        "per_table": "Jeder Tisch zahlt 2,00 €, zu gleichen Teilen",
        "fee_per_table": "Tischgeld pro Tisch (€)",
        "no_fee": "Kein Tischgeld.",
        "night_rate": "Tischgeld 2,00 € pro Person für den Abend",
        "csv": "Tabelle herunterladen (CSV, für die Tabellenkalkulation)",
        "downloaded": "Heruntergeladen: night-",
        "sheet": "Ergebnisblatt zum Drucken (der Großbildschirm)",
    },
    "es": {
        "length": "Esta ronda: 2 manos por mesa",
        "longer": "+2 manos para esta ronda",
        "lengthened": "La ronda 1 tiene ahora 4 manos por mesa.",
        "now_four": "Esta ronda: 4 manos por mesa",
        "closed": "Las mesas de la ronda están cerradas",
        "per_series": "Cada persona paga 2,00 € por cada ronda que juega.",
        "per_night": "Cada persona paga 2,00 € una sola vez por la noche",
        "per_table": "Cada mesa paga 2,00 €, repartidos a partes iguales",
        "fee_per_table": "Cuota de mesa por mesa (€)",
        "no_fee": "Sin cuota de mesa.",
        "night_rate": "cuota de mesa de 2,00 € por persona para toda la noche",
        "csv": "Descargar la clasificación (CSV, para una hoja de cálculo)",
        "downloaded": "Archivo descargado: night-",
        "sheet": "Hoja de resultados para imprimir (la pantalla grande)",
    },
}
LANGUAGES = pytest.mark.parametrize("language", ["de", "es"])


def shot(language: str) -> Path | None:
    folder = os.environ.get("NIGHT_SCREENSHOTS")
    return Path(folder) if folder and language == "de" else None


def limits(club: NightClub, night: dict[str, Any], series: int) -> list[int | None]:
    return [t["hands_limit"] for t in club.get(night)["series"][series - 1]["tables"]]


def a_hand_at_table_one(club: NightClub, phones: Any, language: str) -> tuple[Any, Any, Any]:
    """A night of 8 players (3 series of 2 hands: two tables), series 1 drawn and a hand won at
    its table 1; the director's admin screen on it, and its series 1's section."""
    night = club.night()
    drawn = club.draw(night)
    tokens = club.card_tokens(night)
    first = drawn["tables"][0]["table_id"]
    club.record(first, tokens[first], SOLO_WON)
    admin = admin_screen(phones, club, language, PHONE).page
    open_night(admin, club, night, language)
    return night, admin, admin.locator('section.series[data-series="1"]')


@LANGUAGES
def test_the_director_lengthens_a_series_beside_its_button(
    api, night_club, phones, language
) -> None:
    words = WORDS[language]
    club = night_club
    night = club.night()  # 8 players, 3 series of 2 hands
    club.draw(night)
    admin = admin_screen(phones, club, language, PHONE).page
    open_night(admin, club, night, language)
    series = admin.locator('section.series[data-series="1"]')
    expect(series.locator("p.length")).to_have_text(words["length"], timeout=BOUND_MS)
    series.get_by_role("button", name=words["longer"]).click()
    notice = series.locator(".notice.info")
    expect(notice).to_have_text(words["lengthened"], timeout=BOUND_MS)
    in_view_and_focused(admin, notice)
    expect(series.locator("p.length")).to_have_text(words["now_four"])
    assert limits(club, night, 1) == [4, 4]
    if folder := shot(language):
        admin.screenshot(path=str(folder / "night-admin-lengthen-de.png"))
    # Behind the screen's back the next series is drawn (which closes series 1's tables): the
    # tap is refused with the server's words, beside the button, and nothing changes.
    club.draw(night, early=True)
    series.get_by_role("button", name=words["longer"]).click()
    refusal = series.locator(".notice.error")
    expect(refusal).to_contain_text(words["closed"], timeout=BOUND_MS)
    in_view_and_focused(admin, refusal)
    assert limits(club, night, 1) == [4, 4]


PER_TABLE = {
    "de": {
        "lines": ["Tisch 1: 1 von 2 Spielen", "Tisch 2: 0 von 2 Spielen"],
        "one_more": "+1 Spiel an Tisch 2",
        "answer": "Tisch 2 der Serie 1 hat jetzt 3 Spiele.",
        "after": ["Tisch 1: 1 von 2 Spielen", "Tisch 2: 0 von 3 Spielen"],
        "length": "Diese Serie: 3 Spiele pro Tisch",
    },
    "es": {
        "lines": ["Mesa 1: 1 de 2 manos", "Mesa 2: 0 de 2 manos"],
        "one_more": "+1 mano en la mesa 2",
        "answer": "La mesa 2 de la ronda 1 tiene ahora 3 manos.",
        "after": ["Mesa 1: 1 de 2 manos", "Mesa 2: 0 de 3 manos"],
        "length": "Esta ronda: 3 manos por mesa",
    },
}


@LANGUAGES
def test_the_director_lengthens_one_table_beside_its_button(
    api, night_club, phones, language
) -> None:
    """A last round at one table: "+1 hand at table 2" sets that table's length alone (the API's
    `table`), its answer beside the button, the other table as it was."""
    words = PER_TABLE[language]
    club = night_club
    night, admin, series = a_hand_at_table_one(club, phones, language)
    tables = series.locator(".table-lengths li .played")
    expect(tables).to_have_text(words["lines"], timeout=BOUND_MS)
    series.get_by_role("button", name=words["one_more"], exact=True).click()
    notice = series.locator('.table-lengths li[data-table="2"] .notice.info')
    expect(notice).to_have_text(words["answer"], timeout=BOUND_MS)
    in_view_and_focused(admin, notice)
    expect(tables).to_have_text(words["after"])
    expect(series.locator("p.length")).to_have_text(words["length"])
    assert limits(club, night, 1) == [2, 3]
    assert admin.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    if folder := shot(language):
        series.screenshot(path=str(folder / "night-admin-table-length-de.png"))


@LANGUAGES
def test_the_start_form_says_what_a_person_pays_per_fee_basis(
    api, night_club, phones, language
) -> None:
    words = WORDS[language]
    club = night_club
    admin = admin_screen(phones, club, language, PHONE).page
    admin.goto(f"/clubs/{club.id}/night-admin?lang={language}#nights")
    form = admin.locator("form.start")
    form.wait_for(timeout=BOUND_MS)
    line = form.locator(".fee-line")
    expect(line).to_have_text(words["no_fee"])
    form.locator("#start-fee").fill("2")
    expect(line).to_have_text(words["per_series"], timeout=BOUND_MS)
    basis = form.locator("#start-fee-basis")
    basis.select_option("table")
    expect(line).to_contain_text(words["per_table"])
    expect(form.locator('label[for="start-fee"]')).to_have_text(words["fee_per_table"])
    basis.select_option("night")
    expect(line).to_contain_text(words["per_night"])
    if folder := shot(language):
        form.locator(".money").screenshot(path=str(folder / "night-admin-fee-basis-de.png"))
    for player in club.players[:8]:
        form.locator(f'input[name=present][value="{player["id"]}"]').check()
    form.locator("button[type=submit]").click()
    summary = admin.locator("section.summary")
    expect(summary.locator(".rate")).to_contain_text(words["night_rate"], timeout=BOUND_MS)
    started = api._call("GET", f"/clubs/{club.id}/nights", club.admin)[0]
    assert started["fee_basis"] == "night"
    assert started["rate"]["table_fee_cents"] == 200


@LANGUAGES
def test_the_nights_result_downloads_its_csv_and_links_the_sheet(
    api, night_club, phones, language, tmp_path
) -> None:
    words = WORDS[language]
    club = night_club
    night = club.night(hands_per_series=1, series=1, rate={"cents": 5, "table_fee_cents": 200})
    series = club.draw(night)
    tokens = club.card_tokens(night)
    for number, table in enumerate(series["tables"]):
        club.record(table["table_id"], tokens[table["table_id"]], {**SOLO_WON, "declarer": number})
    admin = admin_screen(phones, club, language, PHONE).page
    open_night(admin, club, night, language)
    result = admin.locator("section.result")
    with admin.expect_download(timeout=BOUND_MS) as downloading:
        result.get_by_role("button", name=words["csv"]).click()
    download = downloading.value
    assert download.suggested_filename == f"night-{night['id']}.csv"
    saved = tmp_path / "night.csv"
    download.save_as(saved)
    # The API's own CSV in the screen's language (semicolons, a decimal comma), byte for byte.
    answer = api.http.get(
        f"{api.base}/api/v1/nights/{night['id']}/standings.csv",
        headers={"Authorization": f"Bearer {club.admin}", "Accept-Language": language},
        timeout=10,
    )
    assert answer.status_code == 200
    assert saved.read_bytes() == answer.content
    text = saved.read_text(encoding="utf-8-sig")
    assert ";" in text.splitlines()[0] and NAMES[0] in text and "," in text
    notice = result.locator(".notice.info")
    expect(notice).to_contain_text(words["downloaded"], timeout=BOUND_MS)
    in_view_and_focused(admin, notice)
    if folder := shot(language):
        admin.screenshot(path=str(folder / "night-admin-result-de.png"))
    # The result sheet: the big screen (which prints as the sheet), with the token.
    sheet = result.get_by_role("link", name=words["sheet"])
    expect(sheet).to_have_attribute(
        "href", f"/nights/{night['id']}/screen?lang={language}#token={club.admin}"
    )
    with admin.context.expect_page() as opened:
        sheet.click()
    board = opened.value
    expect(board.get_by_text(NAMES[0]).first).to_be_visible(timeout=BOUND_MS)


CLOCK = {
    "de": {
        "label": "Serie endet um",
        "set": "Uhr stellen",
        "answer": "Serie 1 endet um 21:30.",
        "end": "Serie jetzt beenden",
        "yes": "Ja, jetzt beenden",
        "ended": "Serie 1 ist beendet: Kein Tisch beginnt ein weiteres Spiel.",
        "none": "Keine Uhr",
        "cleared": "Serie 1 hat keine Uhr.",
    },
    "es": {
        "label": "La ronda termina a las",
        "set": "Poner el reloj",
        "answer": "La ronda 1 termina a las 21:30.",
        "end": "Terminar la ronda ahora",
        "yes": "Sí, terminarla ahora",
        "ended": "La ronda 1 ha terminado: ninguna mesa empieza otra mano.",
        "none": "Sin reloj",
        "cleared": "La ronda 1 no tiene reloj.",
    },
}


@LANGUAGES
def test_the_director_sets_the_series_clock_and_ends_the_series(
    api, night_club, phones, language
) -> None:
    """The series' clock from the admin screen (a time of day, the next one after the draw, in
    the director's time zone) reaches every table of the series; "End the series now", asked
    first, stops each table at the hands it recorded."""
    words = CLOCK[language]
    club = night_club
    night, admin, series = a_hand_at_table_one(club, phones, language)
    series.get_by_label(words["label"]).fill("21:30")
    series.get_by_role("button", name=words["set"]).click()
    notice = series.locator("form.clock ~ .notice.info")
    expect(notice).to_have_text(words["answer"], timeout=BOUND_MS)
    in_view_and_focused(admin, notice)
    tables = club.get(night)["series"][0]["tables"]
    offset = admin.evaluate("new Date().getTimezoneOffset()")  # the director's zone
    ends = {t["series_ends_at"] for t in tables}
    assert len(ends) == 1 and ends != {None}
    local = admin.evaluate("(iso) => new Date(iso).toTimeString().slice(0, 5)", next(iter(ends)))
    assert local == "21:30", (ends, offset)
    if folder := shot(language):
        series.screenshot(path=str(folder / "night-admin-clock-de.png"))
    series.get_by_role("button", name=words["none"]).click()
    expect(notice).to_have_text(words["cleared"], timeout=BOUND_MS)
    assert {t["series_ends_at"] for t in club.get(night)["series"][0]["tables"]} == {None}
    series.get_by_role("button", name=words["end"]).click()
    series.get_by_role("button", name=words["yes"]).click()
    expect(series.locator(".notice.info").last).to_have_text(words["ended"], timeout=BOUND_MS)
    assert limits(club, night, 1) == [1, 0]
    assert admin.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
