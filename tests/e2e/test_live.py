"""The pad follows its table through the table's stream (server-sent events) when it can be
held, and polls with If-None-Match when it cannot: two phones on one table, against the
production server, as ``make serve`` runs it (gunicorn with gunicorn.conf.py's worker, the
answers before Flask, the stream hub; the other browser tests' werkzeug cannot hold a stream).

The first test is the browser tests' smoke path on that server, in ``make test-fast`` too: a
table opened on one phone, a hand recorded there, and the hand on the second phone by its
stream."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import Gunicorn

from .conftest import Phone
from .support import Api, table_url, wait_recorded
from .test_pad import POLL_SECONDS, create_table_in_the_page, record_solo

pytestmark = [pytest.mark.e2e]
BOUND_SECONDS = 15  # generous: the stream takes milliseconds, and the test proves it another way


@pytest.fixture
def server(production_server: Gunicorn) -> Gunicorn:
    return production_server


@pytest.fixture
def two_phones(browser: Any, server: Gunicorn) -> Iterator[tuple[Phone, Phone]]:
    opened = (Phone(browser, server.url), Phone(browser, server.url))
    yield opened
    problems = [p for phone in opened for p in phone.problems]
    for phone in opened:
        phone.close()
    assert not problems, problems


def polls_of(page: Any, table: dict[str, Any]) -> list[float]:
    """When the page asked for the table with If-None-Match (a poll), from now on."""
    asked: list[float] = []
    path = f"/api/v1/tables/{table['id']}"

    def note(request: Any) -> None:
        if request.url.endswith(path) and "if-none-match" in request.headers:
            asked.append(time.monotonic())

    page.on("request", note)
    return asked


def test_a_table_opened_on_one_phone_gets_its_hands_to_the_other_through_the_stream(
    two_phones: tuple[Phone, Phone], server: Gunicorn
) -> None:
    first, second = (phone.page for phone in two_phones)
    table = create_table_in_the_page(first)
    streams: list[str] = []
    second.on("request", lambda r: "/events?ticket=" in r.url and streams.append(r.url))
    second.goto(table_url("", table))
    second.locator("#new-hand").wait_for()
    # The second phone is live once its stream said ready: it stops polling then.
    second.locator('html[data-following="stream"]').wait_for(state="attached")
    assert streams and all(table["table_token"] not in url for url in streams)
    second.wait_for_timeout(POLL_SECONDS * 1000 + 500)  # a poll would have come by now
    polls = polls_of(second, table)
    for number in (1, 2, 3):
        record_solo(first, declarer="Dora", trump="diamonds")
        wait_recorded(first, number)
        saved = time.monotonic()
        second.locator(f'.sheet .hand[data-number="{number}"]').wait_for(
            timeout=BOUND_SECONDS * 1000
        )
        print(f"hand {number} shown on the other phone {time.monotonic() - saved:.3f} s after")
    assert polls == [], "the phone that follows the stream does not poll"
    assert (
        second.locator(".seat .balance").all_inner_texts()
        == first.locator(".seat .balance").all_inner_texts()
    )


@pytest.mark.slow
def test_with_the_stream_blocked_the_pad_falls_back_to_polling(
    two_phones: tuple[Phone, Phone], server: Gunicorn
) -> None:
    table = Api(server.url).table_setup()
    first, second = (phone.page for phone in two_phones)
    blocked: list[str] = []

    def buffering_proxy(route: Any) -> None:
        blocked.append(route.request.url)
        route.abort("connectionreset")

    second.context.route("**/events?**", buffering_proxy)
    polls = polls_of(second, table)
    for page in (first, second):
        page.goto(table_url("", table))
        page.locator("#new-hand").wait_for()
    record_solo(first, declarer="Dora", trump="diamonds")
    wait_recorded(first, 1)
    second.locator('.sheet .hand[data-number="1"]').wait_for(
        timeout=(POLL_SECONDS + BOUND_SECONDS) * 1000
    )
    assert blocked, "the pad tried the stream"
    assert second.locator("html").get_attribute("data-following") == "polling"
    assert polls, "and then polled"


@pytest.mark.slow
def test_reconnections_wait_a_random_while_that_grows_with_each_failure(
    two_phones: tuple[Phone, Phone], server: Gunicorn
) -> None:
    """After a restart every phone loses its stream at once: each waits a random while before
    reconnecting (up to a bound that doubles per failure, 1 s to 30 s), not one fixed pause."""
    page = two_phones[0].page
    page.goto(f"{server.url}/")
    bounds = page.evaluate(
        """async () => {
            const { retryDelay } = await import('/pad/live.js');
            return [0, 1, 3, 5, 50].map((n) => [retryDelay(n, () => 0),
                                                 retryDelay(n, () => 0.999999)]);
        }"""
    )
    assert bounds == [[250, 1249], [250, 2249], [250, 8249], [250, 30249], [250, 30249]]
    spread = page.evaluate(
        """async () => {
            const { retryDelay } = await import('/pad/live.js');
            return Array.from({ length: 200 }, () => retryDelay(0));
        }"""
    )
    assert all(250 <= wait < 1250 for wait in spread)
    assert len(set(spread)) > 100  # spread over the second, not one instant


@pytest.mark.slow
def test_while_the_stream_reopens_the_table_is_polled_paced_as_its_attempts(
    two_phones: tuple[Phone, Phone], server: Gunicorn
) -> None:
    """After a restart every phone of a crowded instance reopens its stream at once: none polls
    before its first attempt had its chance, then one poll per failed attempt (after a wait
    drawn as the attempt's, not before a Retry-After), and every tick only once three streams
    in a row failed with their tickets minted (streams do not work here)."""
    page = two_phones[0].page
    page.goto(f"{server.url}/")
    seen = page.evaluate(
        """async () => {
            const { Pacing } = await import('/pad/live.js');
            const p = new Pacing(() => 0.5); // retryDelay(n): 250 + 500 × 2^n ms
            const due = (...times) => times.map((t) => p.pollDue(t));
            const minted = { minted: true };
            return {
                lost: [p.lost(), ...due(0, 1e9)],
                failed: [p.failed(1000, minted), ...due(2249, 2250, 2250)],
                refused: [p.failed(3000, { retryAfterMs: 5000 }), ...due(10249, 10250)],
                second: [p.failed(20000, minted), ...due(24250, 24251)],
                third: [p.failed(30000, minted), ...due(30000, 30000, 30001)],
                live: [p.live(), ...due(1e9), p.lost()],
                again: [p.failed(0, minted), p.failed(100, minted), ...due(1250, 1250)],
                back: [p.back(), ...due(1e9), p.failed(5000)],
            };
        }"""
    )
    assert seen == {
        "lost": [750, False, False],  # no poll until the first attempt failed
        "failed": [1250, False, True, False],  # one poll, after its own wait
        "refused": [7250, False, True],  # a ticket's Retry-After (5 s) first
        "second": [4250, True, False],
        "third": [8250, True, True, True],  # three unheld streams: every tick polls
        "live": [None, False, 750],  # live: no polls; the backoff starts over
        "again": [1250, 2250, True, False],  # two unheld: still paced
        "back": [None, False, 1250],  # the network back: tried at once, no poll before
    }
