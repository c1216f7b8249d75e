"""``flask backup`` / ``flask restore``: a round trip keeps every table identical (SQLite, by
the online backup API), a backup taken while hands are being recorded is a consistent
snapshot, and PostgreSQL gets the pg_dump / pg_restore commands."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

from service.cli import libpq_dsn
from tests.databases import ON_POSTGRES
from tests.support import ApiClient, make_app

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST = {"contract": "solo", "trump": "clubs", "declarer": 2, "tricks": 3}

on_sqlite = pytest.mark.skipif(
    ON_POSTGRES,
    reason="SQLite's online backup; PostgreSQL uses pg_dump",
)


def _sqlite_file(app) -> str:
    return app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")


def _snapshot(url: str) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            names = sorted(inspect(connection).get_table_names())
            return {
                name: sorted(
                    (tuple(row) for row in connection.execute(text(f'SELECT * FROM "{name}"'))),
                    key=repr,
                )
                for name in names
            }
    finally:
        engine.dispose()


def _fill(api: ApiClient) -> dict:
    """Rows in every table the keeping of tables uses: hands, corrections, voids, idempotency
    keys, a closed table."""
    table = api.table()
    for n in range(6):
        hand = SOLO if n % 2 else LOST
        assert api.record(table, hand, **{"Idempotency-Key": f"k{n}"}).status_code == 201
    auth = api.auth(table["table_token"])
    assert (
        api.client.put(f"/api/v1/tables/{table['id']}/hands/2", json=SOLO, headers=auth).status_code
        == 200
    )
    assert (
        api.client.delete(f"/api/v1/tables/{table['id']}/hands/4", headers=auth).status_code == 200
    )
    closed = api.table()
    api.record(closed, SOLO)
    assert (
        api.client.post(
            f"/api/v1/tables/{closed['id']}/close", headers=api.auth(closed["table_token"])
        ).status_code
        == 200
    )
    return table


def _run(app, *args: str):
    result = app.test_cli_runner().invoke(args=list(args))
    return result


@on_sqlite
def test_a_round_trip_keeps_every_table_identical(app, api, tmp_path):
    table = _fill(api)
    before = _snapshot(app.config["SQLALCHEMY_DATABASE_URI"])
    assert sum(len(rows) for rows in before.values()) > 30
    backup = tmp_path / "solo-backup.db"
    result = _run(app, "backup", str(backup))
    assert result.exit_code == 0, result.output
    assert "backed up" in result.output

    # The copy is one self-contained, sound file: no -wal beside it is needed.
    copy = sqlite3.connect(backup)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        copy.close()
    assert not Path(str(backup) + "-wal").exists()

    # Restored onto a new machine (no database yet): identical, table by table.
    fresh = f"sqlite:///{tmp_path / 'fresh.db'}"
    restored_app = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": fresh})
    result = _run(restored_app, "restore", str(backup), "--yes")
    assert result.exit_code == 0, result.output
    assert _snapshot(fresh) == before
    # … and the service works on it: the same table, its token, its next hand.
    client = ApiClient(restored_app.test_client())
    shown = client.get_table(table)
    assert shown["hands_recorded"] == 6
    assert client.record(table, SOLO).status_code == 201


@on_sqlite
def test_restoring_replaces_what_happened_since(app, api, tmp_path):
    table = _fill(api)
    before = _snapshot(app.config["SQLALCHEMY_DATABASE_URI"])
    backup = tmp_path / "before.db"
    assert _run(app, "backup", str(backup)).exit_code == 0
    for _ in range(3):
        api.record(table, SOLO)
    api.table()
    assert _snapshot(app.config["SQLALCHEMY_DATABASE_URI"]) != before
    from service.extensions import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()  # as a stopped service would
    result = _run(app, "restore", str(backup), "--yes")
    assert result.exit_code == 0, result.output
    assert _snapshot(app.config["SQLALCHEMY_DATABASE_URI"]) == before
    # The live database runs in WAL mode again, as the service expects.
    live = sqlite3.connect(_sqlite_file(app))
    try:
        assert live.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        live.close()


@on_sqlite
def test_a_backup_taken_while_hands_are_recorded_is_consistent(app, api, tmp_path):
    """The online backup copies one consistent snapshot: in the copy, every table's balances
    are the sum of its hands' deltas, whatever was being written at the time."""
    tables = [api.table() for _ in range(2)]
    stop = threading.Event()
    recorded = []

    def keep_recording(table) -> None:
        client = ApiClient(app.test_client())
        while not stop.is_set():
            recorded.append(client.record(table, SOLO).status_code)

    writers = [threading.Thread(target=keep_recording, args=(t,)) for t in tables]
    for writer in writers:
        writer.start()
    try:
        backups = []
        for n in range(3):
            path = tmp_path / f"live-{n}.db"
            result = _run(app, "backup", str(path))
            assert result.exit_code == 0, result.output
            backups.append(path)
    finally:
        stop.set()
        for writer in writers:
            writer.join()
    assert recorded and set(recorded) == {201}
    for path in backups:
        copy = sqlite3.connect(path)
        try:
            for table in tables:
                balances = [
                    b
                    for (b,) in copy.execute(
                        "SELECT balance FROM seats WHERE table_id = ? ORDER BY seat", (table["id"],)
                    )
                ]
                sums = [0] * len(balances)
                for (settlement,) in copy.execute(
                    "SELECT settlement FROM hands WHERE table_id = ? AND settlement IS NOT NULL",
                    (table["id"],),
                ):
                    for seat, delta in enumerate(json.loads(settlement)["deltas"]):
                        sums[seat] += delta
                assert balances == sums
                count, recorded_count = copy.execute(
                    "SELECT (SELECT count(*) FROM hands WHERE table_id = ?), hands_recorded "
                    "FROM score_tables WHERE id = ?",
                    (table["id"], table["id"]),
                ).fetchone()
                assert count == recorded_count
        finally:
            copy.close()


