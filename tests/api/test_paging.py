"""Every paged operation bounds ``page`` and ``page_size``, in the document and in the code: a
page out of bounds is a 422 naming it, never a 500 (``page=9223372036854775807`` overflowed
both databases' integers)."""

from __future__ import annotations

from typing import Any

import pytest

from service.schemas.paging import PAGE_MAX, PAGE_SIZE_MAX
from tests.support import inlined

HUGE = 9223372036854775807


@pytest.fixture
def paged(api) -> list[tuple[str, dict[str, str]]]:
    table = api.table()
    admin = api.auth(table["admin_token"])
    return [
        (f"/api/v1/clubs/{table['club_id']}/tables", admin),
        (f"/api/v1/tables/{table['id']}/hands", admin),
    ]


@pytest.mark.parametrize(
    "query, field",
    [
        (f"page={HUGE}", "page"),
        (f"page={PAGE_MAX + 1}", "page"),
        ("page=0", "page"),
        (f"page_size={HUGE}", "page_size"),
        (f"page_size={PAGE_SIZE_MAX + 1}", "page_size"),
        ("page_size=0", "page_size"),
    ],
)
def test_a_page_out_of_bounds_is_a_422_naming_it(client, paged, query, field):
    for path, headers in paged:
        answer = client.get(f"{path}?{query}", headers=headers)
        assert answer.status_code == 422, (path, answer.json)
        assert answer.json["type"] == "urn:solo:problem:invalid-field"
        assert list(answer.json["errors"]) == [f"query.{field}"]


def test_the_last_pages_allowed_answer(client, paged):
    for path, headers in paged:
        answer = client.get(f"{path}?page={PAGE_MAX}&page_size={PAGE_SIZE_MAX}", headers=headers)
        assert answer.status_code == 200 and answer.json == []


def test_every_paged_operation_documents_its_bounds(client):
    document: dict[str, Any] = inlined(client.get("/openapi.json").json)
    paged = 0
    for item in document["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            parameters = {p["name"]: p for p in operation.get("parameters", []) if "name" in p}
            if "page" not in parameters:
                continue
            paged += 1
            assert parameters["page"]["schema"] == {
                "type": "integer",
                "default": 1,
                "minimum": 1,
                "maximum": PAGE_MAX,
            }
            size = parameters["page_size"]["schema"]
            assert (size["minimum"], size["maximum"]) == (1, PAGE_SIZE_MAX)
    assert paged >= 2
