"""A hand body's ``variant`` tag (the document's discriminator, docs/api.md "Hand bodies"):
taken when it names the table's variant, refused naming ``hand.variant`` otherwise, and not part
of the stored record. The document requires it (and American Solo's ``kind``); a body without
them still works as before, deprecated. Answers tag every record they show with the table's
variant (the export keeps records as stored)."""

from __future__ import annotations

from service import rules
from tests.support import inlined

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
SPANISH = {"contract": "simple", "trump": "clubs", "declarer": 0, "tricks": 6, "forced": True}
SPANISH["called"] = {"rank": "ace", "suit": "hearts"}
SPANISH["partner"] = 2


def test_a_tagged_hand_is_recorded_as_the_untagged_one(api):
    tagged_table, plain_table = api.table(), api.table()
    tagged = api.record(tagged_table, {**SOLO, "variant": "american", "expected_number": 1})
    plain = api.record(plain_table, SOLO)
    assert tagged.status_code == plain.status_code == 201, tagged.json
    assert tagged.json["hand"] == plain.json["hand"]
    assert tagged.json["hand"]["variant"] == "american"
    assert tagged.json["settlement"]["deltas"] == plain.json["settlement"]["deltas"]


def test_each_kind_of_american_record_takes_the_tag(api):
    table = api.table()
    for hand in ({"kind": "misdeal"}, {"kind": "forfeit", "seat": 2}, {**SOLO, "kind": "played"}):
        answer = api.record(table, {**hand, "variant": "american"})
        assert answer.status_code == 201, (hand, answer.json)


def test_a_spanish_hand_tagged_spanish_keeps_forced(api):
    table = api.table(variant="spanish")
    answer = api.record(table, {**SPANISH, "variant": "spanish"})
    assert answer.status_code == 201, answer.json
    assert answer.json["hand"]["forced"] is True


def test_a_tag_naming_another_variant_is_refused_by_its_field(api):
    table = api.table()
    answer = api.record(table, {**SOLO, "variant": "spanish"})
    assert answer.status_code == 422
    assert list(answer.json["errors"]) == ["hand.variant"]
    assert (
        api.client.get(
            f"/api/v1/tables/{table['id']}", headers=api.auth(table["table_token"])
        ).json["hands_recorded"]
        == 0
    )


def test_a_correction_takes_the_tag_and_checks_it(api):
    table = api.table()
    assert api.record(table, SOLO).status_code == 201
    url = f"/api/v1/tables/{table['id']}/hands/1"
    headers = api.auth(table["table_token"])
    wrong = api.client.put(url, json={**SOLO, "variant": "german"}, headers=headers)
    assert wrong.status_code == 422 and list(wrong.json["errors"]) == ["hand.variant"]
    right = api.client.put(url, json={**SOLO, "tricks": 4, "variant": "american"}, headers=headers)
    assert right.status_code == 200, right.json
    assert right.json["hand"]["tricks"] == 4 and right.json["hand"]["variant"] == "american"
    history = api.client.get(f"{url}/history", headers=headers).json["revisions"]
    assert [r["hand"]["variant"] for r in history] == ["american", "american"]
    listed = api.client.get(f"/api/v1/tables/{table['id']}/hands", headers=headers).json
    assert [h["hand"]["variant"] for h in listed] == ["american"]


def test_a_preview_takes_the_tag_and_checks_it(client):
    body = {"variant": "german", "players": 4, "hand": {**SOLO, "variant": "german"}}
    assert client.post("/api/v1/settlements/preview", json=body).status_code == 200
    body["hand"]["variant"] = "american"
    wrong = client.post("/api/v1/settlements/preview", json=body)
    assert wrong.status_code == 422 and list(wrong.json["errors"]) == ["hand.variant"]


def test_answers_tag_every_variants_records_and_the_export_keeps_them_untagged(api):
    table = api.table(variant="spanish")
    assert api.record(table, SPANISH).status_code == 201
    headers = api.auth(table["table_token"])
    shown = api.client.get(f"/api/v1/tables/{table['id']}/hands/1", headers=headers).json
    assert shown["hand"]["variant"] == "spanish" and shown["hand"]["forced"] is True
    export = api.client.get(
        f"/api/v1/clubs/{table['club_id']}/export", headers=api.auth(table["admin_token"])
    )
    assert export.status_code == 200, export.json
    for exported in export.json["tables"]:
        for hand in exported["hands"]:
            assert "variant" not in hand["hand"]


def test_the_document_requires_each_tag_its_union_tells_records_apart_by(client):
    """openapi-generator warns of a discriminator its members do not require (and may not
    pick the member by it): every member of the hand unions requires the union's tag."""
    schemas = inlined(client.get("/openapi.json").json)["components"]["schemas"]
    unions = [name for name, schema in schemas.items() if "discriminator" in schema]
    assert {"HandRecord", "HandRecordCreate", "AmericanHand", "PreviewRequest"} <= set(unions)
    for union in unions:
        tag = schemas[union]["discriminator"]["propertyName"]
        for member in schemas[union]["discriminator"]["mapping"].values():
            name = member.rsplit("/", 1)[1]
            if "discriminator" in schemas[name]:  # a union of kinds: its members, by its tag
                continue
            assert tag in schemas[name]["required"], (union, name)
    # The variants of one kind take no `kind` but their one kind's, and need not send it.
    for name, variant in rules.VARIANTS.items():
        if not variant.describe().get("hand_kinds"):
            record = schemas[f"{variant.type_name}Hand"]
            assert "kind" not in record["required"], name


def test_untagged_bodies_still_work_while_deprecated(api):
    table = api.table()
    for hand in (SOLO, {"kind": "misdeal"}, {**SOLO, "kind": "played"}):
        answer = api.record(table, hand)
        assert answer.status_code == 201, (hand, answer.json)
        assert answer.json["hand"]["variant"] == "american"
