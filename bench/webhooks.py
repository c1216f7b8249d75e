"""What the webhooks' deliverer costs an event, against signing and POSTing the same events
by hand, measured in the same run.

    .venv/bin/python -m bench.webhooks [--pg URL] [--events N] [--latency M]

On SQLite (a temporary file) and, with ``--pg URL`` or ``TEST_DATABASE_URL``, PostgreSQL too
(its public schema is dropped and made again: give it a database of its own). A receiver on
127.0.0.1 verifies every delivery with ``standardwebhooks``. Three figures:

- the baseline: N events signed and POSTed one after another by ``sending.send`` (no database);
- the backlog: the same N events, already in the outbox, delivered by the deliverer (two
  threads, leased, each result written): events per second, and its ratio to the baseline;
- the latency: M hands recorded one at a time with the deliverer idle and woken by the
  outbox's feed: from the hand's answer to the receiver's verified receipt, p50 and p99.

There is no target: the figures say what the bookkeeping costs. Exits non-zero only if
something crashes or an event is missing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

if not __package__:
    sys.exit("Run from the project root: .venv/bin/python -m bench.webhooks")

from tests.api.webhook_receiver import Receiver, wait_for  # noqa: E402
from tests.support import ApiClient, migrated_app, wipe  # noqa: E402

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOOPBACK = ["127.0.0.1/32"]


def _measure(label: str, pg_url: str | None, events: int, latency: int) -> None:
    from service.extensions import db
    from service.services.live_feed import feed_for
    from service.services.outbox import events_after
    from service.services.webhooks.addresses import allowed_networks
    from service.services.webhooks.deliverer import DeliverySettings, run
    from service.services.webhooks.sending import Timeouts, send

    with tempfile.TemporaryDirectory() as tmp:
        app = migrated_app(pg_url, Path(tmp), WEBHOOK_ALLOWED_NETWORKS=LOOPBACK)
        api = ApiClient(app.test_client())
        receiver = Receiver()
        try:
            club = api.club()
            admin = api.auth(club["admin_token"])
            table = api.table(club=club)
            for _ in range(events - 1):  # the table's opening is the first event
                assert api.record(table, SOLO).status_code == 201
            with app.app_context():
                backlog = events_after(club["id"], 0, events)
            receiver.secret = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
            allowed = allowed_networks(LOOPBACK)
            started = time.perf_counter()
            for event in backlog:
                outcome = send(
                    receiver.url, receiver.secret, f"b-{event['id']}", event, allowed, Timeouts()
                )
                assert outcome.delivered, outcome
            baseline = events / (time.perf_counter() - started)
            receiver.received.clear()

            hook = api.client.post(
                f"/api/v1/clubs/{club['id']}/webhooks",
                json={"url": receiver.url, "event_types": ["*"]},
                headers=admin,
            ).json
            with app.app_context():  # from the club's first event: the backlog
                from service.persistence.webhooks import WebhookSubscriptionRow

                db.session.get(WebhookSubscriptionRow, hook["id"]).delivered_seq = 0
                db.session.commit()
            receiver.secret = hook["secret"]
            settings = DeliverySettings(allowed=allowed, idle_poll_seconds=5.0)
            stop, wake = threading.Event(), threading.Event()
            with app.app_context():
                feed = feed_for(db.engine)
                feed.attach(lambda *_: wake.set())
                feed.ready(10)
            started = time.perf_counter()
            threads = run(app.app_context, settings, stop, 2, wake)
            wait_for(lambda: len(receiver.ids()) >= events, timeout=600, what="the backlog")
            delivered = events / (time.perf_counter() - started)
            assert receiver.ids() == list(range(1, events + 1))

            waits = []
            for _ in range(latency):
                goal = len(receiver.ids()) + 1
                assert api.record(table, SOLO).status_code == 201
                answered = time.perf_counter()
                wait_for(lambda goal=goal: len(receiver.ids()) >= goal, timeout=60, what="the hand")
                waits.append((time.perf_counter() - answered) * 1000)
            stop.set()
            wake.set()
            for thread in threads:
                thread.join(timeout=30)
            waits.sort()
            p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
            print(
                f"{label}: baseline {baseline:.0f} events/s; deliverer {delivered:.0f} events/s "
                f"({delivered / baseline:.2f}× the baseline); hand → receipt "
                f"p50 {statistics.median(waits):.1f} ms, p99 {p99:.1f} ms ({latency} hands)"
            )
            if receiver.bad_signatures:
                sys.exit(f"{label}: {receiver.bad_signatures} deliveries failed verification")
        finally:
            receiver.close()
            wipe(app)
            with app.app_context():
                db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", default=os.environ.get("TEST_DATABASE_URL"))
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--latency", type=int, default=50)
    args = parser.parse_args()
    _measure("SQLite", None, args.events, args.latency)
    if args.pg:
        _measure("PostgreSQL", args.pg, args.events, args.latency)


if __name__ == "__main__":
    main()
