"""The copy of the document that Swagger UI at ``/docs`` draws (api/docs.py, ``display_copy``):
the same operations, answers and schemas said in OpenAPI 3.0, which Swagger UI reads several
times faster than 3.1 (docs/api.md, "Swagger UI at /docs")."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from service.api.docs import DISPLAY_COPY_PATH, display_copy

METHODS = ("get", "put", "post", "delete", "patch")


def _walk(node: Any, path: str = "") -> Any:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from _walk(value, f"{path}/{n}")


def _operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


def test_the_docs_page_draws_the_copy(client):
    page = client.get("/docs").get_data(as_text=True)
    assert json.dumps(DISPLAY_COPY_PATH) in page


def test_the_copy_holds_every_operation_and_component_in_openapi_3_0(client):
    document = client.get("/openapi.json").json
    answer = client.get(DISPLAY_COPY_PATH)
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    copy = answer.json
    assert document["openapi"].startswith("3.1") and copy["openapi"] == "3.0.3"
    originals, copies = _operations(document), _operations(copy)
    assert copies.keys() == originals.keys()
    for where, operation in originals.items():
        drawn = copies[where]
        assert drawn["operationId"] == operation["operationId"], where
        assert drawn["responses"].keys() == operation["responses"].keys(), where
        assert drawn.get("description") == operation.get("description"), where
    for kind in ("schemas", "responses", "parameters", "headers"):
        assert copy["components"][kind].keys() == document["components"][kind].keys(), kind
    # Nothing of 3.1 that Swagger UI's 3.0 reader would not read.
    for path, node in _walk(copy):
        assert not isinstance(node.get("type"), list), path
        assert node != {"type": "null"}, path
        assert not {"const", "contentMediaType", "contentSchema"} & node.keys(), path
    # A nullable member keeps its type and says it is nullable.
    closed_at = copy["components"]["schemas"]["Table"]["properties"]["closed_at"]
    assert closed_at == {"type": "string", "nullable": True, "format": "date-time"}
    rate = copy["components"]["schemas"]["Table"]["properties"]["rate"]
    assert rate["anyOf"] == [{"$ref": "#/components/schemas/RateView"}] and rate["nullable"]


def test_the_copy_is_made_once_and_answered_with_an_etag(client):
    first = client.get(DISPLAY_COPY_PATH)
    etag = first.headers["ETag"]
    assert client.get(DISPLAY_COPY_PATH).data == first.data
    again = client.get(DISPLAY_COPY_PATH, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag


plain = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
kinds = st.sampled_from(["string", "integer", "number", "boolean", "object", "array"])


@given(
    st.recursive(
        plain,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(
                st.sampled_from(["a", "items", "additionalProperties", "x"]), inner, max_size=3
            ),
            st.builds(lambda k, n: {"type": [k, "null"] if n else k}, kinds, st.booleans()),
            st.builds(lambda m: {"anyOf": [m, {"type": "null"}]}, inner),
        ),
        max_leaves=12,
    )
)
def test_a_copy_is_3_0_and_a_copy_of_a_copy_is_itself(node):
    """Whatever nests where: no type list, no null member left; the copy is already 3.0."""
    copied = display_copy(node)
    for path, found in _walk(copied):
        assert not isinstance(found.get("type"), list), path
        assert {"type": "null"} not in found.get("anyOf", []), path
    assert display_copy(copied) == copied


def test_members_named_as_keywords_keep_their_names():
    schema = {
        "type": "object",
        "properties": {
            "const": {"type": ["string", "null"]},
            "openapi": {"type": "integer"},
            "anyOf": {"anyOf": [{"$ref": "#/components/schemas/Suit"}, {"type": "null"}]},
        },
    }
    assert display_copy(schema)["properties"] == {
        "const": {"type": "string", "nullable": True},
        "openapi": {"type": "integer"},
        "anyOf": {"anyOf": [{"$ref": "#/components/schemas/Suit"}], "nullable": True},
    }
