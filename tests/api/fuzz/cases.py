"""Schemathesis against the app's own OpenAPI document (every operation in it, read from the
running app, so endpoints added later are fuzzed too): what the test modules of this package
share. Each phase and generation mode is a module of its own, so that pytest-xdist spreads them
over its workers (a file to each at a time):

- coverage (``test_coverage_positive.py``, ``test_coverage_negative.py``): Schemathesis'
  deterministic boundary cases, positive (schema-valid) and negative (schema-breaking): missing
  fields, one past each ``maxLength``/``maximum``/``maxItems``, wrong types, unexpected
  methods …;
- fuzzing (``test_examples_positive.py``, ``test_examples_negative.py``): ``FUZZ_EXAMPLES``
  Hypothesis examples per operation and mode (default 25);
- stateful (``test_stateful.py``): ``FUZZ_STATEFUL_SCENARIOS`` scenarios (default 25) of up to
  10 calls chained by the links Schemathesis infers between operations (create a table, record
  its hands, correct …).

Most cases are pointed at what exists (a club, its table and hands, season, night, player,
read-only token, webhook, tournament and entrant: ``World``) and carry the right token, so that
they get past the door to the logic; the rest call with the admin token, the read-only token,
another club's token, a garbage token, none, or whatever was generated. A case that spends
the world (a token renewed or revoked, the table or night closed) has it made again.
Every answer must be a documented status of its operation (listed for it, not only through the
``default`` every operation has), match its schema, headers and content type, and never be a
5xx; schema-breaking data must be refused; secured operations must refuse a missing token.

Each module prints its count of cases at its end (``fuzz: N cases …``); the fixtures are in
``conftest.py``.
"""

from __future__ import annotations

import collections
import os
import random
import re
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky, Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    ensure_resource_availability,
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
    use_after_free,
)

from service import rules
from tests.support import ApiClient

# ``make test`` runs this bounded budget; ``make fuzz`` the full one (300 and 200).
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
AUTH_CHOICES = (
    *("own",) * 5,
    *("admin", "reader", "foreign", "garbage", "none", "generated"),
)
# Schemathesis' WSGI transport sends requests' default Accept-Encoding but hands the body over
# undecoded: ask for it as it is (compression is tested in tests/api/test_pages.py).
IDENTITY = {"Accept-Encoding": "identity"}

CASES: collections.Counter[str] = collections.Counter()
STATUSES: collections.Counter[int] = collections.Counter()


def documented_status(ctx: Any, response: Any, case: Any) -> bool | None:
    """Stricter than ``status_code_conformance``: the status is listed for this operation
    itself, not only covered by the ``default`` response every operation has. (A method the
    path does not have is ``unsupported_method``'s business: 405, or 200 for OPTIONS.)"""
    if case.method.lower() != case.operation.method.lower():
        return None
    responses = case.operation.definition.raw.get("responses", {})
    status = str(response.status_code)
    if status not in responses:
        raise AssertionError(
            f"{case.method.upper()} {case.path} answered {status}, which its "
            f"responses ({', '.join(sorted(responses))}) do not list: "
            f"{response.text[:300]}"
        )
    return True


# Every check Schemathesis has but one: ``positive_data_acceptance`` (schema-valid data must
# be accepted) cannot hold for hand records, whose rules relate fields in ways a schema does
# not say (a solo with a partner is well-typed and refused, 422 naming `hand.partner`); see
# docs/api.md. ``object_level_authorization`` is ``run_case``'s own foreign-token check below.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    missing_required_header,
    unsupported_method,
    allow_header_conformance,
    ignored_auth,
    documented_status,
]
# The scenarios always send the admin's token and often swap in a valid body, so a case that
# Schemathesis generated as invalid may reach the service valid: its "invalid data was
# accepted" check would then be wrong. The other two phases keep that check.
# The stateful phase adds the checks that follow links: a voided or deleted resource stays
# gone, a created one can be read.
STATEFUL_CHECKS = [check for check in CHECKS if check is not negative_data_rejection] + [
    use_after_free,
    ensure_resource_availability,
]


