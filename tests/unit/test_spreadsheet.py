"""CSV for a spreadsheet in the reader's language (``service.services.spreadsheet``): the
separators of each language, whole numbers whole, and every formula start neutralised."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.services.spreadsheet import FORMULA_STARTS, cell, csv_text, safe_text


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("=1+1", "'=1+1"),
        ('  =HYPERLINK("x")', '\'  =HYPERLINK("x")'),
        ("\u00a0+49 170", "'\u00a0+49 170"),
        ("＝SUMME(A1)", "'＝SUMME(A1)"),
        ("＋1", "'＋1"),
        ("－1", "'－1"),
        ("＠Anna", "'＠Anna"),
        ("@Anna", "'@Anna"),
        ("-Bob", "'-Bob"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("Anna-Katharina Berger", "Anna-Katharina Berger"),
        ("a=1", "a=1"),
        ("", ""),
    ],
)
def test_a_formula_start_is_neutralised_after_blanks_and_in_its_full_width_form(
    text: str, written: str
) -> None:
    assert safe_text(text) == written


def test_numbers_are_written_as_the_language_writes_them_and_whole_ones_stay_whole() -> None:
    assert cell(700.0, ",") == "700"
    assert cell(-5) == "-5"
    assert cell(12.5, ",") == "12,5"
    assert cell(Decimal("-0.15"), ",") == "-0,15"
    assert cell(Decimal("-0.15")) == "-0.15"
    assert cell(None) == ""


def test_german_and_spanish_separate_cells_with_semicolons_english_with_commas() -> None:
    rows = [["Anna; Berger", 1.5, 700.0]]
    german = csv_text(["Name", "Saldo", "Spiele"], rows, "de")
    assert german == 'Name;Saldo;Spiele\r\n"Anna; Berger";1,5;700\r\n'
    assert (
        csv_text(["name", "net", "hands"], rows, "en")
        == "name,net,hands\r\nAnna; Berger,1.5,700\r\n"
    )


@given(st.lists(st.text(), min_size=1, max_size=5), st.sampled_from(["en", "de", "es"]))
def test_no_cell_read_back_starts_a_formula(texts: list[str], language: str) -> None:
    separator = "," if language == "en" else ";"
    written = csv_text(["a"] * len(texts), [texts], language)
    read = list(csv.reader(io.StringIO(written, newline=""), delimiter=separator))
    for value in read[1]:
        assert value.lstrip()[:1] not in FORMULA_STARTS
        assert not value.startswith(("\t", "\r"))
