"""The layers of ``service/`` and what each may import, read from the source (nothing is run).

This table is the one docs/architecture.md explains: a new module goes into the layer whose
neighbours it needs, and an import against the grain fails here, naming the file and the line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .python_imports import ROOT, SOURCES
from .python_imports import imports as _imports
from .python_imports import module_name as _module_name

# Each layer (a package or module right under ``service``) and the other layers it may
# import. ``service`` itself is the app factory; ``cli`` the flask commands: they wire the rest.
MAY_IMPORT: dict[str, set[str]] = {
    "rules": set(),
    # The words at the edge: catalogs and the wording of the rules' explanation steps; its
    # ``marks`` (N_) is what the other layers import to mark a message.
    "i18n": {"rules"},
    "extensions": set(),
    # The operator's metrics (prometheus-client's objects): counted from every layer below.
    "metrics": set(),
    # The log lines' format and the request id they carry (a context variable).
    "logs": set(),
    "database": {"metrics"},
    # The one JSON encoder (answers, stored columns, canonical texts), and Flask's JSON
    # provider written by it.
    "json_text": set(),
    "json_provider": {"json_text"},
    # gunicorn's worker class (gunicorn.conf.py) and the event streams its loop holds: the
    # server, not the app.
    "stream_hub": set(),
    "http_worker": {"stream_hub", "metrics"},
    "config": {"database", "json_text"},
    "persistence": {"extensions"},
    "services": {
        "rules",
        "persistence",
        "extensions",
        "database",
        "i18n",
        "json_text",
        "metrics",
        "logs",
    },
    "schemas": {"rules", "services", "persistence", "i18n", "json_text"},
    "middleware": {
        "logs",
        "metrics",
        "rules",
        "schemas",
        "services",
        "persistence",
        "extensions",
        "database",
        "config",
        "i18n",
        "json_text",
    },
    "api": {
        "rules",
        "schemas",
        "services",
        "middleware",
        "extensions",
        "config",
        "i18n",
        "json_text",
        "metrics",
        "logs",
    },
    "cli": {
        "logs",
        "metrics",
        "rules",
        "schemas",
        "services",
        "persistence",
        "middleware",
        "api",
        "extensions",
        "database",
        "config",
        "i18n",
        "json_text",
        "json_provider",
    },
    "service": {
        "logs",
        "metrics",
        "rules",
        "schemas",
        "services",
        "persistence",
        "middleware",
        "api",
        "cli",
        "extensions",
        "database",
        "config",
        "i18n",
        "json_text",
        "json_provider",
    },
}

# Libraries a layer must not import: the rules are pure, the use cases know no HTTP.
MUST_NOT_USE: dict[str, set[str]] = {
    "rules": {
        "flask",
        "flask_smorest",
        "flask_sqlalchemy",
        "werkzeug",
        "sqlalchemy",
        "marshmallow",
    },
    "services": {"flask", "flask_smorest", "werkzeug", "marshmallow"},
    "persistence": {"flask", "flask_smorest", "werkzeug", "marshmallow"},
}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "service"


def test_every_layer_of_the_tree_is_in_the_table() -> None:
    layers = {_layer(_module_name(path)) for path in SOURCES}
    assert layers == set(MAY_IMPORT), "a new package under service/: give it a row above"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_layers(path: Path) -> None:
    layer = _layer(_module_name(path))
    against = []
    for line, name in _imports(path):
        top = name.split(".")[0]
        if top == "service":
            target = _layer(name)
            if target not in (layer, "service") and target not in MAY_IMPORT[layer]:
                against.append(f"line {line}: {name} ({layer} may not import {target})")
        elif top in MUST_NOT_USE.get(layer, set()):
            against.append(f"line {line}: {name} ({layer} may not use {top})")
    assert against == []


def test_the_table_has_no_circle() -> None:
    # Two layers that may import each other would be one layer in two places.
    for layer, allowed in MAY_IMPORT.items():
        for other in allowed:
            assert layer not in MAY_IMPORT[other], f"{layer} and {other} may import each other"


def _documented_layers() -> dict[str, set[str]]:
    """docs/architecture.md's layer table: each layer and the layers it says it may import
    ("everything but `x`": every other layer but ``x``)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("| layer | may import (besides itself) | may not use |", 1)[1]
    documented: dict[str, set[str]] = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        layers_cell, imports_cell = line.split("|")[1:3]
        for layer in re.findall(r"`([a-z0-9_]+)`", layers_cell):
            named = set(re.findall(r"`([a-z0-9_]+)`", imports_cell))
            if "everything but" in imports_cell:
                named = set(MAY_IMPORT) - named - {layer}
            documented[layer] = named
    return documented


def test_the_documented_layer_table_is_this_one() -> None:
    # ``service`` (the app factory) is never an import's target that counts (see above).
    documented = {k: v - {"service"} for k, v in _documented_layers().items()}
    held = {k: v - {"service"} for k, v in MAY_IMPORT.items()}
    assert documented == held, "docs/architecture.md's layer table and MAY_IMPORT differ"
