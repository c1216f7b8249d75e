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


def test_a_hand_the_union_cannot_tell_apart_does_not_type_check(tmp_path):
    """The record body is discriminated by `variant`: a hand without a contract is no American
    record (it once type-checked as Solo 66's), a Spanish field on an American hand is refused,
    and an untagged body names no member."""
    source = (HERE / "integrator.ts").read_text()
    for bad in (
        'const bad: RecordBody = { variant: "american", trump: "hearts", declarer: 1, tricks: 5 };',
        'const bad: RecordBody = { variant: "american", contract: "solo", trump: "hearts", '
        "declarer: 1, tricks: 5, forced: true };",
        'const bad: RecordBody = { contract: "solo", trump: "hearts", declarer: 1, tricks: 5 };',
    ):
        result = _checked(tmp_path, f"{source}\n{bad}\nconsole.log(bad);\n")
        assert result.returncode != 0 and "integrator.ts" in result.stdout, bad
    good = 'const good: RecordBody = { variant: "solo66", trump: "hearts", soloist: 1 };'
    result = _checked(tmp_path, f"{source}\n{good}\nconsole.log(good);\n")
    assert result.returncode == 0, result.stdout
