"""The README and docs/ name only what exists: every ``SOLO_`` setting is a key the service
reads, every ``make`` target is in the Makefile, every file named in backticks is in the tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SOURCE = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "service").rglob("*.py"))
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
# Paths the pages may name that are made at run time, or by another page's instructions.
MADE_AT_RUN_TIME = {"instance/solo.db", "players.txt"}


def _ids(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_every_setting_named_is_one_the_service_reads(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    named = set(re.findall(r"\bSOLO_([A-Z][A-Z0-9_]*[A-Z0-9])\b", text))
    named.discard("RATELIMIT")  # "SOLO_RATELIMIT_*", the family
    unknown = sorted(
        key
        for key in named
        if f'"{key}"' not in SOURCE and not re.search(rf"^\s+{key}(: [^=]+)? = ", SOURCE, re.M)
    )
    assert unknown == [], f"{page.name} names settings the service does not read"


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_every_make_target_named_is_in_the_makefile(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    code = re.findall(r"```.*?```|`[^`\n]+`", text, re.S)  # code blocks and spans, not prose
    targets = {t for span in code for t in re.findall(r"\bmake ([a-z][a-z-]*)\b", span)}
    missing = sorted(t for t in targets if not re.search(rf"^{re.escape(t)}:", MAKEFILE, re.M))
    assert missing == [], f"{page.name} names make targets the Makefile lacks"


def _exists(path: str) -> bool:
    """A path from the root, or a bare file name (``errors.py``) some folder of the tree holds."""
    if "/" in path:
        return (ROOT / path.rstrip("/")).exists()
    return (
        any(ROOT.glob(f"service/**/{path}"))
        or (ROOT / path).exists()
        or any(ROOT.glob(f"tests/**/{path}"))
        or any(ROOT.glob(f"bench/**/{path}"))
    )


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_every_path_in_backticks_is_in_the_tree(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    paths = set(
        re.findall(
            r"`((?:service|tests|bench|migrations|docs|deploy)/[\w./-]*"
            r"|[\w-]+\.(?:py|toml|yaml))`",
            text,
        )
    )
    missing = sorted(p for p in paths if p not in MADE_AT_RUN_TIME and not _exists(p))
    assert missing == [], f"{page.name} names paths that are not in the tree"


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_no_page_keeps_a_merges_conflict_markers(page: Path) -> None:
    """A merge's markers left in a page (docs/changes.md kept a ``=======`` and a
    ``>>>>>>> h-tournament`` for a day) are half of two texts, each read as the whole."""
    markers = re.compile(r"^(<{7} |={7}$|>{7} )", re.MULTILINE)
    assert not markers.findall(page.read_text(encoding="utf-8"))
