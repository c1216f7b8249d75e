"""The score pad: the phone page at ``/``, its files under ``/pad/``, its web app manifest, its
service worker (served at ``/sw.js`` so that its scope covers ``/``) and ``/favicon.ico``.

A plain blueprint, not part of the OpenAPI document: the page is a client of the public API
like any other and calls nothing else. Its responses carry the strict Content-Security-Policy
that ``security.py`` sets on every answer (no inline script or style, nothing from elsewhere);
the page is built to work under it. A table's link, ``/?table=<id>&token=<token>``, is answered
with the table's first screen in the page (``first_screen.py``: its inline stylesheet and loader
allowed by their hashes in that answer's policy).

Caching. The pad has no build step and its modules import each other by relative paths
(``./dom.js``), so its files are served under one prefix that changes with their content:
``/pad/<version>/<file>``, ``version`` being a digest of every file of the pad. The page, the
manifest and the service worker name the files so, rewritten as they are served (every
``/pad/<file>`` of a file of the pad becomes ``/pad/<version>/<file>``); the files under the
prefix are sent ``Cache-Control: public, max-age=31536000, immutable``; a file asked for under
another version (a page of another instance mid-deploy, an old tab) is redirected (302,
``no-store``) to the current version's, never given other bytes under a name once given.
The page, the manifest and the service worker themselves are revalidated on every load
(``no-cache``, with an ETag: a 304 when nothing changed); so is ``/pad/<file>`` without a
version, kept for older pages. The service worker's cache is named after the version too
(``solo-pad-<version>``), so a new version of the pad installs afresh and the old cache is
dropped.

Every file is read into memory once per version and compressed once per coding (Brotli, gzip:
``compression.FixedBody``). The folder is looked at on each page load (a ``stat`` per file),
so an edited file is served at once under a new version, without a restart.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, request

from ..middleware.compression import FixedBody
from .first_screen import first_screen_page

PAD_DIR = Path(__file__).resolve().parent.parent / "static" / "pad"

MIMETYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".html": "text/html",
    ".webmanifest": "application/manifest+json",
}
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
FAVICON_CACHE = "public, max-age=86400"
ICON = "icon.svg"
# The files that name others and are rewritten to their versioned names.
NAMING_FILES = ("index.html", "sw.js", "manifest.webmanifest")
VERSION_LENGTH = 12
VERSION = re.compile(rf"[0-9a-f]{{{VERSION_LENGTH}}}")
SERVICE_WORKER_CACHE = re.compile(rb"solo-pad-v\d+")

bp = Blueprint("pad", __name__)


@dataclass(frozen=True)
class PadVersion:
    """The pad's files at one version: each file as served, and the rewritten ones."""

    version: str
    files: dict[str, FixedBody]
    rewritten: dict[str, FixedBody]


def _signature(directory: Path) -> tuple[tuple[str, int, int], ...]:
    """Each file's name, modification time and size: one ``stat`` per file."""
    with os.scandir(directory) as entries:
        found = []
        for entry in entries:
            if entry.is_file():
                stat = entry.stat()
                found.append((entry.name, stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(found))


def _mimetype(name: str) -> str:
    return MIMETYPES.get(Path(name).suffix, "application/octet-stream")


def read_pad(directory: Path) -> PadVersion:
    """The folder's files, their version, and the naming files rewritten to it."""
    contents = {
        p.name: p.read_bytes()
        for p in sorted(directory.iterdir())
        if p.is_file() and p.suffix in MIMETYPES  # not lit-html.d.ts: types for tsc, not phones
    }
    digest = hashlib.sha256()
    for name, data in contents.items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    version = digest.hexdigest()[:VERSION_LENGTH]
    # Longest names first, so that a name that is the start of another is not taken for it.
    names = "|".join(re.escape(n) for n in sorted(contents, key=len, reverse=True))
    pad_path = re.compile(rf"/pad/({names})(?![\w.-])".encode())
    rewritten = {}
    for name in NAMING_FILES:
        if name in contents:
            data = pad_path.sub(rb"/pad/" + version.encode() + rb"/\1", contents[name])
            if name == "sw.js":
                data = SERVICE_WORKER_CACHE.sub(b"solo-pad-" + version.encode(), data)
            rewritten[name] = FixedBody(data, _mimetype(name))
    return PadVersion(
        version, {n: FixedBody(d, _mimetype(n)) for n, d in contents.items()}, rewritten
    )


class PadFiles:
    """The pad's current version, read again when a file of the folder changes."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._signature: tuple[tuple[str, int, int], ...] | None = None
        self._current: PadVersion | None = None

    def current(self) -> PadVersion:
        signature = _signature(self.directory)
        current = self._current
        if current is None or signature != self._signature:
            with self._lock:
                if self._current is None or signature != self._signature:
                    self._current = read_pad(self.directory)
                    self._signature = signature
                current = self._current
        return current


def pad_files() -> PadFiles:
    """The app's pad (``PAD_DIRECTORY`` in the config, the service's own by default)."""
    files = current_app.extensions.get("pad_files")
    if files is None:
        directory = Path(current_app.config.get("PAD_DIRECTORY") or PAD_DIR)
        files = current_app.extensions.setdefault("pad_files", PadFiles(directory))
    return files  # type: ignore[no-any-return]


def _rewritten(name: str) -> Response:
    return pad_files().current().rewritten[name].response(request, REVALIDATE)


@bp.get("/")
def index() -> Response:
    if "table" in request.args:  # a table's link with its token: its first screen in the page
        pad = pad_files().current()
        page = first_screen_page(pad.rewritten["index.html"].body, pad.files, pad.version)
        if page is not None:
            return page
    return _rewritten("index.html")


@bp.get("/pad/<path:filename>")
def asset(filename: str) -> Response:
    pad = pad_files().current()
    version, _, name = filename.rpartition("/")
    if version:  # /pad/<version>/<file>: this version's bytes, kept for good
        if name not in pad.files or not VERSION.fullmatch(version):
            abort(404)
        if version != pad.version:
            # A page of another version (another instance mid-deploy, an old tab): sent on to
            # this version's file, never given other bytes under its own name.
            return Response(
                status=302,
                headers={"Location": f"/pad/{pad.version}/{name}", "Cache-Control": "no-store"},
            )
        return pad.files[name].response(request, IMMUTABLE)
    if name not in pad.files:
        abort(404)
    return pad.files[name].response(request, REVALIDATE)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return _rewritten("manifest.webmanifest")


@bp.get("/sw.js")
def service_worker() -> Response:
    response = _rewritten("sw.js")
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The pad's icon (SVG, which browsers take as a favicon by its type)."""
    pad = pad_files().current()
    if ICON not in pad.files:
        abort(404)
    return pad.files[ICON].response(request, FAVICON_CACHE)


def register(app: Flask) -> None:
    app.register_blueprint(bp)
