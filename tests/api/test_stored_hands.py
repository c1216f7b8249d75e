"""A hand stored before a check existed does not block a later correction, void or re-seating
of its table: it is settled again as it was taken (docs/rules.md, "Every variant")."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update

from service.extensions import db
from service.persistence.table_keeping import HandRow

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {**SOLO, "tricks": 2}  # a bête into the pool: every later hand starts anew
# What the service took before the Decision "tricks: 8 needs tout_after_five" (lost by the
# soloist's revoke, so that the league counts it alike with the flag or without).
EIGHT_WITHOUT_FLAG = {
    "contract": "solo",
    "trump": "diamonds",
    "declarer": 3,
    "tricks": 8,
    "errors": [{"kind": "revoke", "seat": 3}],
}


def _store_as_of_old(app: Any, table_id: str, number: int, record: dict[str, Any]) -> None:
    with app.app_context():
        db.session.execute(
            update(HandRow)
            .where(HandRow.table_id == table_id, HandRow.number == number)
            .values(record=record)
        )
        db.session.commit()


def _record_of(app: Any, table_id: str, number: int) -> dict[str, Any]:
    with app.app_context():
        return dict(
            db.session.scalar(
                select(HandRow.record).where(HandRow.table_id == table_id, HandRow.number == number)
            )
        )


def _table_with_an_old_hand(api: Any, app: Any) -> dict[str, Any]:
    table = api.table()
    for hand in (SOLO, {**EIGHT_WITHOUT_FLAG, "tout_after_five": True}, SOLO):
        assert api.record(table, hand).status_code == 201
    _store_as_of_old(app, table["id"], 2, EIGHT_WITHOUT_FLAG)
    return table


def _balances_and_pool_sum_to_zero(api: Any, table: dict[str, Any]) -> None:
    answer = api.get_table(table)
    assert sum(seat["balance"] for seat in answer["seats"]) + answer["pool"] == 0


def test_correcting_an_earlier_hand_settles_the_old_hand_as_taken(api, client, app):
    table = _table_with_an_old_hand(api, app)
    headers = api.auth(table["table_token"])
    url = f"/api/v1/tables/{table['id']}/hands/1"
    corrected = client.put(url, json=LOST_SOLO, headers=headers)
    assert corrected.status_code == 200, corrected.json
    assert corrected.json["resettled"] == 3
    old = client.get(f"/api/v1/tables/{table['id']}/hands/2", headers=headers).json
    # The incidental tout it must have been: 2 × 4 (a solo in suit), lost by the revoke.
    assert (old["settlement"]["value"], old["settlement"]["result"]) == (8, "lost")
    assert _record_of(app, table["id"], 2) == EIGHT_WITHOUT_FLAG  # kept as it was stored
    _balances_and_pool_sum_to_zero(api, table)


def test_voiding_an_earlier_hand_settles_the_old_hand_as_taken(api, client, app):
    table = _table_with_an_old_hand(api, app)
    headers = api.auth(table["table_token"])
    voided = client.delete(f"/api/v1/tables/{table['id']}/hands/1", headers=headers)
    assert voided.status_code == 200, voided.json
    _balances_and_pool_sum_to_zero(api, table)


def test_the_old_hand_itself_is_corrected_only_to_a_record_of_todays_rules(api, client, app):
    table = _table_with_an_old_hand(api, app)
    headers = api.auth(table["table_token"])
    url = f"/api/v1/tables/{table['id']}/hands/2"
    refused = client.put(url, json=EIGHT_WITHOUT_FLAG, headers=headers)
    assert refused.status_code == 422
    assert "hand.tout_after_five" in refused.json["errors"]
    taken = client.put(url, json={**EIGHT_WITHOUT_FLAG, "tout_after_five": True}, headers=headers)
    assert taken.status_code == 200, taken.json


def test_re_seating_settles_the_old_hand_as_taken(api, client, app):
    table = _table_with_an_old_hand(api, app)
    seats = [s["player_id"] for s in api.get_table(table)["seats"]]
    reseated = client.put(
        f"/api/v1/tables/{table['id']}/seating",
        json={"seats": seats[::-1], "first_dealer": 0},
        headers=api.auth(table["admin_token"]),
    )
    assert reseated.status_code == 200, reseated.json
    assert reseated.json["resettled"] == 3
    # Renumbered with the seats (declarer 3 is now seat 0), and otherwise as it was stored.
    assert _record_of(app, table["id"], 2) == {
        **EIGHT_WITHOUT_FLAG,
        "declarer": 0,
        "errors": [{"kind": "revoke", "seat": 0}],
    }
    _balances_and_pool_sum_to_zero(api, table)


def test_a_backup_holding_the_old_hand_is_imported(api, client, app):
    table = _table_with_an_old_hand(api, app)
    admin = api.auth(table["admin_token"])
    before = api.get_table(table)
    document = client.get(f"/api/v1/clubs/{before['club_id']}/export", headers=admin)
    assert document.status_code == 200, document.json
    imported = client.post("/api/v1/clubs/import", json=document.json)
    assert imported.status_code == 201, imported.json
    new_id = imported.json["ids"]["tables"][table["id"]]
    shown = client.get(
        f"/api/v1/tables/{new_id}",
        headers=api.auth(imported.json["admin_token"]),
    ).json
    assert [s["balance"] for s in shown["seats"]] == [s["balance"] for s in before["seats"]]
    assert shown["pool"] == before["pool"]
    # The import writes each record as the rules read it: the flag it must have had, added.
    taken = _record_of(app, new_id, 2)
    assert taken["tout_after_five"] is True
    assert {key: taken[key] for key in EIGHT_WITHOUT_FLAG} == EIGHT_WITHOUT_FLAG
