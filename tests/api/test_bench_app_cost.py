"""``bench.app_cost`` runs: a few requests of each case, answered before Flask and through it,
every answer a 2xx or 304 (the bench exits with the statuses otherwise). It had rotted once
unseen: its stand-in for the worker's hub lacked the revocation that stream openings now ask
for, and every opening answered 500. What it measures is not checked here; that it runs is."""

from __future__ import annotations

import sys

import pytest

from bench import app_cost


def test_the_app_cost_bench_runs_with_every_answer_a_success(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["app_cost", "--requests", "3", "--rounds", "1"])
    app_cost.main()  # exits (SystemExit) on any answer but a 2xx or 304
    printed = capsys.readouterr().out
    for case in ("read a table", "read, 304", "preview", "stream ticket", "stream opening"):
        assert any(line.startswith(case) for line in printed.splitlines()), printed
