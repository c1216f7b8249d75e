"""Configuration: defaults here, then the environment, then a test's overrides.

Environment: ``DATABASE_URL`` (SQLAlchemy URL; ``postgres://`` is accepted), ``SOLO_*`` for any
other key (``SOLO_SQLITE_SYNCHRONOUS=NORMAL`` …, parsed as JSON where possible).
"""

from __future__ import annotations

import os
from typing import Any

from .database import postgres_connect_args, sqlite_connect_args
from .json_text import stored_text

MAX_BODY_BYTES = 64 * 1024


class Defaults:
    API_TITLE = "Solo scorekeeper"
    API_VERSION = "1.0.0"
    OPENAPI_VERSION = "3.1.0"
    OPENAPI_URL_PREFIX = "/"
    OPENAPI_JSON_PATH = "openapi.json"
    OPENAPI_SWAGGER_UI_PATH = "docs"
    # Served from the swagger-ui-bundle package, never a CDN: clubs may run offline.
    OPENAPI_SWAGGER_UI_URL = "/docs/assets/"
    # An operation's address in the URL (`/docs#/Hands/recordHand`), to link to it. The page
    # draws the document's OpenAPI 3.0 copy (api/docs.py, `display_copy`): Swagger UI 5 took
    # 6-13 s to read the 3.1 document itself (docs/api.md, "Swagger UI at /docs").
    OPENAPI_SWAGGER_UI_CONFIG: dict[str, Any] = {
        "deepLinking": True,
        "url": "/docs/openapi-3.0.json",
    }
    API_SPEC_OPTIONS: dict[str, Any] = {
        "info": {
            "description": "Keeps the score of Solo card games played at a real table: settles "
            "hands, keeps tables, pools, couleur and dealer. Errors are RFC 9457 problem details. "
            "A bot asks the club's admin for a program token (`createNamedViewerToken`, `kind: "
            "program`), never for `createViewerToken` (the club's one read-only link).",
        },
        "components": {
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A club's admin token, a table token, a named token "
                    "(read-only or a program's), or a tournament's registration link.",
                },
            }
        },
    }
    MAX_CONTENT_LENGTH = MAX_BODY_BYTES
    # Engine options; ``load`` adds ``pool_pre_ping`` for database servers (see there).
    SQLALCHEMY_ENGINE_OPTIONS: dict[str, Any] = {}
    # SQLite: WAL lets readers and one writer work side by side; FULL syncs every commit so an
    # acknowledged hand survives a crash of the process or of the machine (``database.py``:
    # the sync is made after the writer lock is let go).
    SQLITE_SYNCHRONOUS = "FULL"
    SQLITE_BUSY_TIMEOUT_S = 30
    # Threads of one worker that may hold or wait for one table's lock; one more is answered
    # 503 at once (``services/locking.py``).
    TABLE_WRITERS_PER_WORKER = 2
    # Webhooks (services/webhooks, docs/operations.md): the networks besides the Internet's
    # they may be sent to (CIDRs; none by default), the bounds of one delivery, the retries'
    # backoff and when a failing subscription is disabled, how often an idle deliverer looks.
    WEBHOOK_ALLOWED_NETWORKS: list[str] = []
    WEBHOOK_CONNECT_TIMEOUT_S = 5.0
    WEBHOOK_READ_TIMEOUT_S = 10.0
    WEBHOOK_BACKOFF_BASE_S = 10.0
    WEBHOOK_BACKOFF_CAP_S = 3600.0
    WEBHOOK_DISABLE_AFTER_S = 3 * 86400.0
    WEBHOOK_IDLE_POLL_S = 1.0
    WEBHOOK_LEASE_MARGIN_S = 10.0
    WEBHOOK_LOG_RETENTION_DAYS = 30.0


def normalize_database_url(url: str) -> str:
    """Accept the common ``postgres://`` spellings and pick the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def load(app: Any, test_config: dict[str, Any] | None) -> None:
    app.config.from_object(Defaults)
    app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(
        app.instance_path, "solo.db"
    )
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    app.config.from_prefixed_env("SOLO")
    if test_config:
        app.config.update(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = normalize_database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    # A server's connection may have gone (a restart, a dropped socket): test each one as it
    # leaves the pool. An SQLite file cannot go away like that, and the test costs every
    # request a statement.
    options = dict(app.config["SQLALCHEMY_ENGINE_OPTIONS"])
    options.setdefault(
        "pool_pre_ping", not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    )
    # SQLite connections are ``database.SqliteConnection``s (the writer lock, the WAL sync);
    # PostgreSQL ones bound how long request work waits (``database.POSTGRES_TIMEOUTS``,
    # ``SOLO_PG_LOCK_TIMEOUT_MS`` …).
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    server_args = postgres_connect_args(app.config) if url.startswith("postgresql") else {}
    options["connect_args"] = {
        **sqlite_connect_args(url),
        **server_args,
        **options.get("connect_args", {}),
    }
    # The JSON columns' text (hands' records and settlements, stored answers) by orjson: the
    # standard library's encoder was a sixth of recording a hand.
    options.setdefault("json_serializer", stored_text)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
