"""Where a request's time goes: py-spy samples the gunicorn workers under the HTTP benchmark's load.

    .venv/bin/python -m bench.profile [read|read304|preview|record|record+key] [--seconds 10]
        [--pg URL] [--top 30] [--flamegraph out.svg]

Starts the service as bench/http.py does (gunicorn, 2 workers, SQLite in a temp dir unless
--pg), drives one scenario with wrk and samples both workers with py-spy meanwhile. Prints, for
the samples taken inside a request, the functions with the largest share: inclusive (the
function or anything it called) and own time, grouped by function, not by line.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.profile")

from bench.http import SERVICE_ENV, cases, prepare, run_wrk  # noqa: E402
from tests.support import Gunicorn  # noqa: E402

REQUEST_FRAME = "handle_request"
_LINE = re.compile(r":\d+\)$")


def frames_of(stack: str) -> list[str]:
    """``func (path/to/file.py:12)`` frames, the line dropped and the path shortened."""
    frames = []
    for frame in stack.split(";"):
        frame = _LINE.sub(")", frame.strip())
        frame = re.sub(r"\(.*?(site-packages|work/main)/", "(", frame)
        frames.append(frame)
    return frames


def summarize(raw: str, top: int) -> None:
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or REQUEST_FRAME not in stack:
            continue
        count = int(count_text)
        frames = frames_of(stack)
        total += count
        for frame in set(frames):
            inclusive[frame] += count
        own[frames[-1]] += count
    if not total:
        print("no samples inside a request")
        return
    print(f"{total} samples inside requests\n\ninclusive  function")
    for frame, count in inclusive.most_common(top):
        print(f"{100 * count / total:8.1f}%  {frame}")
    print("\nown time  function")
    for frame, count in own.most_common(top // 2):
        print(f"{100 * count / total:8.1f}%  {frame}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=["read", "read304", "preview", "record", "record+key"])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--flamegraph", help="also write a flame graph (SVG) here")
    args = parser.parse_args()
    for tool in ("wrk", "py-spy"):
        if shutil.which(tool) is None and not Path(sys.executable).with_name(tool).exists():
            sys.exit(
                f"{tool} is needed (wrk: apt-get install wrk; "
                "py-spy: .venv/bin/pip install -e '.[bench]')"
            )
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    tmp = Path(tempfile.mkdtemp())
    url, tables = prepare(args.pg, tmp)
    with Gunicorn(url, workers=2, **SERVICE_ENV) as service:
        case = next(c for c in cases(service.url, tables) if c.name == args.scenario)
        load = threading.Thread(
            target=run_wrk, args=(service.url, case.service_lua, args.seconds + 2)
        )
        load.start()
        raw_path = tmp / "profile.txt"
        record = [
            py_spy,
            "record",
            "--pid",
            str(service.process.pid),
            "--subprocesses",
            "--rate",
            "200",
            "--duration",
            str(args.seconds),
            "--nonblocking",
        ]
        subprocess.run(
            [*record, "--format", "raw", "--output", str(raw_path)], check=True, capture_output=True
        )
        load.join()
        if args.flamegraph:
            load = threading.Thread(
                target=run_wrk, args=(service.url, case.service_lua, args.seconds + 2)
            )
            load.start()
            subprocess.run([*record, "--output", args.flamegraph], check=True, capture_output=True)
            load.join()
    summarize(raw_path.read_text(), args.top)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
