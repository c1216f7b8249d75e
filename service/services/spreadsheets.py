"""Text cells a spreadsheet takes as written: the one neutralising of every CSV the service
writes (the standings, a table's sheet and settle-up, a club night's money, and any later
one). Call ``spreadsheet_safe`` on every cell of text a client could have chosen."""

from __future__ import annotations

import unicodedata
from typing import Any

# What makes a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a formula, or
# start one: ``=``, ``+``, ``-``, ``@``, and a tab or carriage return before them.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell a spreadsheet could read as a formula gets a leading ``'`` (OWASP's CSV
    injection advice), so that it shows as the text it is: one that starts with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return, also after leading spaces (``" =1+1"``), and
    also in their compatibility forms that spreadsheets read as those (the full-width
    ``＝＋－＠``, the small ``﹦﹢﹣﹫``: NFKC folds them). Anything else is kept as it is;
    numbers are ours, and stay numbers (a net of -5 is -5)."""
    if not isinstance(value, str) or not value:
        return value
    if value.startswith(FORMULA_STARTS):
        return "'" + value
    first = value.lstrip()[:1]
    if first and unicodedata.normalize("NFKC", first).startswith(FORMULA_STARTS):
        return "'" + value
    return value
