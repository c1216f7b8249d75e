"""Re-seating a table: the players permuted and/or another first dealer, every hand settled
again with each hand staying its players' (its seat numbers follow them), kept in the table's
history, refused on a closed table, with If-Match and dry runs."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from service.extensions import db
from service.persistence.league import PlayerCareerRow, SeasonPlayerRow
from service.persistence.table_keeping import SeatingChangeRow
from service.rules import VARIANTS
from service.rules.american import AMERICAN
from service.services.seating import remap_seats
from tests.api.test_dry_runs import stored
from tests.api.test_variant_tables import ALL_PLAYERS, hands_of

SOLO_BERND = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO_CARLA = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}
SIMPLE_ANNA_WITH_DIETER = {
    "contract": "simple",
    "trump": "clubs",
    "declarer": 0,
    "tricks": 5,
    "called": {"rank": "ace", "suit": "hearts"},
    "partner": 3,
}
REVOKE_BY_BERND = {
    "contract": "simple",
    "trump": "spades",
    "declarer": 0,
    "tricks": 5,
    "called": {"rank": "ace", "suit": "hearts"},
    "partner": 2,
    "errors": [{"kind": "revoke", "seat": 1}],
}
FORFEIT_BY_CARLA = {"kind": "forfeit", "seat": 2}
EVENING = (
    SOLO_BERND,
    LOST_SOLO_CARLA,
    SIMPLE_ANNA_WITH_DIETER,
    REVOKE_BY_BERND,
    FORFEIT_BY_CARLA,
    SOLO_BERND,
)
NAMES = ("Anna-Katharina Berger", "Bernd Huber", "Carla Moser-Lindqvist", "Dieter Schmid")


def named_table(
    api: Any,
    client: Any,
    names: tuple[str, ...],
    order: list[int],
    first_dealer: int,
    variant: str = "american",
    season: bool = False,
) -> dict[str, Any]:
    """A table of a new club whose players are ``names``, seated in ``order``."""
    club = api.club()
    admin = api.auth(club["admin_token"])
    ids = []
    for name in names:
        made = client.post(
            f"/api/v1/clubs/{club['id']}/players", json={"name": name}, headers=admin
        )
        assert made.status_code == 201, made.json
        ids.append(made.json["id"])
    season_id = None
    if season:
        made = client.post(
            f"/api/v1/clubs/{club['id']}/seasons",
            json={"name": "Winter", "variant": variant},
            headers=admin,
        )
        season_id = made.json["id"]
    made = client.post(
        "/api/v1/tables",
        json={
            "club_id": club["id"],
            "name": "Thursday",
            "variant": variant,
            "seats": [ids[i] for i in order],
            "first_dealer": first_dealer,
            "options": {},
            "season_id": season_id,
        },
        headers=admin,
    )
    assert made.status_code == 201, made.json
    return {**made.json, "admin_token": club["admin_token"], "player_ids": ids}


def by_player(table_view: dict[str, Any]) -> dict[str, int]:
    return {seat["name"]: seat["balance"] for seat in table_view["seats"]}


def hands_by_player(client: Any, api: Any, table: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Each hand as its players: the dealer's and declarer's names, and each seat's chips."""
    auth = api.auth(table["table_token"])
    names = [
        s["name"] for s in client.get(f"/api/v1/tables/{table['id']}", headers=auth).json["seats"]
    ]
    listed = client.get(f"/api/v1/tables/{table['id']}/hands?page_size=100", headers=auth).json
    rows = []
    for hand in listed:
        record, settlement = hand["hand"], hand["settlement"]
        declarer = record.get("declarer", record.get("seat"))
        deltas = settlement["deltas"] if settlement else [0] * len(names)
        rows.append(
            (
                names[hand["dealer"]],
                None if declarer is None else names[declarer],
                sorted(zip(names, deltas, strict=True)),
            )
        )
    return rows


def reseat(
    client: Any,
    api: Any,
    table: dict[str, Any],
    seats: list[str],
    first_dealer: int,
    query: str = "",
    **headers: str,
) -> Any:
    return client.put(
        f"/api/v1/tables/{table['id']}/seating{query}",
        json={"seats": seats, "first_dealer": first_dealer},
        headers={**api.auth(table["table_token"]), **headers},
    )


