"""Table keeping over HTTP: recording, conditions, corrections, ledger, close, settle-up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import as_shown

EXAMPLES = json.loads((Path(__file__).parents[1] / "data" / "settlements.json").read_text())
AMERICAN_SEQUENCES = [t for t in EXAMPLES["tables"] if t["variant"] == "american"]
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}


def balances(table: dict) -> list[int]:
    return [seat["balance"] for seat in table["seats"]]


@pytest.mark.parametrize("sequence", AMERICAN_SEQUENCES, ids=lambda t: t["name"])
def test_recorded_sequences_give_the_listed_balances(api, sequence):
    table = api.table(
        players=sequence["players"],
        first_dealer=sequence["first_dealer"],
        options=sequence["options"],
    )
    for number, (hand, expected) in enumerate(
        zip(sequence["hands"], sequence["expected"]["settlements"], strict=True), start=1
    ):
        response = api.record(table, hand)
        assert response.status_code == 201, response.json
        assert response.json["number"] == number
        for key, value in expected.items():
            assert response.json["settlement"][key] == as_shown(key, value)
    shown = api.get_table(table)
    assert balances(shown) == sequence["expected"]["balances"]
    assert shown["pool"] == sequence["expected"]["pool"]
    assert shown["couleur"] == sequence["expected"]["couleur"]
    assert shown["dealer"] == sequence["expected"]["dealer"]
    assert sum(balances(shown)) + shown["pool"] == 0


def test_a_new_table_shows_a_fresh_state(api):
    table = api.table(players=3, first_dealer=2)
    assert table["table_token"]
    assert balances(table) == [0, 0, 0]
    assert (table["pool"], table["couleur"], table["dealer"], table["stake_due"]) == (
        0,
        "clubs",
        2,
        True,
    )
    assert table["hands_played"] == 0 and table["next_number"] == 1
    assert table["status"] == "open"


def test_table_options_are_validated_against_the_rulebook(api, client):
    club = api.club()
    seats = api.players(club, 4)
    for options, field in (
        ({"stake": -1}, "options.stake"),
        ({"colour": "clubs"}, "options.colour"),
        ({"pool_at_close": "burn"}, "options.pool_at_close"),
        ({"starting_pool": 10}, "options.starting_pool"),
    ):
        response = client.post(
            "/api/v1/tables",
            json={
                "club_id": club["id"],
                "name": "T",
                "variant": "american",
                "seats": seats,
                "options": options,
            },
            headers=api.auth(club["admin_token"]),
        )
        assert response.status_code == 422, options
        assert field in response.json["errors"], response.json


def test_seats_must_be_players_of_the_club(api, client):
    club, other = api.club(), api.club("Other")
    seats = api.players(club, 3) + api.players(other, 1)
    response = client.post(
        "/api/v1/tables",
        json={"club_id": club["id"], "name": "T", "variant": "american", "seats": seats},
        headers=api.auth(club["admin_token"]),
    )
    assert response.status_code == 422
    assert "seats.3" in response.json["errors"]


def test_get_table_answers_304_to_its_current_etag(api, client):
    table = api.table()
    url = f"/api/v1/tables/{table['id']}"
    first = client.get(url, headers=api.auth(table["table_token"]))
    etag = first.headers["ETag"]
    assert etag == f'"{first.json["version"]}"'
    same = client.get(url, headers={**api.auth(table["table_token"]), "If-None-Match": etag})
    assert same.status_code == 304
    api.record(table, SOLO)
    moved = client.get(url, headers={**api.auth(table["table_token"]), "If-None-Match": etag})
    assert moved.status_code == 200
    assert moved.json["version"] == first.json["version"] + 1


def test_an_idempotent_retry_returns_the_first_answer_and_records_nothing(api):
    table = api.table()
    first = api.record(table, SOLO, **{"Idempotency-Key": "hand-1"})
    again = api.record(table, SOLO, **{"Idempotency-Key": "hand-1"})
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert api.get_table(table)["hands_played"] == 1


def test_reusing_an_idempotency_key_with_another_body_is_a_conflict(api):
    table = api.table()
    api.record(table, SOLO, **{"Idempotency-Key": "k"})
    response = api.record(table, LOST_SOLO, **{"Idempotency-Key": "k"})
    assert response.status_code == 409
    assert api.get_table(table)["hands_played"] == 1


def test_idempotency_keys_are_kept_per_table(api):
    club = api.club()
    one, two = api.table(club=club), api.table(club=club)
    assert api.record(one, SOLO, **{"Idempotency-Key": "same"}).status_code == 201
    response = api.record(two, LOST_SOLO, **{"Idempotency-Key": "same"})
    assert response.status_code == 201
    assert response.json["hand"]["declarer"] == 2


def test_a_stale_if_match_is_412_and_records_nothing(api):
    table = api.table()
    assert api.record(table, SOLO, **{"If-Match": f'"{table["version"]}"'}).status_code == 201
    stale = api.record(table, SOLO, **{"If-Match": f'"{table["version"]}"'})
    assert stale.status_code == 412
    assert stale.content_type == "application/problem+json"
    assert api.get_table(table)["hands_played"] == 1


def test_a_taken_expected_number_is_409(api):
    table = api.table()
    assert api.record(table, {**SOLO, "expected_number": 1}).status_code == 201
    taken = api.record(table, {**SOLO, "expected_number": 1})
    assert taken.status_code == 409
    assert api.record(table, {**SOLO, "expected_number": 2}).json["number"] == 2


def test_a_hand_that_breaks_a_rule_is_422_and_stores_nothing(api):
    table = api.table()
    response = api.record(table, {**SOLO, "partner": 3, "called": {"rank": "ace", "suit": "clubs"}})
    assert response.status_code == 422
    assert any(k.startswith("hand.") for k in response.json["errors"])
    shown = api.get_table(table)
    assert shown["hands_played"] == 0 and shown["version"] == table["version"]


def test_correcting_a_hand_settles_every_later_hand_again(api, client):
    table = api.table()
    for hand in (SOLO, LOST_SOLO, SOLO):
        api.record(table, hand)
    before = api.get_table(table)
    url = f"/api/v1/tables/{table['id']}/hands/1"
    corrected = client.put(url, json={**SOLO, "tricks": 2}, headers=api.auth(table["table_token"]))
    assert corrected.status_code == 200, corrected.json
    assert corrected.json["revision"] == 2
    after = corrected.json["table"]
    # Replaying the same three records from scratch must give the same sheet.
    fresh = api.table(club=None)
    for hand in ({**SOLO, "tricks": 2}, LOST_SOLO, SOLO):
        api.record(fresh, hand)
    replayed = api.get_table(fresh)
    assert balances(after) == balances(replayed) != balances(before)
    assert after["pool"] == replayed["pool"]
    assert sum(balances(after)) + after["pool"] == 0


def test_history_keeps_every_revision_with_its_token(api, client):
    table = api.table()
    api.record(table, SOLO)
    client.put(
        f"/api/v1/tables/{table['id']}/hands/1",
        json=LOST_SOLO,
        headers=api.auth(table["admin_token"]),
    )
    history = client.get(
        f"/api/v1/tables/{table['id']}/hands/1/history", headers=api.auth(table["table_token"])
    ).json
    assert [r["revision"] for r in history["revisions"]] == [1, 2]
    assert history["revisions"][0]["hand"]["declarer"] == 1
    assert history["revisions"][1]["hand"]["declarer"] == 2
    assert [r["changed_by"]["kind"] for r in history["revisions"]] == ["table", "admin"]


def test_voiding_keeps_the_number_and_moves_nothing(api, client):
    table = api.table()
    for hand in (SOLO, LOST_SOLO):
        api.record(table, hand)
    voided = client.delete(
        f"/api/v1/tables/{table['id']}/hands/1", headers=api.auth(table["table_token"])
    )
    assert voided.status_code == 200
    assert voided.json["status"] == "void" and voided.json["settlement"] is None
    listed = client.get(
        f"/api/v1/tables/{table['id']}/hands", headers=api.auth(table["table_token"])
    ).json
    assert [(h["number"], h["status"]) for h in listed] == [(1, "void"), (2, "recorded")]
    # Hand 2 is now dealt first: the dealer stakes and the lost solo settles from pool 0.
    assert listed[1]["dealer"] == 0
    assert api.get_table(table)["hands_played"] == 1
    assert (
        client.delete(
            f"/api/v1/tables/{table['id']}/hands/1", headers=api.auth(table["table_token"])
        ).status_code
        == 409
    )


def test_the_ledger_lists_every_transfer_of_current_hands_in_order(api, client):
    table = api.table()
    answers = [api.record(table, hand).json for hand in (SOLO, LOST_SOLO)]
    ledger = client.get(
        f"/api/v1/tables/{table['id']}/ledger", headers=api.auth(table["table_token"])
    ).json
    expected = [{"hand": a["number"], **t} for a in answers for t in a["settlement"]["transfers"]]
    assert ledger["transfers"] == expected
    assert ledger["count"] == len(expected)


def test_a_closed_table_takes_no_hands_and_only_admin_corrections(api, client):
    table = api.table()
    api.record(table, SOLO)
    closed = client.post(
        f"/api/v1/tables/{table['id']}/close", headers=api.auth(table["table_token"])
    )
    assert closed.status_code == 200 and closed.json["status"] == "closed"
    assert api.record(table, SOLO).status_code == 409
    url = f"/api/v1/tables/{table['id']}/hands/1"
    assert (
        client.put(url, json=LOST_SOLO, headers=api.auth(table["table_token"])).status_code == 403
    )
    assert (
        client.put(url, json=LOST_SOLO, headers=api.auth(table["admin_token"])).status_code == 200
    )


def test_settle_up_splits_the_pool_and_clears_every_balance(api, client):
    table = api.table()
    for hand in (SOLO, LOST_SOLO, SOLO):
        api.record(table, hand)
    shown = api.get_table(table)
    settle = client.get(
        f"/api/v1/tables/{table['id']}/settle-up", headers=api.auth(table["table_token"])
    ).json
    assert settle["pool_at_close"] == "split"
    assert sum(s["chips"] for s in settle["pool_shares"]) == shown["pool"]
    net = dict.fromkeys(range(4), 0)
    for share in settle["pool_shares"]:
        net[share["to"]] += share["chips"]
    for seat in shown["seats"]:
        net[seat["seat"]] += seat["balance"]
    for t in settle["transfers"]:
        assert t["amount"] > 0
        net[t["from"]] += t["amount"]
        net[t["to"]] -= t["amount"]
    assert set(net.values()) == {0}
    assert len(settle["transfers"]) <= 3


def test_carry_leaves_the_pool_to_the_club_and_a_new_table_starts_with_it(api, client):
    club = api.club()
    first = api.table(club=club, options={"pool_at_close": "carry"})
    api.record(first, LOST_SOLO)
    pool = api.get_table(first)["pool"]
    settle = client.get(
        f"/api/v1/tables/{first['id']}/settle-up", headers=api.auth(first["table_token"])
    ).json
    assert settle["pool_shares"] == []
    owed_to_pool = sum(t["amount"] for t in settle["transfers"] if t["to"] == "pool")
    assert owed_to_pool == pool
    second = api.table(club=club, options={"pool_at_close": "carry", "starting_pool": pool})
    assert second["pool"] == pool
    api.record(second, SOLO)
    shown = api.get_table(second)
    assert sum(balances(shown)) + shown["pool"] == pool


def test_hands_are_paged(api, client):
    table = api.table()
    for _ in range(5):
        api.record(table, SOLO)
    page = client.get(
        f"/api/v1/tables/{table['id']}/hands?page=2&page_size=2",
        headers=api.auth(table["table_token"]),
    )
    assert [h["number"] for h in page.json] == [3, 4]
    assert json.loads(page.headers["X-Pagination"])["total"] == 5
    too_big = client.get(
        f"/api/v1/tables/{table['id']}/hands?page_size=1000", headers=api.auth(table["table_token"])
    )
    assert too_big.status_code == 422
