"""A tournament table's result confirmed on its phones by two players other than the scorer
(or by the director), a disputed hand resolved by the director through the hands' correction
path (logged under the director's token), confirmations voided by any later change of the
hands, the director's console (one query per kind, not per table) and the seats given between
series. Every refusal stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event

from service.extensions import db
from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_tournaments import NAMES, Host


@pytest.fixture
def host(api, client) -> Host:
    return Host(api, client)


class Day:
    """A tournament of ``players`` checked in at tables of four, two hands a series, its
    first series drawn; each table's own token."""

    def __init__(self, host: Host, players: int = 8, series: int = 2) -> None:
        self.host, self.client, self.api = host, host.client, host.api
        self.tournament = host.created(series=series, hands_per_series=2, table_sizes=[4])
        self.url = f"/api/v1/tournaments/{self.tournament['id']}"
        names = [*NAMES, *(f"Spieler {n}" for n in range(len(NAMES), players))]
        self.entrants = [host.registered(self.tournament, name=n) for n in names[:players]]
        for entrant in self.entrants:
            host.check_in(self.tournament, entrant)
        self.series = host.drawn(self.tournament, seed=7)
        self.tables = self.series["tables"]
        self.tokens = {
            t["table_id"]: self.client.post(
                f"/api/v1/tables/{t['table_id']}/token", headers=host.admin
            ).json["table_token"]
            for t in self.tables
        }

    def phone(self, table: dict) -> dict:
        return self.api.auth(self.tokens[table["table_id"]])

    def play(self, table: dict, *hands: dict) -> None:
        for hand in hands:
            answer = self.client.post(
                f"/api/v1/tables/{table['table_id']}/hands", json=hand, headers=self.phone(table)
            )
            assert answer.status_code == 201, answer.json

    def confirm(self, table: dict, seat: int | None, headers: dict | None = None):
        return self.client.post(
            f"{self.url}/tables/{table['table_id']}/confirmations",
            json={} if seat is None else {"seat": seat},
            headers=headers or self.phone(table),
        )

    def dispute(self, table: dict, hand: int, seat: int = 2, headers: dict | None = None):
        return self.client.post(
            f"{self.url}/tables/{table['table_id']}/disputes",
            json={"seat": seat, "hand": hand, "reason": "Das Solo war verloren"},
            headers=headers or self.phone(table),
        )

    def resolve(self, dispute: dict, **body: Any):
        return self.client.post(
            f"{self.url}/disputes/{dispute['id']}/resolution", json=body, headers=self.host.admin
        )

    def console(self, **query: Any) -> dict:
        answer = self.client.get(f"{self.url}/console", query_string=query, headers=self.host.admin)
        assert answer.status_code == 200, answer.json
        return answer.json

    def row(self, table: dict) -> dict:
        return next(t for t in self.console()["tables"] if t["table_id"] == table["table_id"])

    def confirmed_in_standings(self) -> dict[tuple[int, int], bool]:
        lines = self.host.get(self.tournament, "/standings").json["standings"]
        return {
            (s["series"], s["table"]): s["confirmed"]
            for line in lines
            for s in line["series"]
            if s is not None
        }

    def events(self, kind: str) -> list[dict]:
        club = self.host.club["id"]
        page = self.client.get(
            f"/api/v1/clubs/{club}/changes", query_string={"limit": 500}, headers=self.host.admin
        ).json
        return [e for e in page["events"] if e["type"] == kind]


