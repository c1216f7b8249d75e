"""Browser tests of the score pad: Chromium (Debian's package) driven by Playwright.

Without a Chromium (or the playwright package) they are skipped with a plain reason; in CI
(``CI=true``) a missing browser fails them instead (``tests.support.tool_missing``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import Gunicorn, migrated_app, tool_missing

from .support import (
    CHROMIUM_ARGS,
    PHONE,
    Api,
    Network,
    NightClub,
    browser_missing,
    chromium_path,
    live_service,
)


def _need_browser() -> None:
    reason = browser_missing()
    if reason is None:
        return
    tool_missing(f"browser tests: {reason}")


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Network]]:
    with live_service(tmp_path_factory.mktemp("pad-db")) as running:
        yield running


@pytest.fixture(scope="session")
def base_url(service: tuple[str, Network]) -> str:
    return service[0]


@pytest.fixture
def network(service: tuple[str, Network]) -> Iterator[Network]:
    """The phones' network to the API; a test may cut it, and it is up again after."""
    yield service[1]
    service[1].up = True


@pytest.fixture
def fifth_game(service: tuple[str, Network], monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The running service with the made-up fifth game of ``tests/fifth_game`` registered (it
    serves from this process: ``GET /variants`` answers with it until the test ends); its name."""
    from tests import fifth_game as game

    game.register(monkeypatch)
    yield game.DUEL.name
    monkeypatch.undo()
    game.forget()


@pytest.fixture
def api(base_url: str) -> Iterator[Api]:
    client = Api(base_url)
    yield client
    client.close()


@pytest.fixture
def night_club(api: Api) -> NightClub:
    """A club of ten players with long real names, for a club night's test (``NightClub``)."""
    return NightClub(api)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Phone:
    """One browser context (one phone) with its console watched for errors and CSP reports."""

    def __init__(self, browser: Any, base_url: str, **options: Any) -> None:
        # options: more of Playwright's context options, e.g. locale="de-DE" (the browser's
        # languages, which the pad chooses its language from).
        self.context = browser.new_context(**{"viewport": PHONE, "base_url": base_url, **options})
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        text = message.text
        # 4xx answers the page asked for on purpose (a 422 preview) log as failed loads.
        if "Content Security Policy" in text or (
            message.type == "error" and "Failed to load resource" not in text
        ):
            self.problems.append(f"console {message.type}: {text}")

    def close(self) -> None:
        self.context.close()


def _phones_at(browser: Any, url: str) -> Iterator[Any]:
    opened: list[Phone] = []

    def open_phone(**options: Any) -> Phone:
        phone = Phone(browser, url, **options)
        opened.append(phone)
        return phone

    yield open_phone
    problems = [p for phone in opened for p in phone.problems]
    for phone in opened:
        phone.close()
    assert not problems, problems


@pytest.fixture
def phones(browser: Any, base_url: str) -> Iterator[Any]:
    """phones() opens another phone (phones(locale="de-DE"): a German one); each is closed
    after the test, which fails on any page error, console error or CSP violation."""
    yield from _phones_at(browser, base_url)


@pytest.fixture(scope="module")
def production_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gunicorn]:
    """The production server, as ``make serve`` runs it (gunicorn with gunicorn.conf.py's
    worker, the answers before Flask, the stream hub), on a database of its own: the one that
    holds a stream (the werkzeug of ``service`` cannot). One per test module."""
    app = migrated_app(None, tmp_path_factory.mktemp("production-db"))
    with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=2) as gunicorn:
        yield gunicorn


@pytest.fixture
def production_phones(browser: Any, production_server: Gunicorn) -> Iterator[Any]:
    """``phones`` on the production server."""
    yield from _phones_at(browser, production_server.url)