@on_sqlite
def test_backup_refuses_to_overwrite_and_restore_refuses_a_stranger(app, api, tmp_path):
    target = tmp_path / "exists.db"
    target.write_bytes(b"keep me")
    result = _run(app, "backup", str(target))
    assert result.exit_code != 0 and "--force" in result.output
    assert target.read_bytes() == b"keep me"
    assert _run(app, "backup", str(target), "--force").exit_code == 0
    stranger = tmp_path / "stranger.txt"
    stranger.write_text("not a database at all " * 100)
    result = _run(app, "restore", str(stranger), "--yes")
    assert result.exit_code != 0 and "not an SQLite database" in result.output
    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE unrelated (x)")
    connection.commit()
    connection.close()
    result = _run(app, "restore", str(other), "--yes")
    assert result.exit_code != 0 and "not a backup of this service" in result.output


@on_sqlite
def test_restore_asks_before_it_replaces_anything(app, api, tmp_path):
    backup = tmp_path / "b.db"
    assert _run(app, "backup", str(backup)).exit_code == 0
    before = _snapshot(app.config["SQLALCHEMY_DATABASE_URI"])
    result = app.test_cli_runner().invoke(args=["restore", str(backup)], input="n\n")
    assert result.exit_code != 0 and "Replace every table" in result.output
    assert _snapshot(app.config["SQLALCHEMY_DATABASE_URI"]) == before


def test_postgresql_gets_the_pg_dump_and_pg_restore_commands(tmp_path):
    pg = make_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": "postgresql://solo:s3cret@db.internal:5433/solo?sslmode=require",
        }
    )
    dump = tmp_path / "solo.dump"
    result = _run(pg, "backup", str(dump), "--print-command")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (
        f"PGPASSWORD=… pg_dump --format=custom --no-owner --no-privileges --file={dump} "
        "'--dbname=postgresql://solo@db.internal:5433/solo?sslmode=require'"
    )
    dump.write_bytes(b"PGDMP")
    result = _run(pg, "restore", str(dump), "--print-command")
    assert result.exit_code == 0, result.output
    assert (
        "pg_restore --clean --if-exists --no-owner --no-privileges --single-transaction"
        in result.output
    )
    assert "s3cret" not in result.output  # the password goes by PGPASSWORD, never argv
    dsn, env = libpq_dsn(make_url(pg.config["SQLALCHEMY_DATABASE_URI"]))
    assert env == {"PGPASSWORD": "s3cret"} and "s3cret" not in dsn


@pytest.mark.skipif(not ON_POSTGRES, reason="needs PostgreSQL")
def test_a_postgresql_round_trip_keeps_every_table_identical(app, api, tmp_path):
    import shutil

    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump / pg_restore are not installed")
    table = _fill(api)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    before = _snapshot(url)
    dump = tmp_path / "solo.dump"
    result = _run(app, "backup", str(dump))
    assert result.exit_code == 0, result.output
    for _ in range(2):
        api.record(table, SOLO)
    from service.extensions import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    result = _run(app, "restore", str(dump), "--yes")
    assert result.exit_code == 0, result.output
    assert _snapshot(url) == before
