"""How long the standings request takes for a season of 1,000 hands and one of 1,000,000.

    .venv/bin/python -m bench.standings [--pg URL] [--runs N] [--small N] [--large N]

Seeds one club of 40 players with two American Solo seasons by bulk inserts straight into the
tables: the sittings (80 hands an evening, four players drawn from the 40, spread over a year),
their seats, every hand row (record, states and settlement, as the service stores them) and the
league's aggregate rows, worked out from those same hands, plus the ratings. Transfers and
revision rows are left out: nothing in the standings reads them. Then it times
``GET /api/v1/seasons/{id}/standings`` through the app (routing, token check, queries, JSON)
for each season, median of N runs after a warm-up, unfiltered and with a ``from``/``to``
filter, and prints the ratio large/small. The target is a ratio of at most 2, filtered or
not. ``tests/api/test_bench_standings.py`` runs it at a small size, so that it keeps up
with the code it seeds for.

SQLite always (a temporary file); PostgreSQL too with ``--pg URL`` or ``TEST_DATABASE_URL``.
The PostgreSQL database's public schema is dropped and made again: give it a database of its
own. Exits non-zero only if something crashes, not on a missed target.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.standings")

from sqlalchemy import insert  # noqa: E402

from service import create_app  # noqa: E402
from service.extensions import db  # noqa: E402
from service.persistence.league import (  # noqa: E402
    CONTRACT_COUNTERS,
    COUNTERS,
    PlayerCareerContractRow,
    PlayerCareerRow,
    RatingHistoryRow,
    SeasonPlayerContractRow,
    SeasonPlayerPeriodRow,
    SeasonPlayerRow,
    SeasonRatingRow,
    SeasonRow,
)
from service.persistence.table_keeping import PlayerRow, SeatRow, TableRow  # noqa: E402
from service.rules import get_variant, preview  # noqa: E402
from service.services import clubs  # noqa: E402
from service.services.league import ratings as league_ratings  # noqa: E402
from service.services.league.periods import SPANS, period_start  # noqa: E402
from service.services.league.tally import HAND_COUNTERS, tally_hand  # noqa: E402
from tests.support import reset_postgres  # noqa: E402

TARGET = 2.0
PLAYERS = 40
HANDS_A_SITTING = 80
SEASON_DAYS = 365
CHUNK_SITTINGS = 500
START = date(2026, 1, 1)
# Hands as they come at a real table: mostly simple games, some solos won and lost (in and
# out of couleur, so stamms and bêtes move), touts, errors, forfeits and misdeals.
HAND_MIX: list[tuple[int, dict[str, Any]]] = [
    (
        20,
        {
            "contract": "simple",
            "trump": "spades",
            "declarer": 0,
            "partner": 2,
            "called": {"rank": "ace", "suit": "hearts"},
            "tricks": 6,
        },
    ),
    (
        12,
        {
            "contract": "simple",
            "trump": "hearts",
            "declarer": 1,
            "partner": 3,
            "called": {"rank": "ace", "suit": "clubs"},
            "tricks": 3,
        },
    ),
    (
        8,
        {
            "contract": "simple",
            "trump": "diamonds",
            "declarer": 2,
            "partner": 0,
            "called": {"rank": "ace", "suit": "spades"},
            "tricks": 5,
            "errors": [{"kind": "revoke", "seat": 1}],
        },
    ),
    (8, {"contract": "solo", "trump": "hearts", "declarer": 3, "tricks": 6}),
    (6, {"contract": "solo", "trump": "clubs", "declarer": 1, "tricks": 7}),
    (6, {"contract": "solo", "trump": "spades", "declarer": 2, "tricks": 3}),
    (4, {"contract": "forcee_partout", "trump": "clubs", "declarer": 0, "tricks": 5}),
    (2, {"contract": "tout", "trump": "diamonds", "declarer": 1, "tricks": 8}),
    (1, {"contract": "tout", "trump": "hearts", "declarer": 3, "tricks": 7}),
    (2, {"kind": "forfeit", "seat": 2}),
    (2, {"kind": "misdeal"}),
]
STATE = {"pool": 24, "couleur": "clubs", "dealer": 0, "stake_due": True, "first_game_won": True}


class Template:
    """One hand of the mix, settled once: its stored JSON and what it adds to each seat."""

    def __init__(self, raw: dict[str, Any]) -> None:
        american = get_variant("american")
        record = american.parse_hand(raw, 4, american.parse_options(None)).to_dict()
        settlement = preview("american", 4, None, STATE, record)
        stored = settlement.to_dict()
        self.json = (
            json.dumps(record),
            json.dumps(STATE),
            json.dumps(settlement.state_after.to_dict()),
            json.dumps(stored),
        )
        self.deltas: list[int] = stored["deltas"]
        options = american.parse_options(None)
        league_hand = american.league_hand(record, 4, options, stored.get("result"))
        self.tallies = tally_hand(league_hand, stored, 4)


def utc(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")


def seed_season(
    app: Any,
    club_id: str,
    players: list[str],
    name: str,
    hands: int,
    rng: random.Random,
    templates: list[Template],
    weights: list[int],
) -> str:
    """One season of ``hands`` hands, every row written in bulk; returns its id."""
    season_id = f"{name:0>32}"[:32]
    sittings = max(1, -(-hands // HANDS_A_SITTING))
    days = min(SEASON_DAYS, sittings)
    totals: dict[str, Counter[str]] = {}
    per_day: dict[tuple[date, str], Counter[str]] = {}
    mix: dict[tuple[str, str], Counter[str]] = {}
    rated: list[tuple[str, list[tuple[str, int]]]] = []
    with app.app_context():
        db.session.add(
            SeasonRow(
                id=season_id,
                club_id=club_id,
                name=name,
                variant="american",
                starts_on=START,
                ends_on=START + timedelta(days=SEASON_DAYS),
            )
        )
        db.session.commit()
        engine = db.engine
        dialect = engine.dialect.name
        left = hands
        for first in range(0, sittings, CHUNK_SITTINGS):
            tables, seats, hand_rows = [], [], []
            for index in range(first, min(sittings, first + CHUNK_SITTINGS)):
                count = min(HANDS_A_SITTING, left)
                left -= count
                table_id = f"{name[:8]}{index:0>24}"
                day = START + timedelta(days=index * days // sittings)
                opened = datetime(day.year, day.month, day.day, 19, tzinfo=UTC)
                closed = opened + timedelta(hours=4, seconds=index % 3600)
                seated = rng.sample(players, 4)
                chosen = rng.choices(range(len(templates)), weights=weights, k=count)
                balances = [0, 0, 0, 0]
                for number, which in enumerate(chosen, start=1):
                    template = templates[which]
                    for seat in range(4):
                        balances[seat] += template.deltas[seat]
                    stamp = utc(opened + timedelta(minutes=number))
                    hand_rows.append(
                        (table_id, number, "recorded", 1, 0, *template.json, stamp, stamp)
                    )
                _tally_sitting(
                    season_id, day, seated, Counter(chosen), templates, totals, per_day, mix
                )
                rated.append((table_id, list(zip(seated, balances, strict=True))))
                tables.append(
                    {
                        "id": table_id,
                        "club_id": club_id,
                        "name": f"Evening {index}",
                        "variant": "american",
                        "options": {},
                        "players": 4,
                        "first_dealer": 0,
                        "status": "closed",
                        "version": count + 2,
                        "hands_recorded": count,
                        "hands_played": count,
                        "pool": 0,
                        "state": STATE,
                        "created_at": opened,
                        "closed_at": closed,
                        "season_id": season_id,
                    }
                )
                seats.extend(
                    {
                        "table_id": table_id,
                        "seat": seat,
                        "player_id": player,
                        "balance": balances[seat],
                    }
                    for seat, player in enumerate(seated)
                )
            with engine.begin() as connection:
                connection.execute(insert(TableRow.__table__), tables)
                connection.execute(insert(SeatRow.__table__), seats)
                _insert_hands(connection, dialect, hand_rows)
        with engine.begin() as connection:
            _insert_aggregates(connection, season_id, totals, per_day, mix, rated)
    return season_id


def _tally_sitting(
    season_id: str,
    day: date,
    seated: list[str],
    chosen: Counter[int],
    templates: list[Template],
    totals: dict[str, Counter[str]],
    per_day: dict[tuple[date, str], Counter[str]],
    mix: dict[tuple[str, str], Counter[str]],
) -> None:
    for seat, player in enumerate(seated):
        sitting: Counter[str] = Counter({"sittings": 1})
        for which, times in chosen.items():
            tally = templates[which].tallies[seat]
            for name, value in zip(HAND_COUNTERS, tally.counters, strict=True):
                sitting[name] += value * times
            if tally.contract is not None:
                counts = mix.setdefault((player, tally.contract), Counter())
                counts["declared"] += times
                counts["won"] += times * (tally.outcome == "won")
                counts["lost"] += times * (tally.outcome == "lost")
        totals.setdefault(player, Counter()).update(sitting)
        per_day.setdefault((day, player), Counter()).update(sitting)


def _insert_hands(connection: Any, dialect: str, rows: list[tuple[Any, ...]]) -> None:
    columns = (
        "table_id, number, status, revision, dealer, record, state_before, state_after, "
        "settlement, recorded_at, updated_at"
    )
    raw = connection.connection.dbapi_connection
    if dialect == "postgresql":
        with raw.cursor() as cursor, cursor.copy(f"COPY hands ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    raw.executemany(f"INSERT INTO hands ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


def _insert_aggregates(
    connection: Any,
    season_id: str,
    totals: dict[str, Counter[str]],
    per_day: dict[tuple[date, str], Counter[str]],
    mix: dict[tuple[str, str], Counter[str]],
    rated: list[tuple[str, list[tuple[str, int]]]],
) -> None:
    def counters(counts: Counter[str]) -> dict[str, int]:
        return {name: counts[name] for name in COUNTERS}

    def contract_counters(counts: Counter[str]) -> dict[str, int]:
        return {name: counts[name] for name in CONTRACT_COUNTERS}

    connection.execute(
        insert(SeasonPlayerRow.__table__),
        [{"season_id": season_id, "player_id": p, **counters(c)} for p, c in totals.items()],
    )
    per_period: dict[tuple[str, date, str], Counter[str]] = {}
    for (day, player), counts in per_day.items():
        for span in SPANS:
            per_period.setdefault((span, period_start(day, span), player), Counter()).update(counts)
    connection.execute(
        insert(SeasonPlayerPeriodRow.__table__),
        [
            {"season_id": season_id, "span": s, "starts_on": d, "player_id": p, **counters(c)}
            for (s, d, p), c in per_period.items()
        ],
    )
    connection.execute(
        insert(SeasonPlayerContractRow.__table__),
        [
            {"season_id": season_id, "player_id": p, "contract": k, **contract_counters(c)}
            for (p, k), c in mix.items()
        ],
    )
    ratings: dict[str, tuple[float, float, int]] = {}
    history: list[dict[str, Any]] = []
    for table_id, sitting in rated:
        league_ratings._rate_sitting(
            ratings, [p for p, _ in sitting], [b for _, b in sitting], table_id, history
        )
    connection.execute(
        insert(RatingHistoryRow.__table__),
        [{"season_id": season_id, **row} for row in history],
    )
    connection.execute(
        insert(SeasonRatingRow.__table__),
        [
            {"season_id": season_id, "player_id": p, "mu": mu, "sigma": sigma, "sittings": n}
            for p, (mu, sigma, n) in ratings.items()
        ],
    )
    # The career rows: both seasons are the club's only American Solo.
    for player, counts in totals.items():
        exists = connection.execute(
            PlayerCareerRow.__table__.select().where(PlayerCareerRow.player_id == player)
        ).first()
        if exists is None:
            connection.execute(
                insert(PlayerCareerRow.__table__).values(
                    player_id=player, variant="american", **counters(counts)
                )
            )
        else:
            connection.execute(
                PlayerCareerRow.__table__.update()
                .where(PlayerCareerRow.player_id == player)
                .values(**{n: getattr(exists, n) + counts[n] for n in COUNTERS})
            )
    for (player, contract), counts in mix.items():
        key = (PlayerCareerContractRow.player_id == player) & (
            PlayerCareerContractRow.contract == contract
        )
        exists = connection.execute(PlayerCareerContractRow.__table__.select().where(key)).first()
        if exists is None:
            connection.execute(
                insert(PlayerCareerContractRow.__table__).values(
                    player_id=player,
                    variant="american",
                    contract=contract,
                    **contract_counters(counts),
                )
            )
        else:
            connection.execute(
                PlayerCareerContractRow.__table__.update()
                .where(key)
                .values(**{n: getattr(exists, n) + counts[n] for n in CONTRACT_COUNTERS})
            )


def time_requests(
    client: Any, urls: dict[str, str], headers: dict[str, str], runs: int
) -> dict[str, tuple[float, int]]:
    """Median milliseconds of ``runs`` requests to each url after a warm-up, and the rows
    answered. The urls take turns, so a burst of load on a shared machine weighs on each."""
    rows = {}
    for name, url in urls.items():
        for _ in range(3):
            response = client.get(url, headers=headers)
            assert response.status_code == 200, response.get_json()
        rows[name] = len(response.get_json()["rows"])
    timings: dict[str, list[float]] = {name: [] for name in urls}
    for _ in range(runs):
        for name, url in urls.items():
            start = time.perf_counter()
            client.get(url, headers=headers)
            timings[name].append((time.perf_counter() - start) * 1000)
    return {name: (statistics.median(timings[name]), rows[name]) for name in urls}


def bench(label: str, url: str, args: argparse.Namespace) -> None:
    import flask_migrate

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SQLITE_SYNCHRONOUS": "OFF",
            "RATELIMIT_ENABLED": False,
            "ACCESS_LOG": False,
            # Seeding works out each chunk's ratings between its statements: on a loaded
            # machine that is longer than a request's transaction may idle.
            "PG_IDLE_IN_TRANSACTION_TIMEOUT_MS": 600_000,
        }
    )
    started = time.perf_counter()
    with app.app_context():
        flask_migrate.upgrade()
        club = clubs.create_club("Bench club")
        players = [f"player{i:0>26}" for i in range(PLAYERS)]
        db.session.execute(
            insert(PlayerRow.__table__),
            [
                {
                    "id": p,
                    "club_id": club["id"],
                    "name": f"Player {i + 1}",
                    "created_at": datetime.now(UTC),
                }
                for i, p in enumerate(players)
            ],
        )
        db.session.commit()
    templates = [Template(record) for _, record in HAND_MIX]
    weights = [w for w, _ in HAND_MIX]
    rng = random.Random(args.seed)
    small = seed_season(app, club["id"], players, "small", args.small, rng, templates, weights)
    large = seed_season(app, club["id"], players, "large", args.large, rng, templates, weights)
    with app.app_context():
        with db.engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE")
        db.session.remove()
    seeded = time.perf_counter() - started
    client = app.test_client()
    headers = {"Authorization": f"Bearer {club['admin_token']}"}
    print(f"\n{label}: seeded {args.small:,} + {args.large:,} hands in {seeded:.0f} s")
    for query, title in (
        ("", "standings"),
        ("?from=2026-01-01&to=2026-12-31", "standings from/to"),
        ("?from=2026-01-02&to=2026-12-30", "standings ragged"),
    ):
        urls = {
            name: f"/api/v1/seasons/{season_id}/standings{query}"
            for name, season_id in (("small", small), ("large", large))
        }
        results = time_requests(client, urls, headers, args.runs)
        for name, hands in (("small", args.small), ("large", args.large)):
            median, rows = results[name]
            print(
                f"  {title:<18} {hands:>10,} hands: {median:7.2f} ms median of {args.runs} "
                f"({rows} rows)"
            )
        ratio = results["large"][0] / results["small"][0]
        verdict = "meets" if ratio <= TARGET else "misses"
        print(f"  {title:<18} large/small: {ratio:.2f} ({verdict} the target of {TARGET:g})")
    with app.app_context():  # its pooled connections closed, not left to the collector
        db.engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pg",
        default=os.environ.get("TEST_DATABASE_URL"),
        help="a PostgreSQL URL whose public schema the bench may drop",
    )
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args(argv)
    print(
        f"Python {sys.version.split()[0]}; {PLAYERS} players, {HANDS_A_SITTING} hands a "
        f"sitting, {args.runs} timed requests each"
    )
    with tempfile.TemporaryDirectory() as tmp:
        bench("SQLite", f"sqlite:///{Path(tmp) / 'bench.db'}", args)
    if args.pg:
        reset_postgres(args.pg)
        bench("PostgreSQL", args.pg, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
