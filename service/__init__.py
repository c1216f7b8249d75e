"""The Solo scorekeeper: ``create_app`` builds the Flask application. No work at import time."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config, database, migrations, the API and its error mapping."""
    from . import config
    from .api import register_blueprints
    from .api.errors import register_error_handlers
    from .database import configure_engine_events
    from .extensions import api, db, migrate

    app = Flask(__name__, instance_relative_config=True)
    config.load(app, test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the contract's key order
    os.makedirs(app.instance_path, exist_ok=True)

    db.init_app(app)
    with app.app_context():
        configure_engine_events(app, db.engine)
    migrations = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "migrations"))
    migrate.init_app(app, db, directory=migrations, render_as_batch=True)
    api.init_app(app)
    register_blueprints(app, api)
    register_error_handlers(app)

    from . import cli
    cli.register(app)
    return app
