"""How long Swagger UI at ``/docs`` takes until its operations can be used, in Chromium.

    .venv/bin/python -m bench.docs_page [--loads 5]

The service under gunicorn (one worker, SQLite), Debian's Chromium driven by Playwright, a
desktop window (1280×800). Each load is a new browser context (a cold cache: the page, Swagger
UI's script and styles, the document) and then the same context again (a warm one: the
browser's cache and the service's 304s). A load is timed from the navigation's start until
every tag's section is drawn and the first one, clicked, shows its operations: the moment a
reader can pick an operation. Prints each load's time and the median of each kind, the bytes
the browser fetched (as sent) and the number of operations drawn.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.e2e.support import CHROMIUM_ARGS, chromium_path
from tests.support import Gunicorn, dispose_engines, migrated_app

WINDOW = {"width": 1280, "height": 800}
TIMEOUT_MS = 120_000


def tags_in_document(url: str) -> int:
    import requests

    return len(requests.get(f"{url}/openapi.json", timeout=30).json()["tags"])


def one_load(page: Any, url: str, tags: int) -> tuple[float, int, int]:
    """Seconds until the first tag's operations are drawn, bytes fetched, operations drawn."""
    fetched: list[int] = []

    def count(response: Any) -> None:
        length = response.headers.get("content-length")
        fetched.append(int(length) if length and length.isdigit() else 0)

    page.on("response", count)
    start = time.perf_counter()
    page.goto(f"{url}/docs", wait_until="commit", timeout=TIMEOUT_MS)
    # (Locators, not a script: the page's policy allows no eval.)
    page.locator(".opblock-tag-section").nth(tags - 1).wait_for(timeout=TIMEOUT_MS)
    first = page.locator(".opblock-tag-section").first
    if first.locator(".opblock").count() == 0:  # collapsed (docExpansion: none): open it
        first.locator(".opblock-tag").click()
    first.locator(".opblock .opblock-summary").first.wait_for(timeout=TIMEOUT_MS)
    seconds = time.perf_counter() - start
    page.remove_listener("response", count)
    drawn = page.locator(".opblock").count()
    return seconds, sum(fetched), drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise SystemExit("no Chromium: apt-get install chromium (or set CHROMIUM)")
    with tempfile.TemporaryDirectory() as tmp:
        app = migrated_app(None, Path(tmp))
        try:
            with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=1) as server:
                tags = tags_in_document(server.url)
                with sync_playwright() as playwright:
                    browser = playwright.chromium.launch(
                        executable_path=executable, args=CHROMIUM_ARGS
                    )
                    cold, warm = [], []
                    for n in range(args.loads + 1):  # the first load warms the server up
                        context = browser.new_context(viewport=WINDOW)
                        page = context.new_page()
                        first = one_load(page, server.url, tags)
                        again = one_load(page, server.url, tags)
                        context.close()
                        if n == 0:
                            continue
                        cold.append(first[0])
                        warm.append(again[0])
                        print(
                            f"load {n}: cold {first[0]:.2f} s ({first[1] / 1024:.0f} KiB "
                            f"fetched, {first[2]} operations drawn), warm {again[0]:.2f} s "
                            f"({again[1] / 1024:.0f} KiB)"
                        )
                    browser.close()
        finally:
            dispose_engines(app)
    print(
        f"median: cold {statistics.median(cold):.2f} s, warm {statistics.median(warm):.2f} s "
        f"({args.loads} loads, {tags} tags)"
    )


if __name__ == "__main__":
    main()
