"""A table's link opened with its token in the query (``/?table=<id>&token=<token>``): the pad's
page with the table's first screen already in it.

On a phone's narrow network the table's names used to be drawn only once the pad's scripts and
its three first reads had arrived and run (docs/pad.md, "A table's first screen"). This page
brings with it what the first paint shows and what the pad would read first:

- the table's name, the line under it (an open table's "{game} · next: hand {number}", in the
  pad's own words of the language: ``lang-<language>.js``) and the seats' names — the screen's
  largest texts — in the markup ``table.js`` draws them with, so the page's first paint shows
  them; ``app.js`` replaces the whole ``<main>`` with the screen it draws once its modules have
  run (the same texts in the same boxes, the rest of the screen around them). Only what the
  first paint needs: every other part of the screen has one renderer, the pad's;
- the answers to the pad's three first reads (``boot.js``: the table, its first page of hands,
  the games' descriptions), each as the API gives it to that request (dispatched in-process
  through the whole WSGI stack: the same route, token check, limits and body, in the language
  the phone asks for), in a JSON ``<script>`` that ``boot.js`` hands to the app as those
  requests' answers;
- the stylesheet in a ``<style>`` (allowed by its hash in this answer's policy), so the first
  paint waits for no other request; the module scripts and their preloads are asked for once
  that paint is done (``AFTER_PAINT``, an inline script allowed by its hash).

A token the API refuses, a missing table or any other answer than 200 to the table's read gives
the plain page: the pad then reads as it always does and shows what it would. The answer is
``no-store`` (it holds the table, for whoever holds the token).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from flask import Response, current_app, request
from markupsafe import Markup
from werkzeug.test import EnvironBuilder, run_wsgi_app

from ..i18n import negotiate, number, signed
from ..middleware.compression import FixedBody
from ..middleware.security import CSP_DIRECTIVES

HANDS_PAGE_SIZE = 100  # boot.js's HANDS_PAGE_SIZE: the pad's first page of hands
# The answers' headers the pad reads (api.js, model.js).
KEPT_HEADERS = ("Content-Type", "ETag", "X-Pagination", "Link", "Content-Language")
STYLESHEET = "pad.css"
NEXT_HAND = "{game} · next: hand {number}"  # table.js's line under an open table's name
SIGN_CLASS = {True: " plus", False: " minus"}  # table.js's signClass
MAIN_OPENING = b'<main id="app" tabindex="-1">'
MODULE_SCRIPT = re.compile(rb'<script type="module" src="([^"]+)"></script>')
MODULE_PRELOAD = re.compile(rb'<link rel="modulepreload" href="([^"]+)">')
# The page's scripts, asked for once its first frame (the seats' names) is painted (dom.js's
# afterPaint): Lighthouse's simulation counts every request that ended before the observed
# paint as one the paint waited for, and on the phone they would only share its narrow link
# with the page. The module scripts are added, the preloads given their rel back.
AFTER_PAINT = (
    b"requestAnimationFrame(()=>setTimeout(()=>{"
    b"for(const l of document.querySelectorAll('link[data-after-paint]')){"
    b"const kind=l.dataset.afterPaint;"
    b"if(kind==='module'){const s=document.createElement('script');"
    b"s.type='module';s.src=l.href;document.head.append(s)}"
    b"else l.rel=kind}}))"
)
MAIN_CLOSING = b"</main>"
# The page's own words (``data-t``: the title, the brand, the connection's line), which
# i18n.js translates once it runs; the first paint shows them in the table's language already.
PAGE_WORD = re.compile(rb"(data-t>)([^<]+)(<)")
HTML_LANG = b'<html lang="en"'


def table_link(root: str, table_id: str, token: str) -> str:
    """The link that opens a table on a phone with its first screen in the page (``root``: the
    service's address with its closing slash). ``share-screen.js`` makes the same one."""
    return f"{root}?table={quote(table_id, safe='')}&token={quote(token, safe='')}"


def _read(path: str, token: str | None, language: str) -> dict[str, Any] | None:
    """The API's answer to the pad's own request for ``path``, if it is a 200."""
    headers = {"Accept": "application/json", "Accept-Language": language}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    environ = EnvironBuilder(
        path=f"/api/v1{path}",
        headers=list(headers.items()),
        environ_base={"REMOTE_ADDR": request.remote_addr or ""},
    ).get_environ()
    body, status, answer_headers = run_wsgi_app(current_app.wsgi_app, environ, buffered=True)
    data = b"".join(body)
    if not status.startswith("200 "):
        return None
    kept = {name: answer_headers[name] for name in KEPT_HEADERS if name in answer_headers}
    return {"path": path, "headers": kept, "body": data.decode("utf-8")}


def first_reads(table_id: str, token: str, language: str) -> dict[str, Any] | None:
    """The three answers ``boot.js`` would ask for first, or None when the table's read is not
    a 200 (then the pad reads for itself and says why)."""
    table_path = f"/tables/{quote(table_id, safe='')}"
    table = _read(table_path, token, language)
    if table is None:
        return None
    reads = [table]
    for path, needs_token in (
        (f"{table_path}/hands?page=1&page_size={HANDS_PAGE_SIZE}", True),
        ("/variants", False),
    ):
        answer = _read(path, token if needs_token else None, language)
        if answer is not None:
            reads.append(answer)
    return {"table": table_id, "language": language, "reads": reads}


def pad_text(files: Mapping[str, FixedBody], language: str, text: str) -> str:
    """``text`` as the pad's catalog of ``language`` writes it (``lang-<language>.js``), else
    as written (English)."""
    catalog = files.get(f"lang-{language}.js")
    if catalog is None:
        return text
    translated = _catalog(catalog.body).get(text)
    return translated if isinstance(translated, str) else text


@lru_cache(maxsize=8)
def _catalog(source: bytes) -> dict[str, Any]:
    """A pad catalog's entries: one a line, ``"text": "translation",`` in JSON syntax (as
    tests/e2e/test_pad_catalogs.py reads them)."""
    entries: dict[str, Any] = {}
    for line in source.decode("utf-8").splitlines():
        entry = line.strip().rstrip(",")
        if entry.startswith('"'):
            try:
                entries.update(json.loads("{" + entry + "}"))
            except ValueError:
                continue  # not an entry of its own (a text per plural category spans lines)
    return entries


def _plain(table: dict[str, Any]) -> bool:
    """An open table outside a club night's series: the one whose line and dealer ``table.js``
    writes without the night's words (the service leaves the others' to the pad)."""
    session = table.get("session") or {}
    return (
        table.get("status") == "open"
        and not session.get("over")
        and not table.get("night_id")
        and table.get("hands_limit") is None
    )


def _hint(
    files: Mapping[str, FixedBody], language: str, table: dict[str, Any], variants: Any
) -> str:
    """The line under the table's name as ``table.js`` writes it for a plain table
    (``{game} · next: hand {number}``), else '': the pad writes the others."""
    if not _plain(table):
        return ""
    titles = {v.get("name"): v.get("title") for v in variants if isinstance(v, dict)}
    game = titles.get(table.get("variant")) or table.get("variant", "")
    line = pad_text(files, language, NEXT_HAND)
    return line.replace("{game}", str(game)).replace(
        "{number}", _num(table.get("next_number"), language)
    )


def _num(n: Any, language: str) -> str:
    """A count as the pad writes it; whatever the table gave if not an integer."""
    return number(n, language) if isinstance(n, int) else str(n if n is not None else "")


def _balance(n: Any, language: str) -> str:
    """A seat's balance as ``dom.js`` writes it; a dash where the table gave none."""
    return signed(n, language) if isinstance(n, int) else "–"


SEAT = Markup(
    '<li class="{cls}" data-seat="{seat}"><span class="name fit">{name}</span>{tag}'
    '<span class="balance{sign}">{balance}<span class="sr"> {unit}</span></span></li>'
)


def _first_paint(
    files: Mapping[str, FixedBody], language: str, table: dict[str, Any], hint: str
) -> Markup:
    """The table's name, the line under it and its seats (name, the dealer's tag, balance) as
    ``table.js`` draws them (``tableView``, ``seats``): the first paint's text, in the boxes
    the pad's screen keeps."""
    dealer = table.get("dealer") if _plain(table) else None
    unit = pad_text(files, language, "points" if table.get("units") == "points" else "chips")
    deals = Markup('<span class="tag">{}</span>').format(pad_text(files, language, "deals"))
    items = Markup("").join(
        SEAT.format(
            cls="seat dealer" if s.get("seat") == dealer else "seat",
            seat=s.get("seat"),
            name=s.get("name", ""),
            tag=deals if s.get("seat") == dealer else "",
            sign=SIGN_CLASS[(s.get("balance") or 0) > 0] if s.get("balance") else "",
            balance=_balance(s.get("balance"), language),
            unit=unit,
        )
        for s in table.get("seats", [])
    )
    finished = table.get("status") == "closed" or (table.get("session") or {}).get("over")
    label = "Final balances" if finished else "Seats in playing order, with balances"
    label = pad_text(files, language, label)
    line = Markup('<p class="hint">{hint}</p>').format(hint=hint) if hint else Markup("")
    return Markup(
        '<div class="screen table"><div class="titlebar"><h1>{name}</h1>{line}</div>'
        '<div class="cols"><div class="col"><ol class="seats" aria-label="{label}">{items}</ol>'
        "</div></div></div>"
    ).format(name=table.get("name", ""), line=line, label=label, items=items)


def _page_in(page: bytes, files: Mapping[str, FixedBody], language: str) -> bytes:
    """``page`` with its ``lang`` and its own words (``data-t``) in ``language``."""
    page = page.replace(HTML_LANG, f'<html lang="{language}"'.encode(), 1)
    return PAGE_WORD.sub(
        lambda m: m[1] + pad_text(files, language, m[2].decode()).encode() + m[3], page
    )


def _json_script(data: dict[str, Any]) -> bytes:
    """``data`` in a JSON ``<script>`` (not run: no policy needed), ``<`` and ``>`` escaped
    so that no ``</script>`` in a name can end it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="first-reads">{text}</script>'.encode()


def _hash(inline: bytes) -> str:
    """The CSP source allowing this inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(inline).digest()).decode("ascii") + "'"


