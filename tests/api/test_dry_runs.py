"""Dry runs of a correction and a void: the same checks and answer as the real request, and
nothing stored (no revision, no version, no ETag change, no league aggregates)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from service.extensions import db
from service.persistence.league import PlayerCareerRow, SeasonPlayerRow
from service.persistence.table_keeping import HandRevisionRow, HandRow, TransferRow
from tests.databases import ON_POSTGRES, postgres_url
from tests.support import inlined

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}
SIMPLE = {
    "contract": "simple",
    "trump": "clubs",
    "declarer": 0,
    "tricks": 5,
    "called": {"rank": "ace", "suit": "hearts"},
    "partner": 3,
}
HANDS = (SOLO, LOST_SOLO, SIMPLE, SOLO, LOST_SOLO)


def stored(app: Any, table_id: str) -> dict[str, Any]:
    """Everything a change could leave behind, read straight from the database."""
    with app.app_context():
        session = db.session
        hands = session.execute(
            select(
                HandRow.number,
                HandRow.status,
                HandRow.revision,
                HandRow.record,
                HandRow.settlement,
                HandRow.state_after,
            )
            .where(HandRow.table_id == table_id)
            .order_by(HandRow.number)
        ).all()
        answer = {
            "hands": [tuple(h) for h in hands],
            "revisions": session.scalar(select(func.count()).select_from(HandRevisionRow)),
            "transfers": session.execute(
                select(
                    TransferRow.hand_id,
                    TransferRow.position,
                    TransferRow.chips,
                    TransferRow.from_seat,
                    TransferRow.to_seat,
                ).order_by(TransferRow.hand_id, TransferRow.position)
            ).all(),
            "careers": session.execute(select(PlayerCareerRow).order_by(PlayerCareerRow.player_id))
            .scalars()
            .all(),
            "season": session.execute(select(SeasonPlayerRow).order_by(SeasonPlayerRow.player_id))
            .scalars()
            .all(),
        }
        answer["careers"] = [
            (r.player_id, r.hands, r.net, r.won, r.lost, r.sittings) for r in answer["careers"]
        ]
        answer["season"] = [
            (r.player_id, r.hands, r.net, r.won, r.lost, r.sittings) for r in answer["season"]
        ]
        session.remove()
        return answer


def seasonal_table(api: Any, client: Any) -> dict[str, Any]:
    club = api.club()
    season = client.post(
        f"/api/v1/clubs/{club['id']}/seasons",
        json={"name": "Winter", "variant": "american"},
        headers=api.auth(club["admin_token"]),
    )
    assert season.status_code == 201, season.json
    seats = api.players(club, 4)
    made = client.post(
        "/api/v1/tables",
        json={
            "club_id": club["id"],
            "name": "Thursday",
            "variant": "american",
            "seats": seats,
            "first_dealer": 0,
            "options": {},
            "season_id": season.json["id"],
        },
        headers=api.auth(club["admin_token"]),
    )
    assert made.status_code == 201, made.json
    table = {**made.json, "admin_token": club["admin_token"]}
    for hand in HANDS:
        assert api.record(table, hand).status_code == 201
    return table


def without_times(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in ("updated_at",)}


def check_dry_run_then_real(
    api: Any,
    client: Any,
    app: Any,
    method: str,
    url: str,
    body: dict[str, Any] | None,
    table: dict[str, Any],
) -> None:
    headers = api.auth(table["table_token"])
    before_view = client.get(f"/api/v1/tables/{table['id']}", headers=headers)
    before = stored(app, table["id"])
    dry = client.open(
        url + "?dry_run=true",
        method=method,
        json=body,
        headers={**headers, "If-Match": before_view.headers["ETag"]},
    )
    assert dry.status_code == 200, dry.json
    assert dry.headers["Dry-Run"] == "true"
    assert "ETag" not in dry.headers
    # Nothing stored: the rows, the league's aggregates and the table's ETag are as before.
    assert stored(app, table["id"]) == before
    after_view = client.get(f"/api/v1/tables/{table['id']}", headers=headers)
    assert after_view.headers["ETag"] == before_view.headers["ETag"]
    assert after_view.json == before_view.json
    assert (
        client.get(
            f"/api/v1/tables/{table['id']}",
            headers={**headers, "If-None-Match": before_view.headers["ETag"]},
        ).status_code
        == 304
    )
    # The dry run can be asked again, and the real request then answers the same.
    real = client.open(
        url, method=method, json=body, headers={**headers, "If-Match": before_view.headers["ETag"]}
    )
    assert real.status_code == 200, real.json
    assert "Dry-Run" not in real.headers
    assert without_times(dry.json) == without_times(real.json)
    assert real.headers["ETag"] == f'"{real.json["table"]["version"]}"'
    assert stored(app, table["id"]) != before


def test_a_dry_run_correction_stores_nothing_and_answers_what_the_correction_then_does(
    api, client, app
):
    table = seasonal_table(api, client)
    check_dry_run_then_real(
        api,
        client,
        app,
        "PUT",
        f"/api/v1/tables/{table['id']}/hands/2",
        {**LOST_SOLO, "tricks": 6},
        table,
    )


def test_a_dry_run_void_stores_nothing_and_answers_what_the_void_then_does(api, client, app):
    table = seasonal_table(api, client)
    check_dry_run_then_real(
        api, client, app, "DELETE", f"/api/v1/tables/{table['id']}/hands/1", None, table
    )


def test_a_dry_run_void_shows_every_later_hand_settled_again(api, client):
    """The void prompt's figures: every balance and the pool as the table would be."""
    table = api.table()
    for hand in HANDS:
        api.record(table, hand)
    headers = api.auth(table["table_token"])
    dry = client.delete(f"/api/v1/tables/{table['id']}/hands/1?dry_run=true", headers=headers)
    assert dry.status_code == 200
    assert dry.json["resettled"] == len(HANDS)  # the dealer moved: every later hand again
    fresh = api.table()
    for hand in HANDS[1:]:
        api.record(fresh, {**hand})
    # The same hands recorded without hand 1, on a table whose first dealer deals hand 2,
    # give the same balances and pool, except that hand 1 still stands as void.
    replayed = api.get_table(fresh)
    assert [s["balance"] for s in dry.json["table"]["seats"]] == [
        s["balance"] for s in replayed["seats"]
    ]
    assert dry.json["table"]["pool"] == replayed["pool"]
    assert dry.json["table"]["hands_played"] == len(HANDS) - 1


