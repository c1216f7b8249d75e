"""``bench.standings`` runs: seeded at a small size (on SQLite, whatever ``TEST_DATABASE_URL``
says: the bench would drop that database's schema), it times both seasons' standings,
unfiltered, over a year and over a ragged range, and each answers 200 with a row per player who
sat in it. What it measures is not checked here (no timing in tests); that it still runs is."""

from __future__ import annotations

import re

import pytest

from bench import standings


def test_the_standings_bench_runs_at_a_small_size(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--small", "100", "--large", "400", "--runs", "1", "--pg", ""]
    assert standings.main(argv) == 0
    printed = capsys.readouterr().out
    assert "seeded 100 + 400 hands" in printed
    timed = [line for line in printed.splitlines() if line.strip().startswith("standings")]
    for title in ("standings", "standings from/to", "standings ragged"):
        lines = [line for line in timed if line.strip()[:18].strip() == title]
        assert any("large/small:" in line for line in lines), printed
        rows = [int(found) for line in lines for found in re.findall(r"\((\d+) rows\)", line)]
        assert len(rows) == 2 and all(0 < n <= standings.PLAYERS for n in rows), printed
