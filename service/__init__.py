"""The Solo scorekeeper: ``create_app`` builds the Flask application. No work at import time."""

from __future__ import annotations

import copy
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # importing Flask here would load it for ``import service.rules`` too
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config, database, migrations, the API and its error mapping."""
    from flask import Flask

    from . import config, i18n, json_provider, logs
    from .api import api, metrics, openapi, register_blueprints
    from .api.errors import answer_for, register_error_handlers
    from .database import configure_engine_events, guard_session_teardown
    from .extensions import db, migrate
    from .middleware import compression, early, limits, security
    from .services import locking

    app = Flask(__name__, instance_relative_config=True)
    security.bound_path_strings(app)  # before any route is added
    config.load(app, test_config)
    # apispec's to_dict() merges the document into the spec's options, nested dicts included:
    # each app gets its own copy, or one app's components would be served in the next app's
    # document (a process that builds several apps: tests).
    app.config["API_SPEC_OPTIONS"] = copy.deepcopy(app.config.get("API_SPEC_OPTIONS", {}))
    json_provider.install(app)  # orjson, keys in the contract's order
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.testing:  # (the tests' records go to pytest's caplog)
        logs.configure()  # the app's logs as JSON lines, with the request id

    db.init_app(app)
    locking.bound_writers_per_table(int(app.config["TABLE_WRITERS_PER_WORKER"]))
    guard_session_teardown(app, db)
    with app.app_context():
        configure_engine_events(app, db.engine)
    migrations = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "migrations"))
    migrate.init_app(app, db, directory=migrations, render_as_batch=True)
    api.init_app(app)
    register_blueprints(app, api)
    register_error_handlers(app)
    metrics.init_app(app)  # GET /metrics, for the operator's token only
    i18n.init_app(app)  # Content-Language and Vary: Accept-Language on every API answer
    limits.init_app(app)
    limits.document(api.spec)
    openapi.complete(api.spec)  # last: names, problems and headers of every operation
    with app.app_context():
        early.init_app(app, db.engine)  # a table's polls, tickets, openings answered alone
    compression.init_app(app)  # around all of them: every answer worth it compressed
    # Around all: headers, request id, access log (errors escaping Flask answered by the
    # error layer); CORS; proxies.
    security.init_app(app, answer_for)

    from . import cli

    cli.register(app)
    return app
