"""The club league: seasons, standings, player statistics and ratings.

Standings and statistics are read from aggregate rows (``service.persistence.league``) that
``hands_changed`` keeps current in the transaction of every hand recorded, corrected or voided:
the old settlement of each changed hand is taken away and the new one added, as atomic
``x = x + delta`` upserts. Nothing here sums hands on a request.

Dates: a sitting belongs to the day (UTC) its table was opened; standings ``from``/``to`` sum
the per-day rows of the days in range. Ratings: one openskill (Plackett-Luce) update per closed
sitting of a season, in the order the sittings were closed, every seated player ranked by his
balance at the table (equal balances share a rank); ``rating`` is ``mu - 3*sigma`` rounded to
2 decimals. Correcting a closed sitting replays the season's sittings in order.
"""

from __future__ import annotations

from ..spreadsheet import spreadsheet_safe  # the one neutralising, kept here by name too
from .aggregates import (
    HandChange,
    aggregate_writes,
    hands_changed,
    sitting_day,
    sitting_moved,
)
from .ratings import competition_ranks, rebuild_ratings, shown_rating, sitting_closed
from .seasons import (
    check_season_for_table,
    create_season,
    get_season,
    list_seasons,
    reader_scope,
    require_club_reader,
    require_player_reader,
    season_view,
)
from .standings import STANDING_COLUMNS, standings, standings_csv
from .stats import player_stats

__all__ = [
    "STANDING_COLUMNS",
    "HandChange",
    "aggregate_writes",
    "check_season_for_table",
    "competition_ranks",
    "create_season",
    "get_season",
    "hands_changed",
    "list_seasons",
    "player_stats",
    "reader_scope",
    "rebuild_ratings",
    "require_club_reader",
    "require_player_reader",
    "season_view",
    "shown_rating",
    "sitting_closed",
    "sitting_day",
    "sitting_moved",
    "spreadsheet_safe",
    "standings",
    "standings_csv",
]
