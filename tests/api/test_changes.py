"""The outbox and the club's ``/changes`` feed: every change of a club is one event, written
with the change (a dry run and a refused write leave none), numbered per club in order, paged
by cursor, for the club's admin and read-only tokens only."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.sse import parse
from tests.api.test_league import LOST_SOLO, SOLO


def changes(api, club, token=None, **query):
    response = api.client.get(
        f"/api/v1/clubs/{club['id']}/changes",
        query_string=query,
        headers=api.auth(token or club["admin_token"]),
    )
    assert response.status_code == 200, response.json
    return response.json


def all_events(api, club, token=None, limit=100):
    events, after = [], 0
    while True:
        page = changes(api, club, token, after=after, limit=limit)
        events += page["events"]
        after = page["cursor"]
        if not page["more"]:
            return events


def test_every_change_of_a_table_is_one_event_in_order(api, client):
    club = api.club()
    table = api.table(club=club)
    auth = api.auth(table["table_token"])
    for hand in (SOLO, LOST_SOLO, SOLO):
        assert api.record(table, hand).status_code == 201
    url = f"/api/v1/tables/{table['id']}"
    assert client.put(f"{url}/hands/1", json={**SOLO, "tricks": 2}, headers=auth).status_code == 200
    assert client.delete(f"{url}/hands/2", headers=auth).status_code == 200
    seats = [s["player_id"] for s in api.get_table(table)["seats"]]
    reseated = client.put(
        f"{url}/seating", json={"seats": seats[::-1], "first_dealer": 1}, headers=auth
    )
    assert reseated.status_code == 200, reseated.json
    assert client.post(f"{url}/close", headers=auth).status_code == 200

    events = changes(api, club)["events"]
    kinds = [(e["type"], e["data"].get("hand")) for e in events]
    assert kinds == [
        ("table.opened", None),
        ("hand.recorded", 1),
        ("hand.recorded", 2),
        ("hand.recorded", 3),
        ("hand.corrected", 1),
        ("hand.voided", 2),
        ("table.reseated", None),
        ("table.closed", None),
    ]
    assert [e["id"] for e in events] == list(range(1, 9))
    versions = [e["version"] for e in events]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert versions[-1] == api.get_table(table)["version"]
    assert all(e["table_id"] == table["id"] and e["club_id"] == club["id"] for e in events)
    assert events[1]["links"] == {"table": url, "hand": f"{url}/hands/1"}
    assert events[4]["data"]["resettled"] >= 1


def test_a_dry_run_or_a_refused_write_leaves_no_event(api, client):
    club = api.club()
    table = api.table(club=club)
    auth = api.auth(table["table_token"])
    api.record(table, SOLO)
    dry = client.put(
        f"/api/v1/tables/{table['id']}/hands/1?dry_run=true",
        json={**SOLO, "tricks": 2},
        headers=auth,
    )
    assert dry.status_code == 200
    refused = api.record(table, {**SOLO, "tricks": 99})
    assert refused.status_code == 422
    stale = api.record(table, SOLO, **{"If-Match": '"1"'})
    assert stale.status_code == 412
    assert [e["type"] for e in changes(api, club)["events"]] == ["table.opened", "hand.recorded"]


def test_pages_follow_the_cursor_and_each_club_counts_its_own(api):
    club, other = api.club("One"), api.club("Two")
    table = api.table(club=club)
    api.table(club=other)
    for _ in range(4):
        api.record(table, SOLO)
    paged = all_events(api, club, limit=2)
    assert [e["id"] for e in paged] == [1, 2, 3, 4, 5]
    assert [e["id"] for e in changes(api, other)["events"]] == [1]
    tail = changes(api, club, after=5)
    assert tail == {"events": [], "cursor": 5, "more": False}
    assert changes(api, club, after=3)["events"][0]["id"] == 4


def test_the_read_only_token_reads_the_feed_and_nobody_else(api, client):
    club = api.club()
    table = api.table(club=club)
    viewer = client.post(
        f"/api/v1/clubs/{club['id']}/viewer-tokens",
        json={"name": "league bot"},
        headers=api.auth(club["admin_token"]),
    )
    assert viewer.status_code == 201, viewer.json
    assert [e["type"] for e in all_events(api, club, viewer.json["token"])] == ["table.opened"]
    url = f"/api/v1/clubs/{club['id']}/changes"
    assert client.get(url, headers=api.auth(table["table_token"])).status_code == 403
    assert client.get(url).status_code == 401
    assert client.get(url, headers=api.auth(api.club()["admin_token"])).status_code == 403
    missing = client.get("/api/v1/clubs/nope/changes", headers=api.auth(club["admin_token"]))
    assert missing.status_code == 404


def test_a_cursor_beyond_the_clubs_last_event_is_told_to_reload_as_the_stream_is(api, client):
    """After a restore from an older backup a program still holds its cursor: answered as a
    page, it would skip every event up to it without a word."""
    club = api.club()
    table = api.table(club=club)
    api.record(table, SOLO)  # events 1 and 2
    admin = api.auth(club["admin_token"])
    url = f"/api/v1/clubs/{club['id']}/changes"
    ahead = client.get(f"{url}?after=7", headers=admin)
    assert ahead.status_code == 409, ahead.json
    assert ahead.json["type"] == "urn:solo:problem:cursor-ahead"
    assert ahead.json["after"] == 2
    assert ahead.json["links"] == {
        "reload": f"/api/v1/clubs/{club['id']}/export",
        "changes": f"{url}?after=2",
    }
    assert "7" in ahead.json["detail"] and "2" in ahead.json["detail"]
    stream = client.get(f"/api/v1/clubs/{club['id']}/events?after=7", headers=admin)
    told = parse(stream.get_data(as_text=True))
    assert [(e.event, e.id, e.json()["reason"]) for e in told] == [("reload", "2", "unknown-id")]
    reload = client.get(ahead.json["links"]["reload"], headers=admin)
    assert reload.status_code == 200
    api.record(table, SOLO)
    follow = client.get(ahead.json["links"]["changes"], headers=admin)
    assert [e["id"] for e in follow.json["events"]] == [3]
    assert changes(api, club, after=3) == {"events": [], "cursor": 3, "more": False}


def test_bad_cursors_are_named(api, client):
    club = api.club()
    for query, field in (("after=-1", "after"), ("after=x", "after"), ("limit=0", "limit")):
        response = client.get(
            f"/api/v1/clubs/{club['id']}/changes?{query}",
            headers=api.auth(club["admin_token"]),
        )
        assert response.status_code == 422, query
        assert field in response.get_data(as_text=True)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["record", "correct", "void", "dry", "refused"]), st.integers(1, 6)
        ),
        min_size=1,
        max_size=12,
    )
)
def test_every_answered_change_is_one_event_and_nothing_else_is(api, client, steps):
    """Whatever happens to a table, in whatever order: one event per change that was answered
    2xx (a dry run and a refusal none), numbered 1, 2, 3 …, the table's version rising with
    them and the last one the table's own."""
    club = api.club()
    table = api.table(club=club)
    auth = api.auth(table["table_token"])
    url = f"/api/v1/tables/{table['id']}"
    changes_made = 1  # the opening
    for action, number in steps:
        if action == "record":
            answer = api.record(table, SOLO)
        elif action == "correct":
            answer = client.put(f"{url}/hands/{number}", json=LOST_SOLO, headers=auth)
        elif action == "void":
            answer = client.delete(f"{url}/hands/{number}", headers=auth)
        elif action == "dry":
            answer = client.delete(f"{url}/hands/{number}?dry_run=true", headers=auth)
        else:
            answer = api.record(table, {**SOLO, "tricks": 99})
        if action not in ("dry", "refused") and answer.status_code < 300:
            changes_made += 1
    events = all_events(api, club)
    assert [e["id"] for e in events] == list(range(1, changes_made + 1))
    versions = [e["version"] for e in events]
    assert versions == sorted(set(versions))
    assert versions[-1] == api.get_table(table)["version"]


