"""The OpenAPI document as YAML, Swagger UI's assets from the flask-swagger-ui package, and the
copy of the document that Swagger UI at ``/docs`` draws: the same operations and schemas said in
OpenAPI 3.0 (``display_copy``), which Swagger UI 5 reads several times faster than 3.1 (its 3.1
reader, ApiDOM, took 6-13 s on this document in Chromium on a 2-core machine; docs/api.md).

flask-swagger-ui ships Swagger UI 5, which reads OpenAPI 3.1 (swagger-ui-bundle's 4.15 does
not); only its ``dist`` files are used, behind flask-smorest's own docs page. They are read
and compressed once per worker (``FixedBody``: Brotli or gzip, an ETag, 304s): the bundle is
1.6 MB as written and 0.4 MB as sent."""

from __future__ import annotations

import json
import mimetypes
from functools import cache
from pathlib import Path
from typing import Any

import flask_swagger_ui
import yaml
from flask import Blueprint, Flask, Response, abort, current_app, request

from ..middleware.compression import FixedBody

SWAGGER_UI_DIST = Path(flask_swagger_ui.__file__).parent / "dist"
ASSETS_CACHE_CONTROL = "public, max-age=86400"
# The page reads the document anew on each visit (its ETag makes that a 304): a new version of
# the service shows its own operations at once.
DISPLAY_COPY_PATH = "/docs/openapi-3.0.json"
DISPLAY_CACHE_CONTROL = "no-cache"

bp = Blueprint("openapi_yaml", __name__)


# A list of plain values (no mapping or list inside) is written in YAML's flow style, and a
# mapping of plain values too when it is this short as JSON: `{$ref: '#/components/…'}`,
# `type: [string, 'null']`, `enum: [open, closed]`, `{type: integer, minimum: 0}`. Longer
# ones, and every description worth a line of its own, stay in block style. A third of the
# document's bytes were the indentation of one short value a line.
FLOW_AT_MOST = 80
YAML_WIDTH = 100


class _DocumentDumper(yaml.SafeDumper):
    """Writes a value met twice out twice: no ``&id001`` anchors and ``*id001`` aliases, which
    some OpenAPI tools do not follow; short collections of plain values on one line."""

    def ignore_aliases(self, data: object) -> bool:
        return True

    def represent_dict(self, data: Any) -> yaml.MappingNode:
        node = super().represent_dict(data)
        node.flow_style = _short_and_plain(data.values(), data)
        return node

    def represent_list(self, data: Any) -> yaml.SequenceNode:
        node = super().represent_list(data)
        node.flow_style = all(_plain(v) for v in data)  # `required`, `enum`: wrapped at the width
        return node


def _plain(value: object) -> bool:
    return not isinstance(value, (dict, list))


def _short_and_plain(values: Any, data: object) -> bool:
    return all(_plain(v) for v in values) and len(json.dumps(data)) <= FLOW_AT_MOST


_DocumentDumper.add_representer(dict, _DocumentDumper.represent_dict)
_DocumentDumper.add_representer(list, _DocumentDumper.represent_list)


def spec_yaml() -> str:
    """The document exactly as ``openapi.yaml`` in the repository should hold it."""
    spec = current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return yaml.dump(
        spec, Dumper=_DocumentDumper, sort_keys=False, allow_unicode=True, width=YAML_WIDTH
    )


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


def display_copy(node: Any) -> Any:
    """The OpenAPI 3.1 document said in OpenAPI 3.0, for Swagger UI to draw (never for a
    client: ``/openapi.json`` and ``/openapi.yaml`` are the document). What 3.0 cannot say is
    said as near as it can: a type with ``null`` is ``nullable``, a ``{"type": "null"}`` member
    of an ``anyOf``/``oneOf`` makes it ``nullable``, ``const`` is a one-value ``enum``,
    ``examples`` gives its first as ``example``; a reference with words beside it (3.0 reads
    none) is an operation's answer written out with its own words, or a schema's ``allOf`` of
    the one it names; JSON Schema's content keywords (``contentMediaType``,
    ``contentSchema``) are left out (the header's description says them)."""
    if isinstance(node, dict) and "paths" in node:
        answers = node.get("components", {}).get("responses", {})
        node = {**node, "paths": _answers_with_their_words(node["paths"], answers)}
    return _copied(node)


def _answers_with_their_words(paths: Any, answers: dict[str, Any]) -> Any:
    """Each operation's answer that refers to a shared one with words of its own, written out
    with them: ``{"$ref": …/Conflict, "description": "No place is free …"}``."""
    copied: dict[str, Any] = {}
    for path, item in paths.items():
        copied[path] = dict(item)
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses: dict[str, Any] = {}
            for status, answer in operation["responses"].items():
                name = answer.get("$ref", "").rpartition("/")[2]
                if len(answer) > 1 and name in answers:
                    answer = {**answers[name], **{k: v for k, v in answer.items() if k != "$ref"}}
                responses[status] = answer
            copied[path][method] = {**operation, "responses": responses}
    return copied


def _copied(node: Any) -> Any:
    if isinstance(node, list):
        return [_copied(item) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node and len(node) > 1:  # a schema's words beside its reference
        node = {"allOf": [{"$ref": node["$ref"]}], **{k: v for k, v in node.items() if k != "$ref"}}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("contentMediaType", "contentSchema", "$schema", "jsonSchemaDialect"):
            continue
        if key in ("properties", "schemas") and isinstance(value, dict):  # names, not keywords
            out[key] = {name: _copied(member) for name, member in value.items()}
        elif key == "openapi":
            out[key] = "3.0.3"
        elif key == "type" and isinstance(value, list):
            kinds = [kind for kind in value if kind != "null"]
            if len(kinds) == 1:
                out[key] = kinds[0]
            if len(kinds) < len(value):
                out["nullable"] = True
        elif key in ("anyOf", "oneOf") and isinstance(value, list):
            members = [_copied(m) for m in value if m != {"type": "null"}]
            if len(members) < len(value):
                out["nullable"] = True
            out[key] = members
        elif key == "const":
            out["enum"] = [value]
        elif key == "examples" and isinstance(value, list):
            if value:
                out["example"] = _copied(value[0])
        else:
            out[key] = _copied(value)
    return out


def _display_body() -> FixedBody:
    """The display copy of this app's document, made once per worker."""
    kept: FixedBody | None = current_app.extensions.get("openapi_display_copy")
    if kept is None:
        spec = current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
        body = json.dumps(display_copy(spec), ensure_ascii=False, separators=(",", ":"))
        kept = FixedBody(body.encode(), "application/json")
        current_app.extensions["openapi_display_copy"] = kept
    return kept


@bp.get(DISPLAY_COPY_PATH)
def openapi_display_copy() -> Response:
    return _display_body().response(request, DISPLAY_CACHE_CONTROL)


def register(app: Flask) -> None:
    app.register_blueprint(bp)
