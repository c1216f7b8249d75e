"""The pad's test bench: the real service on a free 127.0.0.1 port (SQLite in a temp dir), a
Chromium found on the machine, and small helpers to drive the page and ask the API."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
from werkzeug.serving import make_server

from tests.support import migrated_app

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 640}
BENCH_HEADER = "X-Test-Bench"  # the test's own API client, never cut off by Network
BENCH_ENVIRON = "HTTP_X_TEST_BENCH"


def chromium_path() -> str | None:
    """$CHROMIUM if set, else Debian's chromium, if it is an executable file."""
    configured = os.environ.get("CHROMIUM")
    candidates = [configured] if configured else [shutil.which("chromium"), "/usr/bin/chromium"]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    if chromium_path() is None:
        configured = os.environ.get("CHROMIUM")
        if configured:
            return f"CHROMIUM={configured} is not an executable file"
        return "no Chromium on this machine (apt-get install chromium, or set CHROMIUM)"
    return None


class Network:
    """The phones' network to the API, which a test can cut.

    Playwright's offline mode (and its request routing) is what a phone sees; but a page that a
    service worker controls can, while it is being reloaded, get a request past both. With the
    network cut, the service answers the phones' /api/ requests with 503 as a dead gateway
    would, so nothing a page sends while "offline" is recorded, and the page treats the answer
    as no connection. The test's own client (header BENCH_HEADER) still gets through.
    """

    def __init__(self, app: Any) -> None:
        self.app = app
        self.up = True

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if (
            not self.up
            and environ.get("PATH_INFO", "").startswith("/api/")
            and BENCH_ENVIRON not in environ
        ):
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"network down (test)"]
        return self.app(environ, start_response)


