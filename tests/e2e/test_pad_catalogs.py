"""The pad's catalogs (``lang-de.js``, ``lang-es.js``) word every text of its code, and nothing
else. No browser needed.

The texts are what the code gives ``t()``, ``tx()`` and ``tn()`` (read by Babel's JavaScript
extractor, as a gettext tool would) and the elements of ``index.html`` marked ``data-t``. For
each language a text missing, empty, with other ``{placeholders}`` than its English, a count
without a text for each of the language's plural categories (CLDR, from Babel), a key twice or a
key no code uses fails. So does a call whose text the extractor cannot read (a variable),
which would otherwise go unchecked. Calls inside a template literal's ``${…}`` are read (the
screens are lit-html templates, ``html`…```).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract

from service.api.pages import PAD_DIR

LANGUAGES = ("de", "es")
KEYWORDS = {"t": (1,), "tx": (1,), "tn": (2, 3)}  # the arguments that are the text
CALL = re.compile(r"(?<![\w.$])(?:t|tx|tn)\(")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
MARKED = re.compile(r"<[a-z]+\b[^>]*\bdata-t\b[^>]*>([^<]*)<")


def _code() -> list[Path]:
    return sorted(p for p in PAD_DIR.glob("*.js") if not p.name.startswith("lang-"))


def _extracted(path: Path) -> list[tuple[int, str | tuple[str, str]]]:
    with path.open("rb") as source:
        # The views are lit-html templates: the calls inside their ${…} are read too.
        options = {"template_string": True, "parse_template_string": True}
        found = extract("javascript", source, KEYWORDS, options=options)
        return [(line, message) for line, message, _comments, _context in found]


def used_texts() -> dict[str, tuple[str, str | None]]:
    """Each text (its English key) → (where it is used, the English plural form or None)."""
    texts: dict[str, tuple[str, str | None]] = {}
    for path in _code():
        for line, message in _extracted(path):
            if isinstance(message, tuple):
                texts.setdefault(message[0], (f"{path.name}:{line}", message[1]))
            else:
                texts.setdefault(message, (f"{path.name}:{line}", None))
    for text in MARKED.findall((PAD_DIR / "index.html").read_text()):
        texts.setdefault(text, ("index.html", None))
    return texts


def read_catalog(language: str) -> list[tuple[int, str, object]]:
    """The entries of ``lang-<language>.js`` as (line, key, value), in file order."""
    entries = []
    lines = (PAD_DIR / f"lang-{language}.js").read_text().splitlines()
    body = lines[lines.index("export default {") + 1 : lines.index("};")]
    start = lines.index("export default {") + 2
    for number, line in enumerate(body, start):
        text = line.strip()
        if not text or text.startswith("//"):
            continue
        ((key, value),) = json.loads("{" + text.rstrip(",") + "}").items()
        entries.append((number, key, value))
    return entries


USED = used_texts()


def test_every_call_of_the_code_has_a_text_the_extractor_reads() -> None:
    for path in _code():
        if path.name == "i18n.js":
            continue  # where t() and its friends are defined
        calls = len(CALL.findall(path.read_text()))
        assert calls == len(_extracted(path)), (
            f"{path.name}: {calls} calls of t/tx/tn, {len(_extracted(path))} with a literal text "
            "(write the English text itself as the first argument, outside template literals)"
        )


def test_the_texts_are_read_from_the_code_and_the_page() -> None:
    assert USED["Hand {number} recorded."][0].startswith("app.js:")
    assert USED["sending {n} hand"][1] == "sending {n} hands"
    assert USED["Skip to the score"] == ("index.html", None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_words_every_text_and_nothing_else(language: str) -> None:
    entries = read_catalog(language)
    keys = [key for _line, key, _value in entries]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    assert not twice, f"lang-{language}.js has these keys twice: {twice}"
    missing = {text: where for text, (where, _plural) in USED.items() if text not in keys}
    assert not missing, f"lang-{language}.js misses: {missing}"
    unused = sorted(set(keys) - set(USED))
    assert not unused, f"lang-{language}.js has texts no code uses: {unused}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_is_complete_and_keeps_the_placeholders(language: str) -> None:
    categories = set(Locale.parse(language).plural_form.tags) | {"other"}
    for line, key, value in read_catalog(language):
        if key not in USED:
            continue
        where, plural = USED[key]
        context = f"lang-{language}.js:{line} ({where})"
        if plural is None:
            assert isinstance(value, str) and value.strip(), f"{context}: no translation"
            assert set(PLACEHOLDER.findall(value)) == set(PLACEHOLDER.findall(key)), context
            continue
        assert isinstance(value, dict), f"{context}: a count needs a text per plural category"
        assert set(value) == categories, f"{context}: categories {sorted(categories)}"
        allowed = set(PLACEHOLDER.findall(key)) | set(PLACEHOLDER.findall(plural)) | {"n"}
        for category, text in value.items():
            assert isinstance(text, str) and text.strip(), f"{context}: {category} empty"
            assert set(PLACEHOLDER.findall(text)) <= allowed, f"{context}: {category}"
        assert "{n}" in value["other"], f"{context}: the count itself is missing"