# Operations whose success takes away what the world's cases are pointed at (a token renewed,
# rotated or revoked; a table or night closed): the world is made again after them, so that the
# cases after them still reach the logic rather than a 401 or 409.
SPENDS_THE_WORLD = re.compile(
    r"(POST|DELETE) /api/v1/(clubs/\{club_id\}/admin-token|tables/\{table_id\}/token"
    r"|clubs/\{club_id\}/viewer-tokens/\{token_id\}|tables/\{table_id\}/close"
    r"|nights/\{night_id\}/close)"
)


class World:
    """Two clubs made through the API: the home club with players, a table with a few hands,
    a season, a club night, a read-only token, a webhook and a tournament with an entrant,
    whose ids and tokens the cases are pointed at; and another club with a table of its own,
    whose admin calls as a stranger."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.make()

    def make(self) -> None:
        api = ApiClient(self.app.test_client())
        self.club = api.club("Home")
        admin = api.auth(self.club["admin_token"])
        self.table = api.table(club=self.club)
        for _ in range(3):
            assert api.record(self.table, SOLO).status_code == 201
        club_path = f"/api/v1/clubs/{self.club['id']}"
        american = {"variant": "american"}
        players = [seat["player_id"] for seat in self.table["seats"]]
        made = {
            what: api.client.post(f"{club_path}/{path}", json=body, headers=admin)
            for what, path, body in (
                ("season", "seasons", {"name": "Winter", **american}),
                ("night", "nights", {"name": "Thursday", "players": players, **american}),
                ("reader", "viewer-tokens", {"name": "Fuzz bot"}),
                ("webhook", "webhooks", {"url": "https://example.com/hook", "event_types": ["*"]}),
            )
        }
        for what, response in made.items():
            assert response.status_code == 201, (what, response.json)
        self.season, self.night = made["season"].json, made["night"].json
        self.reader, self.webhook = made["reader"].json, made["webhook"].json
        tournament = api.client.post(
            f"{club_path}/tournaments", json={"name": "Open", "cap": 2, **american}, headers=admin
        )
        assert tournament.status_code == 201, tournament.json
        self.tournament = tournament.json
        entrant = api.client.post(
            f"/api/v1/tournaments/{self.tournament['id']}/entrants",
            json={"name": "Marta Ruiz"},
            headers=admin,
        )
        assert entrant.status_code == 201, entrant.json
        self.entrant = entrant.json
        self.other_club = api.club("Away")
        self.other_table = api.table(club=self.other_club)

    def spent_by(self, case: Any, response: Any) -> None:
        """Made again when ``case`` took away what the cases are pointed at."""
        called = f"{case.method.upper()} {case.operation.path}"
        if 200 <= response.status_code < 300 and SPENDS_THE_WORLD.fullmatch(called):
            self.make()

    def ids(self) -> dict[str, str]:
        """What each path parameter of an operation is set to (``number`` is picked apart)."""
        return {
            "club_id": self.club["id"],
            "table_id": self.table["id"],
            "season_id": self.season["id"],
            "night_id": self.night["id"],
            "player_id": self.table["seats"][0]["player_id"],
            "token_id": self.reader["id"],
            "webhook_id": self.webhook["id"],
            "tournament_id": self.tournament["id"],
            "entrant_id": self.entrant["id"],
        }


def prepare(case: Any, world: World, pick: random.Random) -> tuple[str, dict]:
    """Point most cases at the real club, table and hands, and choose who is calling: returns
    the choice and the headers to send on top of the case's own."""
    meta = case.meta

    def negative(location: ParameterLocation) -> bool:
        """Leave a component that breaks the schema on purpose as generated."""
        return meta is not None and meta.is_negative_at(location)

    params = case.path_parameters
    if params and not negative(ParameterLocation.PATH) and pick.random() < 0.9:
        for name, value in world.ids().items():
            if name in params:
                params[name] = value
        if "number" in params and pick.random() < 0.8:
            params["number"] = pick.randint(1, 3)
    if isinstance(case.query, dict) and case.query.get("format") == "csv":
        # getStandings' deprecated format=csv answers text/csv, which its (JSON) document
        # leaves to getStandingsCsv until the Sunset (docs/api.md, "Media types"). `csv` is a
        # valid value: in a negative case what breaks the schema is another member, kept.
        del case.query["format"]
    if (
        isinstance(case.body, dict)
        and "club_id" in case.body
        and not negative(ParameterLocation.BODY)
        and pick.random() < 0.5
    ):
        case.body["club_id"] = world.club["id"]
    choice = "generated" if negative(ParameterLocation.HEADER) else pick.choice(AUTH_CHOICES)
    own = world.club["admin_token"]
    if case.path.startswith("/api/v1/tables/"):
        own = world.table["table_token"]
    elif case.path.endswith("/registrations"):  # the tournament's link, no club's token
        own = world.tournament["registration_token"]
    tokens = {
        "own": own,
        "admin": world.club["admin_token"],
        "reader": world.reader["token"],
        "foreign": world.other_club["admin_token"],
        "garbage": "not-a-token",
    }
    if choice == "none" and case.headers:
        case.headers.pop("Authorization", None)
    if choice in tokens:
        return choice, {"Authorization": f"Bearer {tokens[choice]}"}
    return choice, {}


