"""The typed hand schemas (``service/schemas/hands.py``) are built from the registered
variants' descriptions alone: the module names no game and no field of a game's record, so a
new game is typed in ``openapi.yaml`` with nothing changed there (issue 28;
``tests/api/test_fifth_game.py`` shows a made-up one typed)."""

from __future__ import annotations

import re
from pathlib import Path

from service import rules

HANDS = Path(__file__).resolve().parents[2] / "service" / "schemas" / "hands.py"

# The family's shared words the module reads shapes by: the tag of a kind of record and the
# default kind, a card's two members, a seat, and the contracts every game declares.
SHARED = {"kind", "played", "rank", "suit", "seat", "contract"}


def _game_words() -> set[str]:
    """Every variant's name and the names of its kinds, fields and their members."""
    words = set()
    for variant in rules.VARIANTS.values():
        described = variant.describe()
        words.add(variant.name)
        specs = list(described["hand_fields"])
        for kind in described.get("hand_kinds") or ():
            words.add(kind["name"])
            specs += kind.get("hand_fields", [])
        for spec in specs:
            words.add(spec["name"])
            words.update(spec.get("fields", {}))
            words.update(member["name"] for member in spec.get("members", ()))
    return {word.casefold() for word in words}


def test_the_typed_hands_module_names_no_game_and_no_field_of_one():
    source = HANDS.read_text(encoding="utf-8")
    # Whole identifiers (``hand_fields``) and their parts (``AmericanHand``: american, hand).
    tokens = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", source))
    tokens |= {part for token in tokens for part in re.findall(r"[A-Z]?[a-z0-9]+", token)}
    named = {token.casefold() for token in tokens} & (_game_words() - SHARED)
    assert not named, f"service/schemas/hands.py names {sorted(named)}"
