"""A club night's series clock and its end, set by the director: every phone of the series'
tables reads when the series is to end (the table's view, a new version so that a phone
polling with its ETag learns of it), and ending a series stops each table at the hands it has
recorded, so that none starts another; a tournament's series are a night's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_nights import Night


@pytest.fixture
def club(api, client) -> Night:
    return Night(api, client)


def drawn_with_phones(club: Night, hands: int = 4) -> tuple[dict, list[tuple[str, dict]]]:
    night = club.started(players=club.players[:8], series=2, hands_per_series=hands)
    series = club.drawn(night, seed=9)
    phones = []
    for table in series["tables"]:
        token = club.client.post(f"/api/v1/tables/{table['table_id']}/token", headers=club.admin)
        phones.append((table["table_id"], club.api.auth(token.json["table_token"])))
    return night, phones


def test_the_clock_reaches_every_phone_of_the_series_as_a_new_version(club: Night) -> None:
    night, phones = drawn_with_phones(club)
    table_id, phone = phones[0]
    before = club.client.get(f"/api/v1/tables/{table_id}", headers=phone)
    assert before.json["series_ends_at"] is None
    ends = (datetime.now(UTC) + timedelta(minutes=90)).replace(microsecond=0)
    berlin = ends.astimezone(timezone_of(+1)).isoformat()  # "…+01:00", as a phone in Köln sends
    url = f"/api/v1/nights/{night['id']}/series/1"
    set_clock = club.client.patch(url, json={"ends_at": berlin}, headers=club.admin)
    assert set_clock.status_code == 200, set_clock.json
    assert {t["series_ends_at"] for t in set_clock.json["tables"]} == {ends_iso(ends)}
    polled = club.client.get(
        f"/api/v1/tables/{table_id}", headers={**phone, "If-None-Match": before.headers["ETag"]}
    )
    assert polled.status_code == 200  # a new version: the phone learns of the clock
    assert polled.json["series_ends_at"] == ends_iso(ends)
    assert polled.json["hands_limit"] == 4  # the length is left as it was
    # Setting the same clock again changes nothing; null takes it away.
    again = club.client.get(f"/api/v1/tables/{table_id}", headers=phone).headers["ETag"]
    assert club.client.patch(url, json={"ends_at": berlin}, headers=club.admin).status_code == 200
    same = club.client.get(f"/api/v1/tables/{table_id}", headers={**phone, "If-None-Match": again})
    assert same.status_code == 304
    assert club.client.patch(url, json={"ends_at": None}, headers=club.admin).status_code == 200
    assert (
        club.client.get(f"/api/v1/tables/{table_id}", headers=phone).json["series_ends_at"] is None
    )
    # The clock refuses no hand: a table goes on until its length.
    assert club.client.post(f"/api/v1/tables/{table_id}/hands", json=SOLO, headers=phone)


def test_ending_a_series_stops_each_table_at_the_hands_it_recorded(club: Night) -> None:
    night, phones = drawn_with_phones(club)
    (first, first_phone), (second, second_phone) = phones
    for hand in (SOLO, LOST_SOLO):
        assert club.client.post(f"/api/v1/tables/{first}/hands", json=hand, headers=first_phone)
    assert club.client.post(f"/api/v1/tables/{second}/hands", json=SOLO, headers=second_phone)
    url = f"/api/v1/nights/{night['id']}/series/1"
    assert club.client.patch(url, json={"end": True}, headers=first_phone).status_code == 403
    ended = club.client.patch(url, json={"end": True}, headers=club.admin)
    assert ended.status_code == 200, ended.json
    assert [t["hands_limit"] for t in ended.json["tables"]] == [2, 1]
    beyond = club.client.post(f"/api/v1/tables/{second}/hands", json=SOLO, headers=second_phone)
    assert beyond.status_code == 409 and beyond.json["type"] == "urn:solo:problem:series-over"
    # A hand still in play when it ended: the director lengthens that one table by one.
    one_more = club.client.patch(url, json={"hands": 2, "table": 2}, headers=club.admin)
    assert one_more.status_code == 200
    assert (
        club.client.post(
            f"/api/v1/tables/{second}/hands", json=LOST_SOLO, headers=second_phone
        ).status_code
        == 201
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "hands"),
        ({"table": 1}, "hands"),
        ({"end": True, "hands": 3}, "end"),
        ({"ends_at": "2026-12-07T21:30:00"}, "ends_at"),  # no offset: whose 21:30?
        ({"ends_at": "2001-01-01T00:00:00Z"}, "ends_at"),  # before the series was drawn
        ({"ends_at": "soon"}, "ends_at"),
        ({"end": "yes"}, "end"),
    ],
)
def test_a_bad_change_names_its_field_and_changes_nothing(club: Night, body, field) -> None:
    night, phones = drawn_with_phones(club)
    table_id, phone = phones[0]
    before = club.client.get(f"/api/v1/tables/{table_id}", headers=phone).json
    url = f"/api/v1/nights/{night['id']}/series/1"
    refused = club.client.patch(url, json=body, headers=club.admin)
    assert refused.status_code == 422, refused.json
    assert field in refused.json["errors"], refused.json
    after = club.client.get(f"/api/v1/tables/{table_id}", headers=phone).json
    assert after["version"] == before["version"] and after["series_ends_at"] is None


def timezone_of(hours: int):
    from datetime import timezone

    return timezone(timedelta(hours=hours))


def ends_iso(moment: datetime) -> str:
    """As the service writes every time: UTC, milliseconds, ``Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def test_the_export_keeps_each_tables_clock_and_the_import_restores_it(club: Night) -> None:
    night, phones = drawn_with_phones(club)
    url = f"/api/v1/nights/{night['id']}/series/1"
    ends = "2099-06-01T20:30:00+02:00"
    assert club.client.patch(url, json={"ends_at": ends}, headers=club.admin).status_code == 200
    document = club.client.get(f"/api/v1/clubs/{club.club['id']}/export", headers=club.admin).json
    (kept,) = document["nights"]
    assert {t["series_ends_at"] for t in kept["series"][0]["tables"]} == {
        "2099-06-01T18:30:00.000Z"
    }
    imported = club.client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    new_table = imported.json["ids"]["tables"][phones[0][0]]
    admin = club.api.auth(imported.json["admin_token"])
    shown = club.client.get(f"/api/v1/tables/{new_table}", headers=admin).json
    assert shown["series_ends_at"] == "2099-06-01T18:30:00.000Z"