def test_the_worked_example_two_players_swapped_and_the_wrong_first_dealer(api, client):
    """Entered as Anna, Bernd, Carla, Dieter with Anna dealing first; they really sat Anna,
    Carla, Bernd, Dieter, and Dieter dealt first. Put right, the sheet is the one a table
    opened right would show: each hand is still its players' (Bernd's solo stays Bernd's)."""
    wrong = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=0)
    for hand in EVENING:
        assert api.record(wrong, hand).status_code == 201
    anna, bernd, carla, dieter = wrong["player_ids"]
    before = api.get_table(wrong)

    answer = reseat(
        client,
        api,
        wrong,
        [anna, carla, bernd, dieter],
        3,
        **{"If-Match": f'"{before["version"]}"'},
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["resettled"] == len(EVENING)
    assert answer.json["version"] == before["version"] + 1
    assert answer.headers["ETag"] == f'"{answer.json["version"]}"'
    assert [s["name"] for s in answer.json["seats"]] == [NAMES[0], NAMES[2], NAMES[1], NAMES[3]]

    # The same evening entered right from the start: seat numbers as the players sat.
    right = named_table(api, client, NAMES, [0, 2, 1, 3], first_dealer=3)
    to_right = [0, 2, 1, 3]  # seat under the wrong seating -> seat under the right one
    for hand in EVENING:
        assert api.record(right, remap_seats(hand, to_right, AMERICAN)).status_code == 201
    expected = api.get_table(right)
    assert by_player(answer.json) == by_player(expected) != by_player(before)
    assert answer.json["pool"] == expected["pool"]
    assert answer.json["dealer"] == expected["dealer"]
    assert answer.json["couleur"] == expected["couleur"]
    assert answer.json["hands_played"] == expected["hands_played"] == len(EVENING)
    shown = api.get_table(wrong)
    assert {k: v for k, v in shown.items() if k not in ("id", "club_id", "created_at")} == {
        k: v
        for k, v in answer.json.items()
        if k not in ("id", "club_id", "created_at", "resettled")
    }
    assert hands_by_player(client, api, wrong) == hands_by_player(client, api, right)
    # Hand 1: Bernd's solo, now with Bernd in seat 2; dealt by Dieter.
    hand_1 = client.get(
        f"/api/v1/tables/{wrong['id']}/hands/1", headers=api.auth(wrong["table_token"])
    ).json
    assert hand_1["hand"]["declarer"] == 2 and hand_1["dealer"] == 3
    # A new revision of the same hand, in the seats its players have now, by the token that
    # re-seated; the first keeps the seat numbers it was recorded with.
    assert hand_1["revision"] == 2
    history = client.get(
        f"/api/v1/tables/{wrong['id']}/hands/1/history", headers=api.auth(wrong["table_token"])
    ).json["revisions"]
    assert [(r["hand"]["declarer"], r["status"]) for r in history] == [
        (1, "recorded"),
        (2, "recorded"),
    ]
    # The ledger names the new seats, as recorded right.
    ledgers = [
        client.get(f"/api/v1/tables/{t['id']}/ledger", headers=api.auth(t["table_token"])).json[
            "transfers"
        ]
        for t in (wrong, right)
    ]
    assert ledgers[0] == ledgers[1]
    settle_ups = [
        client.get(f"/api/v1/tables/{t['id']}/settle-up", headers=api.auth(t["table_token"])).json
        for t in (wrong, right)
    ]
    assert settle_ups[0] == {**settle_ups[1], "table_id": wrong["id"]}


def test_the_history_keeps_every_reseating_with_who_when_before_and_after(api, client):
    table = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=0)
    api.record(table, SOLO_BERND)
    anna, bernd, carla, dieter = table["player_ids"]
    auth = api.auth(table["table_token"])
    assert reseat(client, api, table, [anna, carla, bernd, dieter], 0).status_code == 200
    assert (
        client.put(
            f"/api/v1/tables/{table['id']}/seating",
            json={"seats": [anna, carla, bernd, dieter], "first_dealer": 2},
            headers=api.auth(table["admin_token"]),
        ).status_code
        == 200
    )
    now = client.get(f"/api/v1/tables/{table['id']}/seating", headers=auth)
    assert now.status_code == 200
    assert now.json == {
        "table_id": table["id"],
        "first_dealer": 2,
        "seats": [
            {"seat": i, "player_id": pid, "name": NAMES[[anna, bernd, carla, dieter].index(pid)]}
            for i, pid in enumerate([anna, carla, bernd, dieter])
        ],
    }
    history = client.get(f"/api/v1/tables/{table['id']}/seating/history", headers=auth)
    assert history.status_code == 200
    changes = history.json["changes"]
    assert [c["changed_by"]["kind"] for c in changes] == ["table", "admin"]
    assert [p["name"] for p in changes[0]["before"]["seats"]] == list(NAMES)
    assert [p["player_id"] for p in changes[0]["after"]["seats"]] == [anna, carla, bernd, dieter]
    assert (changes[0]["before"]["first_dealer"], changes[0]["after"]["first_dealer"]) == (0, 0)
    assert (changes[1]["before"]["first_dealer"], changes[1]["after"]["first_dealer"]) == (0, 2)
    assert changes[1]["before"]["seats"] == changes[0]["after"]["seats"]
    assert [c["resettled"] for c in changes] == [1, 1]
    assert [c["version"] for c in changes] == [3, 4]
    assert changes[0]["changed_at"] <= changes[1]["changed_at"]
    assert history.json["seats"] == now.json["seats"]


