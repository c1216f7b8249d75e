"""openapi-typescript's types of ``openapi.yaml`` and ``tsc --strict`` over a small
integrator's file (``integrator.ts``) that records a hand of each variant: it type-checks, and
the same file with a wrongly typed hand does not (the types are not ``unknown``).

The types are generated once for the module, and each test's variants of the file are checked
by one ``tsc`` run (starting node and tsc cost more than the checking): each file is a module of
its own (it imports the types), and tsc names the file of each error, so every wrong file must
be named and no other."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.contract.conftest import DOCUMENT, node_tool, run

HERE = Path(__file__).parent
GOOD = 'matadores: { side: "declarers", lower: 1 }'


@pytest.fixture(scope="module")
def types(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """openapi-typescript's ``api.d.ts`` of the document."""
    where = tmp_path_factory.mktemp("openapi-typescript")
    generated = run([node_tool("openapi-typescript"), DOCUMENT, "-o", where / "api.d.ts"], where)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return where / "api.d.ts"


def _checked(
    where: Path, types: Path, programs: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """tsc --strict (tsconfig.json's options) over the programs (file name: text) beside the
    types, in one run: its result, and the names of the files it found errors in."""
    shutil.copy(types, where / "api.d.ts")
    config = json.loads((HERE / "tsconfig.json").read_text())
    config["files"] = [*programs, "api.d.ts"]
    (where / "tsconfig.json").write_text(json.dumps(config))
    for name, text in programs.items():
        (where / name).write_text(text)
    result = run([node_tool("tsc"), "-p", where / "tsconfig.json"], where)
    # tsc's lines of errors (not a terminal: no colours): "bad_1.ts(23,5): error TS2322: …"
    named = set(re.findall(r"^(\S+?)\(\d+,\d+\): error TS", result.stdout, flags=re.M))
    return result, named


def test_an_integrators_file_type_checks_strictly(tmp_path, types):
    result, named = _checked(
        tmp_path, types, {"integrator.ts": (HERE / "integrator.ts").read_text()}
    )
    assert result.returncode == 0 and not named, result.stdout + result.stderr


def test_a_wrongly_typed_hand_does_not(tmp_path, types):
    source = (HERE / "integrator.ts").read_text()
    assert GOOD in source
    bad = {
        f"integrator_{i}.ts": source.replace(GOOD, wrong)
        for i, wrong in enumerate(
            (
                'matadores: { side: "declarers", lower: "one" }',
                'matadores: { side: "nobody", lower: 1 }',
                'matadores: { side: "declarers", lower: 1, extra: 2 }',
            )
        )
    }
    result, named = _checked(tmp_path, types, bad)
    assert result.returncode != 0 and named == set(bad), result.stdout + result.stderr


def test_a_hand_the_union_cannot_tell_apart_does_not_type_check(tmp_path, types):
    """The record body is discriminated by `variant`: a hand without a contract is no American
    record (it once type-checked as Solo 66's), a Spanish field on an American hand is refused,
    and an untagged body names no member."""
    source = (HERE / "integrator.ts").read_text()
    bad = {
        f"integrator_{i}.ts": f"{source}\n{wrong}\nconsole.log(bad);\n"
        for i, wrong in enumerate(
            (
                'const bad: RecordBody = { variant: "american", trump: "hearts", declarer: 1, '
                "tricks: 5 };",
                'const bad: RecordBody = { variant: "american", contract: "solo", trump: "hearts", '
                "declarer: 1, tricks: 5, forced: true };",
                'const bad: RecordBody = { contract: "solo", trump: "hearts", declarer: 1, '
                "tricks: 5 };",
            )
        )
    }
    good = 'const good: RecordBody = { variant: "solo66", trump: "hearts", soloist: 1 };'
    programs = {**bad, "integrator_good.ts": f"{source}\n{good}\nconsole.log(good);\n"}
    result, named = _checked(tmp_path, types, programs)
    assert result.returncode != 0 and named == set(bad), result.stdout + result.stderr
