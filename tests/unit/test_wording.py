"""The German and Spanish words read right, where a check can be mechanical: in every text of the
server's catalogs (``service/i18n/locales``) and of the pad's (``service/static/pad/lang-*.js``).

- A minus is the real minus sign (U+2212), never a hyphen-minus standing where a minus is meant
  ("sonst -Wert", "je -2"): a hyphen-minus after a space, a bracket or the start and before a
  digit, a placeholder or a word.
- A sentence after a full stop, a question mark or an exclamation mark starts with a capital
  ("Standard: nein. der Mediateur …" and "¿quién …? indica …" fail); an abbreviation's dot
  ("Min. hands") is no end of a sentence.
- An explanation step says what happened at a seat whose number the pad replaces by the player's
  name, so it must read for a woman as for a man: no pronoun or role noun that has a gender
  ("Platz 2 gibt als Nächster" reads "Maximiliane gibt als Nächster"; "juega solo" for Inmaculada).
- A player named in a text is not called by a masculine noun ("einen Spieler namens
  Maximiliane …", "un jugador llamado Inmaculada …", "Geber: Maximiliane …"): "jemanden
  namens", "alguien llamado", "Gegeben hat Maximiliane …".

docs/i18n.md names the words and the rules these come from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from service.i18n import LOCALES, explain
from service.i18n.explanations import MESSAGES, SEAT, SEATS_AND
from service.rules import preview

PAD = Path(__file__).parents[2] / "service" / "static" / "pad"
LANGUAGES = ("de", "es")

# A hyphen-minus where a minus sign belongs: not inside a word ("Link-Local", "Pik-Ass") nor
# after one ("Admin- oder Lese-Token"), but after a space, a bracket, a sign or the start.
MINUS_IN_DISGUISE = re.compile(r"(?:^|[\s(\[=+/:;])-(?=[\d%{]|[^\W\d_])")
# The end of a sentence and the next one's first letter; a question quoted inside a sentence
# («¿compañero?» porque …) has its closing quote after the mark, so it is none.
SENTENCE_END = re.compile(r"(\S*)[.?!]\s+(?=[^\W\d_])(\S)")
ABBREVIATIONS = {"de": {"Min", "z.B", "bzw", "ca", "etc", "usw"}, "es": {"Mín", "p.ej", "etc"}}

# Words with a gender, in an explanation about a seat that the pad names: German pronouns and
# the masculine of "next", "dealer", "soloist"; Spanish "he", "alone" (m.), "each one" (m.),
# "the one who deals", "the soloist".
GENDERED = {
    "de": re.compile(
        r"\b(er|ihm|ihn|sein|seine|seinem|seinen|seiner|seines|selbst er|Nächster|der Geber"
        r"|Der Geber|der Solist|Der Solist|den Solisten|dem Solisten)\b"
    ),
    "es": re.compile(r"\b(él|juega solo|cada uno|el que da|El que da|el solista|El solista)\b"),
}

# A person named in a text (a club's player, by name) called by a masculine noun: "einen
# Spieler namens Maximiliane Lüdenscheidt", "un jugador llamado Inmaculada …", "Geber: Anna …".
NAMED_AS_A_MAN = {
    "de": re.compile(
        r"\b(?:ein|einen|einem|der|den|dem|des) Spielers? (?:namens )?(?:%\(name|\{name)"
        r"|\b(?:Geber|Spieler|Partner|Gewinner|Verlierer|Solist|Gegner): (?:%\(name|\{name)"
    ),
    "es": re.compile(
        r"\b(?:un|el|al|del) jugador (?:llamado )?(?:%\(name|\{name)"
        r"|\b(?:[Rr]epartidor|[Jj]ugador|[Gg]anador|[Pp]erdedor|[Cc]ompañero): (?:%\(name|\{name)"
    ),
}


def server_texts(language: str) -> Iterator[tuple[str, str, str]]:
    """(msgid, where, msgstr) of every translated message, each plural form on its own."""
    with (LOCALES / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        for form in forms:
            yield key, f"messages.po ({language}) {key!r}", form


def pad_texts(language: str) -> Iterator[tuple[str, str, str]]:
    """(key, where, text) of every entry of the pad's catalog, each plural form on its own."""
    path = PAD / f"lang-{language}.js"
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text.startswith('"'):
            continue
        ((key, value),) = json.loads("{" + text.rstrip(",") + "}").items()
        forms = list(value.values()) if isinstance(value, dict) else [value]
        for form in forms:
            yield key, f"{path.name}:{number}", form


