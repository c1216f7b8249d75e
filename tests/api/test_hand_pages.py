"""GET /tables/{id}/hands answers from each hand's rendering, kept per worker while the hand's
row reads the same: byte for byte the answer the schema made of the hands before renderings
were kept, in every language, for hands of every variant, recorded, corrected, voided, settled
again by an earlier hand's correction and re-seated; with the table's version as its ETag."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, current_app
from sqlalchemy import select

from service import rules
from service.extensions import db
from service.i18n import LANGUAGES, named_hand
from service.middleware.rendered import RenderedHands
from service.persistence.table_keeping import HandRow, TableRow
from service.schemas.tables import HandSchema
from service.services.hands import hand_view
from tests.support import ApiClient, make_app

EXAMPLES = json.loads((Path(__file__).parents[1] / "data" / "settlements.json").read_text())[
    "hands"
]
SOLO_WON = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


def unkept_page(app: Flask, table_id: str, page: int, size: int, language: str) -> bytes:
    """The page as the list answered before renderings were kept: the ORM's rows of the page,
    ``hand_view`` worded with the table's players' names, ``HandSchema(many=True)`` and Flask's
    JSON answer (flask-smorest's path)."""
    with app.test_request_context(headers={"Accept-Language": language}):
        table = db.session.get(TableRow, table_id)
        assert table is not None
        variant, names = table.variant, [seat.name for seat in table.seats]
        rows = db.session.scalars(
            select(HandRow)
            .where(HandRow.table_id == table_id)
            .order_by(HandRow.number)
            .offset((page - 1) * size)
            .limit(size)
        )
        items = [named_hand(hand_view(h, variant), language, names) for h in rows]
        body = current_app.json.response(HandSchema(many=True).dump(items)).get_data()
        db.session.remove()
        return body


def read_page(api: Any, table: dict[str, Any], page: int, size: int, language: str) -> Any:
    answer = api.client.get(
        f"/api/v1/tables/{table['id']}/hands?page={page}&page_size={size}",
        headers={**api.auth(table["table_token"]), "Accept-Language": language},
    )
    assert answer.status_code == 200, answer.json
    assert answer.headers["Content-Language"] == language
    return answer


def assert_pages_as_unkept(app: Flask, api: Any, table: dict[str, Any], hands: int) -> None:
    """Every page of 1, 3 and 100 hands, in each language, read twice (the second from the
    kept renderings), is byte for byte the unkept answer; each hand in it is the bytes of its
    own ``GET …/hands/{n}`` (flask-smorest's path, no renderings kept)."""
    for language in LANGUAGES:
        for size in (1, 3, 100):
            for page in range(1, (hands - 1) // size + 2):
                expected = unkept_page(app, table["id"], page, size, language)
                first = read_page(api, table, page, size, language)
                again = read_page(api, table, page, size, language)
                assert first.data == expected == again.data, (language, size, page)
        whole = read_page(api, table, 1, 100, language)
        for hand in whole.json:
            one = api.client.get(
                f"/api/v1/tables/{table['id']}/hands/{hand['number']}",
                headers={**api.auth(table["table_token"]), "Accept-Language": language},
            )
            assert one.data.rstrip(b"\n") in whole.data


def examples_table(api: Any, variant: str) -> tuple[dict[str, Any], int]:
    """A table of ``variant`` with the rulebook's example hands of it recorded in turn (those
    its state refuses left out), at the players most of them are for."""
    mine = [e for e in EXAMPLES if e["variant"] == variant]
    players = max({e["players"] for e in mine}, key=[e["players"] for e in mine].count)
    table = api.table(players=players, variant=variant)
    recorded = sum(api.record(table, e["hand"]).status_code == 201 for e in mine)
    recorded += sum(  # and again, so that there are later hands to settle again
        api.record(table, e["hand"]).status_code == 201 for e in mine if e["players"] == players
    )
    assert recorded >= 4, variant
    return table, recorded


@pytest.mark.parametrize("variant", sorted(rules.VARIANTS))
def test_a_page_is_byte_for_byte_the_unkept_answer_through_every_change(
    app: Flask, api: Any, variant: str
) -> None:
    table, hands = examples_table(api, variant)
    auth = api.auth(table["table_token"])
    path = f"/api/v1/tables/{table['id']}/hands"
    assert_pages_as_unkept(app, api, table, hands)
    # Hand 1 corrected: it and later hands settled again (their rows change, not their
    # revision), and its renderings kept in every language must not be served again.
    second = api.client.get(f"{path}/2", headers=auth).json["hand"]
    corrected = api.client.put(f"{path}/1", json=second, headers=auth)
    assert corrected.status_code == 200, corrected.json
    assert corrected.json["resettled"] >= 1
    assert_pages_as_unkept(app, api, table, hands)
    voided = api.client.delete(f"{path}/2", headers=auth)
    assert voided.status_code == 200, voided.json
    assert_pages_as_unkept(app, api, table, hands)
    seats = [s["player_id"] for s in api.get_table(table)["seats"]]
    reseated = api.client.put(
        f"/api/v1/tables/{table['id']}/seating",
        json={"seats": seats[1:] + seats[:1], "first_dealer": 1},
        headers=auth,
    )
    assert reseated.status_code in (200, 422), reseated.json
    assert_pages_as_unkept(app, api, table, hands)


def test_a_page_carries_the_tables_version_and_answers_304_until_it_moves(api: Any) -> None:
    table = api.table()
    for _ in range(3):
        assert api.record(table, SOLO_WON).status_code == 201
    first = read_page(api, table, 1, 2, "en")
    version = api.get_table(table)["version"]
    assert first.headers["ETag"] == f'"{version}"'
    assert first.headers["X-Pagination"] and 'rel="next"' in first.headers["Link"]
    path = f"/api/v1/tables/{table['id']}/hands?page=1&page_size=2"
    auth = api.auth(table["table_token"])
    same = api.client.get(path, headers={**auth, "If-None-Match": first.headers["ETag"]})
    assert same.status_code == 304 and same.data == b""
    assert same.headers["ETag"] == first.headers["ETag"]
    assert api.record(table, SOLO_WON).status_code == 201
    moved = api.client.get(path, headers={**auth, "If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200
    assert moved.headers["ETag"] == f'"{version + 1}"'
    empty = api.client.get(f"{path.split('?')[0]}?page=9&page_size=2", headers=auth)
    assert empty.status_code == 200 and empty.json == []


def test_a_page_after_another_worker_corrected_a_hand_shows_the_correction(
    app: Flask, api: Any
) -> None:
    table = api.table()
    for _ in range(3):
        assert api.record(table, SOLO_WON).status_code == 201
    before = read_page(api, table, 1, 10, "de").json  # rendered and kept by this app
    other = ApiClient(
        make_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
        ).test_client()
    )
    lost = {**SOLO_WON, "tricks": 2}
    corrected = other.client.put(
        f"/api/v1/tables/{table['id']}/hands/1", json=lost, headers=api.auth(table["table_token"])
    )
    assert corrected.status_code == 200
    after = read_page(api, table, 1, 10, "de").json
    assert after[0]["revision"] == before[0]["revision"] + 1
    assert after[0]["settlement"]["result"] == "lost"
    assert after[1]["settlement"] != before[1]["settlement"]  # settled again, same revision
    assert after[1]["revision"] == before[1]["revision"]
    assert (
        after
        == other.client.get(
            f"/api/v1/tables/{table['id']}/hands?page_size=10",
            headers={**api.auth(table["table_token"]), "Accept-Language": "de"},
        ).json
    )


def test_a_forbidden_or_missing_table_is_refused(api: Any) -> None:
    table = api.table()
    other = api.table()
    assert api.record(table, SOLO_WON).status_code == 201
    read_page(api, table, 1, 10, "en")  # now kept
    path = f"/api/v1/tables/{table['id']}/hands"
    assert api.client.get(path, headers=api.auth(other["table_token"])).status_code == 403
    assert api.client.get(path).status_code == 401
    missing = api.client.get("/api/v1/tables/nope/hands", headers=api.auth(table["table_token"]))
    assert missing.status_code == 404


def test_a_rendering_is_given_only_for_the_row_it_was_made_from_and_within_its_size() -> None:
    kept = RenderedHands(size=4)
    kept.put(1, "en", (1, "a"), b"one")
    assert kept.get(1, "en", (1, "a")) == b"one"
    assert kept.get(1, "en", (1, "b")) is None  # the row changed
    assert kept.get(1, "de", (1, "a")) is None  # another language
    for hand in range(2, 10):
        kept.put(hand, "en", (hand,), b"x")
        assert len(kept) <= 4
    assert kept.get(9, "en", (9,)) == b"x"