def test_two_players_other_than_the_scorer_confirm_and_the_result_counts(host: Host) -> None:
    day = Day(host)
    first, second = day.tables
    early = day.confirm(first, 1)
    assert early.status_code == 409
    assert early.json["type"] == "urn:solo:problem:series-not-complete"
    day.play(first, SOLO, LOST_SOLO)
    day.play(second, SOLO, SOLO)
    assert set(day.confirmed_in_standings().values()) == {False}  # pending, counted
    # The scorer, a seat beyond the table, a phone naming no seat: refused, nothing stored.
    for seat, field in ((0, "seat"), (4, "seat"), (None, "seat")):
        refused = day.confirm(first, seat)
        assert refused.status_code == 422, refused.json
        assert field in refused.json["errors"], refused.json
    # Another table's phone, a read-only token: refused.
    assert day.confirm(first, 1, headers=day.phone(second)).status_code == 403
    viewer = host.client.post(
        f"/api/v1/clubs/{host.club['id']}/viewer-tokens", json={"name": "Board"}, headers=host.admin
    ).json
    assert day.confirm(first, 1, headers=host.api.auth(viewer["token"])).status_code == 403
    assert day.row(first)["confirmations"] == []
    one = day.confirm(first, 1)
    assert one.status_code == 200, one.json
    assert one.json["confirmations"] == [1] and one.json["confirmed"] is False
    assert one.json["state"] == "unconfirmed"
    again = day.confirm(first, 1)
    assert again.status_code == 200 and again.json["confirmations"] == [1]
    two = day.confirm(first, 3)
    assert two.json["confirmations"] == [1, 3] and two.json["confirmed"] is True
    assert two.json["state"] == "confirmed"
    third = day.confirm(first, 2)  # the result counts already: nothing stored
    assert third.status_code == 200 and third.json["confirmations"] == [1, 3]
    assert day.confirmed_in_standings() == {(1, 1): True, (1, 2): False}
    events = day.events("tournament.confirmed")
    assert [(e["data"]["seat"], e["data"]["confirmed"]) for e in events] == [(1, False), (3, True)]
    assert events[0]["table_id"] == first["table_id"]
    # The director confirms alone, naming no seat.
    named = day.confirm(second, 1, headers=host.admin)
    assert named.status_code == 422 and "seat" in named.json["errors"]
    director = day.confirm(second, None, headers=host.admin)
    assert director.status_code == 200 and director.json["confirmations"] == [None]
    assert director.json["confirmed"] is True
    assert day.confirmed_in_standings() == {(1, 1): True, (1, 2): True}


def test_a_change_of_the_hands_voids_the_confirmations(host: Host) -> None:
    day = Day(host)
    table = day.tables[0]
    day.play(table, SOLO, SOLO)
    day.confirm(table, 1)
    assert day.confirm(table, 2).json["confirmed"] is True
    corrected = host.client.put(
        f"/api/v1/tables/{table['table_id']}/hands/2", json=LOST_SOLO, headers=day.phone(table)
    )
    assert corrected.status_code == 200, corrected.json
    row = day.row(table)
    assert row["confirmations"] == [] and row["confirmed"] is False
    assert row["state"] == "unconfirmed"
    assert day.confirm(table, 2).json["confirmations"] == [2]