def _scripts_after_the_paint(page: bytes) -> bytes:
    """The page's module scripts and preloads asked for once its first frame is painted: each
    tag as an inert ``<link data-after-paint>``, and ``AFTER_PAINT`` to turn them back."""
    page = MODULE_SCRIPT.sub(rb'<link data-after-paint="module" href="\1">', page)
    page = MODULE_PRELOAD.sub(rb'<link data-after-paint="modulepreload" href="\1">', page)
    return page.replace(b"</body>", b"<script>" + AFTER_PAINT + b"</script>\n</body>", 1)


def first_screen_page(page: bytes, files: Mapping[str, FixedBody], version: str) -> Response | None:
    """``page`` (the pad's page, its files named under ``version``; ``files``: the pad's files)
    for ``/?table=<id>&token=<token>`` with the table's first screen in it, or None
    (the plain page serves) when the query is not a table's link or its table cannot be read."""
    table_id = request.args.get("table", "")
    token = request.args.get("token", "")
    if not table_id or not token or len(table_id) > 64 or len(token) > 256:
        return None
    language = negotiate(request.headers.get("Accept-Language"))
    reads = first_reads(table_id, token, language)
    if reads is None:
        return None
    bodies = {read["path"]: json.loads(read["body"]) for read in reads["reads"]}
    table = bodies[reads["reads"][0]["path"]]
    hint = _hint(files, language, table, bodies.get("/variants") or [])
    screen = _first_paint(files, language, table, hint)
    opening = page.index(MAIN_OPENING) + len(MAIN_OPENING)
    closing = page.index(MAIN_CLOSING, opening) + len(MAIN_CLOSING)
    html = page[:opening] + screen.encode() + MAIN_CLOSING + _json_script(reads) + page[closing:]
    css = files[STYLESHEET].body
    link = f'<link rel="stylesheet" href="/pad/{version}/{STYLESHEET}">'.encode()
    html = _page_in(html.replace(link, b"<style>" + css + b"</style>", 1), files, language)
    html = _scripts_after_the_paint(html)
    directives = dict(CSP_DIRECTIVES)
    directives["style-src"] = f"'self' {_hash(css)}"
    directives["script-src"] = f"'self' {_hash(AFTER_PAINT)}"
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Security-Policy"] = "; ".join(
        f"{k} {v}" for k, v in directives.items()
    )
    return response