def test_a_dry_run_makes_the_same_checks_as_the_real_request(api, client):
    table = api.table()
    api.record(table, SOLO)
    url = f"/api/v1/tables/{table['id']}/hands/1"
    table_auth = api.auth(table["table_token"])
    # A stale If-Match, a bad record, a missing hand, no token: the real request's errors.
    for method, path, body, headers, status in (
        ("PUT", url, SOLO, {**table_auth, "If-Match": '"1"'}, 412),
        ("PUT", url, {**SOLO, "tricks": 9}, table_auth, 422),
        ("PUT", url.replace("/1", "/7"), SOLO, table_auth, 404),
        ("DELETE", url, None, {}, 401),
    ):
        dry = client.open(path + "?dry_run=true", method=method, json=body, headers=headers)
        real = client.open(path, method=method, json=body, headers=headers)
        assert dry.status_code == real.status_code == status, (dry.json, real.json)
        assert dry.json["type"] == real.json["type"]
        assert "Dry-Run" not in dry.headers
    assert client.delete(url + "?dry_run=true", headers=table_auth).status_code == 200
    assert client.delete(url, headers=table_auth).status_code == 200
    assert client.delete(url + "?dry_run=true", headers=table_auth).status_code == 409
    # A closed table: corrections need the admin token, dry run or not.
    client.post(f"/api/v1/tables/{table['id']}/close", headers=table_auth)
    assert client.put(url + "?dry_run=true", json=SOLO, headers=table_auth).status_code == 403
    assert (
        client.put(
            url + "?dry_run=true", json=SOLO, headers=api.auth(table["admin_token"])
        ).status_code
        == 200
    )


def test_dry_run_false_is_the_real_request_and_a_bad_value_is_refused(api, client):
    table = api.table()
    api.record(table, SOLO)
    url = f"/api/v1/tables/{table['id']}/hands/1"
    headers = api.auth(table["table_token"])
    bad = client.put(url + "?dry_run=perhaps", json=LOST_SOLO, headers=headers)
    assert bad.status_code == 422 and "dry_run" in str(bad.json)
    assert api.get_table(table)["version"] == 2
    real = client.put(url + "?dry_run=false", json=LOST_SOLO, headers=headers)
    assert real.status_code == 200 and "Dry-Run" not in real.headers
    assert api.get_table(table)["version"] == 3


def test_the_dry_runs_are_documented(client):
    spec = inlined(client.get("/openapi.json").json)
    operations = spec["paths"]["/api/v1/tables/{table_id}/hands/{number}"]
    for method in ("put", "delete"):
        names = [p["name"] for p in operations[method]["parameters"]]
        assert "dry_run" in names and "If-Match" in names
        assert "Dry-Run" in operations[method]["responses"]["200"]["headers"]


@pytest.mark.skipif(
    not ON_POSTGRES,
    reason="table versions are announced on PostgreSQL only",
)
def test_a_dry_run_announces_no_new_version(api, client):
    """PostgreSQL announces a version on commit only: a dry run, rolled back, says nothing;
    the real change that follows is heard."""
    import psycopg

    table = api.table()
    api.record(table, SOLO)
    api.record(table, LOST_SOLO)
    headers = api.auth(table["table_token"])
    url = f"/api/v1/tables/{table['id']}"
    with psycopg.connect(str(postgres_url()), autocommit=True) as listener:
        listener.execute("LISTEN table_versions")
        for method, path, body in (
            ("PUT", "/hands/1", LOST_SOLO),
            ("DELETE", "/hands/2", None),
            (
                "PUT",
                "/seating",
                {"seats": [s["player_id"] for s in reversed(table["seats"])], "first_dealer": 1},
            ),
        ):
            dry = client.open(
                f"{url}{path}?dry_run=true", method=method, json=body, headers=headers
            )
            assert dry.status_code == 200, dry.json
        assert list(listener.notifies(timeout=1)) == []
        assert client.delete(f"{url}/hands/2", headers=headers).status_code == 200
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
        assert heard == [f"{table['id']} {table['club_id']} 4"]