def test_a_disputed_hand_goes_to_the_director(host: Host, api) -> None:
    day = Day(host)
    table, other = day.tables
    day.play(table, SOLO, SOLO)
    day.play(other, SOLO)
    assert day.confirm(table, 1).status_code == 200
    wrong_hand = day.dispute(table, 3)
    assert wrong_hand.status_code == 422 and "hand" in wrong_hand.json["errors"]
    wrong_seat = day.dispute(table, 1, seat=4)
    assert wrong_seat.status_code == 422 and "seat" in wrong_seat.json["errors"]
    opened = day.dispute(table, 2)
    assert opened.status_code == 201, opened.json
    dispute = opened.json
    assert dispute["status"] == "open" and dispute["hand"] == 2 and dispute["table"] == 1
    twice = day.dispute(table, 2, seat=3)
    assert twice.status_code == 409
    assert twice.json["type"] == "urn:solo:problem:result-disputed"
    blocked = day.confirm(table, 3)
    assert blocked.status_code == 409
    assert blocked.json["type"] == "urn:solo:problem:result-disputed"
    console = day.console()
    assert [t["state"] for t in console["tables"]] == ["disputed", "playing"]
    assert console["tables"][0]["disputes"][0]["id"] == dispute["id"]
    assert console["counts"]["disputed"] == 1 and console["counts"]["playing"] == 1
    # Only the director resolves; a correction needs the hand.
    phone = host.client.post(
        f"{day.url}/disputes/{dispute['id']}/resolution",
        json={"outcome": "rejected"},
        headers=day.phone(table),
    )
    assert phone.status_code == 403
    missing = day.resolve(dispute, outcome="corrected")
    assert missing.status_code == 422 and "hand" in missing.json["errors"]
    bad = day.resolve(dispute, outcome="corrected", hand={"contract": "solo", "tricks": 99})
    assert bad.status_code == 422
    assert day.row(table)["disputes"][0]["status"] == "open"  # nothing stored
    resolved = day.resolve(dispute, outcome="corrected", hand=LOST_SOLO)
    assert resolved.status_code == 200, resolved.json
    assert resolved.json["disputes"] == [] and resolved.json["confirmations"] == []
    assert resolved.json["state"] == "unconfirmed"
    history = host.client.get(
        f"/api/v1/tables/{table['table_id']}/hands/2/history", headers=host.admin
    ).json
    kinds = [r["changed_by"]["kind"] for r in history["revisions"]]
    assert kinds == ["table", "admin"]  # the correction is the director's
    assert history["revisions"][-1]["hand"]["declarer"] == LOST_SOLO["declarer"]
    closed = day.resolve(dispute, outcome="rejected")
    assert closed.status_code == 409
    assert closed.json["type"] == "urn:solo:problem:dispute-closed"
    kinds = [e["data"]["outcome"] for e in day.events("tournament.dispute_resolved")]
    assert kinds == ["corrected"] and len(day.events("tournament.disputed")) == 1
    day.confirm(table, 1)
    assert day.confirm(table, 2).json["confirmed"] is True


def test_a_rejected_dispute_changes_no_hand_and_a_voided_one_voids_it(host: Host) -> None:
    day = Day(host)
    table = day.tables[0]
    day.play(table, SOLO, SOLO)
    first = day.dispute(table, 1).json
    rejected = day.resolve(first, outcome="rejected", hand=SOLO)
    assert rejected.status_code == 422 and "hand" in rejected.json["errors"]
    rejected = day.resolve(first, outcome="rejected")
    assert rejected.status_code == 200 and rejected.json["state"] == "unconfirmed"
    second = day.dispute(table, 1).json
    assert day.resolve(second, outcome="voided").status_code == 200
    hand = host.client.get(f"/api/v1/tables/{table['table_id']}/hands/1", headers=host.admin)
    assert hand.json["status"] == "void"
    third = day.dispute(table, 1).json
    again = day.resolve(third, outcome="voided")
    assert again.status_code == 409  # the hand is void already: nothing stored
    assert day.row(table)["disputes"][0]["id"] == third["id"]


def test_the_console_sorts_what_needs_the_director_first(host: Host) -> None:
    day = Day(host, players=16)
    one, two, three, four = day.tables
    day.play(two, SOLO, SOLO)  # complete, unconfirmed
    day.play(three, SOLO)  # playing
    day.play(four, SOLO, SOLO)
    day.dispute(four, 1)
    console = day.console()
    assert console["series"] == 1
    assert [t["number"] for t in console["tables"]] == [4, 2, 1, 3]
    assert [t["state"] for t in console["tables"]] == [
        "disputed",
        "unconfirmed",
        "playing",
        "playing",
    ]
    row = console["tables"][1]
    assert row["hands_played"] == 2 and row["hands_limit"] == 2
    assert row["last_hand_at"] is not None and len(row["seats"]) == 4
    assert row["phones"] is None  # no stream hub under the test client
    hub = client_hub(day)
    with_hub = host.client.get(
        f"{day.url}/console", headers=host.admin, environ_overrides={"solo.streams": hub}
    ).json
    # Each table's live tokens' streams in this worker: one each, as the stand-in holds.
    assert {t["phones"] for t in with_hub["tables"]} == {hub.per_table}
    stale = day.console(stale_minutes=1)
    assert stale["stale_minutes"] == 1
    # A table with no hand for a minute is stale only once a minute has passed: none yet.
    assert stale["counts"]["stale"] == 0


