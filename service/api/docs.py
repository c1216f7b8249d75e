"""The OpenAPI document as YAML, and Swagger UI's assets from the flask-swagger-ui package.

flask-swagger-ui ships Swagger UI 5, which reads OpenAPI 3.1 (swagger-ui-bundle's 4.15 does
not); only its ``dist`` files are used, behind flask-smorest's own docs page. They are read
and compressed once per worker (``FixedBody``: Brotli or gzip, an ETag, 304s): the bundle is
1.6 MB as written and 0.4 MB as sent."""

from __future__ import annotations

import mimetypes
from functools import cache
from pathlib import Path

import flask_swagger_ui
import yaml
from flask import Blueprint, Flask, Response, abort, current_app, request

from ..middleware.compression import FixedBody

SWAGGER_UI_DIST = Path(flask_swagger_ui.__file__).parent / "dist"
ASSETS_CACHE_CONTROL = "public, max-age=86400"

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


@cache
def _asset_names() -> frozenset[str]:
    return frozenset(p.name for p in SWAGGER_UI_DIST.iterdir() if p.is_file())


@cache
def _asset(filename: str) -> FixedBody:
    """One of the ``dist`` files (``_asset_names``), read and kept once."""
    mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    return FixedBody((SWAGGER_UI_DIST / filename).read_bytes(), mimetype)


@bp.get("/docs/assets/<path:filename>")
def swagger_assets(filename: str) -> Response:
    if filename not in _asset_names():  # nothing from outside the folder
        abort(404)
    return _asset(filename).response(request, ASSETS_CACHE_CONTROL)


def register(app: Flask) -> None:
    app.register_blueprint(bp)