HAND_BODIES = {"recordHand", "correctHand", "previewSettlement"}


def untagged_record(case: Any) -> bool:
    """A hand record without the tags the document requires (its `variant`; American Solo's
    `kind`): schema-breaking, yet the service takes it as its table's, deprecated until the
    Sunset (docs/api.md, "Hand bodies"), so "invalid data was accepted" proves nothing."""
    if case.operation.definition.raw.get("operationId") not in HAND_BODIES:
        return False
    body = case.body if isinstance(case.body, dict) else {}
    record = body.get("hand") if case.operation.path.endswith("/preview") else body
    if not isinstance(record, dict):
        return False
    variant = record.get("variant")
    if not isinstance(variant, str) or variant not in rules.VARIANTS:  # a list, a number …
        return "variant" not in record
    return "kind" not in record and bool(rules.VARIANTS[variant].describe().get("hand_kinds"))


def run_case(case: Any, world: World, pick: random.Random) -> None:
    choice, headers = prepare(case, world, pick)
    sent = {**headers, **IDENTITY}
    response = case.call(headers=sent)
    CASES[case.operation.label] += 1
    STATUSES[response.status_code] += 1
    world.spent_by(case, response)
    checks = CHECKS
    if untagged_record(case):  # taken while deprecated: its refusal cannot be asked for
        checks = [check for check in CHECKS if check is not negative_data_rejection]
    # Headers given here count as the caller's own (explicit) credentials for the checks.
    case.validate_response(
        response, checks=checks, headers=sent, transport_kwargs={"headers": dict(sent)}
    )
    # An operation's own `security`, else the document's (the bearer token).
    document = case.operation.schema.raw_schema
    secured = bool(case.operation.definition.raw.get("security", document.get("security")))
    if (
        secured
        and choice in ("foreign", "garbage")
        and 200 <= response.status_code < 300
        and case.method.lower() == case.operation.method.lower()
    ):
        raise AssertionError(
            f"{case.method.upper()} {case.formatted_path} let a {choice} "
            f"token through: {response.status_code}"
        )


def failures_summary(failures: dict[str, str]) -> str:
    return "\n\n".join(f"== {label}\n{text[:3000]}" for label, text in failures.items())


def coverage_phase(fuzz_schema: Any, operations: list[Any], world: World, mode: Any) -> None:
    """Schemathesis' boundary cases of every operation in ``mode``, each answered as
    documented."""
    pick = random.Random(7)
    failures: dict[str, str] = {}
    for operation in operations:
        config = fuzz_schema.config.generation_for(operation=operation)
        for case in fuzz_schema.iter_coverage_cases(
            operation, generation_modes=[mode], generation_config=config
        ):
            try:
                run_case(case, world, pick)
            except Exception as error:  # noqa: BLE001 - gathered, reported below
                failures.setdefault(operation.label, str(error))
    assert not failures, failures_summary(failures)