class StandInHub:
    """The worker's stream hub as the console reads it: one stream for every token."""

    per_table = 0

    def held(self, key: str) -> int:
        return 1 if key.startswith("token:") else 0


def client_hub(day: Day) -> StandInHub:
    hub = StandInHub()
    hub.per_table = live_tokens(day)
    return hub


def live_tokens(day: Day) -> int:
    from sqlalchemy import func, select

    from service.persistence.table_keeping import TokenRow

    with day.host.client.application.app_context():
        counts = {
            db.session.scalar(
                select(func.count())
                .select_from(TokenRow)
                .where(TokenRow.table_id == t["table_id"], TokenRow.revoked_at.is_(None))
            )
            for t in day.tables
        }
    assert len(counts) == 1, counts
    return counts.pop() or 0


def _statements(app) -> tuple[list[str], Any]:
    seen: list[str] = []

    def note(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    return seen, lambda: event.remove(engine, "before_cursor_execute", note)


def test_the_console_reads_a_query_per_kind_not_per_table(host: Host, app) -> None:
    small, large = Day(host, players=8), Day(host, players=24)
    for day in (small, large):
        for table in day.tables:
            day.play(table, SOLO)
        day.dispute(day.tables[0], 1)
    counts = []
    for day in (small, large):
        day.console()  # the token's use noted already: no write of it in the read counted
        seen, stop = _statements(app)
        try:
            console = day.console()
        finally:
            stop()
        counts.append(len(seen))
        assert len(console["tables"]) == len(day.tables)
    assert len(large.tables) == 3 * len(small.tables)
    assert counts[0] == counts[1], counts


def test_the_director_moves_a_player_or_seats_a_substitute_before_the_first_hand(
    host: Host,
) -> None:
    day = Day(host)
    first, second = day.tables
    by_player = {e["player_id"]: e for e in host.entrants(day.tournament)}
    mover = by_player[first["seats"][1]["player_id"]]
    other = by_player[second["seats"][2]["player_id"]]
    url = f"{day.url}/seats"
    moved = host.client.post(
        url, json={"entrant_id": mover["id"], "table": 2, "seat": 2}, headers=host.admin
    )
    assert moved.status_code == 200, moved.json
    tables = {t["number"]: t for t in moved.json["tables"]}
    assert tables[2]["seats"][2]["player_id"] == mover["player_id"]
    assert tables[1]["seats"][1]["player_id"] == other["player_id"]
    assert len(day.events("table.reseated")) == 2
    # Within a table: the two swap there.
    first_at_two = tables[2]["seats"][0]["player_id"]
    within = host.client.post(
        url, json={"entrant_id": mover["id"], "table": 2, "seat": 0}, headers=host.admin
    )
    assert within.status_code == 200, within.json
    seats_at_two = {t["number"]: t for t in within.json["tables"]}[2]["seats"]
    assert seats_at_two[0]["player_id"] == mover["player_id"]
    assert seats_at_two[2]["player_id"] == first_at_two
    assert len(day.events("table.reseated")) == 3
    # A substitute for a withdrawn entrant: a new entrant, checked in as seated.
    gone = by_player[first["seats"][3]["player_id"]]
    not_withdrawn = host.registered(day.tournament, name="Rosa Blum")
    refused = host.client.post(
        url, json={"entrant_id": not_withdrawn["id"], "table": 1, "seat": 3}, headers=host.admin
    )
    assert refused.status_code == 422 and "seat" in refused.json["errors"]
    assert host.status(day.tournament, gone, "withdrawn").status_code == 200
    away = host.registered(day.tournament, name="Otto Brandt")
    assert host.status(day.tournament, away, "withdrawn").status_code == 200
    taken = host.client.post(
        url, json={"entrant_id": away["id"], "table": 1, "seat": 3}, headers=host.admin
    )
    assert taken.status_code == 422 and "entrant_id" in taken.json["errors"]
    for body, field in (
        ({"entrant_id": "nobody", "table": 1, "seat": 0}, "entrant_id"),
        ({"entrant_id": not_withdrawn["id"], "table": 9, "seat": 0}, "table"),
        ({"entrant_id": not_withdrawn["id"], "table": 1, "seat": 4}, "seat"),
    ):
        wrong = host.client.post(url, json=body, headers=host.admin)
        assert wrong.status_code == 422 and field in wrong.json["errors"], wrong.json
    sub = host.client.post(
        url, json={"entrant_id": not_withdrawn["id"], "table": 1, "seat": 3}, headers=host.admin
    )
    assert sub.status_code == 200, sub.json
    entrants = {e["id"]: e for e in host.entrants(day.tournament)}
    substitute = entrants[not_withdrawn["id"]]
    assert substitute["status"] == "checked_in"
    seats = {t["number"]: t for t in sub.json["tables"]}[1]["seats"]
    assert seats[3]["player_id"] == substitute["player_id"]
    # After the table's first hand: 409, nothing stored.
    day.play(first, SOLO)
    late = host.client.post(
        url, json={"entrant_id": other["id"], "table": 2, "seat": 0}, headers=host.admin
    )
    assert late.status_code == 409
    assert late.json["type"] == "urn:solo:problem:series-started"
    assert [s["player_id"] for s in day.row(first)["seats"]] == [s["player_id"] for s in seats]
    phone = host.client.post(
        url, json={"entrant_id": other["id"], "table": 2, "seat": 0}, headers=day.phone(first)
    )
    assert phone.status_code == 403


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
BODIES = (
    st.dictionaries(
        st.sampled_from(["seat", "hand", "reason", "outcome", "entrant_id", "table"]), JSON
    )
    | JSON
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=BODIES, path=st.sampled_from(["confirmations", "disputes", "resolution", "seats"]))
def test_no_input_makes_a_500(host: Host, body: Any, path: str) -> None:
    if not hasattr(host, "day"):
        host.day = Day(host)  # type: ignore[attr-defined]
        host.day.play(host.day.tables[0], SOLO, SOLO)  # type: ignore[attr-defined]
        host.dispute = host.day.dispute(host.day.tables[0], 1).json  # type: ignore[attr-defined]
    day: Day = host.day  # type: ignore[attr-defined]
    table = day.tables[0]["table_id"]
    url = {
        "confirmations": f"{day.url}/tables/{table}/confirmations",
        "disputes": f"{day.url}/tables/{table}/disputes",
        "resolution": f"{day.url}/disputes/{host.dispute['id']}/resolution",  # type: ignore[attr-defined]
        "seats": f"{day.url}/seats",
    }[path]
    headers = host.admin if path in ("resolution", "seats") else day.phone(day.tables[0])
    answer = host.client.post(url, json=body, headers=headers)
    assert answer.status_code < 500, answer.json


def test_the_console_answers_304_while_nothing_changed(host: Host) -> None:
    """The director's screen polls the console with its ETag: nothing sent again until a
    table changes."""
    day = Day(host)
    first = host.client.get(f"{day.url}/console", headers=host.admin)
    etag = first.headers["ETag"]
    same = host.client.get(f"{day.url}/console", headers={**host.admin, "If-None-Match": etag})
    assert same.status_code == 304 and same.get_data() == b""
    day.play(day.tables[0], SOLO)
    changed = host.client.get(f"{day.url}/console", headers={**host.admin, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
