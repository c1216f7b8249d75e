"""Engine setup that the schema cannot express: SQLite pragmas, applied on every connection."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import Engine, event


def configure_engine_events(app: Flask, engine: Engine) -> None:
    if engine.dialect.name != "sqlite":
        return
    synchronous = str(app.config["SQLITE_SYNCHRONOUS"]).upper()
    if synchronous not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA: {synchronous}")
    busy_ms = int(float(app.config["SQLITE_BUSY_TIMEOUT_S"]) * 1000)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute(f"PRAGMA busy_timeout={busy_ms}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
