"""Clients generated from ``openapi.yaml`` by the generators integrators use, each against a
real running service (gunicorn on a free port): every one records a hand of every variant and
kind through its own typed models (American Solo's played hand, forfeit and misdeal; a Spanish
hand with ``forced``; a German solo with ``tout_announced``; Solo 66 with a trump and all
passed), and reads each back typed: the answer's ``hand`` parsed by the generated code as the
member its tags name.

Python: openapi-generator (``python``, the ``openapi-generator-cli`` package with a JRE),
datamodel-code-generator (pydantic models; the requests go through ``requests``) and
openapi-python-client. Java: openapi-generator (``java``, library ``native``) under a small
program (``clients/Program.java``) that javac compiles and java runs, Jackson from the
generator's own jar (no Maven here), Jakarta's annotations from Debian's
``libjakarta-annotation-api-java``; it also reads the transfers' parties typed.
TypeScript: openapi-generator (``typescript-fetch``) and @hey-api/openapi-ts (npm,
``tools/contract``), each under a small program (``clients/*.ts``) that tsc compiles strictly
and node runs. The hand unions are a
``oneOf`` told apart by ``variant`` (and American Solo's by ``kind``): the generated code picks
the record's type by the tag, never the first member that fits (docs/api.md, "Hand bodies").
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import requests

from tests.contract.conftest import DOCUMENT, VENV_BIN, imported, node_tool, run
from tests.support import Gunicorn, dispose_engines, migrated_app, tool_missing

pytestmark = pytest.mark.slow

# (variant, the record's component name, the body): a hand of every variant and kind.
HANDS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "american",
        "AmericanPlayedHand",
        {
            "variant": "american",
            "kind": "played",
            "contract": "simple",
            "trump": "hearts",
            "declarer": 1,
            "tricks": 5,
            "called": {"rank": "ace", "suit": "diamonds"},
            "partner": 3,
            "matadores": {"side": "declarers", "lower": 1},
        },
    ),
    ("american", "AmericanForfeit", {"variant": "american", "kind": "forfeit", "seat": 2}),
    ("american", "AmericanMisdeal", {"variant": "american", "kind": "misdeal"}),
    (
        "spanish",
        "SpanishHand",
        {
            "variant": "spanish",
            "contract": "simple",
            "trump": "clubs",
            "declarer": 0,
            "tricks": 6,
            "called": {"rank": "ace", "suit": "hearts"},
            "partner": 2,
            "forced": True,
        },
    ),
    (
        "german",
        "GermanHand",
        {
            "variant": "german",
            "contract": "solo",
            "trump": "clubs",
            "declarer": 0,
            "tricks": 8,
            "tout_announced": True,
        },
    ),
    (
        "solo66",
        "Solo66Hand",
        {"variant": "solo66", "trump": "hearts", "soloist": 2, "soloist_points": 70},
    ),
    ("solo66", "Solo66Hand", {"variant": "solo66", "trump": None, "last_trick": 3}),
]
SEATS = {"american": 4, "spanish": 4, "german": 4, "solo66": 5}


def _record(body: dict[str, Any]) -> dict[str, Any]:
    """What the service stores of a body: the record without its tag."""
    return {key: value for key, value in body.items() if key != "variant"}


def _sent_fields_kept(sent: dict[str, Any], read: dict[str, Any]) -> None:
    for key, value in _record(sent).items():
        assert read.get(key) == value, (key, sent, read)


class Service:
    """The running service, with a table of each variant and its token."""

    def __init__(self, url: str) -> None:
        self.url = url
        club = requests.post(f"{url}/api/v1/clubs", json={"name": "Generators"}, timeout=10)
        assert club.status_code == 201, club.text
        admin = {"Authorization": f"Bearer {club.json()['admin_token']}"}
        players = [
            requests.post(
                f"{url}/api/v1/clubs/{club.json()['id']}/players",
                json={"name": f"Player {n}"},
                headers=admin,
                timeout=10,
            ).json()["id"]
            for n in range(5)
        ]
        # What a program needs to open tables and nights of its own (the club's admin).
        self.club = {
            "id": club.json()["id"],
            "admin_token": club.json()["admin_token"],
            "players": players,
        }
        self.tables: dict[str, tuple[str, str]] = {}
        for variant, seats in SEATS.items():
            table = requests.post(
                f"{url}/api/v1/tables",
                json={
                    "club_id": club.json()["id"],
                    "name": variant,
                    "variant": variant,
                    "seats": players[:seats],
                },
                headers=admin,
                timeout=10,
            )
            assert table.status_code == 201, table.text
            self.tables[variant] = (table.json()["id"], table.json()["table_token"])


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    app = migrated_app(None, tmp_path_factory.mktemp("db"))
    try:
        with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=1) as server:
            yield Service(server.url)
    finally:
        dispose_engines(app)


def _generator_warnings(result: subprocess.CompletedProcess[str]) -> list[str]:
    """openapi-generator's warnings of the document (its log lines at WARN): what it could
    not type as the document says, such as a discriminator its members do not require."""
    return [line for line in (result.stdout + result.stderr).splitlines() if " WARN " in line]


@pytest.fixture(scope="module")
def openapi_generator_python(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ModuleType, subprocess.CompletedProcess[str]]]:
    """openapi-generator's `python` client, imported, and the run's output."""
    if shutil.which("java") is None:
        tool_missing("openapi-generator needs a JRE: apt-get install default-jre-headless")
    where = tmp_path_factory.mktemp("openapi-generator-python")
    result = run(
        [
            VENV_BIN / "openapi-generator-cli",
            "generate",
            "--input-spec",
            DOCUMENT,
            "--generator-name",
            "python",
            "--output",
            where,
            "--package-name",
            "solo_og",
            "--global-property",
            "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false",
        ],
        where,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for package in imported(where, "solo_og"):
        yield package, result


def test_openapi_generator_python_records_and_reads_every_kind_typed(
    openapi_generator_python, service
):
    client_module, _ = openapi_generator_python
    models = importlib.import_module("solo_og.models")
    for variant, name, body in HANDS:
        table_id, token = service.tables[variant]
        config = client_module.Configuration(host=service.url, access_token=token)
        with client_module.ApiClient(config) as api_client:
            hands = client_module.HandsApi(api_client)
            typed = getattr(models, f"{name}Create").from_dict(body)
            # The union picks its member by the tag: a Spanish hand stays Spanish.
            union = models.HandRecordCreate.from_dict(body)
            assert type(union.actual_instance).__name__ in (f"{name}Create", "AmericanHandCreate")
            if variant == "american":  # American Solo's own union of its kinds
                typed = models.AmericanHandCreate(typed)
            recorded = hands.record_hand(table_id, models.HandRecordCreate(typed))
            read = hands.get_hand(table_id, recorded.number)
            back = read.hand  # HandRecord: its member picked by the answer's tag
            while hasattr(back, "actual_instance"):  # American Solo's kinds: one more union
                back = back.actual_instance
            assert type(back).__name__ == name
            _sent_fields_kept(body, back.to_dict())


@pytest.fixture(scope="module")
def datamodel_models(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    where = tmp_path_factory.mktemp("datamodel-code-generator")
    result = run(
        [
            VENV_BIN / "datamodel-codegen",
            "--input",
            DOCUMENT,
            "--input-file-type",
            "openapi",
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--formatters",
            "ruff-format",
            "--output",
            where / "solo_dm.py",
        ],
        where,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    yield from imported(where, "solo_dm")


def test_datamodel_code_generator_records_and_reads_every_kind_typed(datamodel_models, service):
    models = datamodel_models
    with requests.Session() as http:
        _datamodel_hands(models, service, http)


def _datamodel_hands(models: Any, service: Service, http: requests.Session) -> None:
    for variant, name, body in HANDS:
        table_id, token = service.tables[variant]
        # pydantic's discriminated union picks the member by `variant` (then `kind`).
        typed = models.HandRecordCreate.model_validate(body).root
        while isinstance(typed, models.RootModel):
            typed = typed.root
        assert type(typed).__name__ == f"{name}Create"
        answer = http.post(
            f"{service.url}/api/v1/tables/{table_id}/hands",
            json=typed.model_dump(mode="json", exclude_unset=True),
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        recorded = models.HandWithTable.model_validate(answer.json())
        read = http.get(
            f"{service.url}/api/v1/tables/{table_id}/hands/{recorded.number}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        back = models.Hand.model_validate(read.json()).hand
        while isinstance(back, models.RootModel):  # the unions, by `variant` then `kind`
            back = back.root
        assert type(back).__name__ == name
        _sent_fields_kept(body, back.model_dump(mode="json"))


@pytest.fixture(scope="module")
def openapi_python_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    where = tmp_path_factory.mktemp("openapi-python-client")
    (where / "config.yaml").write_text("package_name_override: solo_opc\n")
    result = run(
        [
            VENV_BIN / "openapi-python-client",
            "generate",
            "--path",
            DOCUMENT,
            "--config",
            "config.yaml",
            "--meta",
            "none",
            "--output-path",
            "solo_opc",
        ],
        where,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    yield from imported(where, "solo_opc")


def test_openapi_python_client_records_and_reads_every_kind_typed(openapi_python_client, service):
    models = importlib.import_module("solo_opc.models")
    record = importlib.import_module("solo_opc.api.hands.record_hand")
    get_hand = importlib.import_module("solo_opc.api.hands.get_hand")
    client_module = importlib.import_module("solo_opc.client")
    for variant, name, body in HANDS:
        table_id, token = service.tables[variant]
        typed = getattr(models, f"{name}Create").from_dict(body)
        with client_module.AuthenticatedClient(
            base_url=service.url, token=token, raise_on_unexpected_status=True
        ) as phone:
            recorded = record.sync_detailed(table_id, client=phone, body=typed)
            assert recorded.status_code == 201, recorded.content[:500]
            read = get_hand.sync_detailed(table_id, recorded.parsed.number, client=phone)
        back = read.parsed.hand  # parsed as the member its tags name
        assert type(back).__name__ == name
        _sent_fields_kept(body, back.to_dict())


# TypeScript: each generator's client, a program on it (tests/contract/clients/*.ts) compiled
# by tsc --strict and run by node against the service; it prints the records it read back.
CLIENTS = Path(__file__).parent / "clients"
# openapi-generator's typescript-fetch imports an `instanceOf…` guard of every oneOf member,
# which a member that is itself a oneOf (American Solo's kinds) does not export; the import
# is unused, so the program runs, but tsc names it. Nothing else may be wrong.
NESTED_ONE_OF_IMPORT = re.compile(
    r"^generated/models/HandRecord(Create)?\.ts\(\d+,\d+\): error TS2305: Module "
    r"'\"\./AmericanHand(Create)?\"' has no exported member 'instanceOfAmericanHand(Create)?'\.$"
)


def _run_typescript(where: Path, program: str, service: Service) -> Any:
    shutil.copy(CLIENTS / program, where / "program.ts")
    shutil.copy(CLIENTS / "tsconfig.json", where / "tsconfig.json")
    compiled = run([node_tool("tsc"), "-p", where / "tsconfig.json"], where)
    errors = [line for line in compiled.stdout.splitlines() if line.strip()]
    assert all(NESTED_ONE_OF_IMPORT.match(line) for line in errors), compiled.stdout
    tables, club = json.dumps(service.tables), json.dumps(service.club)
    ran = run(["node", where / "out" / "program.js", service.url, tables, club], where, timeout=60)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return json.loads(ran.stdout)


def _same_as_sent(read: list[dict[str, Any]]) -> None:
    assert len(read) == len(HANDS)
    for (_, _, body), record in zip(HANDS, read, strict=True):
        _sent_fields_kept(body, record)


def test_typescript_fetch_records_and_reads_every_kind_typed(tmp_path, service):
    if shutil.which("java") is None:
        tool_missing("openapi-generator needs a JRE: apt-get install default-jre-headless")
    generated = run(
        [
            VENV_BIN / "openapi-generator-cli",
            "generate",
            "--input-spec",
            DOCUMENT,
            "--generator-name",
            "typescript-fetch",
            "--output",
            tmp_path / "generated",
            "--global-property",
            "apiDocs=false,modelDocs=false",
        ],
        tmp_path,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    _same_as_sent(_run_typescript(tmp_path, "typescript-fetch.ts", service))


def test_typescript_axios_records_and_reads_every_kind_a_night_and_standings_typed(
    tmp_path, service
):
    if shutil.which("java") is None:
        tool_missing("openapi-generator needs a JRE: apt-get install default-jre-headless")
    generated = run(
        [
            VENV_BIN / "openapi-generator-cli",
            "generate",
            "--input-spec",
            DOCUMENT,
            "--generator-name",
            "typescript-axios",
            "--output",
            tmp_path / "generated",
            "--additional-properties",
            "useSingleRequestParameter=true",
            "--global-property",
            "apiDocs=false,modelDocs=false",
        ],
        tmp_path,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    # The client imports axios (tools/contract's, from npm): tsc and node find it up the tree.
    axios = node_tool("tsc").parents[1] / "axios"
    if not axios.exists():
        tool_missing("axios is not installed: run `make contract-tools`")
    (tmp_path / "node_modules").symlink_to(axios.parent)
    read = _run_typescript(tmp_path, "typescript-axios.ts", service)
    _same_as_sent(read["hands"])
    names = {f"Player {n}" for n in range(4)}
    # The season's one hand, at its table of four: each player sat one hand of it.
    assert {name for name, hands, _ in read["standings"]} == names
    assert all(hands == 1 for _, hands, _ in read["standings"])
    assert sum(net for _, _, net in read["standings"]) == 0
    # The night's first series: its four players, each with the hand's total.
    assert {name for name, _ in read["night"]} == names
    assert sum(total for _, total in read["night"]) == 0 and read["night_units"] == "chips"


def test_hey_api_records_and_reads_every_kind_typed(tmp_path, service):
    generated = run(
        [node_tool("openapi-ts"), "--input", DOCUMENT, "--output", tmp_path / "generated"],
        tmp_path,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    _same_as_sent(_run_typescript(tmp_path, "hey-api.ts", service))


JAKARTA_ANNOTATIONS = Path("/usr/share/java/jakarta-annotation-api.jar")


def _generator_jar() -> Path:
    """openapi-generator's own jar (the ``openapi-generator-cli`` package): it bundles the
    Jackson the generated Java client needs (databind, jsr310), so no Maven is needed."""
    spec = importlib.util.find_spec("openapi_generator_cli")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent / "openapi-generator.jar"


@pytest.fixture(scope="module")
def openapi_generator_java(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """openapi-generator's `java` client (library `native`): its folder and the run's output."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        tool_missing("the Java client needs a JDK: apt-get install default-jdk-headless")
    if not JAKARTA_ANNOTATIONS.exists():
        tool_missing("the Java client needs apt-get install libjakarta-annotation-api-java")
    tmp_path = tmp_path_factory.mktemp("openapi-generator-java")
    generated = run(
        [
            VENV_BIN / "openapi-generator-cli",
            "generate",
            "--input-spec",
            DOCUMENT,
            "--generator-name",
            "java",
            "--library",
            "native",
            "--output",
            tmp_path / "generated",
            "--additional-properties",
            "openApiNullable=false,useJakartaEe=true,hideGenerationTimestamp=true",
            "--global-property",
            "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false",
        ],
        tmp_path,
        timeout=300,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return tmp_path, generated


def test_openapi_generator_java_records_and_reads_every_kind_typed(openapi_generator_java, service):
    tmp_path, _ = openapi_generator_java
    sources = sorted(str(p) for p in (tmp_path / "generated" / "src").rglob("*.java"))
    (tmp_path / "sources.txt").write_text("\n".join([*sources, str(CLIENTS / "Program.java")]))
    classpath = f"{tmp_path / 'classes'}:{_generator_jar()}:{JAKARTA_ANNOTATIONS}"
    compiled = run(
        ["javac", "-nowarn", "-encoding", "UTF-8", "-d", tmp_path / "classes", "-cp", classpath]
        + ["@sources.txt"],
        tmp_path,
        timeout=300,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    hands = json.dumps([[variant, name, body] for variant, name, body in HANDS])
    ran = run(
        ["java", "-cp", classpath, "Program", service.url, json.dumps(service.tables), hands],
        tmp_path,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    read = json.loads(ran.stdout)
    assert [r["type"] for r in read["hands"]] == [name for _, name, _ in HANDS]
    for (_, _, body), record in zip(HANDS, read["hands"], strict=True):
        _sent_fields_kept(body, {k: v for k, v in record["record"].items() if v is not None})
    parties = [p for record in read["hands"] for p in record["parties"]] + read["settle_up"]
    assert parties and read["settle_up"]
    for bare, (kind, seat) in parties:
        assert (kind, seat) == (("seat", bare) if isinstance(bare, int) else (bare, None))


# Printed for every OpenAPI 3.1 document, whatever it holds: not a warning of this one.
BETA_NOTICE = "OpenAPI 3.1 support is still in beta"
# openapi-generator 7.26's own warnings, which it gives for the smallest documents below too
# (found with its log's callers: a logback `%caller` pattern through JAVA_OPTS):
# - "Failed to get the schema name: null": `ModelUtils.getSimpleRef(null)`, called without a
#   reference by `AbstractPythonCodegen.toDefaultValue` for every schema that is not one (a
#   query parameter's `{type: string}` is enough), and by `OpenAPINormalizer.isSelfReference`
#   for every component with `additionalProperties` (`false` included), an array's inline
#   `items` or an `anyOf` member that is no reference (`{type: "null"}`). Logged at most once a
#   second (its OnceLogger), so the count varies with the machine's speed (python 3-9, java 1).
# - "From (reserved word) cannot be used as model name": `DefaultCodegen.fromOperation` hands
#   a query parameter's name to python's `toModelName`, and `from` is a Python word; the
#   generated method takes `var_from` and no model is made (the `from` of a date range, the
#   component `FromParameter`, inline or not, a date or a plain string alike).
# Neither is of this document: no change to it removes them short of dropping every closed
# schema's `additionalProperties: false` and renaming a parameter of v1.
UNNAMED_SCHEMA = "Failed to get the schema name: null"
RESERVED_FROM = "From (reserved word) cannot be used as model name"
GENERATORS_OWN = (UNNAMED_SCHEMA, RESERVED_FROM)
# The smallest documents that draw them: python's, one `from` query parameter; java's, one
# closed schema.
SMALLEST = {
    "python": """openapi: 3.1.0
info: {title: smallest, version: '1'}
paths:
  /things:
    get:
      operationId: listThings
      parameters:
      - {in: query, name: from, schema: {type: string}}
      responses:
        '204': {description: No Content}
""",
    "java": """openapi: 3.1.0
info: {title: smallest, version: '1'}
paths: {}
components:
  schemas:
    Thing: {type: object, properties: {name: {type: string}}, additionalProperties: false}
""",
}


def _warned(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [w for w in _generator_warnings(result) if BETA_NOTICE not in w]


def test_openapi_generator_warns_of_nothing_but_its_own(
    openapi_generator_python, openapi_generator_java, tmp_path
):
    """Its `python` and `java` warned 14 and 12 times: the hand unions' tags, which their
    members did not require, and a parameter named as a Python keyword. Now only of what they
    warn of for the smallest documents too (``GENERATORS_OWN``): the document's own warnings
    are none. When a new generator stops warning there, this fails: drop the allowance."""
    (_, python), (_, java) = openapi_generator_python, openapi_generator_java
    warned = {"python": _warned(python), "java": _warned(java)}
    left = {
        name: [w for w in found if not any(own in w for own in GENERATORS_OWN)]
        for name, found in warned.items()
    }
    assert left == {"python": [], "java": []}
    for generator, text in SMALLEST.items():
        (tmp_path / f"{generator}.yaml").write_text(text)
        result = run(
            [
                VENV_BIN / "openapi-generator-cli",
                "generate",
                "--input-spec",
                tmp_path / f"{generator}.yaml",
                "--generator-name",
                generator,
                "--output",
                tmp_path / generator,
            ],
            tmp_path,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        smallest = _warned(result)
        for own in {own for w in warned[generator] for own in GENERATORS_OWN if own in w}:
            assert any(own in w for w in smallest), (generator, own, smallest)
