"""HTTP layer: flask-smorest blueprints, one per resource. Views are thin: load, call, dump."""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from .media import register as register_media_checks
from .problem import ProblemApi

# The OpenAPI document's owner, bound to an app in ``create_app``.
api = ProblemApi()


def register_blueprints(app: Flask, api: Api) -> None:
    from . import (
        clubs,
        docs,
        health,
        league,
        league_admin,
        live,
        night_pages,
        nights,
        openapi,
        pages,
        public_results,
        settlements,
        tables,
        tournament_pages,
        tournament_results,
        tournaments,
        variants,
        webhooks,
    )

    openapi.register_components(api.spec)  # before the operations that name them
    clubs.register_converters(app)
    docs.register(app)
    pages.register(app)
    night_pages.register(app)
    tournament_pages.register(app)
    public_results.register(app)
    for module in (
        health,
        variants,
        settlements,
        clubs,
        tables,
        league,
        league_admin,
        nights,
        tournaments,
        tournament_results,
        public_results,
        live,
        webhooks,
    ):
        api.register_blueprint(module.blp)
    register_media_checks(app)