def test_the_seating_already_in_force_changes_nothing(api, client):
    table = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=1)
    api.record(table, SOLO_BERND)
    before = api.get_table(table)
    answer = reseat(client, api, table, table["player_ids"], 1)
    assert answer.status_code == 200 and answer.json["resettled"] == 0
    assert answer.json["version"] == before["version"]
    assert (
        client.get(
            f"/api/v1/tables/{table['id']}/seating/history", headers=api.auth(table["table_token"])
        ).json["changes"]
        == []
    )


def test_a_table_without_hands_takes_its_new_seating_and_first_dealer(api, client):
    table = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=0)
    ids = table["player_ids"]
    answer = reseat(client, api, table, [ids[3], ids[2], ids[1], ids[0]], 2)
    assert answer.status_code == 200 and answer.json["resettled"] == 0
    assert answer.json["dealer"] == 2 and answer.json["hands_played"] == 0
    assert [s["name"] for s in api.get_table(table)["seats"]] == list(reversed(NAMES))


def test_a_reseating_is_refused_on_a_closed_table_with_a_stale_version_or_bad_seats(api, client):
    table = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=0)
    api.record(table, SOLO_BERND)
    ids = table["player_ids"]
    swapped = [ids[0], ids[2], ids[1], ids[3]]
    stranger = api.players(api.club(), 1)[0]
    version = api.get_table(table)["version"]
    for seats, dealer, field in (
        (ids[:3], 0, "seats"),
        ([*ids[:3], stranger], 0, "seats.3"),
        ([ids[0], ids[0], ids[1], ids[2]], 0, "seats"),
        (swapped, 4, "first_dealer"),
        (swapped, -1, "first_dealer"),
    ):
        refused = reseat(client, api, table, seats, dealer)
        assert refused.status_code == 422, refused.json
        assert field in str(refused.json), refused.json
    assert (
        reseat(client, api, table, swapped, 0, **{"If-Match": f'"{version - 1}"'}).status_code
        == 412
    )
    other = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=0)
    assert (
        client.put(
            f"/api/v1/tables/{table['id']}/seating",
            json={"seats": swapped, "first_dealer": 0},
            headers=api.auth(other["table_token"]),
        ).status_code
        == 403
    )
    assert (
        client.put(
            f"/api/v1/tables/{table['id']}/seating", json={"seats": swapped, "first_dealer": 0}
        ).status_code
        == 401
    )
    assert api.get_table(table)["version"] == version  # nothing changed
    client.post(f"/api/v1/tables/{table['id']}/close", headers=api.auth(table["table_token"]))
    for token in (table["table_token"], table["admin_token"]):
        closed = client.put(
            f"/api/v1/tables/{table['id']}/seating",
            json={"seats": swapped, "first_dealer": 0},
            headers=api.auth(token),
        )
        assert closed.status_code == 409, closed.json
        assert closed.headers["Content-Type"] == "application/problem+json"


