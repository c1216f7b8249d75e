"""The order in which a worker's opening threads take stream openings and tickets, and the ones
they skip (``service/stream_hub.OpeningQueue``): after a restart thousands of phones mint their
tickets and open their streams at once, and give each stream up 5 s later without its ``ready``
(the pad's ``live.js``), so the openings served must be the ones whose phones still wait, and
no ticket may be minted while an opening waits.

The queue is driven here by hand (its threads not started, a clock of the test's own): what is
checked is the order and the skipping, never how fast anything runs."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from service.stream_hub import OPENING, TICKET, OpeningQueue, client_gone


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    """The worker's end of a connection (its request read already) and the client's."""
    server, client = socket.socketpair()
    yield server, client
    server.close()
    client.close()


def test_openings_are_taken_oldest_first_until_the_oldest_has_waited_then_newest_first(pair):
    clock = Clock()
    queue = OpeningQueue(1, newest_first_after=1.0, clock=clock, start=False)
    for name in "abcd":
        queue.submit(pair[0], lambda name=name: name)
        clock.now += 0.1
    taken = queue.take()
    assert taken is not None and taken[2]() == "a"  # a waited 0.4 s: the queue keeps up
    clock.now += 1.0  # b has waited 1.3 s: the newest go first now
    order = []
    while (taken := queue.take()) is not None:
        order.append(taken[2]())
    assert order == ["d", "c", "b"]
    queue.submit(pair[0], lambda: "e")  # a short queue again: oldest first
    queue.submit(pair[0], lambda: "f")
    taken = queue.take()
    assert taken is not None and taken[2]() == "e"


def test_openings_are_taken_before_any_ticket_and_tickets_in_the_order_they_came(pair):
    """A phone with its ticket is one opening from live; a ticket waits while any opening
    does, whichever came first, and tickets go oldest first even after a long wait."""
    clock = Clock()
    queue = OpeningQueue(1, newest_first_after=1.0, clock=clock, start=False)
    queue.submit(pair[0], lambda: "ticket 1", TICKET)
    queue.submit(pair[0], lambda: "ticket 2", TICKET)
    queue.submit(pair[0], lambda: "opening a", OPENING)
    clock.now += 0.1
    queue.submit(pair[0], lambda: "opening b")  # (an opening unless told otherwise)
    queue.submit(pair[0], lambda: "ticket 3", TICKET)
    order = []
    taken = queue.take()
    assert taken is not None
    order.append(taken[2]())
    queue.submit(pair[0], lambda: "opening c", OPENING)  # a ticket answered: its opening
    clock.now += 5.0  # the tickets have waited long: still the oldest first
    while (taken := queue.take()) is not None:
        order.append(taken[2]())
    assert order == [
        "opening a",
        "opening c",  # b has waited over a second: the newest opening first
        "opening b",
        "ticket 1",
        "ticket 2",
        "ticket 3",
    ]


@pytest.mark.parametrize("kind", [OPENING, TICKET])
def test_an_opening_or_ticket_whose_client_has_gone_is_not_run_and_closes(pair, kind):
    server, client = pair
    told = []
    queue = OpeningQueue(1, clock=Clock(), start=False, on_skip=lambda: told.append(kind))
    ran = []
    future = queue.submit(server, lambda: ran.append("opened") or "held", kind)
    client.close()  # the phone gave up while its opening waited
    taken = queue.take()
    assert taken is not None
    queue.run(*taken)
    assert future.result() is False  # gthread's finish_request closes the connection
    assert ran == []
    assert queue.skipped == 1
    assert told == [kind]  # (the worker counts it in solo_stream_starts_skipped_total)


def test_an_opening_whose_client_waits_is_run(pair):
    server, client = pair
    queue = OpeningQueue(1, clock=Clock(), start=False)
    future = queue.submit(server, lambda: "held")
    taken = queue.take()
    assert taken is not None
    queue.run(*taken)
    assert future.result() == "held"
    assert queue.skipped == 0


def test_a_client_is_gone_once_it_closed_not_while_it_is_silent_or_sends(pair):
    server, client = pair
    assert not client_gone(server)
    client.sendall(b"more")  # pipelined bytes are left for the parser to read
    assert not client_gone(server)
    assert server.recv(4) == b"more"
    client.close()
    assert client_gone(server)


def test_what_still_waits_when_the_worker_stops_is_cancelled(pair):
    queue = OpeningQueue(1, clock=Clock(), start=False)
    opening = queue.submit(pair[0], lambda: "held")
    ticket = queue.submit(pair[0], lambda: "minted", TICKET)
    queue.shutdown()
    assert opening.cancelled() and ticket.cancelled()
    assert queue.take() is None


def test_the_threads_run_what_is_submitted(pair):
    """Started as in the worker: a submitted opening runs on an opening thread."""
    queue = OpeningQueue(2)
    try:
        futures = [
            queue.submit(pair[0], lambda n=n: n, TICKET if n % 2 else OPENING) for n in range(10)
        ]
        assert sorted(f.result(timeout=30) for f in futures) == list(range(10))
    finally:
        queue.shutdown()