@contextmanager
def live_service(tmp: Path) -> Iterator[tuple[str, Network]]:
    """The real app on a migrated SQLite database, served by werkzeug in a thread."""
    network = Network(migrated_app(None, tmp))
    server = make_server("127.0.0.1", 0, network, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="pad-e2e-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", network
    finally:
        server.shutdown()
        thread.join(10)
        server.server_close()


class Api:
    """Just enough of the public API to set a scene and check what the page did."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()
        self.http.headers[BENCH_HEADER] = "1"

    def close(self) -> None:
        self.http.close()

    def _call(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        headers = kw.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = self.http.request(
            method, f"{self.base}/api/v1{path}", headers=headers, timeout=10, **kw
        )
        response.raise_for_status()
        return response.json()

    def table_setup(
        self,
        names: tuple[str, ...] = ("Anna", "Bob", "Carl", "Dora"),
        variant: str = "american",
        **options: Any,
    ) -> dict[str, Any]:
        club = self._call("POST", "/clubs", json={"name": "E2E club"})
        token = club["admin_token"]
        seats = [
            self._call("POST", f"/clubs/{club['id']}/players", token, json={"name": n})["id"]
            for n in names
        ]
        table = self._call(
            "POST",
            "/tables",
            token,
            json={
                "club_id": club["id"],
                "name": "Thursday",
                "variant": variant,
                "seats": seats,
                "first_dealer": 0,
                "options": options,
            },
        )
        return {**table, "admin_token": token}

    def variants(self) -> list[str]:
        return [v["name"] for v in self._call("GET", "/variants")]

    def table(self, table: dict[str, Any]) -> dict[str, Any]:
        return self._call("GET", f"/tables/{table['id']}", table["table_token"])

    def hands(self, table: dict[str, Any]) -> list[dict[str, Any]]:
        return self._call("GET", f"/tables/{table['id']}/hands?page_size=100", table["table_token"])

    def record(self, table: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
        return self._call("POST", f"/tables/{table['id']}/hands", table["table_token"], json=hand)

    def settle_up(self, table: dict[str, Any]) -> dict[str, Any]:
        return self._call("GET", f"/tables/{table['id']}/settle-up", table["table_token"])


def table_url(base: str, table: dict[str, Any]) -> str:
    return f"{base}/#table={table['id']}&token={table['table_token']}"


def signed(text: str) -> int:
    """'+12', '−6', '0' as shown on the pad → an int."""
    text = text.strip().replace("\u2212", "-").replace("+", "")
    if not re.fullmatch(r"-?\d+", text):
        raise ValueError(f"not a balance: {text!r}")
    return int(text)


# A balance's number as shown: its text, not the unit read to screen readers (a span of its own).
BALANCE_TEXT = (
    "els => els.map(e => [...e.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)"
    ".map(n => n.textContent).join(''))"
)


def shown_balances(page: Any) -> list[int]:
    """The seats' balances as shown (the number, without the unit read to screen readers)."""
    texts = page.eval_on_selector_all("ol.seats .balance", BALANCE_TEXT)
    return [signed(t) for t in texts]


class Taps:
    """Clicks that count: what a player's thumb does between the table screen and 'saved'."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def __call__(self, selector: str) -> None:
        self.count += 1
        self.page.locator(selector).click()


def seat_button(field: str, name: str) -> str:
    """The seat button of `field` that shows `name` (a seat's short name) or is named so in full."""
    return (
        f'[data-field="{field}"] button.choice:has(> .short:text-is("{name}")), '
        f'[data-field="{field}"] button.choice[aria-label="{name}"]'
    )


def suit_button(field: str, suit: str) -> str:
    return f'[data-field="{field}"] button[data-value="{suit}"]'


def wait_recorded(page: Any, number: int) -> None:
    """The hand is in the history as recorded, and nothing waits in the outbox."""
    page.locator(f'.sheet .hand[data-number="{number}"]').wait_for()
    page.locator("section.outbox").wait_for(state="detached")


def go_offline(context: Any, network: Network, blocked: list[str] | None = None) -> None:
    """Playwright's offline mode for the phone, and the network to the API cut for real (see
    Network). `blocked` collects what the page tried to send. A page showing a table has its
    other screens' modules first (``data-warmed``): the pad loads them just after the table, and
    a phone offline in that moment, before the service worker keeps them, cannot open them."""
    for page in context.pages:
        if "#table=" in page.url:
            page.locator("html[data-warmed]").wait_for(state="attached")
    network.up = False
    context.set_offline(True)

    def unreachable(route: Any) -> None:
        if blocked is not None:
            blocked.append(f"{route.request.method} {route.request.url}")
        route.abort("internetdisconnected")

    context.route("**/api/**", unreachable)


def go_online(context: Any, network: Network) -> None:
    context.unroute("**/api/**")
    network.up = True
    context.set_offline(False)


def wait_preview(page: Any) -> None:
    page.locator(".preview .settlement").wait_for()


# --- a club night's scene ------------------------------------------------------------------

NIGHT_NAMES = (
    "Anna-Katharina Berger",
    "Maximilian Oberhuber-Schmidt",
    "Carla Moser-Lindqvist",
    "Dieter Schmidt-Hohenstein",
    "Eva-Maria Sánchez Villanueva",
    "Friedrich Wilhelm Baumgartner",
    "Gabriele Huber-Leitner",
    "Hans-Jürgen Oberndorfer",
    "Ingrid Katharina Weißenbach",
    "Johannes Maria Lindqvist",
)
SOLO_WON = {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 6}


def tokens_in(markup: str) -> list[tuple[str, str]]:
    """The (table id, token) of each table link in a page's markup: the cards' (``/?table=…``,
    whose page brings the table's first screen) and the admin's (``/#table=…``)."""
    return re.findall(r"[?#]table=([0-9a-f]+)&(?:amp;)?token=([^\"&]+)\"", markup)


def card_tokens(api: Api, night_id: str, admin: str, series: int) -> dict[str, str]:
    """Each open table's token on a night's (or a tournament's) series' cards (table id →
    token), as printed: what a player's phone scans."""
    answer = api.http.post(
        f"{api.base}/nights/{night_id}/cards/{series}",
        headers={"Authorization": f"Bearer {admin}"},
        timeout=10,
    )
    answer.raise_for_status()
    return dict(tokens_in(answer.text))


class NightClub:
    """The scene every club night's browser test starts from: a club of ten players with long
    real names and its admin token, and its read-only link, a season and nights over the API
    when asked (the ``night_club`` fixture)."""

    def __init__(self, api: Api, names: tuple[str, ...] = NIGHT_NAMES) -> None:
        self.api = api
        self.club = api._call("POST", "/clubs", json={"name": "Skatfreunde Lüdenscheid"})
        self.id, self.admin = self.club["id"], self.club["admin_token"]
        self.players = [
            api._call("POST", f"/clubs/{self.id}/players", self.admin, json={"name": name})
            for name in names
        ]
        self._viewer: str | None = None

    @property
    def viewer(self) -> str:
        """The club's read-only link's token (made the first time it is asked for)."""
        if self._viewer is None:
            made = self.api._call("POST", f"/clubs/{self.id}/viewer-token", self.admin)
            self._viewer = made["token"]
        return self._viewer

    def season(self, variant: str = "american") -> dict[str, Any]:
        """A season of ``variant`` open today."""
        body = {"name": "Winter", "variant": variant}
        return self.api._call("POST", f"/clubs/{self.id}/seasons", self.admin, json=body)

    def night(self, present: int = 8, **body: Any) -> dict[str, Any]:
        body = {
            "name": "Donnerstagsrunde",
            "variant": "american",
            "players": [p["id"] for p in self.players[:present]],
            "series": 3,
            "hands_per_series": 2,
            **body,
        }
        return self.api._call("POST", f"/clubs/{self.id}/nights", self.admin, json=body)

    def draw(self, night: dict[str, Any], **body: Any) -> dict[str, Any]:
        return self.api._call("POST", f"/nights/{night['id']}/series", self.admin, json=body)

    def get(self, night: dict[str, Any]) -> dict[str, Any]:
        return self.api._call("GET", f"/nights/{night['id']}", self.admin)

    def card_tokens(self, night: dict[str, Any], series: int = 1) -> dict[str, str]:
        """Each open table's token on the series' cards (table id → token), as printed."""
        return card_tokens(self.api, night["id"], self.admin, series)

    def record(self, table_id: str, token: str, hand: dict[str, Any] = SOLO_WON) -> None:
        self.api._call("POST", f"/tables/{table_id}/hands", token, json=hand)

    def reads(self, table_id: str, token: str) -> int:
        answer = self.api.http.get(
            f"{self.api.base}/api/v1/tables/{table_id}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        return answer.status_code

    def director(self, phones: Any, language: str, viewport: dict[str, int]) -> Any:
        """The director's phone (a ``phones()`` one), keeping the club's admin token and its
        read-only link as the pad does; on the pad's start page."""
        phone = phones(locale=language, viewport=viewport)
        phone.page.goto("/")
        phone.page.evaluate(
            "([id, token, viewer]) => localStorage.setItem('solo-pad:clubs', "
            "JSON.stringify({[id]: {id, name: 'Skatfreunde', token, viewer}}))",
            [self.id, self.admin, self._viewer],
        )
        return phone


# --- a tournament's table on its phones, and the director's console ---------------------------


def record_won_solo(page: Any, declarer: int, number: int) -> None:
    """Hand `number` on the pad of the table the page shows: a solo of hearts that seat
    `declarer` wins (its six tricks are the form's own), five taps; then recorded."""
    page.locator("#new-hand").click()
    page.locator('button.contract[data-value="solo"]').click()
    page.locator(suit_button("trump", "hearts")).click()
    page.locator(f'[data-field="declarer"] button.choice[data-value="{declarer}"]').click()
    wait_preview(page)
    page.locator("button.save").click()
    wait_recorded(page, number)


def confirm_button(page: Any, name: str) -> Any:
    """The button on a tournament table's result panel a player taps to confirm: named by the
    player's name, the balance and what it does ("Ergebnis bestätigen")."""
    return page.locator("section.result").get_by_role("button", name=f"{name} ")


def dispute_on_the_phone(panel: Any, words: dict[str, str], seat: str, reason: str) -> None:
    """A hand disputed on a phone's result panel by the player named `seat` (the panel's
    button and the form's in the phone's language: ``words["dispute"]``, ``words["send"]``)."""
    panel.get_by_role("button", name=words["dispute"]).click()
    panel.locator("#dispute-seat").select_option(label=seat)
    panel.locator("#dispute-reason").fill(reason)
    panel.get_by_role("button", name=words["send"]).click()


def console_desk(page: Any, number: int) -> Any:
    """Table `number` on the director's console."""
    return page.locator(f'li.desk[data-table="{number}"]')


def correct_on_the_console(director: Any, number: int, tricks: int) -> None:
    """The director corrects table `number`'s disputed hand on the console to `tricks` tricks
    (the desk opened, the correction's form, saved)."""
    desk = console_desk(director, number)
    desk.locator("summary").click()
    dispute = desk.locator(".dispute")
    dispute.locator(".actions button.primary").click()
    field = dispute.locator("form.correction #fix-tricks")
    field.fill(str(tricks))
    field.dispatch_event("change")
    dispute.locator("form.correction button[type=submit]").click()
