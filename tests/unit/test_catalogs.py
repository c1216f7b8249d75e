"""The message catalogs hold every message the code marks, in every language, and the
explanations are worded in each of them.

- ``pybabel``'s extraction of ``service/`` (the markers ``N_``/``Nn_``, as ``make translations``
  runs it) against each ``.po`` file: a message used in the code and missing from a catalog,
  untranslated, fuzzy, with a plural form left empty, or whose ``%(name)s`` differ, fails.
- Every step the rules produce (any variant, any hand the strategies draw) is worded in every
  language, with nothing left to fill in.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from service.i18n import LANGUAGES, LOCALES, explain, translations, variants, word
from service.rules import VARIANTS, RuleViolation, preview
from tests.strategies import american_cases, corrupt_hand
from tests.strategies_variants import PLAYERS, corrupted, tables

ROOT = Path(__file__).parents[2]
TRANSLATED = [language for language in LANGUAGES if language != "en"]


# As `make translations` extracts: the markers, and the rules' phrases and violations (the
# rules import no marker: their message is the second argument of ``RuleViolation``).
KEYWORDS: dict[str, Any] = {"N_": None, "Nn_": (1, 2), "Phrase": (1,), "RuleViolation": (2,)}


def _used_messages() -> dict[str | tuple[str, ...], str]:
    found: dict[str | tuple[str, ...], str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map=[("service/**.py", "python")], keywords=KEYWORDS
    ):
        found.setdefault(message, f"{filename}:{lineno}")
    return found


USED = _used_messages()


def test_the_code_marks_the_messages_it_shows() -> None:
    assert len(USED) > 150
    assert "%(seat)s deals next" in USED
    assert ("with %(tricks)s trick", "with %(tricks)s tricks") in USED
    assert "No table %(table)s." in USED


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_used_in_the_code_is_translated(language: str) -> None:
    with (LOCALES / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    problems = []
    for message, where in USED.items():
        key = message if isinstance(message, str) else message[0]
        entry = catalog.get(key)
        if entry is None:
            problems.append(f"missing: {message!r} ({where})")
        elif entry.fuzzy:
            problems.append(f"fuzzy: {message!r}")
        elif not (entry.string if isinstance(entry.string, str) else all(entry.string)):
            problems.append(f"untranslated: {message!r}")
    for entry, errors in catalog.check():  # Babel's checks: placeholders and plural forms
        problems.extend(f"{entry.id!r}: {error}" for error in errors)
    assert not problems, "\n".join(problems)


def _check_worded(settlement: Any) -> None:
    english = explain(settlement.explanation, "en")
    for language in LANGUAGES:
        lines = explain(settlement.explanation, language)
        assert len(lines) == len(english)
        assert all(line and "%(" not in line for line in lines), lines


@given(case=american_cases())
def test_every_american_step_is_worded_in_every_language(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    _check_worded(preview("american", *case))


@pytest.mark.parametrize("name", ["spanish", "german", "solo66"])
@given(data=st.data())
def test_every_variants_steps_are_worded_in_every_language(name: str, data: st.DataObject) -> None:
    options, state, hand = data.draw(tables(name))
    _check_worded(preview(name, VARIANTS[name].player_counts[0], options, state, hand))


def test_a_german_reader_gets_german_words() -> None:
    settlement = preview(
        "german", 4, None, None, {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 5}
    )
    lines = explain(settlement.explanation, "de")
    assert lines[0] == "Solo in Herz: Platz 1 spielt allein; Ziel 5 Stiche"
    assert lines[-1] == "Als Nächstes gibt Platz 2"
    spanish = explain(settlement.explanation, "es")
    assert spanish[-1] == "La siguiente mano la reparte asiento 2"


# --- the rules' refusals and the variants' descriptions ------------------------------------


def _check_refusal_worded(violation: RuleViolation) -> None:
    english = word(violation.phrase, "en")
    assert english == violation.message  # the English is the rules' own text
    for language in TRANSLATED:
        worded = word(violation.phrase, language)
        assert worded and "%(" not in worded, worded
        assert worded != english, f"{english!r} is not translated into {language}"


@given(
    case=st.integers(min_value=3, max_value=5).flatmap(
        lambda n: corrupt_hand(n).map(lambda h: (n, h))
    )
)
def test_every_american_refusal_is_worded_in_every_language(case: tuple[int, Any]) -> None:
    players, hand = case
    with pytest.raises(RuleViolation) as refused:
        preview("american", players, None, None, hand)
    _check_refusal_worded(refused.value)


@pytest.mark.parametrize("name", ["spanish", "german", "solo66"])
@given(data=st.data())
def test_every_variants_refusals_are_worded_in_every_language(
    name: str, data: st.DataObject
) -> None:
    hand = data.draw(corrupted(name))
    try:
        preview(name, PLAYERS[name], None, None, hand)
    except RuleViolation as violation:
        _check_refusal_worded(violation)


@pytest.mark.parametrize(
    "args",
    [
        ("chess", 4, None, None, {}),
        ("american", 6, None, None, {}),
        ("american", 4, {"stake": -1}, None, {}),
        ("american", 4, {"couleur": 3}, None, {}),
        ("american", 4, None, {"pool": "x"}, {}),
        ("german", 4, {"deck": 20}, None, {}),
        ("solo66", 5, {"colour": 1}, None, {}),
    ],
)
def test_the_options_and_states_refusals_are_worded(args: tuple[Any, ...]) -> None:
    with pytest.raises(RuleViolation) as refused:
        preview(*args)
    _check_refusal_worded(refused.value)


def test_the_messages_are_literals_where_they_are_said() -> None:
    """``make translations`` finds a message only as a string literal: a refusal worded by an
    f-string (or built by ``+`` or ``%``) would stay English in every language."""
    built = []
    for path in sorted((ROOT / "service").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            position = {"RuleViolation": 1, "Phrase": 0}.get(node.func.id)
            if position is None or len(node.args) <= position:
                continue
            message = node.args[position]
            if isinstance(message, ast.JoinedStr | ast.BinOp):
                built.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert built == []


def test_the_variants_texts_are_all_listed_for_the_catalogs() -> None:
    said = {text for variant in VARIANTS.values() for text in variants.texts(variant.describe())}
    listed = set(variants.TEXTS)
    assert said - listed == set(), "describe() says texts i18n/variants.py does not list"
    assert listed - said == set(), "i18n/variants.py lists texts describe() no longer says"
    for language in TRANSLATED:
        catalog = translations(language)
        assert all(catalog.gettext(text) != text for text in said if text not in SAME_WORD)


# Texts whose German and Spanish are the English (names of contracts and games).
SAME_WORD = {"Solo", "Tout", "Frage", "Grossfrage", "Mediateur", "Force (Mussfrage)", "Solo 66"}
SAME_WORD |= {"Forcée simple", "Forcée partout", "matadores", "Matadores", "Partner"}
SAME_WORD |= {"Stamm", "Couleur"}  # "Couleur" in German; the Spanish say "Color"
