"""The fuzzing modules' fixtures (``cases.py`` says what is fuzzed and how): once per module,
the world the cases are pointed at, the app's document read by Schemathesis, its operations,
and the count of the module's cases printed at its end."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis

from service.api.openapi import answer_only_schemas
from tests.support import wipe

from .cases import CASES, FUZZ_EXAMPLES, STATUSES, World


@pytest.fixture(scope="module")
def world(app: Any) -> Iterator[World]:
    yield World(app)
    wipe(app)


@pytest.fixture(scope="module")
def fuzz_schema(app: Any) -> Any:
    # A precondition (If-Match) may be judged before the body: 412 refuses bad data too.
    refusals = [400, 401, 403, 404, 405, 406, 409, 412, 413, 415, 422, 428, 429]
    config = schemathesis.Config.from_dict(
        {"checks": {"negative_data_rejection": {"expected-statuses": refusals}}}
    )
    document = app.test_client().get("/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    for name in answer_only_schemas(
        schemas, document["paths"], document["components"].get("parameters", {})
    ):
        _only_documented_members(schemas[name])
    loaded = schemathesis.openapi.from_dict(document, config=config)
    loaded.app, loaded.location = app, "/openapi.json"  # as from_wsgi sets them
    return loaded


def _only_documented_members(node: Any) -> None:
    """Answers may grow, so the document lets a client take members it does not know
    (``answer_only_schemas``); the service is held here to the members it documents: every
    object of an answer with named members has those alone."""
    if isinstance(node, dict):
        if "properties" in node:
            node.setdefault("additionalProperties", False)
        for value in node.values():
            _only_documented_members(value)
    elif isinstance(node, list):
        for value in node:
            _only_documented_members(value)


@pytest.fixture(scope="module")
def operations(fuzz_schema: Any) -> list[Any]:
    found = [result.ok() for result in fuzz_schema.get_all_operations()]
    assert len(found) >= 18
    return found


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest) -> Iterator[None]:
    CASES.clear()
    STATUSES.clear()
    yield
    total = sum(CASES.values())
    if not total:
        return
    by_status = ", ".join(f"{s}: {n}" for s, n in sorted(STATUSES.items()))
    line = (
        f"fuzz ({request.node.name}): {total} cases over {len(CASES)} operations "
        f"(FUZZ_EXAMPLES={FUZZ_EXAMPLES}); answers by status: {by_status}"
    )
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            reporter.write_line("\n" + line)
    else:
        print(line)