def test_a_tables_settings_and_a_club_night_are_events_of_the_club(api, client):
    """A table's season or rate (its version moves: a phone following it redraws), and each
    step of a club night (started, presence, rate, series drawn, closed, with its results'
    link) reach the feed, the streams and the webhooks like the hands do."""
    club = api.club()
    admin = api.auth(club["admin_token"])
    season = client.post(
        f"/api/v1/clubs/{club['id']}/seasons",
        json={"name": "Winter", "variant": "american"},
        headers=admin,
    ).json
    table = api.table(club=club)
    moved = client.patch(
        f"/api/v1/tables/{table['id']}",
        json={"season_id": season["id"], "rate": {"cents": 5, "per": 1}},
        headers=admin,
    )
    assert moved.status_code == 200, moved.json
    same = client.patch(
        f"/api/v1/tables/{table['id']}", json={"season_id": season["id"]}, headers=admin
    )
    assert same.status_code == 200  # nothing changed: no event

    players = api.players(club, 5)
    nights = f"/api/v1/clubs/{club['id']}/nights"
    body = {"name": "Tuesday", "variant": "american", "players": players[:4], "series": 2}
    night = client.post(nights, json=body, headers=admin).json
    url = f"/api/v1/nights/{night['id']}"
    drawn = client.post(f"{url}/series", json={"seed": 3}, headers=admin).json
    arrived = client.patch(f"{url}/presence", json={"arrived": [players[4]]}, headers=admin)
    assert arrived.status_code == 200, arrived.json
    priced = client.patch(url, json={"rate": {"cents": 2, "per": 1}}, headers=admin)
    assert priced.status_code == 200, priced.json
    assert client.post(f"{url}/close", json={}, headers=admin).status_code == 200

    events = all_events(api, club)
    night_table = drawn["tables"][0]["table_id"]
    assert [(e["type"], e["table_id"], e["data"]) for e in events[2:]] == [
        ("table.settings_changed", table["id"], {"settings": ["season", "rate"]}),
        ("night.started", None, {"night": night["id"]}),
        ("table.opened", night_table, {}),
        ("night.series_drawn", None, {"night": night["id"], "series": 1}),
        ("night.changed", None, {"night": night["id"], "changed": "presence"}),
        ("table.settings_changed", night_table, {"settings": ["rate"]}),
        ("night.changed", None, {"night": night["id"], "changed": "rate"}),
        ("table.closed", night_table, {}),
        ("night.closed", None, {"night": night["id"]}),
    ]
    assert [e["type"] for e in events[:2]] == ["season.created", "table.opened"]
    assert events[0]["links"] == {"season": f"/api/v1/seasons/{season['id']}"}
    settings = events[2]
    assert settings["version"] == api.get_table(table)["version"]
    assert events[-1]["links"] == {"night": url, "standings": f"{url}/standings"}
    for event in events:
        for link in event["links"].values():
            assert client.get(link, headers=admin).status_code == 200, link