def seating_rows(app: Any, table_id: str) -> list[tuple[Any, ...]]:
    with app.app_context():
        rows = db.session.execute(
            select(SeatingChangeRow.seats_after, SeatingChangeRow.first_dealer_after).where(
                SeatingChangeRow.table_id == table_id
            )
        ).all()
        db.session.remove()
        return [tuple(r) for r in rows]


def test_a_dry_run_reseating_stores_nothing_and_answers_what_the_reseating_then_does(
    api, client, app
):
    table = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=0, season=True)
    for hand in EVENING:
        api.record(table, hand)
    ids = table["player_ids"]
    swapped = [ids[0], ids[2], ids[1], ids[3]]
    view = client.get(f"/api/v1/tables/{table['id']}", headers=api.auth(table["table_token"]))
    before = stored(app, table["id"])
    dry = reseat(
        client, api, table, swapped, 3, "?dry_run=true", **{"If-Match": view.headers["ETag"]}
    )
    assert dry.status_code == 200, dry.json
    assert dry.headers["Dry-Run"] == "true" and "ETag" not in dry.headers
    assert stored(app, table["id"]) == before
    assert seating_rows(app, table["id"]) == []
    again = client.get(f"/api/v1/tables/{table['id']}", headers=api.auth(table["table_token"]))
    assert again.json == view.json and again.headers["ETag"] == view.headers["ETag"]
    real = reseat(client, api, table, swapped, 3, **{"If-Match": view.headers["ETag"]})
    assert real.status_code == 200 and "Dry-Run" not in real.headers
    assert dry.json == real.json
    assert seating_rows(app, table["id"]) == [(swapped, 3)]


def league_rows(app: Any, player_ids: list[str]) -> list[list[tuple[Any, ...]]]:
    """Each player's career and season counters, in the order of ``player_ids``."""
    with app.app_context():
        answer = []
        for model in (PlayerCareerRow, SeasonPlayerRow):
            rows = {r.player_id: r for r in db.session.scalars(select(model))}
            answer.append(
                [
                    (
                        rows[p].sittings,
                        rows[p].hands,
                        rows[p].net,
                        rows[p].declared,
                        rows[p].won,
                        rows[p].lost,
                        rows[p].betes_paid,
                        rows[p].stamms_drawn,
                        rows[p].errors,
                    )
                    for p in player_ids
                ]
            )
        db.session.remove()
        return answer


def test_the_league_counts_each_hand_for_its_players_after_a_reseating(api, client, app):
    wrong = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=0, season=True)
    for hand in EVENING:
        api.record(wrong, hand)
    anna, bernd, carla, dieter = wrong["player_ids"]
    assert reseat(client, api, wrong, [anna, carla, bernd, dieter], 3).status_code == 200
    right = named_table(api, client, NAMES, [0, 2, 1, 3], first_dealer=3, season=True)
    for hand in EVENING:
        api.record(right, remap_seats(hand, [0, 2, 1, 3], AMERICAN))
    assert league_rows(app, wrong["player_ids"]) == league_rows(app, right["player_ids"])
    standings = [
        client.get(
            f"/api/v1/seasons/{t['season_id']}/standings", headers=api.auth(t["admin_token"])
        ).json
        for t in (wrong, right)
    ]
    assert [(r["name"], r["net"], r["hands"]) for r in standings[0]["rows"]] == [
        (r["name"], r["net"], r["hands"]) for r in standings[1]["rows"]
    ]


