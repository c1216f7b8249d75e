"""``flask`` commands of the project: the OpenAPI document, backups and restores, the
webhooks' deliverer (``flask deliver-webhooks``).

``flask backup PATH`` copies the database while the service runs: on SQLite through SQLite's
online backup API (a consistent snapshot, writers are not stopped), checked with
``PRAGMA integrity_check`` and written atomically; on PostgreSQL by ``pg_dump --format=custom``
(or, where ``pg_dump`` is missing or ``--print-command`` is given, the exact command is printed).
``flask restore PATH`` puts such a copy back (SQLite: the backup API the other way round;
PostgreSQL: ``pg_restore --clean --if-exists --single-transaction``). Stop the service first.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
from typing import Any

import click
from flask import Flask, current_app
from sqlalchemy.engine import URL, make_url


def register(app: Flask) -> None:
    @app.cli.command("write-openapi")
    @click.argument("path", default="openapi.yaml")
    def write_openapi(path: str) -> None:
        """Write the generated OpenAPI document (YAML) to PATH."""
        from .api.docs import spec_yaml

        with open(path, "w", encoding="utf-8") as fh:
            fh.write(spec_yaml())
        click.echo(f"wrote {path}")

    @app.cli.command("deliver-webhooks")
    @click.option("--threads", default=2, show_default=True, help="Delivering threads.")
    def deliver_webhooks(threads: int) -> None:
        """Deliver the clubs' webhooks until stopped (SIGINT or SIGTERM).

        Run one or several anywhere the database is reachable: they share the work by leases
        and may be killed at any moment (services/webhooks/deliverer.py)."""
        import signal
        import threading

        from .extensions import db
        from .services.live_feed import feed_for
        from .services.webhooks.deliverer import delivery_settings, run

        settings = delivery_settings(app.config)
        stop, wake = threading.Event(), threading.Event()

        def stopping(*_: object) -> None:
            stop.set()
            wake.set()

        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, stopping)
        # Woken by every event committed (the streams' feed: PostgreSQL's LISTEN, SQLite's
        # change counter), besides looking every SOLO_WEBHOOK_IDLE_POLL_S.
        feed = feed_for(db.engine)
        feed.attach(lambda *_: wake.set())
        feed.ready(5.0)
        workers = run(app.app_context, settings, stop, threads, wake)
        click.echo(f"delivering webhooks with {threads} threads", err=True)
        while not stop.wait(1.0):
            pass
        for worker in workers:
            worker.join(timeout=settings.lease_seconds)

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(dir_okay=False))
    @click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
    @click.option(
        "--print-command",
        is_flag=True,
        help="PostgreSQL: print the pg_dump command instead of running it.",
    )
    def backup(path: str, force: bool, print_command: bool) -> None:
        """Copy the whole database to PATH (safe while the service runs)."""
        if os.path.exists(path) and not force:
            raise click.ClickException(f"{path} exists; use --force to overwrite it")
        url = database_url()
        if url.get_backend_name() == "sqlite":
            counts = sqlite_backup(sqlite_path(url), path)
            click.echo(f"backed up {sqlite_path(url)} to {path}: " + _summary(counts))
        elif url.get_backend_name() == "postgresql":
            dsn, env = libpq_dsn(url)
            _run_or_print(
                [
                    "pg_dump",
                    "--format=custom",
                    "--no-owner",
                    "--no-privileges",
                    f"--file={path}",
                    f"--dbname={dsn}",
                ],
                env,
                print_command,
            )
        else:
            raise click.ClickException(f"no backup for {url.get_backend_name()} databases")

    @app.cli.command("restore")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False))
    @click.option("--yes", is_flag=True, help="Do not ask before replacing the database.")
    @click.option(
        "--print-command",
        is_flag=True,
        help="PostgreSQL: print the pg_restore command instead of running it.",
    )
    def restore(path: str, yes: bool, print_command: bool) -> None:
        """Replace every table of the database with the backup at PATH (stop the service
        first)."""
        url = database_url()
        target = url.render_as_string(hide_password=True)
        if not print_command and not yes:
            click.confirm(f"Replace every table of {target} with {path}?", abort=True)
        if url.get_backend_name() == "sqlite":
            counts = sqlite_restore(path, sqlite_path(url))
            click.echo(f"restored {path} into {sqlite_path(url)}: " + _summary(counts))
            head = _migration_head()
            version = _alembic_version(sqlite_path(url))
            if head is not None and version != head:
                click.echo(
                    f"the backup is at migration {version}, this release at {head}: "
                    "run `flask db upgrade`"
                )
        elif url.get_backend_name() == "postgresql":
            dsn, env = libpq_dsn(url)
            _run_or_print(
                [
                    "pg_restore",
                    "--clean",
                    "--if-exists",
                    "--no-owner",
                    "--no-privileges",
                    "--single-transaction",
                    f"--dbname={dsn}",
                    path,
                ],
                env,
                print_command,
            )
        else:
            raise click.ClickException(f"no restore for {url.get_backend_name()} databases")


# --- SQLite ---------------------------------------------------------------------------------


def database_url() -> URL:
    return make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])


def sqlite_path(url: URL) -> str:
    if not url.database or url.database == ":memory:" or url.database.startswith("file::memory"):
        raise click.ClickException("an in-memory SQLite database cannot be backed up")
    return url.database


def _connect(path: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=30)
    connection.execute("PRAGMA busy_timeout=30000")
    return connection


def table_counts(connection: sqlite3.Connection) -> dict[str, int]:
    names = [
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    return {
        name: connection.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names
    }


def _check(connection: sqlite3.Connection, what: str) -> None:
    result = connection.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        raise click.ClickException(f"{what} fails SQLite's integrity check: {result}")


def sqlite_backup(source: str, target: str) -> dict[str, int]:
    """A consistent copy of ``source`` at ``target`` (written to a side file, checked, synced,
    then renamed into place). Returns the row count of each table."""
    if not os.path.exists(source):
        raise click.ClickException(f"no database at {source}")
    partial = target + ".partial"
    if os.path.exists(partial):
        os.remove(partial)
    src = _connect(source)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # one step: a single read transaction, so one consistent snapshot
            dst.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
            _check(dst, "the copy")
            counts = table_counts(dst)
        finally:
            dst.close()
    finally:
        src.close()
    with open(partial, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(partial, target)
    return counts


def sqlite_restore(backup_path: str, target: str) -> dict[str, int]:
    """Copy the backup over ``target`` (created if missing) through the backup API, under
    ``target``'s write lock, after checking that the backup is a sound database of this
    service."""
    src = _connect(backup_path)
    try:
        try:
            _check(src, backup_path)
            tables = table_counts(src)
        except sqlite3.DatabaseError as error:
            raise click.ClickException(
                f"{backup_path} is not an SQLite database: {error}"
            ) from None
        if "alembic_version" not in tables:
            raise click.ClickException(f"{backup_path} is not a backup of this service")
        dst = _connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=WAL")  # as the service runs it
            _check(dst, "the restored database")
            return table_counts(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _alembic_version(path: str) -> str | None:
    connection = sqlite3.connect(path)
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])
    finally:
        connection.close()


def _migration_head() -> str | None:
    from alembic.script import ScriptDirectory

    migrate = current_app.extensions.get("migrate")
    if migrate is None:
        return None
    head = ScriptDirectory(migrate.directory).get_current_head()
    return None if head is None else str(head)


def _summary(counts: dict[str, int]) -> str:
    return f"{len(counts)} tables, " + ", ".join(f"{k} {v}" for k, v in counts.items())


# --- PostgreSQL -----------------------------------------------------------------------------


def libpq_dsn(url: URL) -> tuple[str, dict[str, str]]:
    """A libpq URL for pg_dump/pg_restore, and the environment carrying the password (kept off
    the command line, where any user could read it)."""
    env = {"PGPASSWORD": url.password} if url.password else {}
    plain = url._replace(drivername="postgresql", password=None)  # set() keeps a None field
    return plain.render_as_string(hide_password=False), env


def _run_or_print(command: list[str], env: dict[str, str], print_only: bool) -> None:
    shown = shlex.join(command)
    if env:
        shown = "PGPASSWORD=… " + shown
    if print_only or shutil.which(command[0]) is None:
        if not print_only:
            click.echo(f"{command[0]} is not installed here; run this where it is:", err=True)
        click.echo(shown)
        if not print_only:
            raise click.exceptions.Exit(1)
        return
    run_env: dict[str, Any] = {**os.environ, **env}
    completed = subprocess.run(command, env=run_env, check=False)
    if completed.returncode != 0:
        raise click.ClickException(f"{command[0]} failed (exit {completed.returncode})")
    click.echo(f"{command[0]} done: {shown}")
