"""HTTP layer: flask-smorest blueprints, one per resource. Views are thin: load, call, dump."""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from .problem import ProblemApi

# The OpenAPI document's owner, bound to an app in ``create_app``.
api = ProblemApi()


def register_blueprints(app: Flask, api: Api) -> None:
    from . import clubs, docs, health, league, pages, settlements, tables, variants

    docs.register(app)
    pages.register(app)
    for module in (health, variants, settlements, clubs, tables, league):
        api.register_blueprint(module.blp)
