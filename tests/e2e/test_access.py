"""Open to everyone: axe-core (WCAG 2.2 AA, with the visible-label and 7:1 contrast rules) finds
nothing on any screen, light or dark, in English, German and Spanish; nothing focused hides
behind the sticky bars; the tricks count is announced; a new screen starts at its top with its
heading focused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import axe_playwright_python
import pytest

from service.i18n import gettext

from .support import Api, table_url
from .words import Words

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

AXE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
AXE_RUN = """() => axe.run(document, {
  runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa',
                                  'best-practice']},
  rules: {'label-content-name-mismatch': {enabled: true},
          'color-contrast-enhanced': {enabled: true}},
}).then((r) => r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3)
  .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 60)} ${n.failureSummary}`).join(' | ')}`))"""
TITLES = {"solo66": "Solo 66", "german": "German Solo", "spanish": "Spanish Solo"}
NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Schmidt")


def violations(page: Any) -> list[str]:
    # The whole page in view: the sticky bars cover whatever scrolls under them, which axe's
    # target-size rule counts against that control (the focus test below covers scrolling).
    size = page.viewport_size
    page.set_viewport_size(
        {
            "width": size["width"],
            "height": page.evaluate("document.documentElement.scrollHeight") + 300,
        }
    )
    page.evaluate("window.scrollTo(0, 0)")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE)  # through the DevTools protocol: the page's CSP does not apply
    try:
        return page.evaluate(AXE_RUN)
    finally:
        page.set_viewport_size(size)


def screens(page: Any, table: dict[str, Any]) -> list[tuple[str, str]]:
    base = f"/#table={table['id']}"
    return [
        (base, ".sheet"),
        (base + "&go=new", "form.handform"),
        (base + "&go=edit&n=1", "form.handform"),
        (base + "&go=share", "svg.qr"),
        (base + "&go=settle", "ul.payments"),
        (base + "&go=seating", "ol.reseat"),
    ]


@pytest.mark.parametrize(
    ("scheme", "language"), [("light", "en"), ("dark", "en"), ("light", "de"), ("dark", "es")]
)
def test_axe_finds_nothing_on_any_screen(phones: Any, api: Api, scheme: str, language: str) -> None:
    phone = phones()
    phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
    page = phone.page
    page.emulate_media(color_scheme=scheme)
    page.goto("/")
    page.get_by_label(Words(language)("Club name")).wait_for()
    found = [f"start (first visit): {v}" for v in violations(page)]
    table = api.table_setup(NAMES)
    for hand in (
        {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
        {
            "contract": "simple",
            "trump": "spades",
            "declarer": 2,
            "called": {"rank": "ace", "suit": "diamonds"},
            "partner": 0,
            "tricks": 4,
        },
    ):
        api.record(table, hand)
    page.goto(table_url("", table))
    page.locator('.sheet .hand[data-number="2"]').wait_for()
    for url, ready in screens(page, table):
        page.goto(url)
        page.locator(ready).first.wait_for()
        if page.locator("details.more").count():
            page.locator("details.more summary").click()
            page.locator(".preview > *").first.wait_for()  # its heading is part of the order
        if ready == ".sheet":
            page.locator('.sheet .hand[data-number="2"] button.what').click()
            page.locator(".sheet tr.more .settlement").wait_for()
        found += [f"{url}: {v}" for v in violations(page)]
    # The other variants' forms, built from their descriptions.
    for variant, names, options in (
        ("solo66", (*NAMES, "Elif Yılmaz-Hofer"), {}),
        ("german", NAMES, {"mediateur": True, "deck": 24}),
        ("spanish", NAMES, {}),
    ):
        other = api.table_setup(names, variant=variant, **options)
        page.goto(table_url("", other))
        page.reload()
        title = gettext(TITLES[variant], language)  # as GET /variants words it
        page.locator(".titlebar .hint", has_text=title).wait_for()
        page.goto(f"/#table={other['id']}&go=new")
        page.locator("form.handform").wait_for()
        if page.locator("details.more").is_visible():
            page.locator("details.more summary").click()
        found += [f"{variant} form: {v}" for v in violations(page)]
    assert not found, "\n".join(found)


# Tab through the hand form: no focused control may be covered by the sticky header or the
# sticky save bar (WCAG 2.2, 2.4.11 Focus Not Obscured).
HIDDEN_FOCUS = """() => {
  const el = document.activeElement;
  if (el === document.body || el.matches('.skip')) return null;  // the skip link sits on the bar
  const r = el.getBoundingClientRect();
  const top = document.querySelector('.top').getBoundingClientRect().bottom;
  const bar = document.querySelector('.footer');
  const bottom = bar ? bar.getBoundingClientRect().top : innerHeight;
  const inBar = bar && bar.contains(el);
  const covered = !inBar && !el.closest('.top') && (r.bottom > bottom + 0.5 || r.top < top - 0.5);
  return covered ? `${el.tagName} "${el.textContent.trim().slice(0, 30)}" at ${r.top}..${r.bottom}`
    + ` (free ${top}..${bottom})` : null;
}"""


@pytest.mark.parametrize(("scheme", "locale"), [("light", "en-US"), ("dark", "de-DE")])
def test_axe_finds_nothing_on_a_tables_link_page_before_its_scripts(
    phones: Any, api: Api, scheme: str, locale: str
) -> None:
    """The first screen the service draws (`/?table=…&token=…`), as the page alone shows it."""
    page = phones(locale=locale).page
    page.emulate_media(color_scheme=scheme)
    held: list[Any] = []
    page.route("**/app.js", lambda route: held.append(route))  # the page alone
    table = api.table_setup(NAMES)
    page.goto(f"/?table={table['id']}&token={table['table_token']}")
    page.locator(".seat .name").first.wait_for()
    assert page.locator("#new-hand").count() == 0
    assert violations(page) == []
    for route in held:
        route.continue_()
    page.locator("#new-hand").wait_for()


def test_nothing_focused_is_hidden_and_the_count_is_announced(phones: Any, api: Api) -> None:
    table = api.table_setup(NAMES)
    page = phones().page
    page.goto(table_url("", table))
    page.locator("#new-hand").click()
    page.locator("form.handform").wait_for()
    page.locator("details.more summary").click()
    hidden = []
    for _ in range(40):
        page.keyboard.press("Tab")
        where = page.evaluate(HIDDEN_FOCUS)
        if where:
            hidden.append(where)
    assert not hidden, hidden
    count = page.locator('[data-field="tricks"] output')
    assert count.get_attribute("aria-live") == "polite"
    page.get_by_role("button", name="Tricks taken: one more").click()
    assert count.inner_text() == "6"


def test_a_new_screen_starts_at_its_heading(phones: Any, api: Api) -> None:
    table = api.table_setup(NAMES)
    page = phones().page
    page.goto(table_url("", table))
    page.locator("#new-hand").click()
    page.locator(seat := '[data-field="declarer"] button[data-value="1"]').click()
    page.mouse.wheel(0, 2000)
    page.locator("button.contract[data-value='solo']").click()
    page.locator('[data-field="trump"] button[data-value="hearts"]').click()
    page.locator(seat).click()
    page.locator("button.save").click()
    page.locator('.sheet .hand[data-number="1"]').wait_for()
    page.wait_for_function("document.activeElement.tagName === 'H1'")
    assert page.evaluate("scrollY") == 0
    # After Save the balances are in view.
    box = page.locator("ol.seats").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 640
