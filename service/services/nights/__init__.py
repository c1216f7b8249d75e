"""Club nights: several tables of one game in series, a seat draw per series, the use cases
(``nights``), the night's live standings (``standings``), its money (``money``) and its
settle-up as answered (``settle_up``); the seat draw itself is pure, in ``rules.seat_draw``."""

from .money import change_rate, night_history, night_money
from .nights import (
    NightClosed,
    NightTablesPending,
    add_night,
    change_presence,
    change_series,
    close_night,
    draw_locked,
    draw_series,
    get_night,
    list_nights,
    lock_night,
    night_tables,
    night_view,
    readable_night,
    series_links,
    set_present,
    start_night,
)
from .settle_up import (
    NIGHT_SETTLE_UP_COLUMNS,
    night_settle_up,
    night_settle_up_csv,
    night_standings_csv,
)
from .standings import night_standings, standings_of

__all__ = [
    "NIGHT_SETTLE_UP_COLUMNS",
    "NightClosed",
    "NightTablesPending",
    "add_night",
    "change_presence",
    "change_rate",
    "close_night",
    "draw_locked",
    "draw_series",
    "get_night",
    "change_series",
    "list_nights",
    "lock_night",
    "night_history",
    "night_money",
    "night_settle_up",
    "night_settle_up_csv",
    "night_standings",
    "night_standings_csv",
    "night_tables",
    "night_view",
    "readable_night",
    "series_links",
    "set_present",
    "standings_of",
    "start_night",
]