def every_text(language: str) -> Iterator[tuple[str, str, str]]:
    yield from server_texts(language)
    yield from pad_texts(language)


def test_the_texts_are_read() -> None:
    for language in LANGUAGES:
        assert len(list(server_texts(language))) > 500
        # (fewer since a game's option words are the server's, in its description)
        assert len(list(pad_texts(language))) > 450


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_minus_is_a_minus_sign(language: str) -> None:
    found = [
        f"{where}: {text!r}"
        for _key, where, text in every_text(language)
        if MINUS_IN_DISGUISE.search(text)
    ]
    assert not found, "a hyphen-minus where U+2212 belongs:\n" + "\n".join(found)


def sentences_in_lower_case(text: str, language: str) -> list[str]:
    """The first letters of the sentences in ``text`` (after the first) that are lower case."""
    return [
        first
        for before, first in SENTENCE_END.findall(text)
        if first.islower() and before.lstrip('(¿¡«„"') not in ABBREVIATIONS[language]
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_sentence_starts_with_a_capital(language: str) -> None:
    found = [
        f"{where}: {text!r}"
        for _key, where, text in every_text(language)
        if sentences_in_lower_case(text, language)
    ]
    assert not found, "lower case after the end of a sentence:\n" + "\n".join(found)


def _explanation_ids() -> set[str]:
    ids = {SEAT, SEATS_AND}
    for message in MESSAGES.values():
        ids.update([message] if isinstance(message, str) else message)
    return ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_explanation_fits_any_player(language: str) -> None:
    ids = _explanation_ids()
    found = [
        f"{where}: {text!r}"
        for key, where, text in server_texts(language)
        if key in ids and GENDERED[language].search(text)
    ]
    assert not found, "a word with a gender beside a seat the pad names:\n" + "\n".join(found)


# German after a colon capitalises a sentence, and a capital "Sie" then reads as the polite "you"
# (which the catalogs never use: they address the reader with the infinitive), not "they".
POLITE_YOU_OR_THEY = re.compile(r"[:;] (?:Sie|Ihr|Ihre|Ihnen)\b")


# German addresses its reader with the infinitive, never "du" (docs/i18n.md).
GERMAN_DU = re.compile(
    r"\b(?:du|dich|dir|dein|deine|deinen|deinem|deiner|Öffne|komm|Tippe|Wähle)\b"
)


def test_german_never_says_du() -> None:
    found = [f"{where}: {text!r}" for _k, where, text in every_text("de") if GERMAN_DU.search(text)]
    assert not found, "'du' where the infinitive belongs:\n" + "\n".join(found)


def test_german_after_a_colon_never_reads_as_the_polite_you() -> None:
    found = [
        f"{where}: {text!r}"
        for _key, where, text in every_text("de")
        if POLITE_YOU_OR_THEY.search(text)
    ]
    assert not found, "'Sie' after a colon (you or they?):\n" + "\n".join(found)


# One word for one thing (docs/i18n.md): the word each language keeps, and the others it saw.
NOT_THE_WORD = {
    "de": ("Verfall", "niedere ", "niedrigere", "Kartenpunkte", "Abgeber", "Lese-Link"),
    "es": ("carta llamada", "apuesta", "clave de administrador", "teléfono", "juega solo"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_word_for_one_thing(language: str) -> None:
    found = [
        f"{where}: {word!r} in {text!r}"
        for _key, where, text in every_text(language)
        for word in NOT_THE_WORD[language]
        if word in text
    ]
    assert not found, "another word for a thing that has one:\n" + "\n".join(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_named_is_named_in_words_that_fit_anyone(language: str) -> None:
    found = [
        f"{where}: {text!r}"
        for _key, where, text in every_text(language)
        if NAMED_AS_A_MAN[language].search(text)
    ]
    assert not found, "a player named with a masculine noun:\n" + "\n".join(found)


def test_the_checks_catch_what_the_issue_saw() -> None:
    """The faults issue 26 found in the catalogs fail these checks (so a check that can never
    fail would show here)."""
    assert MINUS_IN_DISGUISE.search("Platz 1 und Platz 3 erhalten je -2; die Gegner 0")
    assert MINUS_IN_DISGUISE.search("sonst -Wert")
    assert not MINUS_IN_DISGUISE.search("Admin- oder Lese-Token, Link-Local-Adresse, Pik-Ass")
    assert not MINUS_IN_DISGUISE.search("je \u22122")
    assert sentences_in_lower_case("Standard: nein. der Mediateur", "de") == ["d"]
    assert sentences_in_lower_case("Por defecto: Tréboles. el color", "es") == ["e"]
    assert sentences_in_lower_case("¿quién tiene la carta? indica", "es") == ["i"]
    assert sentences_in_lower_case("Mín. manos; preguntó «¿compañero?» porque", "es") == []
    assert GENDERED["de"].search("Platz 2 gibt als Nächster")
    assert GENDERED["de"].search("nachdem er das Ass gab")
    assert GENDERED["es"].search("asiento 2 juega solo")
    assert not GENDERED["es"].search("asiento 2 juega a solas; solo cuenta el color")
    assert NAMED_AS_A_MAN["de"].search("Der Club hat schon einen Spieler namens %(name)s.")
    assert NAMED_AS_A_MAN["es"].search("El club ya tiene un jugador llamado %(name)s.")
    assert not NAMED_AS_A_MAN["de"].search("Der Club hat schon jemanden namens %(name)s.")
    assert NAMED_AS_A_MAN["de"].search("Geber: {name} · korrigiert")
    assert GERMAN_DU.search("Öffne den Club im Solo-Block und komm dann hierher zurück.")
    assert POLITE_YOU_OR_THEY.search("Die Tische sind geschlossen: Sie brauchen keine Links.")
    assert not NAMED_AS_A_MAN["de"].search("Gegeben hat {name} · korrigiert")


LONE_REVOKE = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
PARTNER_REVOKE = {
    "contract": "simple",
    "trump": "spades",
    "declarer": 2,
    "called": {"rank": "ace", "suit": "diamonds"},
    "partner": 0,
    "tricks": 5,
}


@pytest.mark.parametrize(
    ("hand", "revoker", "language", "decides", "result"),
    [
        (
            LONE_REVOKE,
            1,
            "de",
            "Platz 2 bedient nicht (Renonce): wer allein spielt, verliert das Spiel",
            "Solo in Herz verloren durch Renonce von Platz 2: 4 an jeden Gegner",
        ),
        (
            LONE_REVOKE,
            1,
            "es",
            "Asiento 2 renuncia: quien juega a solas pierde el juego",
            "Solo a corazones, mano perdida por renuncio de asiento 2: 4 a cada contrario",
        ),
        (
            PARTNER_REVOKE,
            0,
            "de",
            "Platz 1 bedient nicht (Renonce): die Spielerseite verliert das Spiel",
            None,
        ),
        (PARTNER_REVOKE, 0, "es", "Asiento 1 renuncia: el bando que juega pierde el juego", None),
    ],
)
def test_who_loses_on_an_error_reads_for_one_declarer_and_for_a_side(
    hand: dict[str, object], revoker: int, language: str, decides: str, result: str | None
) -> None:
    """American Solo's "the declarer loses" was worded "die Spieler verliert" / "los jugador
    pierde" (the article of the plural before a singular); the result agrees with the hand
    ("mano perdida"), not with the contract's gender."""
    settlement = preview(
        "american", 4, None, None, {**hand, "errors": [{"kind": "revoke", "seat": revoker}]}
    )
    lines = explain(settlement.explanation, language)
    assert lines[2] == decides
    if result is not None:
        assert lines[3] == result
