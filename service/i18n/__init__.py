"""The service's languages: English, German and Spanish, chosen per request by
``Accept-Language``, with the message catalogs of ``locales/`` (gettext, through Babel).

Words live at the edge (architecture habit 9): the rules return explanation steps as values
(``rules.Step``: a code and its numbers), and ``explain`` words them in the reader's language;
problems' ``title`` and ``detail`` go through ``gettext`` in ``api/errors.py``. Everything here
works without a Flask context, so the WSGI layers that answer before Flask and the unit tests
use the same words as the views.

The catalogs are the ``.po`` files themselves: each is compiled once per process, in memory,
the first time its language is asked for (``translations``), so a fresh clone, ``make serve``
and ``make test`` need no compile step and never read a stale ``.mo``. ``make translations``
extracts the messages from the code and updates the ``.po`` files; a test fails when a
catalog misses one (``tests/unit/test_catalogs.py``).
"""

from __future__ import annotations

import functools
import io
import pathlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header

from ..rules import Phrase, Step
from ..rules.base import with_parties
from . import explanations as words
from . import library

LANGUAGES: tuple[str, ...] = ("en", "de", "es")
"""What the service speaks, the default first (English is the catalogs' message ids)."""
DEFAULT = LANGUAGES[0]
LOCALES = pathlib.Path(__file__).parent / "locales"
DOMAIN = "messages"
VARY = "Accept-Language"
_E = TypeVar("_E", bound=HTTPException)


@functools.cache
def negotiate(accept_language: str | None) -> str:
    """The language to answer in: the client's most preferred one we speak, a regional tag
    counting for its language (``de-AT`` is ``de``), else English. (Werkzeug's ``best_match``
    would take a lower-rated exact ``de`` over a preferred ``en-GB``.)"""
    if not accept_language:
        return DEFAULT
    for tag, quality in parse_accept_header(accept_language[:500], LanguageAccept):
        language = tag.split("-")[0].lower()
        if quality > 0 and language in LANGUAGES:
            return language
    return DEFAULT


@functools.cache
def translations(language: str) -> NullTranslations:
    """``language``'s catalog, compiled from its ``.po`` file (English: the message ids)."""
    path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == DEFAULT or not path.exists():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def gettext(message: str, language: str, **values: Any) -> str:
    """``message`` in ``language``, its ``%(name)s`` filled from ``values``."""
    text = translations(language).gettext(message)
    return text % values if values else text


def word(phrase: Phrase | str, language: str = DEFAULT) -> str:
    """What the rules said (a ``rules.Phrase``: a rule violation's message, its nested words)
    in ``language``; a plain text is given as it is. English is the phrase's own text."""
    if not isinstance(phrase, Phrase):
        return phrase
    text = translations(language).gettext(phrase.text)
    if not phrase.values:
        return text
    return text % {
        name: word(value, language) if isinstance(value, Phrase) else value
        for name, value in phrase.values.items()
    }


def word_message(text: str, language: str = DEFAULT) -> str:
    """A message of a problem's ``errors`` that arrived as English text (marshmallow's, the
    schemas' own: ``i18n.library``) in ``language``; one the catalogs do not know as it is."""
    if language == DEFAULT:
        return text
    catalog = translations(language)
    if text in library.FIXED:
        return catalog.gettext(text)
    for pattern, message in library.PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return catalog.gettext(message) % found.groupdict()
    return catalog.gettext(text)


def described(error: _E, phrase: Phrase) -> _E:
    """``error`` (a Werkzeug ``HTTPException``) described by ``phrase``: its ``description`` the
    English, and the phrase kept for the problem's ``detail`` to word (``api/errors.py``)."""
    error.description = str(phrase)
    error.phrase = phrase  # type: ignore[attr-defined]
    return error


# CLDR's minimumGroupingDigits where it is not 1: Spanish writes 1234 but 12.345. The browser's
# Intl.NumberFormat applies it; Babel does not, so it is applied here.
_MINIMUM_GROUPING_DIGITS = {"es": 2}


def number(value: int, language: str) -> str:
    """An integer as the pad's ``i18n.js`` ``num`` writes it (the browser's Intl): below 1,000
    the bare digits, else grouped as the language groups them."""
    grouped_from = 10 ** (2 + _MINIMUM_GROUPING_DIGITS.get(language, 1))
    if abs(value) < grouped_from:
        return str(value)
    return format_decimal(value, locale=language)


def signed(value: int, language: str | None = None) -> str:
    """A score or a balance as the pad writes it (``dom.js``'s ``signed``): a plus for a gain,
    a real minus sign (U+2212) for a loss, a bare 0; with a language, the digits as
    :func:`number` writes them, without one plain digits."""
    digits = str(abs(value)) if language is None else number(abs(value), language)
    return f"+{digits}" if value > 0 else f"\u2212{digits}" if value < 0 else "0"


def explain(
    steps: Iterable[Any],
    language: str = DEFAULT,
    names: Sequence[str] | None = None,
    players: int | None = None,
) -> list[str]:
    """Each step of an explanation as a line in ``language``. A step is a ``rules.Step`` or its
    stored form (``{"code": …, "args": {…}}``); a line stored as text before explanations
    were kept as steps is given as it is.

    A seat is called by its player's name (``names``, in seat order) where the table knows
    them; otherwise by a number counted from 1, as the players count, which says the count
    when the number of ``players`` is given ("seat 1 of 4": an answer's ``from: 0`` beside it
    is the same player)."""
    catalog = translations(language)
    seat_words = SeatWords(catalog, names, players)
    lines = []
    for step in steps:
        if isinstance(step, str):
            lines.append(step)
            continue
        line = _word(step, catalog, seat_words)
        # A sentence starts with a capital; a name stays as its player writes it.
        lines.append(line if seat_words.begins_with_a_name(line) else line[:1].upper() + line[1:])
    return lines


