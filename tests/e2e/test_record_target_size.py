"""The new-hand form at a phone's real height: axe's target-size rule (WCAG 2.2, 2.5.8) finds
no control left as a sliver under the save bar (issue 39, trap 16: the called ace's diamonds
button at 412 × 760, American Solo with 4 and 5 seats). The form's fields scroll in their own
box above the bar, so the bar covers none of them, at whatever height the fold falls.

tests/e2e/test_access.py runs every axe rule with the whole page in view; this runs the one
rule with the page as a phone shows it, the fold at each height from 640 to 940 px."""

from __future__ import annotations

from typing import Any

import pytest

from .support import Api, table_url
from .test_access import AXE

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = (
    "Anna-Katharina Berger",
    "Maximilian Oberhuber-Schmidt",
    "Carla Moser-Lindqvist",
    "Dieter Schmidt-Hohenstein",
    "Eva-Maria Sánchez Villanueva",
)
TARGET_SIZE = """() => axe.run(document, {runOnly: {type: 'rule', values: ['target-size']}})
  .then((r) => r.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${
    n.failureSummary.replace(/\\s+/g, ' ')}`)))"""


@pytest.mark.parametrize("width", [360, 412, 800])
@pytest.mark.parametrize("language", ["de", "es"])
def test_no_control_of_the_new_hand_form_is_a_sliver_under_the_save_bar(
    phones: Any, api: Api, language: str, width: int
) -> None:
    found = []
    for seats in (4, 5):
        table = api.table_setup(NAMES[:seats])
        phone = phones(viewport={"width": width, "height": 760})
        phone.context.add_init_script(f"localStorage.setItem('solo-pad:lang', '{language}')")
        page = phone.page
        page.goto(table_url("", table) + "&go=new")
        page.locator("form.handform").wait_for()
        page.evaluate(AXE)  # through the DevTools protocol: the page's CSP does not apply
        for contract in ("simple", "tout"):
            page.locator(f'button.contract[data-value="{contract}"]').click()
            page.locator('[data-field="called"] button[data-value="diamonds"]').wait_for()
            for height in range(640, 941, 20):
                page.set_viewport_size({"width": width, "height": height})
                page.evaluate("window.scrollTo(0, 0)")
                found += [
                    f"{seats} seats, {contract}, {width} × {height}: {v}"
                    for v in page.evaluate(TARGET_SIZE)
                ]
    assert not found, "\n".join(found[:20])
