"""Spectral (``spectral:oas``) and Redocly (recommended) over ``openapi.yaml``: no error, and
no warning but the ones their configs in ``tools/contract`` keep, each with its reason."""

from __future__ import annotations

import json

from service.api.docs import DISPLAY_COPY_PATH
from tests.contract.conftest import DOCUMENT, TOOLS, node_tool, run
from tests.support import make_app


def test_spectral_finds_no_error_and_only_the_explained_warning(tmp_path):
    result = run(
        [
            node_tool("spectral"),
            "lint",
            DOCUMENT,
            "--ruleset",
            TOOLS / ".spectral.yaml",
            "--format",
            "json",
            "--quiet",
            "--fail-severity",
            "error",
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    findings = json.loads(result.stdout or "[]")
    assert {f["code"] for f in findings} <= {"info-contact"}, findings


def test_redocly_finds_no_error_and_only_the_explained_warning(tmp_path):
    result = run(
        [
            node_tool("redocly"),
            "lint",
            DOCUMENT,
            "--config",
            TOOLS / "redocly.yaml",
            "--format",
            "json",
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    problems = json.loads(result.stdout)["problems"]
    # The hand unions' tags are optional in requests (tools/contract/redocly.yaml says why):
    # that warning is allowed there and nowhere else.
    unions = {
        f"#/components/schemas/{name}/oneOf"
        for name in ("AmericanHand", "AmericanHandCreate", "HandRecord", "HandRecordCreate")
    }
    left = [
        p
        for p in problems
        if not (
            p["ruleId"] == "no-illogical-composition-keywords"
            and p["location"][0]["pointer"] in unions
        )
    ]
    assert {p["ruleId"] for p in left} <= {"info-license"}, left


def test_the_docs_pages_copy_is_a_valid_openapi_3_0_document(tmp_path):
    """The copy Swagger UI at ``/docs`` draws (api/docs.py, ``display_copy``): Spectral's
    OpenAPI rules, its 3.0 schema among them, find no error in it."""
    app = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    copy = app.test_client().get(DISPLAY_COPY_PATH)
    assert copy.status_code == 200
    (tmp_path / "copy.json").write_bytes(copy.data)
    (tmp_path / ".spectral.yaml").write_text('extends: ["spectral:oas"]\n')
    result = run(
        [
            node_tool("spectral"),
            "lint",
            tmp_path / "copy.json",
            "--ruleset",
            tmp_path / ".spectral.yaml",
            "--format",
            "json",
            "--quiet",
            "--fail-severity",
            "error",
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    errors = [f for f in json.loads(result.stdout or "[]") if f["severity"] == 0]
    assert errors == [], errors
