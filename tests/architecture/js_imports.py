"""What each of the service's ES modules (``service/static/**/*.js``) imports, read from its
source (nothing is run): ``import … from``, ``export … from``, ``import '…'`` and ``import(…)``,
the dynamic ones with a template (``import(`./lang-${lang}.js`)``) as the files the template
may name. Comments are left out and strings masked, so that neither reads as an import. It is
a reader of patterns, not a parser: a template literal nested inside another's ``${…}`` (lit-html
views) is not told apart from the code around it, so the tests that read this also check that it
finds the imports known to exist."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "service" / "static"

# Strings (kept as they are: a specifier is one) or comments (dropped).
_STRING_OR_COMMENT = re.compile(
    r"""('(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|//[^\n]*|/\*.*?\*/""",
    re.S,
)
# Read in the source with every string masked (``'7'``: its number), so that nothing inside a
# string reads as an import; the specifier is then looked up by its number.
_IMPORT = re.compile(
    r"""\b(?:import|export)\b[^'"`;()]*?\bfrom\s*['"](?P<spec>\d+)['"]"""
    r"""|\bimport\s*['"](?P<bare>\d+)['"]"""
    r"""|\bimport\(\s*(?:['"](?P<dynamic>\d+)['"]|`(?P<template>\d+)`)\s*\)"""
)


@dataclass(frozen=True)
class JsImport:
    line: int
    specifier: str  # as written; a template's ``${…}`` as ``*``
    dynamic: bool
    template: bool


def code_of(path: Path) -> str:
    """The module's source without its comments (lines kept where they were)."""
    return _STRING_OR_COMMENT.sub(
        lambda m: m.group(1) or "\n" * m.group(0).count("\n"),
        path.read_text(encoding="utf-8"),
    )


def masked(path: Path) -> tuple[str, list[str]]:
    """The module's source without its comments and with each string replaced by its number
    (``'7'``, in the string's own quotes), and the strings: the code, not its texts (lines kept
    where they were)."""
    strings: list[str] = []

    def mask(m: re.Match[str]) -> str:
        lines = "\n" * m.group(0).count("\n")
        if m.group(1) is None:
            return lines  # a comment
        strings.append(m.group(1)[1:-1])
        quote = m.group(1)[0]
        return f"{quote}{len(strings) - 1}{quote}{lines}"

    return _STRING_OR_COMMENT.sub(mask, path.read_text(encoding="utf-8")), strings


def imports(path: Path) -> list[JsImport]:
    """The module's imports, in order."""
    code, strings = masked(path)
    found = []
    for m in _IMPORT.finditer(code):
        line = code.count("\n", 0, m.start()) + 1
        if m.group("template") is not None:
            pattern = re.sub(r"\$\{[^}]*\}", "*", strings[int(m.group("template"))])
            found.append(JsImport(line, pattern, dynamic=True, template=True))
        else:
            number = m.group("spec") or m.group("bare") or m.group("dynamic")
            dynamic = m.group("dynamic") is not None
            found.append(JsImport(line, strings[int(number)], dynamic, template=False))
    return found


def targets(path: Path, imported: JsImport) -> list[Path]:
    """The files under ``service/static`` an import of ``path`` names (a template's, all it may
    name); none for a bare name (``'lit'``) or an address elsewhere."""
    if not imported.specifier.startswith(("./", "../")):
        return []
    if imported.template:
        return sorted(path.parent.glob(imported.specifier))
    target = (path.parent / imported.specifier).resolve()
    return [target] if target.is_relative_to(STATIC) else []
