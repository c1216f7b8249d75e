"""A table's first screen on a fresh phone, and what it waits for (docs/pad.md, "A table's
first screen"): its reads go out from boot.js while the modules are still on their way, the app
takes those answers instead of asking again, and nothing the screen does not show is asked for
before the table is shown."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.e2e.support import Api, table_url
from tests.e2e.test_assets import WATCH_THE_TABLE

HELD_BOUND_MS = 15_000
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}

# When the page registers its service worker (it fetches every file of the pad).
WATCH_THE_SERVICE_WORKER = """
const register = navigator.serviceWorker.register.bind(navigator.serviceWorker);
navigator.serviceWorker.register = (...args) => {
  window.workerRegisteredAt = performance.now();
  return register(...args);
};
"""
# When the page makes a number format (Chromium's first costs it 0.1-0.2 s here).
WATCH_NUMBER_FORMATS = """
const Made = Intl.NumberFormat;
window.numberFormatsAt = [];
Intl.NumberFormat = function (...args) {
  window.numberFormatsAt.push(performance.now());
  return new Made(...args);
};
"""
# Every request of the page that had ended by now: (when it started, what it asked for).
REQUESTS_SO_FAR = """() => performance.getEntriesByType('resource').map((e) => {
  const url = new URL(e.name);
  return [e.startTime, url.pathname + url.search];
})"""
# The table's reads: the games, the table, its first page of hands.
FIRST_READS = ("/api/v1/variants", "/api/v1/tables/{id}", "/api/v1/tables/{id}/hands?page=1")


def first_reads(table: dict[str, Any]) -> list[str]:
    return [path.format(id=table["id"]) for path in FIRST_READS]


def is_first_read(path: str, table: dict[str, Any]) -> str | None:
    """Which of the table's first reads ``path`` is (the hands' page size aside)."""
    path = re.sub(r"&page_size=\d+$", "", path)
    return path if path in first_reads(table) else None


def test_the_tables_reads_go_out_while_its_modules_are_on_their_way(phones: Any, api: Api) -> None:
    table = api.table_setup()
    api.record(table, SOLO)
    page = phones(locale="de-DE").page
    held: list[Any] = []
    # The table's screen held back: app.js cannot run.
    page.route("**/table.js", lambda route: held.append(route))
    page.goto(table_url("", table), wait_until="commit")
    waited = 0
    while not held and waited < HELD_BOUND_MS:
        page.wait_for_timeout(50)
        waited += 50
    assert held, "table.js was never asked for"
    # Only boot.js can ask for them now: the reads, in German, and the German words.
    page.wait_for_function(
        """([reads]) => {
          const asked = performance.getEntriesByType('resource').map((e) => new URL(e.name));
          const paths = asked.map((u) => u.pathname + u.search.replace(/&page_size=\\d+$/, ''));
          return reads.every((r) => paths.includes(r))
            && asked.some((u) => u.pathname.endsWith('/lang-de.js'));
        }""",
        arg=[first_reads(table)],
    )
    assert page.locator("#new-hand").count() == 0
    for route in held:
        route.continue_()
    page.locator("#new-hand").wait_for()
    assert page.locator(".seat .name").all_inner_texts() == ["Anna", "Bob", "Carl", "Dora"]
    assert page.locator(".sheet .hand").count() == 1
    assert page.locator("#new-hand").inner_text() == "Neues Spiel 2"


def test_a_table_asks_for_nothing_before_it_is_shown_but_what_it_shows(
    phones: Any, api: Api
) -> None:
    table = api.table_setup()
    api.record(table, SOLO)
    page = phones().page
    page.add_init_script(WATCH_THE_TABLE)
    page.add_init_script(WATCH_THE_SERVICE_WORKER)
    page.add_init_script(WATCH_NUMBER_FORMATS)
    page.goto(table_url("", table))
    page.locator("#new-hand").wait_for()
    # The table's stream, the other screens and the service worker come after it.
    page.locator("html[data-following]").wait_for(state="attached")
    page.locator("html[data-warmed]").wait_for(state="attached")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    shown_at = page.evaluate("window.tableShownAt")
    assert page.evaluate("window.workerRegisteredAt") > shown_at
    # Its numbers are small: no number format made before it is shown.
    assert all(at > shown_at for at in page.evaluate("window.numberFormatsAt"))
    requests = page.evaluate(REQUESTS_SO_FAR)
    before = [path for start, path in requests if start < shown_at]
    after = [path for start, path in requests if start >= shown_at]

    api_before = [path for path in before if path.startswith("/api/")]
    # Each once: the app took boot.js's answers instead of asking again.
    assert sorted(is_first_read(p, table) or p for p in api_before) == sorted(first_reads(table))
    assert not any(urlsplit(path).path.endswith("/start.js") for path in before)
    assert any(path.endswith("/settle-up") for path in after)  # the printed settle-up
    assert any(path.endswith("/events/tickets") for path in after)  # the table's stream
    assert any(path.endswith("/start.js") for path in after)  # the other screens, warmed


# i18n.js's num() (a module of its own here, beside the page's) against the language's format.
NUM_AGAINST_INTL = """async () => {
  const { lang, num } = await import(new URL('/pad/i18n.js', location.href).href);
  const format = new Intl.NumberFormat(lang);
  const differ = [];
  for (let n = -1500; n <= 1500; n += 1) if (num(n) !== format.format(n)) differ.push(n);
  for (const n of [12345, -123456, 1234567.5]) if (num(n) !== format.format(n)) differ.push(n);
  return [lang, differ];
}"""


@pytest.mark.parametrize("locale", ["en-US", "de-DE", "es-ES"])
def test_a_number_reads_as_its_language_writes_it(phones: Any, locale: str) -> None:
    # Below 1,000 num() writes the digits itself (no Intl.NumberFormat on a first screen).
    page = phones(locale=locale).page
    page.goto("/")
    page.locator("form.card input").first.wait_for()
    assert page.evaluate(NUM_AGAINST_INTL) == [locale[:2], []]


# Each largest-contentful-paint candidate the page reports: (when, its text, its size).
WATCH_THE_LARGEST_PAINT = """
window.largestPaints = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    window.largestPaints.push([e.startTime, e.element ? e.element.textContent : null, e.size]);
  }
}).observe({ type: 'largest-contentful-paint', buffered: true });
"""


def test_a_tables_link_brings_its_first_screen_with_the_page(phones: Any, api: Api) -> None:
    """``/?table=<id>&token=<token>`` (the shared link): the names are painted before any
    script runs, the app takes the page's answers and draws no larger text over them."""
    table = api.table_setup()
    api.record(table, SOLO)
    page = phones(locale="de-DE").page
    page.add_init_script(WATCH_THE_TABLE)
    page.add_init_script(WATCH_THE_LARGEST_PAINT)
    page.add_init_script("requestAnimationFrame(() => (window.firstFrameAt = performance.now()))")
    held: list[Any] = []
    page.route("**/app.js", lambda route: held.append(route))  # the app cannot run
    page.goto(f"/?table={table['id']}&token={table['table_token']}")
    waited = 0
    while not held and waited < HELD_BOUND_MS:
        page.wait_for_timeout(50)
        waited += 50
    assert held, "app.js was never asked for"
    # Painted from the page alone: the table's name, its line in German, the seats' names.
    assert page.locator(".seat .name").all_inner_texts() == ["Anna", "Bob", "Carl", "Dora"]
    assert (
        page.locator(".titlebar .hint").inner_text() == "Amerikanisches Solo · weiter mit Spiel 2"
    )
    # The scripts were asked for only after that first frame.
    frame = page.evaluate("window.firstFrameAt")
    scripts = page.evaluate(REQUESTS_SO_FAR)
    assert all(start > frame for start, path in scripts if path.endswith(".js")), (frame, scripts)
    for route in held:
        route.continue_()
    page.locator("#new-hand").wait_for()
    assert page.locator("#new-hand").inner_text() == "Neues Spiel 2"
    assert page.locator(".seat .name").all_inner_texts() == ["Anna", "Bob", "Carl", "Dora"]
    assert page.locator(".sheet .hand").count() == 1
    # The page's answers taken: none of the table's first reads asked for before it is shown.
    shown_at = page.evaluate("window.tableShownAt")
    asked = [path for start, path in page.evaluate(REQUESTS_SO_FAR) if start < shown_at]
    assert not [path for path in asked if is_first_read(path, table)]
    # The address keeps no token (the phone does), as after any table's link.
    assert page.evaluate("location.search + location.hash") == f"#table={table['id']}"
    kept = page.evaluate("JSON.parse(localStorage.getItem('solo-pad:tables'))")
    assert kept[table["id"]]["token"] == table["table_token"]
    # The largest text was painted with the page: the app's screen drew none larger. Waited for
    # as a condition, not a time: two frames after the app drew (its paint presented), then a
    # task (the paint observer's entries delivered).
    page.evaluate(
        "() => new Promise((done) =>"
        " requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))))"
    )
    largest = page.evaluate("window.largestPaints")
    assert largest and all(at < shown_at for at, _, _ in largest), largest
    assert largest[-1][1] == "Amerikanisches Solo · weiter mit Spiel 2"
