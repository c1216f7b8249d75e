"""What the pad should say in a language, read from its catalogs (lang-de.js, lang-es.js) as
tests/e2e/test_pad_catalogs.py reads them, so that a browser test asserts the translator's
words rather than copies of them. A test asking for a text the catalog does not have fails at
once (KeyError): the text was renamed in the code, and the test should follow."""

from __future__ import annotations

import re
from functools import cache

from .test_pad_catalogs import read_catalog

LANGUAGES = ("en", "de", "es")
PLACE = re.compile(r"\{(\w+)\}")
CONTEXT = re.compile(r"\|\w+$")  # 'Game|variant': a text with a context, as i18n.js reads it


@cache
def catalog(language: str) -> dict[str, object]:
    if language == "en":
        return {}
    return {key: value for _line, key, value in read_catalog(language)}


def number(language: str, n: int) -> str:
    """An integer as Intl.NumberFormat writes it: 1.234 in German; Spanish groups from 10.000."""
    grouped = f"{abs(n):,}".replace(",", "." if language != "en" else ",")
    if language == "es" and abs(n) < 10_000:
        grouped = str(abs(n))
    return ("-" if n < 0 else "") + grouped


def plural_category(language: str, n: int) -> str:
    """CLDR's category for an integer count (what Intl.PluralRules selects)."""
    if n == 1:
        return "one"
    if language == "es" and n != 0 and n % 1_000_000 == 0:
        return "many"
    return "other"


class Words:
    """`w("Hand {number} recorded.", number=3)` → the text as the pad shows it in `language`."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.entries = catalog(language)

    def fill(self, text: str, values: dict[str, object]) -> str:
        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in values:
                return match.group(0)
            value = values[name]
            return number(self.language, value) if isinstance(value, int) else str(value)

        return PLACE.sub(one, text)

    def __call__(self, text: str, **values: object) -> str:
        """`text` may carry a context ('Game|variant'); in English the context is dropped."""
        if self.language == "en":
            return self.fill(CONTEXT.sub("", text), values)
        entry = self.entries[text]
        assert isinstance(entry, str), f"{text!r} is a count in lang-{self.language}.js: use n()"
        return self.fill(entry, values)

    def n(self, count: int, one: str, other: str, **values: object) -> str:
        entry = self.entries[one] if self.language != "en" else None
        if isinstance(entry, dict):
            forms = {str(k): str(v) for k, v in entry.items()}
            text = forms.get(plural_category(self.language, count), forms["other"])
        else:
            text = CONTEXT.sub("", one if count == 1 else other)
        return self.fill(text, {**values, "n": count})
