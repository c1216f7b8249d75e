"""The operator's metrics (issue 40): ``GET /metrics`` in Prometheus's text format, for the
operator's token only; a hand recorded is counted, and so are the requests by route and
status, their latency, the rate limits' refusals, the database's outages, the webhooks'
deliveries and backlog; across gunicorn's workers the counts are added up."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from service.middleware.limits import EXTENSION as LIMITS
from tests.api.sse import Stream
from tests.api.test_league import SOLO
from tests.api.webhook_receiver import wait_for
from tests.support import Gunicorn, make_app

TOKEN = "operator-metrics-token-0123456789"
SCRAPER = {"Authorization": f"Bearer {TOKEN}"}


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels (parsed by prometheus-client's parser:
    the scrape is valid text format)."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(scraped: dict[Any, float], name: str, **labels: str) -> float:
    return scraped.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture(scope="module")
def watched_app(app):
    """The suite's database, with the metrics' token set and small rate limits."""
    return make_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "METRICS_TOKEN": TOKEN,
            "RATELIMIT_ENABLED": True,
            "RATELIMIT_WRITES_PER_TOKEN": "3 per minute",
        }
    )


@pytest.fixture
def watched(watched_app, client):
    watched_app.extensions[LIMITS].reset()
    return watched_app.test_client()


def scrape(client: Any) -> dict[Any, float]:
    answer = client.get("/metrics", headers=SCRAPER)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/plain; version=")
    return samples(answer.get_data(as_text=True))


def test_a_hand_recorded_is_counted_with_its_request(watched, api):
    table = api.table()
    before = scrape(watched)
    hands = f"/api/v1/tables/{table['id']}/hands"
    phone = api.auth(table["table_token"])
    assert watched.post(hands, json=SOLO, headers=phone).status_code == 201
    # A replay of its Idempotency-Key records nothing, and is not counted as a hand.
    keyed = {**phone, "Idempotency-Key": "once"}
    assert watched.post(hands, json=SOLO, headers=keyed).status_code == 201
    assert watched.post(hands, json=SOLO, headers=keyed).status_code == 201
    after = scrape(watched)
    assert (
        value(after, "solo_hands_recorded_total") - value(before, "solo_hands_recorded_total") == 2
    )
    route = {"route": "tables.Hands", "method": "POST", "status": "201"}
    assert (
        value(after, "solo_http_requests_total", **route)
        - value(before, "solo_http_requests_total", **route)
        == 3
    )
    latency = {"route": "tables.Hands", "method": "POST"}
    assert value(after, "solo_http_request_duration_seconds_count", **latency) >= 3
    assert value(after, "solo_http_request_duration_seconds_bucket", le="+Inf", **latency) >= 3


def test_routes_are_named_never_paths_and_early_answers_count_too(watched, api):
    table = api.table()
    poll = f"/api/v1/tables/{table['id']}"
    phone = api.auth(table["table_token"])
    first = watched.get(poll, headers=phone)
    assert (
        watched.get(poll, headers={**phone, "If-None-Match": first.headers["ETag"]}).status_code
        == 304
    )
    assert watched.get("/no/such/path").status_code == 404
    text = watched.get("/metrics", headers=SCRAPER).get_data(as_text=True)
    assert table["id"] not in text  # no id, no path: a series per route
    scraped = samples(text)
    assert (
        value(scraped, "solo_http_requests_total", route="tables.Table", method="GET", status="304")
        >= 1
    )
    assert value(scraped, "solo_http_requests_total", route="none", method="GET", status="404") >= 1


def test_rate_limit_refusals_are_counted_by_limit(watched, api):
    table = api.table()
    before = value(scrape(watched), "solo_rate_limited_total", limit="writes")
    hands = f"/api/v1/tables/{table['id']}/hands"
    statuses = [
        watched.post(hands, json=SOLO, headers=api.auth(table["table_token"])).status_code
        for _ in range(5)
    ]
    assert statuses == [201, 201, 201, 429, 429]
    assert value(scrape(watched), "solo_rate_limited_total", limit="writes") - before == 2


def test_the_webhook_backlog_is_read_when_scraped(watched, api):
    club = api.club()
    made = api.client.post(
        f"/api/v1/clubs/{club['id']}/webhooks",
        json={"url": "https://hooks.example.com/in", "event_types": ["*"]},
        headers=api.auth(club["admin_token"]),
    )
    assert made.status_code == 201
    table = api.table(club=club)
    api.record(table, SOLO)
    # No deliverer runs here: the table's events wait (its opening and the hand at least).
    assert value(scrape(watched), "solo_webhook_backlog_events") >= 2


def test_metrics_are_the_operators_only(app, watched, api):
    assert watched.get("/metrics").status_code == 401
    assert watched.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 401
    table = api.table()  # a table's or a club's token is not the operator's
    assert watched.get("/metrics", headers=api.auth(table["admin_token"])).status_code == 401
    # Without a token configured there is no such page.
    assert app.test_client().get("/metrics", headers=SCRAPER).status_code == 404
    # Not in the API's document.
    assert "/metrics" not in app.test_client().get("/openapi.json").json["paths"]


@pytest.mark.slow
def test_the_workers_counts_are_added_up_under_gunicorn(app, client, api):
    """Two workers, each answering some of the hands: every scrape (whichever worker answers
    it) counts them all."""
    table = api.table()
    hands = f"/api/v1/tables/{table['id']}/hands"
    phone = api.auth(table["table_token"])
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"],
        workers=2,
        SOLO_METRICS_TOKEN=TOKEN,
        SOLO_RATELIMIT_ENABLED="false",
    ) as server:
        for _ in range(12):  # each a new connection: the kernel spreads them over the workers
            answer = requests.post(server.url + hands, json=SOLO, headers=phone, timeout=30)
            assert answer.status_code == 201
        for _ in range(4):
            scraped = samples(
                requests.get(server.url + "/metrics", headers=SCRAPER, timeout=30).text
            )
            assert value(scraped, "solo_hands_recorded_total") == 12
            created = {"route": "tables.Hands", "method": "POST", "status": "201"}
            assert value(scraped, "solo_http_requests_total", **created) == 12
        # A stream held open by one worker is seen by every scrape, and gone once hung up.
        stream = Stream(f"{server.url}/api/v1/tables/{table['id']}/events", phone)
        assert stream.response.status_code == 200
        try:
            for _ in range(4):
                scraped = samples(
                    requests.get(server.url + "/metrics", headers=SCRAPER, timeout=30).text
                )
                assert value(scraped, "solo_streams_open") == 1
        finally:
            stream.close()

        def streams_open() -> float:
            text = requests.get(server.url + "/metrics", headers=SCRAPER, timeout=30).text
            return value(samples(text), "solo_streams_open")

        wait_for(lambda: streams_open() == 0, what="the stream let go of", timeout=60)