class SeatWords:
    """What an explanation calls each seat: the player's name, or a number counted from 1."""

    def __init__(
        self, catalog: NullTranslations, names: Sequence[str] | None, players: int | None
    ) -> None:
        self.catalog = catalog
        self.names = tuple(names) if names is not None else None
        self.players = players

    def __call__(self, seat: int) -> str:
        if self.names is not None:
            return self.names[seat]
        if self.players is not None:
            return self.catalog.gettext(words.SEAT_OF) % {"seat": seat + 1, "players": self.players}
        return self.catalog.gettext(words.SEAT) % {"seat": seat + 1}

    def begins_with_a_name(self, line: str) -> bool:
        return self.names is not None and line.startswith(self.names)


def _word(step: Any, catalog: NullTranslations, seat_words: SeatWords) -> str:
    if isinstance(step, Mapping):
        code, args = step["code"], step.get("args") or {}
    else:
        code, args = step.code, step.args
    if code == "list":
        return ", ".join(_word(item, catalog, seat_words) for item in args["items"])
    message = words.MESSAGES[code]
    values = {name: _value(name, value, catalog, seat_words) for name, value in args.items()}
    if isinstance(message, tuple):
        text = catalog.ngettext(message[0], message[1], args[words.PLURALS[code]])
    else:
        text = catalog.gettext(message)
    return text % values


def _value(name: str, value: Any, catalog: NullTranslations, seat_words: SeatWords) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        if name in words.SEAT_ARGS:
            return seat_words(value)
        if name == "score":
            return signed(value)
        return str(value)
    if name == "seats":
        return _seats(value, catalog, seat_words)
    if isinstance(value, Step | Mapping):
        return _word(value, catalog, seat_words)
    if isinstance(value, list | tuple):
        return words.JOINERS.get(name, ", ").join(
            _word(item, catalog, seat_words) for item in value
        )
    return str(value)


def _seats(seats: Iterable[int], catalog: NullTranslations, seat_words: SeatWords) -> str:
    """ "seat 2", "Anna and Bea", "seat 1, seat 2 and seat 4": each seat on its own."""
    named = [seat_words(seat) for seat in seats]
    if len(named) == 1:
        return named[0]
    return catalog.gettext(words.SEATS_AND) % {"seats": ", ".join(named[:-1]), "last": named[-1]}


def explain_session(
    steps: Iterable[Any], language: str = DEFAULT, names: Sequence[str] | None = None
) -> str:
    """A session's progress (``SessionOutcome.reason``) as one line in ``language``, its seats
    called by ``names`` when given (as ``explain``); a reason stored as text is given as it
    is."""
    if isinstance(steps, str):
        return steps
    catalog = translations(language)
    seat_words = SeatWords(catalog, names, None)
    return "; ".join(
        step if isinstance(step, str) else _word(step, catalog, seat_words) for step in steps
    )


def settlement_view(
    settlement: Mapping[str, Any],
    language: str,
    names: Sequence[str] | None = None,
    players: int | None = None,
) -> dict[str, Any]:
    """A settlement as the HTTP contract shows it (``Settlement.to_dict`` or a stored one),
    its explanation worded in ``language``, its seats called as ``explain`` calls them."""
    return {
        **settlement,
        "transfers": [with_parties(t) for t in settlement["transfers"]],
        "explanation": explain(settlement["explanation"], language, names, players),
    }


def seat_names(table: Mapping[str, Any]) -> list[str]:
    """The names of a table's players in seat order, from the table as answers show it."""
    return [seat["name"] for seat in table["seats"]]


def named_hand(hand: Mapping[str, Any], language: str, names: Sequence[str]) -> dict[str, Any]:
    """A hand as answers show it, its explanation worded in ``language`` with the players'
    ``names`` (its schema's ``Explanation`` passes worded lines through as they are)."""
    settlement = hand.get("settlement")
    if settlement is None:
        return dict(hand)
    lines = explain(settlement["explanation"], language, names)
    return {**hand, "settlement": {**settlement, "explanation": lines}}


def named_session(table: Mapping[str, Any], language: str) -> dict[str, Any]:
    """A table as answers show it, its session's reason worded with its players' names."""
    session = table.get("session")
    if session is None or isinstance(session.get("reason"), str):
        return dict(table)
    reason = explain_session(session["reason"], language, seat_names(table))
    return {**table, "session": {**session, "reason": reason}}


def current_language() -> str:
    """The language of the request being answered (English outside a request)."""
    from flask import g, has_request_context, request

    if not has_request_context():
        return DEFAULT
    language: str | None = g.get("language")
    if language is None:
        language = g.language = negotiate(request.headers.get("Accept-Language"))
    return language


def say_the_language(response: Any, path: str, language: str) -> Any:
    """What an answer of the API worded for ``language`` says about it: its language, and that
    it varies with the client's (so a cache keeps one body per language); a 304 repeats
    neither (the cached answer did). Flask's hook and the answers made before Flask
    (``middleware/early.py``) both end here."""
    if path.startswith("/api/") and response.status_code != 304:
        response.headers["Content-Language"] = language
        response.vary.add(VARY)
    return response


def _say_the_language(response: Any) -> Any:
    from flask import request

    return say_the_language(response, request.path, current_language())


def init_app(app: Any) -> None:
    """Every answer of the API depends on ``Accept-Language`` (its problems' words at least):
    each says so, and in which language it is (a 304 repeats neither: the cached answer did)."""
    app.after_request(_say_the_language)
