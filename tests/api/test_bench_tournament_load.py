"""``bench.tournament_load`` runs small: a tournament of 16 players (and 2 waiting) through
registration, check-in, two series of two hands and the prize list on a real gunicorn, every
answer the one expected and its checks holding (each player seated once per series, every
table's chips adding up, the cash sheet to the cent). What it measures is not checked here;
that it runs, and that it checks, is."""

from __future__ import annotations

import sys

import pytest

from bench import tournament_load

pytestmark = pytest.mark.slow


def test_the_tournament_load_bench_runs_and_every_answer_is_the_expected_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["tournament_load", "--players", "16", "--waiting", "2", "--hands", "2"]
    monkeypatch.setattr(sys, "argv", [*argv, "--phones", "4"])
    tournament_load.main()  # exits (SystemExit) with the reason when a check fails
    printed = capsys.readouterr().out
    assert "4 tables, 2 series of 2 hands" in printed
    assert "every answer as expected" in printed


def test_the_bench_fails_when_a_table_does_not_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its chips check can fail: a table read back with a chip too many stops the run."""
    real = tournament_load.Client.call

    def one_chip_more(self, step, method, path, token, expect, **kwargs):
        answer = real(self, step, method, path, token, expect, **kwargs)
        if method == "GET" and isinstance(answer, dict) and "pool" in answer:
            answer = {**answer, "pool": answer["pool"] + 1}
        return answer

    monkeypatch.setattr(tournament_load.Client, "call", one_chip_more)
    argv = ["tournament_load", "--players", "8", "--waiting", "0", "--hands", "1"]
    monkeypatch.setattr(sys, "argv", [*argv, "--phones", "2", "--series", "1"])
    with pytest.raises(SystemExit, match="the chips add up to 1, not 0"):
        tournament_load.main()
