"""The OpenAPI document as YAML, and Swagger UI's assets from the swagger-ui-bundle package."""

from __future__ import annotations

import yaml
from flask import Blueprint, Flask, Response, current_app, send_from_directory
from swagger_ui_bundle import swagger_ui_path

bp = Blueprint("openapi_yaml", __name__)


def spec_yaml() -> str:
    """The document exactly as ``openapi.yaml`` in the repository should hold it."""
    spec = current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True)


@bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return Response(spec_yaml(), mimetype="application/yaml")


@bp.get("/docs/assets/<path:filename>")
def swagger_assets(filename: str) -> Response:
    response = send_from_directory(swagger_ui_path, filename, max_age=86400)
    return response


def register(app: Flask) -> None:
    app.register_blueprint(bp)
