"""Rendered table views, kept per worker: the JSON body of ``GET /tables/{id}`` at a version.

A table's version goes up with every change to anything its view shows (a hand recorded,
corrected or voided, the table closed), and never comes back: the body rendered at
``(table id, version)`` is right for as long as that version is current. So a read asks the
database for the version alone (one indexed row) and renders only when that version is new to
this worker. Restoring a backup under a running service would break that promise; the restore
command says to stop the service first.
"""

from __future__ import annotations

import threading

from flask import Flask, current_app

# A body is a few hundred bytes to a few KiB: a full cache stays around a few MiB per worker.
MAX_RENDERED_TABLES = 2048


class RenderedViews:
    """At most ``size`` bodies, one per table (its latest rendered version)."""

    def __init__(self, size: int = MAX_RENDERED_TABLES) -> None:
        self.size = size
        self._bodies: dict[str, tuple[int, bytes]] = {}
        self._lock = threading.Lock()

    def get(self, table_id: str, version: int) -> bytes | None:
        entry = self._bodies.get(table_id)
        if entry is None or entry[0] != version:
            return None
        return entry[1]

    def put(self, table_id: str, version: int, body: bytes) -> None:
        with self._lock:
            current = self._bodies.get(table_id)
            if current is not None and current[0] > version:
                return  # a slower reader must not replace a newer body with an older one
            if current is None and len(self._bodies) >= self.size:
                self._bodies.clear()  # simple and bounded; the next reads render again
            self._bodies[table_id] = (version, body)


def rendered_views_of(app: Flask) -> RenderedViews:
    """``app``'s cache (one per app: tests run many apps, each on its own database)."""
    cache: RenderedViews | None = app.extensions.get("rendered_tables")
    if cache is None:
        cache = app.extensions.setdefault("rendered_tables", RenderedViews())
    return cache


def rendered_views() -> RenderedViews:
    """The current app's cache."""
    return rendered_views_of(current_app)
