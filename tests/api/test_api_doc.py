"""docs/api.md's table of problems is what the service sends: one request per row, and the
status and type that come back must be that row's; every registered type has its row."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from service.api.problem import PROBLEM_TYPES, TYPE_PREFIX

GUIDE = Path(__file__).parents[2] / "docs" / "api.md"
ROW = re.compile(r"^\| (\d{3}) \| `([^`]+)` \| (.+) \|$")
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
# Rows whose requests other files make: rate limits need them switched on
# (tests/api/test_limits.py), a fault or an outage needs one made (test_outages.py).
SENT_ELSEWHERE = {
    (429, "urn:solo:problem:rate-limited"),
    (500, "about:blank"),
    (503, "urn:solo:problem:service-unavailable"),
    # nginx's own problems behind deploy/nginx.conf (tests/api/test_league_server.py)
    (502, "about:blank"),
    (504, "about:blank"),
    (429, "urn:solo:problem:too-many-streams"),  # by the worker's hub: tests/api/test_streams.py
    # a tournament table's result: tests/api/test_tournament_results.py asserts each type
    (409, "urn:solo:problem:series-not-complete"),
    (409, "urn:solo:problem:result-disputed"),
    (409, "urn:solo:problem:dispute-closed"),
    (409, "urn:solo:problem:series-started"),
}


def documented() -> set[tuple[int, str]]:
    rows = set()
    for line in GUIDE.read_text().splitlines():
        match = ROW.match(line)
        if match:
            rows.add((int(match[1]), match[2]))
    return rows


def test_every_problem_type_has_its_row_with_its_status():
    rows = documented()
    for slug, (status, _title, _when) in PROBLEM_TYPES.items():
        assert (status, TYPE_PREFIX + slug) in rows, slug


def _sent(api: Any, client: Any) -> dict[tuple[int, str], str]:
    """What each request gets, by the row it should match."""
    table = api.table()
    club_id = table["club_id"]
    admin = api.auth(table["admin_token"])
    phone = api.auth(table["table_token"])
    hands = f"/api/v1/tables/{table['id']}/hands"
    seen: dict[tuple[int, str], str] = {}

    def note(label: str, answer: Any) -> None:
        seen.setdefault((answer.status_code, answer.json["type"]), label)

    note("bad JSON", client.post("/api/v1/clubs", data="{", content_type="application/json"))
    note("no token", client.get(hands))
    other = api.club()
    note(
        "another club",
        client.get(f"/api/v1/clubs/{club_id}", headers=api.auth(other["admin_token"])),
    )
    note("no such table", client.get("/api/v1/tables/" + "0" * 32, headers=admin))
    note("bad stream ticket", client.get(f"/api/v1/tables/{table['id']}/events?ticket=x.y"))
    note("wrong method", client.put("/api/v1/clubs"))
    note("cursor ahead", client.get(f"/api/v1/clubs/{club_id}/changes?after=99", headers=admin))
    note("Accept", client.get(f"/api/v1/clubs/{club_id}", headers={**admin, "Accept": "text/html"}))
    assert api.record(table, SOLO, **{"Idempotency-Key": "k"}).status_code == 201
    note("reused key", api.record(table, {**SOLO, "tricks": 2}, **{"Idempotency-Key": "k"}))
    note("number taken", api.record(table, {**SOLO, "expected_number": 1}))
    note("stale If-Match", api.record(table, SOLO, **{"If-Match": '"1"'}))
    note("If-Match of no version", api.record(table, SOLO, **{"If-Match": '"abc"'}))
    note("too large", client.post("/api/v1/clubs", json={"name": "x" * 70_000}))
    note("no JSON type", client.post("/api/v1/clubs", data="{}", content_type="text/plain"))
    note("missing name", client.post("/api/v1/clubs", json={}))
    without_tricks = {k: v for k, v in SOLO.items() if k != "tricks"}
    missing_tricks = api.record(table, without_tricks)
    assert missing_tricks.json["type"] == TYPE_PREFIX + "rule-violation"  # as the guide says
    note("hand without tricks", missing_tricks)
    assert client.delete(f"{hands}/1", headers=phone).status_code == 200
    note("void twice", client.delete(f"{hands}/1", headers=phone))
    players = f"/api/v1/clubs/{club_id}/players"
    assert client.post(players, json={"name": "Ann"}, headers=admin).status_code == 201
    note("name taken", client.post(players, json={"name": "Ann"}, headers=admin))
    short = api.table(variant="spanish", options={"target_hands": 1})
    assert api.record(short, {**SOLO, "declarer": 0, "tricks": 5}).status_code == 201
    note("session over", api.record(short, {**SOLO, "declarer": 0, "tricks": 5}))
    assert client.post(f"/api/v1/tables/{table['id']}/close", headers=admin).status_code == 200
    note("closed", api.record(table, SOLO))
    assert client.delete(f"/api/v1/tables/{table['id']}/token", headers=admin).status_code == 204
    note("revoked", client.get(f"/api/v1/tables/{table['id']}", headers=phone))
    evening = api.club()
    host = api.auth(evening["admin_token"])
    night = client.post(
        f"/api/v1/clubs/{evening['id']}/nights",
        json={
            "name": "Night",
            "variant": "american",
            "players": api.players(evening, 4),
            "hands_per_series": 1,
            "series": 2,
        },
        headers=host,
    ).json
    draws = f"/api/v1/nights/{night['id']}/series"
    assert client.post(draws, json={}, headers=host).status_code == 201
    note("night tables pending", client.post(draws, json={}, headers=host))
    cards = f"/nights/{night['id']}/cards/1"
    card = client.post(cards, headers=host).get_data(as_text=True)
    table_id, token = re.findall(r"\?table=([0-9a-f]+)&amp;token=([^\"]+)\"", card)[0]
    night_table = {"id": table_id, "table_token": token}
    assert api.record(night_table, SOLO).status_code == 201
    note(
        "night table closed by its phone",
        client.post(f"/api/v1/tables/{table_id}/close", headers=api.auth(token)),
    )
    note("series over", api.record(night_table, SOLO))  # its series has 1 hand
    closing = f"/api/v1/nights/{night['id']}/close"
    assert client.post(closing, json={"early": True}, headers=host).status_code == 200
    note("night closed", client.post(closing, json={}, headers=host))
    tournament = client.post(
        f"/api/v1/clubs/{evening['id']}/tournaments",
        json={"name": "Preis-Solo", "variant": "american", "cap": 1},
        headers=host,
    ).json
    entrants = f"/api/v1/tournaments/{tournament['id']}/entrants"
    assert client.post(entrants, json={"name": "Ann"}, headers=host).status_code == 201
    note(
        "no place free", client.post(entrants, json={"name": "Bo", "check_in": True}, headers=host)
    )
    url = f"/api/v1/tournaments/{tournament['id']}"
    assert client.patch(url, json={"registration_open": False}, headers=host).status_code == 200
    link = api.auth(tournament["registration_token"])
    note(
        "registration closed",
        client.post(f"{url}/registrations", json={"name": "Cy"}, headers=link),
    )
    return seen


def test_each_row_is_what_its_request_gets(api, client):
    rows = documented()
    seen = _sent(api, client)
    for pair, label in seen.items():
        assert pair in rows, f"{label}: {pair} is not in docs/api.md's table"
    unsent = rows - seen.keys() - SENT_ELSEWHERE
    assert unsent <= {
        (409, "urn:solo:problem:idempotency-key-in-flight"),
        (409, "urn:solo:problem:session-over"),
    }, unsent


def test_a_long_path_is_cut_to_a_uri_reference_in_instance(client):
    answer = client.get("/api/v1/tables/" + "t\u0301" * 600 + "/hands/x")
    assert answer.status_code == 404
    instance = answer.json["instance"]
    assert instance.isascii() and len(instance) <= 2000
    assert re.fullmatch(r"(?:[A-Za-z0-9/:@!$&'()*+,;=._~-]|%[0-9A-F]{2})*", instance)
