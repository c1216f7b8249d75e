"""Club nights: several tables of one game in series, a seat draw per series,
the use cases (``nights``) and the night's live standings (``standings``); the seat draw
itself is pure, in ``rules.seat_draw``."""

from .nights import (
    NightCardsInUse,
    NightClosed,
    NightTablesPending,
    change_presence,
    close_night,
    draw_series,
    get_night,
    list_nights,
    night_tables,
    night_view,
    readable_night,
    series_links,
    start_night,
)
from .standings import night_standings

__all__ = [
    "NightClosed",
    "NightCardsInUse",
    "NightTablesPending",
    "change_presence",
    "close_night",
    "draw_series",
    "get_night",
    "list_nights",
    "night_standings",
    "night_tables",
    "night_view",
    "readable_night",
    "series_links",
    "start_night",
]
