"""What ``TableRules.of`` costs: a table's variant and options, asked for by every request that
reads or writes a table, against parsing the options anew each time.

    .venv/bin/python -m bench.table_rules [--calls 20000]

Prints microseconds a call, best of five rounds, for each variant's stored options: the way it
was before its cache came back (the options dumped to canonical JSON, then parsed, every
call: the baseline), the options parsed every call from today's key, and ``TableRules.of``
(the key made from the options, then the cache); and the ratios to the baseline.
"""

from __future__ import annotations

import argparse
import json
import sys
import timeit
from types import SimpleNamespace

if not __package__:
    sys.exit("Run from the project root: .venv/bin/python -m bench.table_rules")

from service.services.table_rules import TableRules, _options_key, _table_rules  # noqa: E402

TABLES = {
    "american": (4, {"stake": 2, "stamm": 14, "pool_at_close": "split", "starting_pool": 0}),
    "spanish": (4, {"couleur": "clubs", "target_hands": None, "target_score": 100}),
    "german": (4, {"preferred_suit": "first_won", "mediateur": True, "deck": 24}),
    "solo66": (5, {"stake": 1}),
}


def best(call: object, calls: int) -> float:
    """Microseconds a call, the best of five rounds."""
    return min(timeit.repeat(call, number=calls, repeat=5)) / calls * 1e6  # type: ignore[arg-type]


def measure(variant: str, players: int, options: dict[str, object], calls: int) -> str:
    """One variant's row: the baseline, parsed every call, and ``TableRules.of``."""
    uncached = _table_rules.__wrapped__
    table = SimpleNamespace(variant=variant, players=players, options=options)
    key = _options_key(options)
    baseline = best(lambda: uncached(variant, players, json.dumps(options, sort_keys=True)), calls)
    parsed = best(lambda: uncached(variant, players, key), calls)
    cached = best(lambda: TableRules.of(table), calls)
    return (
        f"{variant:10} {baseline:9.2f} µs {parsed:9.2f} µs ({baseline / parsed:4.1f}×)"
        f" {cached:9.2f} µs ({baseline / cached:5.1f}×)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    args = parser.parse_args()
    print(f"{'variant':10} {'as before':>12} {'parsed':>20} {'TableRules.of':>20}")
    for variant, (players, options) in TABLES.items():
        print(measure(variant, players, options, args.calls))


if __name__ == "__main__":
    main()