@pytest.mark.parametrize("variant", ["american", "spanish", "german", "solo66"])
def test_a_reseated_table_of_each_variant_equals_one_seated_right_from_the_start(
    api, client, variant
):
    players = ALL_PLAYERS[variant]
    names = tuple(f"Player {chr(65 + i)}" for i in range(players))

    @settings(
        max_examples=3,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
    @given(
        sheet=st.lists(hands_of(variant), min_size=6, max_size=6),
        order=st.permutations(range(players)),
        first_dealer=st.integers(0, players - 1),
    )
    def play(sheet: list[dict[str, Any]], order: list[int], first_dealer: int) -> None:
        wrong = named_table(api, client, names, list(range(players)), 0, variant)
        for hand in sheet:
            assert api.record(wrong, hand).status_code == 201
        ids = wrong["player_ids"]
        answer = reseat(client, api, wrong, [ids[i] for i in order], first_dealer)
        assert answer.status_code == 200, answer.json
        right = named_table(api, client, names, list(order), first_dealer, variant)
        new_seat_of = [list(order).index(p) for p in range(players)]
        for hand in sheet:
            remapped = remap_seats(hand, new_seat_of, VARIANTS[variant])
            assert api.record(right, remapped).status_code == 201
        expected = api.get_table(right)
        assert by_player(answer.json) == by_player(expected)
        assert answer.json["pool"] == expected["pool"]
        assert answer.json["dealer"] == expected["dealer"]
        assert hands_by_player(client, api, wrong) == hands_by_player(client, api, right)

    play()


def test_remap_seats_moves_every_seat_of_a_record_and_nothing_else():
    record = {
        "kind": "played",
        "contract": "simple",
        "declarer": 0,
        "partner": 3,
        "tricks": 5,
        "called": {"rank": "ace", "suit": "hearts"},
        "errors": [{"kind": "revoke", "seat": 1}, {"kind": "revoke", "seat": 0}],
        "matadores": {"side": "declarers", "lower": 2},
    }
    mapped = remap_seats(record, [2, 0, 1, 3], AMERICAN)
    assert mapped == {
        **record,
        "declarer": 2,
        "partner": 3,
        "errors": [{"kind": "revoke", "seat": 0}, {"kind": "revoke", "seat": 2}],
    }
    assert remap_seats({"kind": "forfeit", "seat": 1}, [2, 0, 1, 3], AMERICAN) == {
        "kind": "forfeit",
        "seat": 0,
    }
    solo66 = {"trump": None, "soloist": None, "last_trick": 4}
    assert remap_seats(solo66, [1, 2, 3, 4, 0], VARIANTS["solo66"]) == {
        "trump": None,
        "soloist": None,
        "last_trick": 0,
    }


def test_every_seat_field_of_every_variant_is_remapped():
    """A hand field that holds a seat must be described as one (``"seat": true``), or a
    re-seating would leave it naming the wrong player; the errors list is remapped by its
    items' seats (``item_seat``). Re-seating knows no field but these."""
    for variant in VARIANTS.values():
        described = variant.describe()
        seat_fields, seated_lists = variant.seat_keys()
        for field in described["hand_fields"]:
            if field["name"] in seated_lists:
                assert field["type"] == "array", (variant.name, field)
                continue
            # A seat: an integer from 0 to the last seat (tricks and points go higher).
            names_a_seat = (
                field.get("type") == "integer"
                and field.get("min") == 0
                and (
                    "max_by_players" in field or field.get("max") == max(variant.player_counts) - 1
                )
            )
            assert names_a_seat == (field["name"] in seat_fields), (variant.name, field)
        for kind in described.get("hand_kinds") or []:
            for name in kind["fields"]:
                assert name in seat_fields or name in {
                    f["name"] for f in described["hand_fields"]
                }, (variant.name, name)


def test_a_reseated_table_survives_an_export_and_import(api, client):
    """The export carries the records and seating as they are now, so the import's replay
    gives the reseated sheet (the seating history itself is not exported)."""
    table = named_table(api, client, NAMES, [0, 1, 2, 3], first_dealer=0)
    for hand in EVENING:
        api.record(table, hand)
    anna, bernd, carla, dieter = table["player_ids"]
    assert reseat(client, api, table, [anna, carla, bernd, dieter], 3).status_code == 200
    admin = api.auth(table["admin_token"])
    document = client.get(f"/api/v1/clubs/{table['club_id']}/export", headers=admin).json
    imported = client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    new_id = imported.json["ids"]["tables"][table["id"]]
    new = client.get(
        f"/api/v1/tables/{new_id}", headers=api.auth(imported.json["admin_token"])
    ).json
    old = api.get_table(table)
    assert by_player(new) == by_player(old)
    assert (new["pool"], new["dealer"]) == (old["pool"], old["dealer"])
