"""Rendered answers kept per worker: the JSON body of ``GET /tables/{id}`` at a version, and
each hand's JSON as ``GET /tables/{id}/hands`` shows it (``RenderedHands``, below).

A table's version goes up with every change to anything its view shows (a hand recorded,
corrected or voided, the table closed), and never comes back: the body rendered at ``(table id,
version)`` is right for as long as that version is current. So a read asks the database for the
version alone (one indexed row) and renders only when that version is new to this worker. A
body is kept per language (``Accept-Language``: the words in a view are the reader's), so one
is never served in another's language. Restoring a backup under a running service would break
that promise; the restore command says to stop the service first."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask, current_app

# A body is a few hundred bytes to a few KiB: a full cache stays around a few MiB per worker.
MAX_RENDERED_TABLES = 2048
# A hand's rendering is about 1 KiB, kept with the row it was rendered from: about 3.2 KiB an
# entry in all (traced). A full cache holds 200 sheets of 40 hands in one language, about
# 26 MiB per worker; past that a read renders its hands again, as every read did before.
MAX_RENDERED_HANDS = 8192


class RenderedViews:
    """At most ``size`` bodies, one per table and language (its latest rendered version)."""

    def __init__(self, size: int = MAX_RENDERED_TABLES) -> None:
        self.size = size
        self._bodies: dict[tuple[str, str], tuple[int, bytes]] = {}
        self._lock = threading.Lock()

    def get(self, table_id: str, version: int, language: str) -> bytes | None:
        entry = self._bodies.get((table_id, language))
        if entry is None or entry[0] != version:
            return None
        return entry[1]

    def put(self, table_id: str, version: int, language: str, body: bytes) -> None:
        with self._lock:
            current = self._bodies.get((table_id, language))
            if current is not None and current[0] > version:
                return  # a slower reader must not replace a newer body with an older one
            if current is None and len(self._bodies) >= self.size:
                self._bodies.clear()  # simple and bounded; the next reads render again
            self._bodies[(table_id, language)] = (version, body)


class RenderedHands:
    """Each hand's JSON as a list of hands shows it, per language, kept with the stored row it
    was rendered from (``services.hands.StoredHand``: what the rendering is made of).

    A rendering is given back only for a row that reads the same as the one it was made from,
    so nothing that changes a hand has to remember this cache: a correction, a void, an
    earlier hand's correction that settles this one again (its dealer and settlement change
    under the same revision), a re-seating. A read compares each row of its page with what is
    kept (text against text, no JSON decoded) and renders only the hands new to this worker,
    once per language they are asked in. At most ``size`` renderings; when full, the older
    half is dropped (the dict keeps the order they were made in)."""

    def __init__(self, size: int = MAX_RENDERED_HANDS) -> None:
        self.size = size
        self._kept: dict[tuple[int, str], tuple[tuple[Any, ...], bytes]] = {}
        self._lock = threading.Lock()

    def get(self, hand_id: int, language: str, row: tuple[Any, ...]) -> bytes | None:
        kept = self._kept.get((hand_id, language))
        if kept is None or kept[0] != row:
            return None
        return kept[1]

    def put(self, hand_id: int, language: str, row: tuple[Any, ...], body: bytes) -> None:
        with self._lock:
            if len(self._kept) >= self.size and (hand_id, language) not in self._kept:
                for key in list(self._kept)[: self.size // 2]:
                    del self._kept[key]
            self._kept[(hand_id, language)] = (row, body)

    def __len__(self) -> int:
        return len(self._kept)


def rendered_hands_of(app: Flask) -> RenderedHands:
    """``app``'s renderings of hands (one cache per app, as ``rendered_views_of``)."""
    cache: RenderedHands | None = app.extensions.get("rendered_hands")
    if cache is None:
        cache = app.extensions.setdefault("rendered_hands", RenderedHands())
    return cache


def rendered_hands() -> RenderedHands:
    """The current app's renderings of hands."""
    return rendered_hands_of(current_app)


def rendered_views_of(app: Flask) -> RenderedViews:
    """``app``'s cache (one per app: tests run many apps, each on its own database)."""
    cache: RenderedViews | None = app.extensions.get("rendered_tables")
    if cache is None:
        cache = app.extensions.setdefault("rendered_tables", RenderedViews())
    return cache


def rendered_views() -> RenderedViews:
    """The current app's cache."""
    return rendered_views_of(current_app)
