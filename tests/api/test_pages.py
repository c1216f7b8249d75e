"""Speed for the pad: compressed answers (negotiated by Accept-Encoding, the ones made before
Flask included), the pad's files cacheable for good under names that change with their
content, the variants answer cacheable, and a favicon."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path
from typing import Any

import brotli
import pytest
from flask import Flask

from service.api.pages import IMMUTABLE, PAD_DIR, PadFiles, read_pad
from service.middleware.compression import chosen_coding
from service.middleware.early import EarlyAnswers
from tests.support import migrated_app, wsgi_layer

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
DECODE = {"br": brotli.decompress, "gzip": gzip.decompress}


def read(response: Any) -> bytes:
    data: bytes = response.get_data()
    response.close()
    return data


def decoded(response: Any) -> bytes:
    coding = response.headers.get("Content-Encoding")
    data = read(response)
    return data if coding is None else DECODE[coding](data)


@pytest.mark.parametrize(
    ("accept", "coding"),
    [
        ("gzip, deflate, br, zstd", "br"),
        ("gzip, deflate", "gzip"),
        ("br", "br"),
        ("gzip;q=1, br;q=0.5", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("*", "br"),
        ("identity", None),
        ("deflate", None),
        ("", None),
        ("br;q=0, gzip;q=0", None),
    ],
)
def test_the_coding_follows_accept_encoding(accept, coding):
    assert chosen_coding(accept) == coding


@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_an_api_answer_is_compressed_as_the_client_accepts_and_keeps_its_etag(api, client, coding):
    table = api.table(players=5)
    api.record(table, SOLO)
    auth = api.auth(table["table_token"])
    plain = client.get(f"/api/v1/tables/{table['id']}", headers=auth)
    packed = client.get(
        f"/api/v1/tables/{table['id']}", headers={**auth, "Accept-Encoding": coding}
    )
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == coding
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert int(packed.headers["Content-Length"]) < len(plain.data)
    assert decoded(packed) == read(plain)
    # The ETag names the table's version, compressed or not: If-Match and 304s still work.
    assert packed.headers["ETag"] == plain.headers["ETag"] == '"2"'
    assert (
        client.get(
            f"/api/v1/tables/{table['id']}",
            headers={**auth, "Accept-Encoding": coding, "If-None-Match": '"2"'},
        ).status_code
        == 304
    )


def test_small_answers_head_and_refused_codings_go_as_they_are(api, client):
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert small.status_code == 200 and "Content-Encoding" not in small.headers
    table = api.table()
    auth = api.auth(table["table_token"])
    head = client.head(f"/api/v1/tables/{table['id']}", headers={**auth, "Accept-Encoding": "br"})
    assert head.status_code == 200 and "Content-Encoding" not in head.headers
    plain = client.get(
        f"/api/v1/tables/{table['id']}", headers={**auth, "Accept-Encoding": "identity"}
    )
    assert "Content-Encoding" not in plain.headers
    # An error is a 4xx: sent as it is (a problem is a few hundred bytes).
    problem = client.get("/api/v1/tables/" + "0" * 32, headers={**auth, "Accept-Encoding": "br"})
    assert problem.status_code == 404 and "Content-Encoding" not in problem.headers
    assert problem.json["status"] == 404


def test_answers_made_before_flask_are_compressed_too(app, api, client):
    """The table polls are answered before Flask; the compression layer is around them."""
    seen: list[str] = []
    early = wsgi_layer(app, EarlyAnswers)  # below it, a note of what got past it
    below = early.app

    def noting(environ: dict[str, Any], start_response: Any) -> Any:
        seen.append(environ["PATH_INFO"])
        return below(environ, start_response)

    early.app = noting
    try:
        table = api.table(players=5)
        api.record(table, SOLO)
        auth = api.auth(table["table_token"])
        url = f"/api/v1/tables/{table['id']}"
        first = client.get(url, headers=auth)  # through Flask: renders the view
        seen.clear()
        fast = client.get(url, headers={**auth, "Accept-Encoding": "gzip"})
        assert seen == []  # answered before Flask
    finally:
        early.app = below
    assert fast.headers["Content-Encoding"] == "gzip"
    assert decoded(fast) == read(first)


def pad_names(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/pad/[^"]+)"', html)


def test_the_page_names_the_pad_files_under_their_version_kept_for_good(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-cache"
    names = pad_names(read(page).decode())
    version = read_pad(PAD_DIR).version
    assert names and all(n.startswith(f"/pad/{version}/") for n in names)
    for name in names:
        asset = client.get(name)
        assert asset.status_code == 200, name
        assert asset.headers["Cache-Control"] == IMMUTABLE
        assert read(asset) == (PAD_DIR / name.rsplit("/", 1)[1]).read_bytes()
    # Another version's names never get other bytes: they are sent on to this version's.
    other = client.get(f"/pad/{'0' * 12}/app.js")
    assert other.status_code == 302 and other.headers["Cache-Control"] == "no-store"
    assert other.headers["Location"] == f"/pad/{version}/app.js"
    assert client.get("/pad/not-a-version/app.js").status_code == 404
    assert client.get(f"/pad/{'0' * 12}/missing.js").status_code == 404
    assert client.get(f"/pad/{version}/missing.js").status_code == 404
    assert client.get(f"/pad/{version}/../api/pages.py").status_code == 404
    # The view library's types (lit-html.d.ts) are for the type checker, not for phones.
    assert (PAD_DIR / "lit-html.d.ts").is_file()
    assert client.get(f"/pad/{version}/lit-html.d.ts").status_code == 404
    assert client.get("/pad/lit-html.d.ts").status_code == 404
    # The page itself is revalidated: a 304 for its ETag.
    again = client.get("/", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


@pytest.mark.parametrize("coding", ["br", "gzip"])
def test_the_pad_files_are_sent_compressed_with_an_etag_per_coding(client, coding):
    version = read_pad(PAD_DIR).version
    url = f"/pad/{version}/app.js"
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": coding})
    assert packed.headers["Content-Encoding"] == coding
    assert packed.headers["Vary"] == "Accept-Encoding"
    assert decoded(packed) == read(plain) == (PAD_DIR / "app.js").read_bytes()
    assert packed.headers["ETag"] != plain.headers["ETag"]
    assert (
        client.get(
            url, headers={"Accept-Encoding": coding, "If-None-Match": packed.headers["ETag"]}
        ).status_code
        == 304
    )
    page = client.get("/", headers={"Accept-Encoding": coding})
    assert page.headers["Content-Encoding"] == coding
    assert f"/pad/{version}/app.js" in decoded(page).decode()


def test_the_service_worker_and_manifest_name_the_versioned_files(client):
    version = read_pad(PAD_DIR).version
    worker = read(client.get("/sw.js")).decode()
    shell = re.findall(r"'(/[^']*)'", worker.split("];")[0])
    assert f"solo-pad-{version}" in worker
    on_disk = {p.name for p in PAD_DIR.iterdir() if p.suffix in {".js", ".css", ".svg"}}
    on_disk.discard("sw.js")
    assert {f"/pad/{version}/{name}" for name in on_disk} <= set(shell)
    for path in shell:
        response = client.get(path)
        assert response.status_code == 200, path
        read(response)
    manifest = client.get("/manifest.webmanifest").json
    assert all(icon["src"].startswith(f"/pad/{version}/") for icon in manifest["icons"])
    assert client.get("/sw.js").headers["Cache-Control"] == "no-cache"


@pytest.fixture
def own_pad(tmp_path: Path) -> Path:
    pad = tmp_path / "pad"
    shutil.copytree(PAD_DIR, pad)
    return pad


def test_the_version_changes_with_any_file_and_only_then(own_pad: Path):
    files = PadFiles(own_pad)
    first = files.current()
    assert files.current() is first  # nothing changed: not read again
    assert read_pad(own_pad).version == first.version  # the same bytes, the same version
    (own_pad / "dom.js").write_text((own_pad / "dom.js").read_text() + "\n// changed\n")
    second = files.current()
    assert second.version != first.version
    html = second.rewritten["index.html"].body.decode()
    assert f"/pad/{second.version}/app.js" in html and first.version not in html
    (own_pad / "extra.js").write_text("export const x = 1;\n")
    assert files.current().version not in (first.version, second.version)


def test_a_served_pad_moves_to_its_new_version_when_a_file_changes(own_pad: Path, tmp_path: Path):
    (tmp_path / "db").mkdir()
    app: Flask = migrated_app(None, tmp_path / "db", PAD_DIRECTORY=str(own_pad))
    client = app.test_client()
    before = pad_names(read(client.get("/")).decode())
    (own_pad / "pad.css").write_text((own_pad / "pad.css").read_text() + "\n/* new */\n")
    after = pad_names(read(client.get("/")).decode())
    assert before != after and len(before) == len(after)
    moved = client.get(before[0])  # the old version's names lead to the new version's
    assert moved.status_code == 302 and moved.headers["Location"] in after
    css = [n for n in after if n.endswith("/pad.css")][0]
    assert read(client.get(css)).endswith(b"/* new */\n")


def test_the_variants_answer_is_cacheable_and_revalidated(client):
    first = client.get("/api/v1/variants", headers={"Accept-Encoding": "br"})
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "br"
    assert "max-age" in first.headers["Cache-Control"]
    assert first.headers["ETag"]
    again = client.get(
        "/api/v1/variants",
        headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]},
    )
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    plain = client.get("/api/v1/variants")
    assert plain.json == json.loads(decoded(first))
    assert (
        client.get("/api/v1/variants", headers={"If-None-Match": plain.headers["ETag"]}).status_code
        == 304
    )


def test_the_favicon_is_the_pad_icon(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.mimetype == "image/svg+xml"
    assert read(icon) == (PAD_DIR / "icon.svg").read_bytes()
    assert "max-age" in icon.headers["Cache-Control"]
