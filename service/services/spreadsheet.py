"""CSV for a spreadsheet, in the reader's language: one path for every CSV the service answers.

English is RFC 4180 as programs read it: a comma between cells, a point in numbers, the
columns by their API names. German and Spanish spreadsheets read a semicolon between cells and
a decimal comma (a comma-separated file opens there as one column, and "0.05" as a date or
text): for them the cells are separated by ``;``, numbers take a decimal comma, and the header
is in their words. Whole numbers stay whole ("700", never "700.0"); numbers have no grouping
and an ASCII minus, which every spreadsheet reads as a number.

Text a spreadsheet would run as a formula is neutralised with a leading ``'`` (OWASP's CSV
injection advice): a cell that starts, after any blanks, with ``=``, ``+``, ``-`` or ``@``, or
their full-width and small forms ``＝＋－＠ ﹦﹢﹣﹫`` (some spreadsheets take those for formulas
too), or with a tab or a carriage return. The numbers are the service's own and stay numbers."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

# language -> (the cells' separator, the decimal mark)
_SEPARATORS = {"de": (";", ","), "es": (";", ",")}
_ENGLISH = (",", ".")
FORMULA_STARTS = frozenset("=+-@")
_CONTROL_STARTS = ("\t", "\r")


def safe_text(value: str) -> str:
    """``value`` as a cell that shows as the text it is (see the module's docstring): the
    first character after any blanks is folded by NFKC, so the full-width ``＝＋－＠`` and the
    small ``﹦﹢﹣﹫`` count as the signs they are read as."""
    first = value.lstrip()[:1]
    if value.startswith(_CONTROL_STARTS) or (
        first and unicodedata.normalize("NFKC", first)[:1] in FORMULA_STARTS
    ):
        return "'" + value
    return value


def spreadsheet_safe(value: Any) -> Any:
    """``safe_text`` for text; anything else (the service's own numbers) as it is."""
    return safe_text(value) if isinstance(value, str) else value


def _number(value: int | float | Decimal, decimal_mark: str) -> str:
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = format(value, "f") if isinstance(value, Decimal) else repr(value)
    return text.replace(".", decimal_mark)


def cell(value: Any, decimal_mark: str = ".") -> str:
    """One cell: None empty, a number as the language writes it, text made safe."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | Decimal):
        return _number(value, decimal_mark)
    return safe_text(str(value))


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]], language: str) -> str:
    """A header line (already in the reader's words) and one line per row, in ``language``'s
    separators, CRLF line ends."""
    separator, decimal_mark = _SEPARATORS.get(language, _ENGLISH)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    writer.writerow([safe_text(h) for h in header])
    for row in rows:
        writer.writerow([cell(value, decimal_mark) for value in row])
    return out.getvalue()
