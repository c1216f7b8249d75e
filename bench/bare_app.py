"""The baselines of bench/http.py: a bare Flask app.

- ``POST /echo`` and ``GET /item`` only parse and return JSON: what Flask under gunicorn costs.
- ``POST /store`` is the least a durable write costs: the body parsed, stored with one
  ``INSERT`` and committed so that it is on disk before the answer, which is the body again.
  It writes to the kind of database the service runs on, from ``DATABASE_URL``: an SQLite
  file, through the service's own ``SqliteConnection`` (the same writer lock and WAL sync
  outside it, ``service/database.py``), or PostgreSQL through psycopg with its default
  ``synchronous_commit``. With ``sqlite://`` (in memory) there is nothing to store to and
  ``/store`` answers 503.

Recording a hand does all that and far more, so ``/store`` bounds what recording can reach.
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

from flask import Flask, abort, jsonify, request

from service.database import SqliteConnection, set_up_connection

app = Flask(__name__)
DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite://")
CREATE = "CREATE TABLE IF NOT EXISTS bare_stored (id {key} PRIMARY KEY, body TEXT NOT NULL)"
_connection: Any = None  # one per worker process, opened at its first /store


@app.post("/echo")
def echo():  # type: ignore[no-untyped-def]
    return jsonify(request.get_json()), 201


@app.get("/item")
def item():  # type: ignore[no-untyped-def]
    return jsonify({"id": "bare", "version": 1, "seats": [0, 1, 2, 3]})


@app.post("/store")
def store():  # type: ignore[no-untyped-def]
    body = request.get_json()
    connection = _connection or _connect()
    if isinstance(connection, SqliteConnection):
        connection.take_writer_lock()  # let go by commit, as in the service
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO bare_stored (body) VALUES (?)", (json.dumps(body),))
    else:
        connection.execute("INSERT INTO bare_stored (body) VALUES (%s)", (json.dumps(body),))
    connection.commit()
    return jsonify(body), 201


def _connect() -> Any:
    global _connection
    if DATABASE_URL.startswith("sqlite:///"):
        _connection = _sqlite(DATABASE_URL.removeprefix("sqlite:///"))
    elif DATABASE_URL.startswith("postgresql"):
        _connection = _postgresql(DATABASE_URL.replace("+psycopg", "", 1))
    else:
        abort(503)
    return _connection


def _sqlite(path: str) -> SqliteConnection:
    connection = sqlite3.connect(path, factory=SqliteConnection)
    set_up_connection(connection, "FULL", 30_000)  # as the service's, by default
    connection.take_writer_lock()
    connection.execute("BEGIN IMMEDIATE")
    connection.execute(CREATE.format(key="INTEGER"))
    connection.commit()
    return connection


def _postgresql(url: str) -> Any:
    import psycopg

    connection = psycopg.connect(url)
    # Two workers may open theirs at once: CREATE … IF NOT EXISTS is not safe against that.
    connection.execute("SELECT pg_advisory_xact_lock(7281)")
    connection.execute(CREATE.format(key="BIGSERIAL"))
    connection.commit()
    return connection
