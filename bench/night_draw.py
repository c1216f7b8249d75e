"""The club night's seat draw (rules/seat_draw.py) against the naive draw of the same seed:
how many tablemates meet again, and what the better draw costs.

    .venv/bin/python -m bench.night_draw [--players 10 20 40 100] [--series 4] [--nights 20]

For each count of players (American Solo: tables of 3-5), ``--nights`` seeded nights of
``--series`` series each: every series drawn with the history of the earlier ones, by
``draw`` and, from the same history, by ``naive_draw``. Prints the repeated pairs of each
(summed over the nights' later series), their ratio (the draw's over the naive one's: lower
is better, at most 1 by construction), and the median time of one draw against one naive
draw, with that ratio. Exits non-zero only if something crashes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

if not __package__:
    sys.exit("Run from the project root: .venv/bin/python -m bench.night_draw")

from service.rules.seat_draw import draw, naive_draw, pair_history, repeats  # noqa: E402

AMERICAN = (3, 4, 5)


def run(players: int, series: int, nights: int) -> tuple[int, int, float, float]:
    people = [f"p{i:03d}" for i in range(players)]
    drawn_repeats = naive_repeats = 0
    draw_times: list[float] = []
    naive_times: list[float] = []
    for night in range(nights):
        earlier: list[tuple[str, ...]] = []
        for number in range(series):
            seed = night * 1000 + number
            history = pair_history(earlier)
            start = time.perf_counter()
            result = draw(people, AMERICAN, seed, history)
            draw_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            naive = naive_draw(people, AMERICAN, seed)
            naive_times.append(time.perf_counter() - start)
            drawn_repeats += result.repeats
            naive_repeats += repeats(naive, history)
            earlier += [t.seats for t in result.tables]
    return (
        drawn_repeats,
        naive_repeats,
        statistics.median(draw_times),
        statistics.median(naive_times),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[10, 20, 40, 100])
    parser.add_argument("--series", type=int, default=4)
    parser.add_argument("--nights", type=int, default=20)
    args = parser.parse_args()
    print(f"{args.nights} nights of {args.series} series, American Solo (tables of 3-5)")
    print("players  repeats draw/naive  ratio   draw ms  naive ms  time ratio")
    for players in args.players:
        drawn, naive, draw_s, naive_s = run(players, args.series, args.nights)
        ratio = drawn / naive if naive else 0.0
        print(
            f"{players:7d}  {drawn:7d}/{naive:<7d} {ratio:6.2f}  {draw_s * 1000:7.2f}  "
            f"{naive_s * 1000:8.3f}  {draw_s / naive_s:9.0f}"
        )


if __name__ == "__main__":
    main()
