"""A tournament's public results page in Chromium: on a 360 px phone in German and Spanish with
long names (no sideways scrolling, every name whole, each table's progress), following a hand
recorded meanwhile with no reload, and on the room's big screen; unpublished, it says so.

``RESULTS_SCREENSHOTS=docs/screenshots`` writes the screenshots docs/tournaments.md shows."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}
NAMES = (
    "Anna-Katharina Berger",
    "Maximilian Oberhuber-Schmidt",
    "Inmaculada Concepción Martínez Ruiz",
    "Franziska Lüdenscheidt-Hohenstein",
    "Bartholomäus Hohenzollern",
    "Elif Yılmaz-Hofer",
    "Carla Moser-Lindqvist",
    "María de los Ángeles Fernández",
)
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}
WORDS = {
    "de": ("Tabelle", "Serie 1 von 3", "1 von 6 Spielen", "0 von 6 Spielen", "abgemeldet"),
    "es": ("Clasificación", "Ronda 1 de 3", "1 de 6 manos", "0 de 6 manos", "de baja"),
    "en": ("Standings", "Series 1 of 3", "1 of 6 hands", "0 of 6 hands", "withdrawn"),
}
GONE = {
    "de": "Diese Ergebnisse sind nicht (mehr) veröffentlicht.",
    "es": "Estos resultados no están publicados (o ya no lo están).",
}


def shoot(page: Any, name: str) -> None:
    folder = os.environ.get("RESULTS_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def tournament_scene(api: Any) -> dict[str, Any]:
    """Eight entrants of long names (every other by the initial), checked in, the first series
    of three drawn (two tables of four), the results published; one withdrawn after it."""
    club = api._call("POST", "/clubs", json={"name": "Skatfreunde Köln"})
    admin = club["admin_token"]
    tournament = api._call(
        "POST",
        f"/clubs/{club['id']}/tournaments",
        admin,
        json={
            "name": "Preis-Solo der Skatfreunde Köln 2026",
            "variant": "american",
            "table_sizes": [4],
            "hands_per_series": 6,
            "series": 3,
            "entry_fee_cents": 1500,
            "prizes": [{"per_mille": 500}, {"per_mille": 300}, {"per_mille": 200}],
        },
    )
    entrants = [
        api._call(
            "POST",
            f"/tournaments/{tournament['id']}/entrants",
            admin,
            json={
                "name": name,
                "club": "SC Bonn",
                "display": "initial" if i % 2 else "full",
                "check_in": True,
            },
        )
        for i, name in enumerate(NAMES)
    ]
    series = api._call("POST", f"/tournaments/{tournament['id']}/series", admin, json={"seed": 7})
    shown = api._call(
        "PATCH",
        f"/tournaments/{tournament['id']}",
        admin,
        json={"public_results": True, "public_prizes": True},
    )
    return {
        "admin": admin,
        "tournament": tournament,
        "entrants": entrants,
        "series": series,
        "public_id": shown["public_id"],
    }


def record(api: Any, scene: dict[str, Any], table: int, hand: dict[str, Any]) -> None:
    table_id = scene["series"]["tables"][table]["table_id"]
    api._call("POST", f"/tables/{table_id}/hands", scene["admin"], json=hand)


def measured(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const names = [...document.querySelectorAll('.standings td.name')];
          return {
            rows: names.length,
            overflowX: document.documentElement.scrollWidth - innerWidth,
            names: names.map((n) => n.textContent),
            clipped: names.filter((n) => n.scrollWidth > n.clientWidth + 1).length,
            nameSize: names.length ? parseFloat(getComputedStyle(names[0]).fontSize) : 0,
            counts: [...document.querySelectorAll('.tables .count')].map((e) => e.textContent),
          };
        }"""
    )


@pytest.mark.parametrize("language", ["de", "es"])
def test_the_results_on_a_phone_follow_the_hands(browser, base_url, api, language):
    scene = tournament_scene(api)
    record(api, scene, 0, SOLO)
    api._call(
        "PATCH",
        f"/tournaments/{scene['tournament']['id']}/entrants/{scene['entrants'][0]['id']}",
        scene["admin"],
        json={"status": "withdrawn"},
    )
    title, progress, one, none, withdrawn = WORDS[language]
    context = browser.new_context(viewport=PHONE, base_url=base_url, device_scale_factor=2)
    problems: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"/results/{scene['public_id']}?lang={language}")
        page.wait_for_selector(".standings tbody tr", timeout=15_000)
        assert page.locator(".standings-part h2").inner_text() == title
        assert progress in page.locator(".progress").inner_text()
        found = measured(page)
        assert found["rows"] == len(NAMES)
        assert found["overflowX"] <= 0, found  # nothing scrolls sideways at 360 px
        assert found["clipped"] == 0, found  # every name whole (wrapped where it must)
        assert found["nameSize"] >= 14, found
        assert any(name.startswith("Anna-Katharina Berger") for name in found["names"]), found
        assert "Maximilian O." in found["names"], found  # as he chose: the initial
        assert "Oberhuber" not in page.content()
        assert sorted(found["counts"]) == sorted([one, none]), found
        assert page.get_by_text(f"({withdrawn})").count() == 1
        shoot(page, f"results-phone-{language}.png")
        # A hand at the second table shows within a few seconds, with no reload.
        record(api, scene, 1, LOST_SOLO)
        page.wait_for_function(
            "(text) => [...document.querySelectorAll('.tables .count')]"
            ".every((e) => e.textContent === text)",
            arg=one,
            timeout=15_000,
        )
        # Taken back by the director: the page says so.
        api._call(
            "PATCH",
            f"/tournaments/{scene['tournament']['id']}",
            scene["admin"],
            json={"public_results": False},
        )
        page.reload()
        page.wait_for_function("() => document.body.dataset.shown === 'none'", timeout=15_000)
        assert page.get_by_text(GONE[language]).count() == 1
    finally:
        context.close()
    assert not problems or all("404" in p for p in problems), problems


def test_the_results_on_the_big_screen(browser, base_url, api):
    scene = tournament_scene(api)
    record(api, scene, 0, SOLO)
    record(api, scene, 1, LOST_SOLO)
    context = browser.new_context(viewport=TV, base_url=base_url)
    page = context.new_page()
    try:
        page.goto(f"/results/{scene['public_id']}?lang=en")
        page.wait_for_selector(".standings tbody tr", timeout=15_000)
        found = measured(page)
        assert found["overflowX"] <= 0 and found["clipped"] == 0, found
        assert found["nameSize"] >= 30, found  # read across the room on a 1080p screen
        columns = page.evaluate(
            "() => [...document.querySelectorAll('.columns > section')]"
            ".map((s) => Math.round(s.getBoundingClientRect().left))"
        )
        assert len(columns) == 2 and columns[0] < columns[1], columns  # side by side
        shoot(page, "results-screen-en.png")
    finally:
        context.close()
