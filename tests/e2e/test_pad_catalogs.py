"""The pad's catalogs (service/static/pad/lang-<language>.js) hold every text the pad's code
words through ``t('…')`` and ``tn(n, '…', '…')``, in every language; and no entry is left
empty or loses a ``{name}`` place. No browser needed: the texts are read from the source, as
the service's own catalog test reads ``N_`` (tests/unit/test_catalogs.py)."""

from __future__ import annotations

import json
import re

import pytest

from service.api.pages import PAD_DIR

LANGUAGES = ("de", "es")
# t('text') / t("text") and tn(n, 'one', 'other'): the texts are single string literals.
_T = re.compile(r"""\bt\(\s*(?P<q>['"])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
_TN = re.compile(r"""\btn\([^,()]*(?:\([^()]*\))?[^,()]*,"""
                 r"""\s*(?P<q>['"])(?P<one>(?:\\.|(?!(?P=q)).)*)(?P=q)\s*,"""
                 r"""\s*(?P<q2>['"])(?P<other>(?:\\.|(?!(?P=q2)).)*)(?P=q2)""")
_PLACE = re.compile(r"\{(\w+)\}")


def _unquote(text: str) -> str:
    return json.loads('"' + text.replace('\\\'', "'").replace('"', '\\"') + '"')


def used_texts() -> dict[str, tuple[str, ...]]:
    """Each text the code words (its English), with the English forms (one, or singular and
    plural)."""
    found: dict[str, tuple[str, ...]] = {}
    for path in sorted(PAD_DIR.glob("*.js")):
        if path.name.startswith("lang-"):
            continue
        source = path.read_text(encoding="utf-8")
        for match in _T.finditer(source):
            text = _unquote(match.group("text"))
            found.setdefault(text, (text,))
        for match in _TN.finditer(source):
            one, other = _unquote(match.group("one")), _unquote(match.group("other"))
            found[one] = (one, other)
    return found


def catalog(language: str) -> dict[str, object]:
    source = (PAD_DIR / f"lang-{language}.js").read_text(encoding="utf-8")
    body = source[source.index("export default {") + len("export default"):].strip()
    return json.loads(body.rstrip(";"))


USED = used_texts()


def test_the_pad_words_its_texts_through_the_catalogs() -> None:
    assert len(USED) >= 15, sorted(USED)  # the shell so far (docs/i18n.md: what is not worded)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_of_the_pad_is_translated(language: str) -> None:
    words = catalog(language)
    problems = []
    for key, english in USED.items():
        said = words.get(key)
        if said is None:
            problems.append(f"missing: {key!r}")
            continue
        forms = [said] if isinstance(said, str) else list(said.values())  # type: ignore[union-attr]
        if len(english) == 2 and isinstance(said, str):
            problems.append(f"plural forms expected: {key!r}")
        places = set(_PLACE.findall(" ".join(english)))
        for form in forms:
            if not form:
                problems.append(f"empty: {key!r}")
            elif set(_PLACE.findall(form)) - places - {"n"}:
                problems.append(f"unknown place in {form!r} for {key!r}")
    assert not problems, "\n".join(problems)
