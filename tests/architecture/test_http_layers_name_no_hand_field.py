"""Past the rules, no layer names a field of a game's hand record (issue 28): the use cases
(``service/services``), the HTTP views and their schemas (``service/api``, ``service/schemas``)
and the layers before Flask (``service/middleware``) take a record as a whole and ask its
variant what it means (``league_hand``, ``seat_keys``, ``describe()``). A new game's fields
then need nothing changed there, and no old game's field is handled by name beside its rules.

Read from the source (nothing is run): every string literal, every name a class assigns (a
schema's fields) and every keyword argument, against the fields (and their members) the
registered variants describe."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from service import rules

SERVICE = Path(__file__).resolve().parents[2] / "service"
LAYERS = ("services", "api", "schemas", "middleware")

# The words every game's record shares, which the layers may read a record by: the tag of a
# kind of record, the contract, the error records and their seat, the tricks (the table's
# figures), a card's two members.
SHARED = {"kind", "played", "contract", "errors", "seat", "tricks", "rank", "suit"}
# A word that is a key of the games' descriptions as well as a hand field's name: the answer
# of GET /variants lists the description's key ("matadores": what may be held, per game).
DESCRIPTION_KEYS = {("api/variants.py", "matadores")}


def game_fields() -> set[str]:
    """Every hand field the registered variants describe, with its members."""
    words: set[str] = set()
    for variant in rules.VARIANTS.values():
        described = variant.describe()
        specs = list(described["hand_fields"])
        for kind in described.get("hand_kinds") or ():
            specs += kind.get("hand_fields", [])
            words.update(kind.get("seat_fields", ()))
        for spec in specs:
            words.add(spec["name"])
            words.update(spec.get("fields", {}))
            words.update(member["name"] for member in spec.get("members", ()))
    return words - SHARED


def named_fields(source: str, fields: set[str]) -> list[tuple[int, str]]:
    """Where ``source`` names one of ``fields``: a string literal, a class-level assignment or
    annotation, a keyword argument (line, name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in fields:
                found.append((node.lineno, node.value))
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                targets = (
                    statement.targets
                    if isinstance(statement, ast.Assign)
                    else [statement.target]
                    if isinstance(statement, ast.AnnAssign)
                    else []
                )
                for target in targets:
                    if isinstance(target, ast.Name) and target.id in fields:
                        found.append((statement.lineno, target.id))
        elif isinstance(node, ast.keyword) and node.arg in fields:
            found.append((node.value.lineno, node.arg))
    return found


def test_the_reader_finds_each_way_of_naming_a_field() -> None:
    fields = {"declarer", "trump", "giver"}
    source = (
        "class HandSchema(Schema):\n"
        "    declarer = fields.Raw()\n"
        "x = record.get('trump')\n"
        "y = dict(giver=1)\n"
        "z = record.declarer  # an attribute: a rules value's, not a record's key\n"
    )
    assert named_fields(source, fields) == [(2, "declarer"), (3, "trump"), (4, "giver")]
    assert {"declarer", "trump", "giver", "soloist", "tout_after_five"} <= game_fields()


@pytest.mark.parametrize("layer", LAYERS)
def test_no_layer_past_the_rules_names_a_games_hand_field(layer: str) -> None:
    fields = game_fields()
    found = []
    for path in sorted((SERVICE / layer).rglob("*.py")):
        where = path.relative_to(SERVICE).as_posix()
        for line, name in named_fields(path.read_text(encoding="utf-8"), fields):
            if (where, name) not in DESCRIPTION_KEYS:
                found.append(f"service/{where}:{line}: {name}")
    assert not found, found
