"""openapi-typescript's types of ``openapi.yaml`` and ``tsc --strict`` over a small
integrator's file (``integrator.ts``) that records a hand of each variant: it type-checks, and
the same file with a wrongly typed hand does not (the types are not ``unknown``)."""

from __future__ import annotations

import shutil

from tests.contract.conftest import DOCUMENT, node_tool, run

HERE = __import__("pathlib").Path(__file__).parent
GOOD = 'matadores: { side: "declarers", lower: 1 }'


def _checked(where, integrator: str):
    shutil.copy(HERE / "tsconfig.json", where / "tsconfig.json")
    (where / "integrator.ts").write_text(integrator)
    generated = run([node_tool("openapi-typescript"), DOCUMENT, "-o", where / "api.d.ts"], where)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return run([node_tool("tsc"), "-p", where / "tsconfig.json"], where)


def test_an_integrators_file_type_checks_strictly(tmp_path):
    result = _checked(tmp_path, (HERE / "integrator.ts").read_text())
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_wrongly_typed_hand_does_not(tmp_path):
    source = (HERE / "integrator.ts").read_text()
    assert GOOD in source
    for bad in (
        'matadores: { side: "declarers", lower: "one" }',
        'matadores: { side: "nobody", lower: 1 }',
        'matadores: { side: "declarers", lower: 1, extra: 2 }',
    ):
        result = _checked(tmp_path, source.replace(GOOD, bad))
        assert result.returncode != 0 and "integrator.ts" in result.stdout, bad
