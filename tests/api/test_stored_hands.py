"""A hand stored before a check existed does not block a later correction, void or re-seating
of its table: it is settled again as it was taken (docs/rules.md, "Every variant")."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select, update

from service.extensions import db
from service.persistence.table_keeping import HandRevisionRow, HandRow
from service.rules.german import GERMAN

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
    """The hand (and its one revision) as the service stored it before a check existed."""
    with app.app_context():
        hand = HandRow.table_id == table_id, HandRow.number == number
        db.session.execute(update(HandRow).where(*hand).values(record=record))
        hand_id = select(HandRow.id).where(*hand).scalar_subquery()
        db.session.execute(
            update(HandRevisionRow).where(HandRevisionRow.hand_id == hand_id).values(record=record)
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


GERMAN_EIGHT = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 8}
# Records the rules of 1 December 2026 took, each refused by a Decision taken since, with a
# record of today's rules stored over it first (so the table's numbers are as they were).
OLDER_CHECKS = [
    pytest.param(
        "american",
        # A lone declarer with six lower matadores (hearts: seven fit a side): since then a
        # lone declarer's eight cards hold at most five.
        {**SOLO, "matadores": {"side": "declarers", "lower": 6}},
        {**SOLO, "matadores": {"side": "declarers", "lower": 5}},
        id="american-lone-declarer-six-lower",
    ),
    pytest.param(
        "german",
        # All eight tricks and no flag: since then the party must have gone on after five
        # (lost by the soloist's revoke, so that the league counts it alike either way).
        {**GERMAN_EIGHT, "errors": [{"kind": "revoke", "seat": 1}]},
        {**GERMAN_EIGHT, "errors": [{"kind": "revoke", "seat": 1}], "continued_after_five": True},
        id="german-eight-tricks-without-a-flag",
    ),
    pytest.param(
        "german",
        # A stop recorded with six tricks: since then a party that stopped took exactly five.
        {
            "contract": "solo",
            "trump": "hearts",
            "declarer": 1,
            "tricks": 6,
            "stopped_after_five": True,
        },
        {
            "contract": "solo",
            "trump": "hearts",
            "declarer": 1,
            "tricks": 5,
            "stopped_after_five": True,
        },
        id="german-stopped-with-six-tricks",
    ),
]


@pytest.mark.parametrize(("variant", "old", "today"), OLDER_CHECKS)
def test_a_hand_taken_before_a_later_check_does_not_block_correcting_another(
    api, client, app, variant, old, today
):
    # German Solo's preferred suit is the first won trump: hand 1's correction reaches hand 2.
    options = {"preferred_suit": "first_won"} if variant == "german" else None
    table = api.table(variant=variant, options=options)
    first = {"contract": "solo", "trump": "clubs", "declarer": 0, "tricks": 6}
    for hand in (first, today, first):
        assert api.record(table, hand).status_code == 201
    _store_as_of_old(app, table["id"], 2, old)
    headers = api.auth(table["table_token"])
    url = f"/api/v1/tables/{table['id']}/hands"
    # Today's rules refuse the old record as a new one.
    assert client.put(f"{url}/2?dry_run=true", json=old, headers=headers).status_code == 422
    corrected = client.put(f"{url}/1", json={**first, "tricks": 2}, headers=headers)
    assert corrected.status_code == 200, corrected.json
    assert corrected.json["resettled"] == 3
    seats = [s["player_id"] for s in api.get_table(table)["seats"]]
    reseated = client.put(
        f"/api/v1/tables/{table['id']}/seating",
        json={"seats": seats[1:] + seats[:1], "first_dealer": 0},
        headers=api.auth(table["admin_token"]),
    )
    assert reseated.status_code == 200, reseated.json
    assert reseated.json["resettled"] == 3
    # Kept as it was stored, its seat renumbered (seat 1 sits at 0 now).
    renumbered = {**old, "declarer": 0}
    if "errors" in old:
        renumbered["errors"] = [{"kind": "revoke", "seat": 0}]
    assert _record_of(app, table["id"], 2) == renumbered


@pytest.mark.parametrize(
    ("old", "today", "written"),
    [
        pytest.param(
            *OLDER_CHECKS[1].values[1:],
            {**OLDER_CHECKS[1].values[1], "continued_after_five": True},
            id="eight-tricks-without-a-flag",
        ),
        pytest.param(
            *OLDER_CHECKS[2].values[1:], OLDER_CHECKS[2].values[1], id="stopped-with-six-tricks"
        ),
    ],
)
def test_a_backup_holding_an_old_german_hand_is_imported_as_the_rules_read_it(
    api, client, app, old, today, written
):
    # ``today`` settles as ``old`` is read: the table's balances are the old hand's.
    table = api.table(variant="german")
    first = {"contract": "solo", "trump": "clubs", "declarer": 0, "tricks": 6}
    for hand in (first, today):
        assert api.record(table, hand).status_code == 201
    _store_as_of_old(app, table["id"], 2, old)
    admin = api.auth(table["admin_token"])
    document = client.get(f"/api/v1/clubs/{table['club_id']}/export", headers=admin)
    assert document.status_code == 200, document.json
    imported = client.post("/api/v1/clubs/import", json=document.json)
    assert imported.status_code == 201, imported.json
    new_id = imported.json["ids"]["tables"][table["id"]]
    # Written as the rules read it: the flag the Decision says it had, or as recorded.
    assert _record_of(app, new_id, 2) == GERMAN.read_stored_hand(written, 4, None).to_dict()
    assert {key: _record_of(app, new_id, 2)[key] for key in written} == written
