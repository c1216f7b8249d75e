"""The pad's JavaScript keeps the line length the Python keeps (ruff's ``line-length`` in
pyproject.toml), checked by ``make lint``. Not checked: the catalogs (``lang-*.js``: keyed
lines that stay as they are written), a line that is one string literal (a catalog key, which
the extractor reads whole) and ``lit-html.js`` (vendored as published: minified). Every module
of the pad is wrapped, and so are the club night's pages' scripts (``static/nights``).

Usage: python tools/jscheck/line_length.py  (prints each long line; exit 1 if any)
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAD = ROOT / "service" / "static" / "pad"
NIGHTS = ROOT / "service" / "static" / "nights"
VENDORED = {"lit-html.js"}
ONE_STRING = re.compile(r"""^\s*(['"`])(?:\\.|(?!\1).)*\1[,)\s]*$""")


def limit() -> int:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return int(tomllib.load(f)["tool"]["ruff"]["line-length"])


def long_lines(path: Path, most: int) -> list[str]:
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if len(line) > most and not ONE_STRING.match(line):
            out.append(f"{path.relative_to(ROOT)}:{number}: {len(line)} > {most} characters")
    return out


def main() -> int:
    most = limit()
    found = [
        problem
        for path in [*sorted(PAD.glob("*.js")), *sorted(NIGHTS.glob("*.js"))]
        if not path.name.startswith("lang-") and path.name not in VENDORED
        for problem in long_lines(path, most)
    ]
    print("\n".join(found) or f"pad and nights: every line within {most} characters")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