def fuzzing_phase(operations: list[Any], world: World, mode: Any) -> None:
    """``FUZZ_EXAMPLES`` of Hypothesis' examples of every operation in ``mode``, each answered
    as documented."""
    failures: dict[str, str] = {}
    for operation in operations:

        @settings(
            max_examples=FUZZ_EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
        )
        @given(case=operation.as_strategy(generation_mode=mode), seed=st.integers(0, 2**32))
        def fuzz(case: Any, seed: int) -> None:
            run_case(case, world, random.Random(seed))

        try:
            fuzz()
        except Unsatisfiable:
            assert mode is GenerationMode.NEGATIVE  # nothing to break: no input at all
        except Exception as error:  # noqa: BLE001 - gathered, reported below
            failures.setdefault(f"{operation.label} ({mode.value})", str(error))
    assert not failures, failures_summary(failures)


STATEFUL_STEPS = int(os.environ.get("FUZZ_STATEFUL_SCENARIOS", "25"))
VALID_HANDS = [
    SOLO,
    {"contract": "solo", "trump": "clubs", "declarer": 2, "tricks": 3},
    {"contract": "tout", "trump": "spades", "declarer": 3, "tricks": 8},
    {"kind": "misdeal"},
    {"kind": "forfeit", "seat": 1},
]


def stateful_phase(fuzz_schema: Any, world: World) -> None:
    """Scenarios that chain operations through the document's own OpenAPI links (a club
    created, its players and seasons; a table opened, then its hands recorded, corrected,
    voided, their history, its ledger, close and settle-up …), as the club's admin. Half of the
    tables and hands created are made valid, so that the chains go deep rather than stop at
    the first 422."""
    linked = set(fuzz_schema.operations_with_incoming_links())
    assert {
        "GET /api/v1/tables/{table_id}/hands/{number}",
        "PUT /api/v1/tables/{table_id}/hands/{number}",
        "DELETE /api/v1/tables/{table_id}/hands/{number}",
        "POST /api/v1/tables/{table_id}/hands",
        "POST /api/v1/clubs/{club_id}/players",
        "GET /api/v1/seasons/{season_id}/standings",
    } <= linked, linked

    started = collections.Counter()

    def admin() -> dict[str, str]:
        return {"Authorization": f"Bearer {world.club['admin_token']}"}

    class Scenario(fuzz_schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            started["scenarios"] += 1

        def before_call(self, case: Any) -> None:
            pick = random.Random(str(case.id))
            label = case.operation.label
            if label == "POST /api/v1/tables" and pick.random() < 0.5:
                case.body = {
                    "club_id": world.club["id"],
                    "name": "Linked",
                    "variant": "american",
                    "seats": [seat["player_id"] for seat in world.table["seats"]],
                    "first_dealer": pick.randrange(4),
                }
            elif (
                label
                in (
                    "POST /api/v1/tables/{table_id}/hands",
                    "PUT /api/v1/tables/{table_id}/hands/{number}",
                )
                and pick.random() < 0.5
            ):
                case.body = dict(pick.choice(VALID_HANDS))
            if case.headers:
                for name in ("If-Match", "Idempotency-Key"):
                    if pick.random() < 0.5:
                        case.headers.pop(name, None)

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": {**admin(), **IDENTITY}}

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            CASES[case.operation.label] += 1
            STATUSES[response.status_code] += 1
            world.spent_by(case, response)
            # Gathered rather than raised: a scenario replayed against a database that has
            # moved on cannot be replayed faithfully, so Hypothesis must not try to shrink it.
            try:
                case.validate_response(response, checks=STATEFUL_CHECKS, headers=admin())
            except Exception as error:  # noqa: BLE001 - gathered, reported below
                failures.setdefault(case.operation.label, str(error))

    failures: dict[str, str] = {}
    # As Schemathesis' own runner does: when a scenario cannot be drawn again the same way
    # (the database has moved on), Hypothesis calls it flaky; start again with what is left.
    for _ in range(25):
        left = STATEFUL_STEPS - started["scenarios"]
        if left <= 0:
            break
        try:
            Scenario.run(
                settings=settings(
                    max_examples=left,
                    stateful_step_count=10,
                    phases=[Phase.generate],
                    deadline=None,
                    database=None,
                    suppress_health_check=list(HealthCheck),
                )
            )
            break
        except Flaky:
            continue
    assert not failures, failures_summary(failures)
    assert started["scenarios"] >= STATEFUL_STEPS // 2