def test_every_kind_the_service_writes_is_a_documented_event_type():
    """``outbox.EVENT_TYPES`` (what a webhook subscribes to, the events' `type` enum) is
    exactly the kinds the service's ``record_change`` (or ``change_writes``) calls write."""
    import ast
    from pathlib import Path

    from service.services.outbox import EVENT_TYPES

    written = set()
    for path in (Path(__file__).parents[2] / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(
                node.func, "id", getattr(node.func, "attr", None)
            ) in ("record_change", "change_writes"):
                kind = node.args[1]
                if path.name == "outbox.py" and isinstance(kind, ast.Name):
                    continue  # record_change passing its own kind on to change_writes
                # A literal, or one of two (``"hand.voided" if … else "hand.corrected"``).
                kinds = [kind.body, kind.orelse] if isinstance(kind, ast.IfExp) else [kind]
                for one in kinds:
                    assert isinstance(one, ast.Constant), f"{path}: a kind that is not a literal"
                    written.add(one.value)
    assert written == set(EVENT_TYPES)
    documented = (Path(__file__).parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    assert [kind for kind in EVENT_TYPES if f"`{kind}`" not in documented] == []


def test_a_change_and_its_event_commit_together_or_not_at_all(api, client, monkeypatch):
    """The outbox is written in the change's own transaction: when the request fails after
    the event was written and before the commit, neither the hand nor its event is kept (and
    a change never commits without its event: the event comes before the commit)."""
    from service.services.writes import BoundWrites

    club = api.club()
    table = api.table(club=club)
    written = []

    def then_fail(self):
        running(self)
        written.extend(w.parameters["kind"] for w in self.writes if "kind" in w.parameters)
        raise RuntimeError("the machine stops between the event and the commit")

    running = BoundWrites.run
    monkeypatch.setattr(BoundWrites, "run", then_fail)
    failed = api.record(table, SOLO)
    assert failed.status_code == 500 and written == ["hand.recorded"]
    monkeypatch.undo()
    assert api.get_table(table)["hands_played"] == 0
    assert [e["type"] for e in all_events(api, club)] == ["table.opened"]
    assert api.record(table, SOLO).status_code == 201  # the same hand, now kept with its event
    assert [e["type"] for e in all_events(api, club)] == ["table.opened", "hand.recorded"]
