"""The pad's ES modules (``service/static/pad/*.js``) and what each may import, read from their
``import`` lines (nothing is run): each module in one layer of ``PAD_LAYERS`` and importing only
from lower ones; the form's field logic pure; and no game's hand field named in the pad outside
what the game's description gives. (No import circle: ``test_import_circles.py``.)

``docs/architecture.md`` explains the layers: a new screen goes in ``screens`` (one module
each, imported by ``app.js`` only), a new part of screens in ``parts``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.api.pages import PAD_DIR

from .js_imports import code_of, imports, masked

# Each layer, lowest first; a module may import modules of the layers below its own only.
PAD_LAYERS: dict[str, set[str]] = {
    # The page's first moments, importing nothing: the language, what the phone keeps, the one
    # way to the API, and a table's first reads started before the other modules arrive.
    "boot": {"boot.js"},
    # The view library (html`` templates, render): lit-html, vendored as published.
    "library": {"lit-html.js"},
    # The words and the page's language (it loads one catalog, lang-*.js, by itself).
    "words": {"i18n.js"},
    # Building blocks with no notion of a table: elements, storage, the API, QR codes, money as
    # the language writes it, and the hand form's field logic read from a game's description
    # (pure).
    "blocks": {"dom.js", "store.js", "api.js", "qr.js", "money.js", "hand-fields.js"},
    # A table and a club as this phone knows them, and the parts screens are made of.
    "model": {"model.js", "outbox.js", "live.js", "club-shared.js"},
    # A hand, a settlement and a table's settings in words; whether a club night's series is
    # over.
    "wording": {"hand-words.js", "settlement.js", "table-settings.js", "series.js"},
    # The parts screens are made of: the hand form, the settle-up, the writes, the club's admin,
    # what a club night's table shows of its series, a tournament table's result to confirm.
    "parts": {
        "hand.js",
        "settle-up-view.js",
        "writes.js",
        "league-admin.js",
        "series-view.js",
        "result-panel.js",
    },
    # One module per screen.
    "screens": {
        "start.js",
        "table.js",
        "new-hand-screen.js",
        "edit-screen.js",
        "seating-screen.js",
        "share-screen.js",
        "settle-screen.js",
        "league.js",
    },
    # The router: routes, following a table, the outbox, the service worker.
    "app": {"app.js"},
}
PURE = {"hand-fields.js"}
"""Modules that import nothing (a game's description in, answers out)."""
NOT_MODULES = {"sw.js"}
"""The service worker: a script of its own, loaded by the browser, importing nothing."""


def _modules() -> list[str]:
    return sorted(p.name for p in PAD_DIR.glob("*.js") if not p.name.startswith("lang-"))


def imports_of(name: str) -> list[str]:
    """The pad modules ``name`` imports (statically or dynamically), in order; not the catalog
    that ``i18n.js`` picks by the page's language (``lang-*.js``: words, no layer)."""
    found = imports(PAD_DIR / name)
    return [i.specifier[2:] for i in found if i.specifier.startswith("./") and not i.template]


def _layer_of() -> dict[str, int]:
    return {m: i for i, mods in enumerate(PAD_LAYERS.values()) for m in mods}


def test_every_module_has_a_layer() -> None:
    placed = _layer_of()
    missing = [m for m in _modules() if m not in placed and m not in NOT_MODULES]
    assert not missing, f"put each in a layer of PAD_LAYERS: {missing}"
    gone = sorted(set(placed) - set(_modules()))
    assert not gone, f"PAD_LAYERS names modules that do not exist: {gone}"


def test_the_import_lines_are_read() -> None:
    """The reader finds multi-line, dynamic and catalog imports (so the checks below bite)."""
    assert "i18n.js" in imports_of("hand.js")
    assert "hand-fields.js" in imports_of("hand.js")  # a multi-line import
    assert "league.js" in imports_of("app.js")  # a dynamic import
    assert [i.specifier for i in imports(PAD_DIR / "i18n.js") if i.template] == ["./lang-*.js"]


@pytest.mark.parametrize("name", sorted(set(_modules()) - NOT_MODULES))
def test_a_module_imports_only_lower_layers(name: str) -> None:
    layer = _layer_of()
    layers = list(PAD_LAYERS)
    for target in imports_of(name):
        assert (PAD_DIR / target).is_file(), f"{name} imports a missing {target}"
        assert layer[target] < layer[name], (
            f"{name} ({layers[layer[name]]}) imports {target} ({layers[layer[target]]}): "
            "a module imports only from the layers below its own"
        )


def test_the_field_logic_is_pure_and_the_worker_imports_nothing() -> None:
    for name in PURE | NOT_MODULES:
        assert imports_of(name) == [], name


def _games_words() -> tuple[set[str], set[str]]:
    """The names a game's description gives (its hand fields, contracts and options, and the
    game itself) and the values of its options, but for those the pad may write (below)."""
    from service.rules import VARIANTS
    from service.rules.base import Reason
    from service.schemas.tables import TableSchema

    # A record's generic shape, the widgets' names, the description's own `tricks` (per hand,
    # with the table's deck), and who played and his partner: the pad's words for the roles a
    # description gives its seat fields (the first seat field, and the one `own_card_of` it).
    generic = {"kind", "contract", "errors", "matadores", "seat", "game", "tricks", "partner"}
    # A game's options are named by its description too (the option of a contract, of the
    # doubled suit, of a due stake's amount), but for the keys of every table's answer
    # (`couleur`), the options every table with a pool has (services/tables.py) and the
    # reasons of a settlement's transfers (`stake`, `stamm`).
    tables = set(TableSchema().fields) | {"starting_pool", "pool_at_close"}
    tables |= {reason.value for reason in Reason}
    names: set[str] = set()
    values: set[str] = set()
    for variant in VARIANTS.values():
        described = variant.describe()
        names.update(f["name"] for f in described["hand_fields"])
        names.update(c["name"] for c in described["contracts"])
        names.update(o["name"] for o in described["options"] if o["name"] not in tables)
        names.add(variant.name)
        # The suits are every game's (the pad words them as suits, ``dom.suitLabel``).
        for option in described["options"]:
            allowed = option.get("allowed") or ()
            values.update(a for a in allowed if isinstance(a, str) and a not in SUITS)
    return names - generic, values


SUITS = {"clubs", "spades", "hearts", "diamonds"}


def games_words_in(path: Path, names: set[str], values: set[str]) -> list[str]:
    """Each of a game's ``names`` that ``path`` writes: quoted (``'trump'``), read
    (``.trump``) or as an object's key, unquoted or shorthand (``{ trump: … }``,
    ``{ trump }``); and each of its option ``values`` it writes as a key (``{ fixed: … }``,
    ``{ 'fixed': … }``) or compares with (``=== 'fixed'``, ``case 'fixed':``)."""
    code = code_of(path)
    bare, _strings = masked(path)  # strings masked: a key is code, not a text's word
    found = []
    for name in sorted(names):
        word = re.escape(name)
        if re.search(rf"""(['"]){word}\1|\.{word}\b""", code) or re.search(
            rf"[{{,]\s*{word}\s*[:,}}]", bare
        ):
            found.append(f"{path.name}: {name}")
    for value in sorted(values):
        word = re.escape(value)
        key = rf"""[{{,]\s*(['"]?){word}\1\s*:"""
        compared = rf"""(?:[!=]==?|\bcase)\s*(['"]){word}\2"""
        if re.search(rf"{key}|{compared}", code):
            found.append(f"{path.name}: value {value}")
    return found


def test_no_games_hand_fields_in_the_pads_code() -> None:
    """The pad builds its forms and words from ``GET /variants``: no game's own hand field,
    contract or option is named in its code (the generic shape of a record, ``kind`` and
    ``contract``, and the widget names aside), nor a game itself, nor an option's value (what
    differs between games, its doubled suit, its league statistics, the one a new table starts
    with, the titles of its options and their values, comes from its description)."""
    names, values = _games_words()
    found = [word for name in _modules() for word in games_words_in(PAD_DIR / name, names, values)]
    assert not found, found


def test_the_games_words_are_found_however_written(tmp_path: Path) -> None:
    module = tmp_path / "m.js"
    module.write_text(
        "const a = { deck: 1, 'x': 2 };\n"  # an unquoted key
        "const { mediateur } = options;\n"  # shorthand
        "const b = r.trump + 'soloist';\n"  # read, quoted
        "if (v === 'fixed') f({ any: 1 });\n"  # a value compared, a value as a key
        "// deck: a comment; 'frage' too\n"
        "const c = t('{tout} and deck: words');\n"  # a text's words
        "const d = { double: 2 };\n"
    )
    names = {"deck", "mediateur", "trump", "soloist", "frage", "tout", "solo"}
    assert games_words_in(module, names, {"fixed", "any", "literal"}) == [
        "m.js: deck",
        "m.js: mediateur",
        "m.js: soloist",
        "m.js: trump",
        "m.js: value any",
        "m.js: value fixed",
    ]


def test_a_tables_options_are_read_only_by_the_names_its_game_describes() -> None:
    """A table's options are the game's: the pad reads one only by a name the description
    gives it (a contract's ``option``, ``doubled_suit.fixed_option``, a state field's
    ``amount_option``), never as ``options.<name>`` written in its code, but for those every
    table with a pool has (services/tables.py)."""
    from service.rules import VARIANTS

    own = {"starting_pool", "pool_at_close"}
    names = {o["name"] for v in VARIANTS.values() for o in v.describe()["options"]} - own
    found = []
    for name in _modules():
        code = code_of(PAD_DIR / name)
        for option in sorted(names):
            if re.search(rf"""\boptions\)?\.{option}\b|\boptions\[(['"]){option}\1\]""", code):
                found.append(f"{name}: options.{option}")
    assert not found, found
