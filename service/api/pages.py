"""The score pad: the phone page at ``/``, its assets under ``/pad/``, its web app manifest and
its service worker (served at ``/sw.js`` so that its scope covers ``/``).

A plain blueprint, not part of the OpenAPI document: the page is a client of the public API
like any other and calls nothing else. Its responses carry the strict Content-Security-Policy
that ``security.py`` sets on every answer (no inline script or style, nothing from elsewhere);
the page is built to work under it.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, send_from_directory

PAD_DIR = Path(__file__).resolve().parent.parent / "static" / "pad"

MIMETYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".html": "text/html",
    ".webmanifest": "application/manifest+json",
}

bp = Blueprint("pad", __name__)


def _send(filename: str) -> Response:
    """A file of the pad, revalidated on every load (the service worker keeps the offline copy)."""
    mimetype = MIMETYPES.get(Path(filename).suffix)
    response = send_from_directory(PAD_DIR, filename, mimetype=mimetype, max_age=0)
    response.cache_control.no_cache = True
    return response


@bp.get("/")
def index() -> Response:
    return _send("index.html")


@bp.get("/pad/<path:filename>")
def asset(filename: str) -> Response:
    return _send(filename)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return _send("manifest.webmanifest")


@bp.get("/sw.js")
def service_worker() -> Response:
    response = _send("sw.js")
    response.headers["Service-Worker-Allowed"] = "/"
    return response


def register(app: Flask) -> None:
    app.register_blueprint(bp)
