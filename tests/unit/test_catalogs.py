"""The message catalogs hold every message the code marks, in every language, and the
explanations are worded in each of them.

- ``pybabel``'s extraction of ``service/`` (the markers ``N_``/``Nn_``, as ``make translations``
  runs it) against each ``.po`` file: a message used in the code and missing from a catalog,
  untranslated, fuzzy, with a plural form left empty, or whose ``%(name)s`` differ, fails.
- Every step the rules produce (any variant, any hand the strategies draw) is worded in every
  language, with nothing left to fill in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from service.i18n import LANGUAGES, LOCALES, explain
from service.rules import VARIANTS, preview
from tests.strategies import american_cases
from tests.strategies_variants import tables

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
    assert "Seat %(seat)s deals next" in USED
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
    assert lines[-1] == "Platz 2 gibt als Nächster"
    spanish = explain(settlement.explanation, "es")
    assert spanish[-1] == "Da asiento 2"
