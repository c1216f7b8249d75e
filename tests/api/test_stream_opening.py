"""A stream's opening, through the test client (which cannot hold a stream: its answer ends
after what it has, as behind any server but the service's worker): who may follow what, its
first events, resuming, the reload event, and the tickets."""

from __future__ import annotations

import pytest

from service.services import live
from tests.api.sse import parse
from tests.api.test_league import SOLO


def stream(client, url, **headers):
    response = client.get(url, headers=headers)
    return response, parse(response.get_data(as_text=True)) if response.status_code == 200 else []


def test_a_fresh_stream_starts_with_ready_and_a_resumed_one_with_what_it_missed(api, client):
    table = api.table()
    auth = api.auth(table["table_token"])
    url = f"/api/v1/tables/{table['id']}/events"
    response, events = stream(client, url, **auth)
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Accel-Buffering"] == "no"
    assert "Content-Length" not in response.headers
    assert [(e.event, e.id) for e in events] == [("ready", "1")]
    assert events[0].json() == {"version": 1, "table_id": table["id"], "after": 1}
    for _ in range(2):
        api.record(table, SOLO)
    _, events = stream(client, url, **auth, **{"Last-Event-ID": "1"})
    assert [(e.event, e.id, e.json()["data"]["hand"]) for e in events] == [
        ("message", "2", 1),
        ("message", "3", 2),
    ]
    _, events = stream(client, f"{url}?after=2", **auth)  # a new EventSource's way
    assert [e.id for e in events] == ["3"]
    _, events = stream(client, f"{url}?after=0", **auth, **{"Last-Event-ID": "2"})
    assert [e.id for e in events] == ["3"]  # the header wins


def test_too_far_behind_or_an_unknown_id_is_told_to_reload(api, client, monkeypatch):
    monkeypatch.setattr(live, "MAX_BACKLOG", 2)
    table = api.table()
    auth = api.auth(table["table_token"])
    for _ in range(3):
        api.record(table, SOLO)
    url = f"/api/v1/tables/{table['id']}/events"
    _, events = stream(client, url, **auth, **{"Last-Event-ID": "0"})
    assert [(e.event, e.id) for e in events] == [("reload", "4")]
    assert events[0].json()["reason"] == "too-far-behind"
    _, events = stream(client, url, **auth, **{"Last-Event-ID": "99"})
    assert [(e.event, e.json()["reason"]) for e in events] == [("reload", "unknown-id")]
    _, events = stream(client, url, **auth, **{"Last-Event-ID": "2"})
    assert [e.id for e in events] == ["3", "4"]


@pytest.mark.parametrize("bad", ["x", "-1", "1.5", "99999999999"])
def test_a_bad_last_event_id_is_named(api, client, bad):
    table = api.table()
    response = client.get(
        f"/api/v1/tables/{table['id']}/events",
        headers={**api.auth(table["table_token"]), "Last-Event-ID": bad},
    )
    assert response.status_code == 422
    assert "Last-Event-ID" in response.get_data(as_text=True)


def test_who_may_follow_what(api, client):
    club = api.club()
    table, other = api.table(club=club), api.table(club=club)
    own = api.auth(table["table_token"])
    assert client.get(f"/api/v1/tables/{table['id']}/events", headers=own).status_code == 200
    assert client.get(f"/api/v1/tables/{other['id']}/events", headers=own).status_code == 403
    assert client.get(f"/api/v1/clubs/{club['id']}/events", headers=own).status_code == 403
    admin = api.auth(club["admin_token"])
    assert client.get(f"/api/v1/clubs/{club['id']}/events", headers=admin).status_code == 200
    assert client.get(f"/api/v1/tables/{table['id']}/events").status_code == 401
    assert client.get("/api/v1/tables/nope/events", headers=admin).status_code == 404


def test_a_ticket_opens_its_stream_only_for_a_minute_and_only_while_its_token_lives(
    api, client, monkeypatch
):
    club = api.club()
    table, other = api.table(club=club), api.table(club=club)
    url = f"/api/v1/tables/{table['id']}/events"
    minted = client.post(f"{url}/tickets", headers=api.auth(table["table_token"]))
    assert minted.status_code == 201, minted.json
    assert minted.headers["Cache-Control"] == "no-store"
    ticket = minted.json["ticket"]
    assert minted.json["url"] == f"{url}?ticket={ticket}" and minted.json["expires_in"] == 60
    assert table["table_token"] not in ticket
    assert client.get(minted.json["url"]).status_code == 200
    # Each refusal says what went wrong and what to do.
    for wrong, said in (
        (f"/api/v1/tables/{other['id']}/events?ticket={ticket}", "opens another stream"),
        (f"{url}?ticket={ticket[:-2]}xx", "not a stream ticket"),  # forged
        (f"{url}?ticket=nothing", "not a stream ticket"),
    ):
        refused = client.get(wrong)
        assert refused.status_code == 401, wrong
        assert refused.json["type"].endswith("stream-ticket-invalid")
        assert said in refused.json["detail"], refused.json
    monkeypatch.setattr(live, "TICKET_SECONDS", -1)  # every ticket is past its minute
    expired = client.get(minted.json["url"])
    assert expired.status_code == 401 and "has expired" in expired.json["detail"]
    german = client.get(minted.json["url"], headers={"Accept-Language": "de"})
    assert german.json["detail"].startswith("Dieses Stream-Ticket ist abgelaufen")
    monkeypatch.undo()
    # A ticket of a revoked token opens nothing.
    viewer = client.post(
        f"/api/v1/clubs/{club['id']}/viewer-tokens",
        json={"name": "TV"},
        headers=api.auth(club["admin_token"]),
    ).json
    club_url = f"/api/v1/clubs/{club['id']}/events"
    club_ticket = client.post(f"{club_url}/tickets", headers=api.auth(viewer["token"])).json
    assert client.get(club_ticket["url"]).status_code == 200
    revoked = client.delete(
        f"/api/v1/clubs/{club['id']}/viewer-tokens/{viewer['id']}",
        headers=api.auth(club["admin_token"]),
    )
    assert revoked.status_code in (200, 204), revoked.json
    after_revocation = client.get(club_ticket["url"])
    assert after_revocation.status_code == 401
    assert "revoked" in after_revocation.json["detail"]
    # A table's token mints no ticket for another table.
    assert (
        client.post(
            f"/api/v1/tables/{other['id']}/events/tickets", headers=api.auth(table["table_token"])
        ).status_code
        == 403
    )
