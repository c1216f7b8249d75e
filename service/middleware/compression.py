"""Compressed answers: Brotli or gzip, as the client's ``Accept-Encoding`` allows.

``Compression`` is a WSGI layer just inside the envelope (``security.py``), so it sees every
answer: Flask's and the ones made before Flask (``early.py``) alike.
An answer is compressed when the client accepts ``br`` or ``gzip`` (q-values honoured; ``br``
preferred at equal quality), and it is a 2xx other than 204/206 of a text type
(``COMPRESSIBLE``), of at least ``COMPRESS_MIN_SIZE`` bytes (default 500: below that the
headers cost more than the saving), with no ``Content-Encoding`` of its own and no
``Cache-Control: no-transform``. Such an answer gets ``Content-Encoding``, its new
``Content-Length`` and ``Vary: Accept-Encoding``; its ETag is kept as it is: the API's ETags name
a table's version, which ``If-Match`` and ``If-None-Match`` compare, not the bytes sent.
``COMPRESSION = False`` turns the layer off.

Answers made of bytes fixed for the life of the process (the pad's files, the variants) are
compressed once, at the best quality, by ``FixedBody``, and carry their own ``Content-Encoding``
(so the layer leaves them alone), an ETag per coding, and 304s.
"""

from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from typing import Any

import brotli
from flask import Request, Response
from werkzeug.http import parse_accept_header

from .security import StartResponse, WsgiApp

COMPRESSIBLE = frozenset(
    {
        "text/html",
        "text/css",
        "text/javascript",
        "text/plain",
        "text/csv",
        "application/json",
        "application/problem+json",
        "application/manifest+json",
        "application/yaml",
        "application/x-yaml",
        "application/javascript",
        "image/svg+xml",
    }
)
MIN_SIZE = 500
# Dynamic answers: fast settings (a 2 KiB table view takes tens of microseconds). Fixed ones
# are compressed once per worker, on their first request: the whole pad (106 KiB) takes 140 ms
# at Brotli 5 for 35 KiB, where 11 took 600 ms for 32 KiB and 4 took 30 ms for 37 KiB.
BROTLI_QUALITY = 4
GZIP_LEVEL = 6
FIXED_BROTLI_QUALITY = 5
FIXED_GZIP_LEVEL = 9
CODINGS = ("br", "gzip")


@lru_cache(maxsize=256)
def chosen_coding(accept_encoding: str) -> str | None:
    """``br``, ``gzip`` or None (identity) for an ``Accept-Encoding`` value. Browsers send one
    of a few values, so the answer is remembered."""
    accepted = parse_accept_header(accept_encoding)
    best, best_quality = None, 0.0
    for coding in CODINGS:
        quality = accepted.quality(coding)
        if quality > best_quality:
            best, best_quality = coding, quality
    return best


def compress(body: bytes, coding: str, fixed: bool = False) -> bytes:
    if coding == "br":
        return bytes(
            brotli.compress(
                body,
                mode=brotli.MODE_TEXT,
                quality=FIXED_BROTLI_QUALITY if fixed else BROTLI_QUALITY,
            )
        )
    # mtime 0: the same bytes give the same answer (no clock in the gzip header).
    return gzip.compress(body, compresslevel=FIXED_GZIP_LEVEL if fixed else GZIP_LEVEL, mtime=0)


def _compressible(status: str, headers: list[tuple[str, str]], min_size: int) -> bool:
    code = int(status[:3])
    if not 200 <= code < 300 or code in (204, 206):
        return False
    mimetype, length = "", None
    for name, value in headers:
        lowered = name.lower()
        if lowered == "content-type":
            mimetype = value.split(";", 1)[0].strip().lower()
        elif lowered == "content-encoding":
            return False
        elif lowered == "content-length":
            length = int(value) if value.isdigit() else None
        elif lowered == "cache-control" and "no-transform" in value.lower():
            return False
    return mimetype in COMPRESSIBLE and (length is None or length >= min_size)


def _with_vary(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    for index, (name, value) in enumerate(headers):
        if name.lower() == "vary":
            if "accept-encoding" not in value.lower() and value.strip() != "*":
                headers[index] = (name, f"{value}, Accept-Encoding")
            return headers
    headers.append(("Vary", "Accept-Encoding"))
    return headers


class Compression:
    """WSGI middleware: the answers worth compressing, compressed."""

    def __init__(self, app: WsgiApp, min_size: int = MIN_SIZE) -> None:
        self.app = app
        self.min_size = min_size

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        accept = environ.get("HTTP_ACCEPT_ENCODING")
        coding = (
            None if not accept or environ.get("REQUEST_METHOD") == "HEAD" else chosen_coding(accept)
        )
        if coding is None:
            return self.app(environ, start_response)
        held: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if _compressible(status, headers, self.min_size):
                held[:] = [status, headers, exc_info]
                return held.append  # write(): a body written, not returned, is held too
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        if not held:
            return body
        status, headers, exc_info, *written = held
        try:
            data = b"".join([*written, *body])
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        if len(data) < self.min_size:
            start_response(status, headers, exc_info)
            return [data]
        compressed = compress(data, coding)
        headers = [(n, v) for n, v in headers if n.lower() != "content-length"]
        headers += [("Content-Encoding", coding), ("Content-Length", str(len(compressed)))]
        start_response(status, _with_vary(headers), exc_info)
        return [compressed]


class FixedBody:
    """Bytes fixed for the life of the process, with their type, answered with an ETag of
    their content, each coding compressed once on first use."""

    def __init__(self, body: bytes, mimetype: str) -> None:
        self.body = body
        self.mimetype = mimetype
        self.digest = hashlib.sha256(body).hexdigest()[:20]
        self._encoded: dict[str, bytes] = {}

    def encoded(self, coding: str) -> bytes:
        data = self._encoded.get(coding)
        if data is None:
            data = self._encoded[coding] = compress(self.body, coding, fixed=True)
        return data

    def response(self, request: Request, cache_control: str) -> Response:
        """200 with the body in the coding the request prefers (or 304 for its ETag)."""
        coding = None
        if self.mimetype in COMPRESSIBLE and len(self.body) >= MIN_SIZE:
            coding = chosen_coding(request.headers.get("Accept-Encoding", ""))
        etag = self.digest if coding is None else f"{self.digest}.{coding}"
        headers: dict[str, str] = {"Cache-Control": cache_control, "ETag": f'"{etag}"'}
        if self.mimetype in COMPRESSIBLE:
            headers["Vary"] = "Accept-Encoding"
        if request.if_none_match.contains_weak(etag):
            return Response(status=304, headers=headers)
        data = self.body if coding is None else self.encoded(coding)
        if coding is not None:
            headers["Content-Encoding"] = coding
        return Response(data, status=200, mimetype=self.mimetype, headers=headers)


def init_app(app: Any) -> None:
    """Call after the layers that answer before Flask and before ``security.init_app``: the
    envelope goes around this, this around them."""
    app.config.setdefault("COMPRESSION", True)
    app.config.setdefault("COMPRESS_MIN_SIZE", MIN_SIZE)
    if app.config["COMPRESSION"]:
        app.wsgi_app = Compression(app.wsgi_app, int(app.config["COMPRESS_MIN_SIZE"]))
