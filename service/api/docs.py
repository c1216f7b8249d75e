"""The OpenAPI document as YAML, and Swagger UI's assets from the flask-swagger-ui package.

flask-swagger-ui ships Swagger UI 5, which reads OpenAPI 3.1 (swagger-ui-bundle's 4.15 does
not); only its ``dist`` files are used, behind flask-smorest's own docs page."""

from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
import yaml
from flask import Blueprint, Flask, Response, current_app, send_from_directory

SWAGGER_UI_DIST = str(Path(flask_swagger_ui.__file__).parent / "dist")

bp = Blueprint("openapi_yaml", __name__)


class _NoAliasDumper(yaml.SafeDumper):
    """Writes a value met twice out twice: no ``&id001`` anchors and ``*id001`` aliases, which
    some OpenAPI tools do not follow."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def spec_yaml() -> str:
    """The document exactly as ``openapi.yaml`` in the repository should hold it."""
    spec = current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return yaml.dump(spec, Dumper=_NoAliasDumper, sort_keys=False, allow_unicode=True)


@bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return Response(spec_yaml(), mimetype="application/yaml")


@bp.get("/docs/assets/<path:filename>")
def swagger_assets(filename: str) -> Response:
    response = send_from_directory(SWAGGER_UI_DIST, filename, max_age=86400)
    return response


def register(app: Flask) -> None:
    app.register_blueprint(bp)
