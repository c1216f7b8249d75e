"""``bench.tournament_followers`` runs: tiny (4 tables, 40 followers of whom 20 its own, 14 s),
on SQLite whatever ``TEST_DATABASE_URL`` says (the bench would drop that database's schema),
with the shipped nginx in front: every hand answered 201, every follower's answer 200 or 304,
every hand counted reaching every measured follower, and a p99 printed. What it measures is not
checked here (no timing in tests: the goal is judged in words); that it still runs is."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bench import tournament_followers
from tests.support import tool_missing

pytestmark = pytest.mark.slow


def test_the_followers_bench_runs_tiny(capsys: pytest.CaptureFixture[str]) -> None:
    if not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()):
        tool_missing("nginx is missing: the followers' bench cannot run")
    if not shutil.which("wrk"):
        tool_missing("wrk is missing: the followers' bench cannot run")
    argv = ["--followers", "40", "--measured", "20", "--tables", "4", "--seconds", "18"]
    argv += ["--hand-every", "2", "--pg", ""]
    assert tournament_followers.main(argv) == 0, capsys.readouterr().out
    printed = capsys.readouterr().out
    recorded = re.search(
        r"hands recorded: (\d+) \(statuses \{201: (\d+)\}\), (\d+) counted", printed
    )
    assert recorded, printed
    assert int(recorded.group(1)) == int(recorded.group(2)) > 0
    assert int(recorded.group(3)) > 0, printed  # hands between the warm-up and the tail
    delivered = re.search(
        r"p99 (\d+\.\d+) s, max .*never reached: 0; ETags the observer missed: 0", printed
    )
    assert delivered, printed
    assert re.search(r"wrk [\d,]+ \(non-2xx/3xx 0, socket errors 0\)", printed), printed
    assert "errors 0;" in printed and "FAILED" not in printed
