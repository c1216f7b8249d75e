"""Transfers' parties as objects (``from_party``/``to_party``, a net's ``holder``): ``{kind,
seat}`` beside the deprecated bare ``from``/``to``/``party`` (a seat or ``"pool"``) in every
answer that shows one: a hand's settlement (recorded, read, listed, previewed), the ledger,
the settle-up, its money (a table fee's ``club`` too). docs/api.md says why."""

from __future__ import annotations

from typing import Any

from service.rules.base import party_object

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}


def _agrees(bare: Any, party: dict[str, Any]) -> None:
    if isinstance(bare, int):
        assert party == {"kind": "seat", "seat": bare}
    else:
        assert bare in ("pool", "club") and party == {"kind": bare, "seat": None}


def _transfers_agree(transfers: list[dict[str, Any]]) -> int:
    for transfer in transfers:
        _agrees(transfer["from"], transfer["from_party"])
        _agrees(transfer["to"], transfer["to_party"])
    return len(transfers)


def test_a_party_object_is_a_kind_and_a_seat():
    assert party_object(0) == {"kind": "seat", "seat": 0}
    assert party_object("pool") == {"kind": "pool", "seat": None}
    assert party_object("club") == {"kind": "club", "seat": None}


def test_every_settlement_shows_its_parties_as_objects(api, client):
    table = api.table()
    phone = api.auth(table["table_token"])
    recorded = api.record(table, SOLO)
    assert recorded.status_code == 201
    assert _transfers_agree(recorded.json["settlement"]["transfers"]) > 0
    api.record(table, LOST_SOLO)
    hands = f"/api/v1/tables/{table['id']}/hands"
    read = client.get(f"{hands}/1", headers=phone).json
    assert read["settlement"]["transfers"] == recorded.json["settlement"]["transfers"]
    listed = client.get(hands, headers=phone).json
    assert all(_transfers_agree(h["settlement"]["transfers"]) for h in listed)
    ledger = client.get(f"/api/v1/tables/{table['id']}/ledger", headers=phone).json
    assert _transfers_agree(ledger["transfers"]) >= 2
    assert {"kind": "pool", "seat": None} in [t["to_party"] for t in ledger["transfers"]]
    preview = client.post(
        "/api/v1/settlements/preview", json={"variant": "american", "players": 4, "hand": SOLO}
    )
    assert _transfers_agree(preview.json["transfers"]) > 0


def test_the_settle_up_and_its_money_show_their_parties_as_objects(api, client):
    club = api.club()
    table = api.table(club=club, options={"pool_at_close": "carry"})
    admin = api.auth(club["admin_token"])
    changed = client.patch(
        f"/api/v1/tables/{table['id']}",
        json={"rate": {"cents": 10, "currency": "EUR", "table_fee_cents": 50}},
        headers=admin,
    )
    assert changed.status_code == 200, changed.json
    api.record(table, LOST_SOLO)
    settle = client.get(f"/api/v1/tables/{table['id']}/settle-up", headers=admin).json
    assert _transfers_agree(settle["transfers"]) > 0
    for net in settle["net"]:
        _agrees(net["party"], net["holder"])
    assert {"kind": "pool", "seat": None} in [n["holder"] for n in settle["net"]]
    money = settle["money"]
    assert _transfers_agree(money["transfers"]) > 0
    assert _transfers_agree(money["fees"]) == 4
    assert {f["to_party"]["kind"] for f in money["fees"]} == {"club"}
    for net in money["net"]:
        _agrees(net["party"], net["holder"])


def test_split_pool_shares_name_the_pool(api, client):
    table = api.table()
    api.record(table, LOST_SOLO)
    settle = client.get(
        f"/api/v1/tables/{table['id']}/settle-up", headers=api.auth(table["table_token"])
    ).json
    assert settle["pool_shares"]
    for share in settle["pool_shares"]:
        assert share["from_party"] == {"kind": "pool", "seat": None}


def test_the_document_types_the_parties_and_deprecates_the_bare_ones(client):
    schemas = client.get("/openapi.json").json["components"]["schemas"]
    assert schemas["Party"]["required"] == ["kind", "seat"]
    for name, members in {
        "Transfer": ("from", "to"),
        "LedgerEntry": ("from", "to"),
        "CashTransfer": ("from", "to"),
        "MoneyTransfer": ("from", "to"),
        "PoolShare": ("from",),
        "Net": ("party",),
        "MoneyNet": ("party",),
    }.items():
        properties = schemas[name]["properties"]
        for bare in members:
            assert properties[bare]["deprecated"] is True, (name, bare)
            assert "oneOf" not in properties[bare], (name, bare)
            typed = {"from": "from_party", "to": "to_party", "party": "holder"}[bare]
            assert properties[typed]["$ref"] == "#/components/schemas/Party", (name, typed)
            assert typed in schemas[name]["required"], (name, typed)
