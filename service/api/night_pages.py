"""The pages of a club night, rendered on the server: the **big screen** (a TV or projector
at the club: the standings and each table's progress, updating itself) and the **table
cards** to print (one per table: its number, the seats in order, who deals first, the QR code
of its link).

A plain blueprint, not part of the OpenAPI document, as the pad's pages are. A page is a
shell that needs no token; the token stays in the URL's fragment (``#token=…``), which never
reaches a server, and the page's script sends it as ``Authorization`` when it asks for the
part that needs it:

- ``GET /nights/<id>/screen`` (the shell) asks ``GET /nights/<id>/screen/board`` every few
  seconds with ``If-None-Match``: a 304 while nothing changed, else the board's HTML (read
  by the admin's or a read-only token, like ``GET /api/v1/nights/{id}/standings``);
- ``GET /nights/<id>/cards?series=N`` (the shell) posts to ``/nights/<id>/cards/<N>``
  (admin token), which answers the cards of the series' open tables with each table's one
  link (the one its draw made, which the admin screen shows too: printing again locks no
  phone out; ``?renew=1`` makes new ones and the old ones stop), QR codes as SVG (``segno``).

Everything is in the request's language (``?lang=en|de|es``, else ``Accept-Language``), and
runs under the strict Content-Security-Policy (no inline script or style). The pages are Jinja
templates (``service/templates/nights/``, autoescaped); the views word what they show and give
it to them as text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import segno
from babel.numbers import format_currency, get_currency_precision
from flask import Blueprint, Flask, Response, render_template, request
from markupsafe import Markup

from .. import rules
from ..i18n import LANGUAGES, gettext, negotiate, signed, translations, word
from ..i18n.marks import N_, Nn_
from ..json_text import answer_text
from ..rules import Phrase
from ..services import nights
from .auth import principal
from .caching import conditional
from .first_screen import table_link
from .idempotency import NONE, not_idempotent

ASSETS = Path(__file__).resolve().parent.parent / "static" / "nights"
POLL_SECONDS = 5

bp = Blueprint(
    "night_pages",
    __name__,
    static_folder=str(ASSETS),
    static_url_path="/night-assets",
)


def _language() -> str:
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return str(asked)
    return negotiate(request.headers.get("Accept-Language"))


def _t(message: str, language: str, **values: Any) -> str:
    return gettext(message, language, **values)


def _page(template: str, **context: Any) -> Response:
    """A page or a part of one, from its template in ``service/templates/nights/`` (Jinja,
    autoescaped: every name and word is escaped where it is put)."""
    response = Response(render_template(f"nights/{template}", **context), mimetype="text/html")
    response.headers["Vary"] = "Accept-Language"
    response.headers["Cache-Control"] = "no-cache"
    return response


def _shell(
    language: str,
    title: str,
    page: str,
    data: Mapping[str, str],
    waiting: str | None = None,
    look: str = "",
) -> Response:
    """A page's shell: its script (``static/nights/<page>.js``) and what it needs (``data-*``);
    ``look``: another page's class too, whose styles it shares (``admin``)."""
    return _page(
        "shell.html",
        language=language,
        title=title,
        page=page,
        data=data,
        waiting=waiting,
        look=look,
    )


@bp.get("/nights/<string:night_id>/screen")
def screen(night_id: str) -> Response:
    """The big screen's shell; its script follows the club's stream and asks for the board
    at each change (polling it while the stream is down)."""
    language = _language()
    return _shell(
        language,
        _t(N_("Club night"), language),
        "screen",
        {
            "board": f"/nights/{night_id}/screen/board?lang={language}",
            "every": str(POLL_SECONDS),
            "offline": _t(N_("No connection: showing the last standings."), language),
            "token-missing": _t(
                N_("Open this page with the club's read-only link (#token=…)."), language
            ),
        },
        _t(N_("Loading the standings…"), language),
    )


def money(cents: int, currency: str, language: str, *, signed: bool = False) -> str:
    """Whole minor units as the language writes the amount ("1,50 €", "€1.50"), exact (a
    Decimal, never a float); ``signed``: a plus for a gain and a real minus sign for a loss."""
    amount = Decimal(abs(cents)).scaleb(-get_currency_precision(currency))
    text = format_currency(amount, currency, locale=language)
    if signed and cents:
        return ("+" if cents > 0 else "\u2212") + text
    return text


_FEE_PER = {
    "series": N_("table fee %(amount)s per player and series"),
    "night": N_("table fee %(amount)s per player for the night"),
    "table": N_("table fee %(amount)s per table, shared by its players"),
}


def rate_line(
    rate: Mapping[str, Any], units: str, language: str, fee_basis: str | None = None
) -> str:
    """The night's rate in words: "0,05 € pro Chip; Tischgeld 1,50 € pro Person"."""
    per = Decimal(rate["cents"]) / rate["per"]
    precision = get_currency_precision(rate["currency"])
    amount = format_currency(
        per.scaleb(-precision), rate["currency"], locale=language, decimal_quantization=False
    )
    line = _t(
        N_("%(amount)s per chip") if units == "chips" else N_("%(amount)s per point"),
        language,
        amount=amount,
    )
    if rate["table_fee_cents"]:
        fee = money(rate["table_fee_cents"], rate["currency"], language)
        said = _FEE_PER[fee_basis] if fee_basis else N_("table fee %(amount)s per player")
        line += "; " + _t(said, language, amount=fee)
    return line


def _progress(night: Mapping[str, Any], language: str) -> str:
    series = night["series"]
    if night["status"] == "closed":
        return _t(N_("The night is over: final standings."), language)
    if not series:
        return _t(N_("Waiting for the first draw."), language)
    return _t(
        N_("Series %(number)s of %(planned)s"),
        language,
        number=series[-1]["number"],
        planned=night["series_planned"],
    )


def _standings(board: Mapping[str, Any], language: str) -> dict[str, Any]:
    """The standings' head and rows: each player's rank, name, series, total (and money;
    with the chips of the pools shared out, which the money counts, where there are any)."""
    night, paid = board["night"], board.get("money")
    units = _t(N_("Chips") if board["units"] == "chips" else N_("Points"), language)
    shared = bool(paid) and any(line["pool_chips"] for line in board["standings"])
    head = [
        _t(N_("Rank"), language),
        _t(N_("Player"), language),
        *(_t(N_("S%(number)s"), language, number=s["number"]) for s in night["series"]),
        units,
        *([_t(N_("+ pool"), language)] if shared else []),
        *([_t(N_("Money"), language)] if paid else []),
    ]
    rows = [
        {
            "rank": line["rank"],
            "name": line["name"],
            "series": ["" if r is None else signed(r["result"]) for r in line["series"]],
            "total": signed(line["total"]),
            "pool": signed(line["pool_chips"]) if shared else None,
            "money": money(line["cents"], paid["currency"], language, signed=True)
            if paid
            else None,
        }
        for line in board["standings"]
    ]
    # The order the standings give (tie_breaks: total, series_won, best), in words.
    ties = _t(
        N_(
            "Order: the total, then more series won, then the best series; players equal on "
            "all three share a rank."
        ),
        language,
    )
    return {"title": _t(N_("Standings"), language), "head": head, "rows": rows, "ties": ties}


def _tables(night: Mapping[str, Any], language: str) -> dict[str, Any]:
    """Each table of the current series: its seats, the hands it played (of those due)."""
    current = night["series"][-1] if night["series"] else None
    items = []
    for table in current["tables"] if current else []:
        played = table["hands_played"]
        due = table["hands_limit"]  # the series' length, as the director last set it
        if due is None:
            one, many = Nn_("%(played)s hand", "%(played)s hands")
            count = translations(language).ngettext(one, many, played) % {"played": played}
        else:
            count = _t(N_("%(played)s of %(hands)s hands"), language, played=played, hands=due)
        items.append(
            {
                "title": _t(N_("Table %(number)s"), language, number=table["number"]),
                "done": table["done"],
                "names": ", ".join(s["name"] for s in table["seats"]),
                "count": count,
                "due": due,
                "value": None if due is None else min(played, due),
            }
        )
    return {"title": _t(N_("Tables"), language), "done": _t(N_("done"), language), "each": items}


def _payments(paid: Mapping[str, Any], language: str) -> dict[str, Any]:
    """The night's settle-up in money: who pays whom, then the table fees, apart."""
    pool = _t(N_("the pool"), language)
    items = [
        {
            "payer": transfer["from"]["name"] or pool,
            "payee": transfer["to"]["name"] or pool,
            "amount": money(transfer["cents"], paid["currency"], language),
        }
        for transfer in paid["transfers"]
    ]
    fees = None
    if paid["fees_cents"]:
        amount = money(paid["fees_cents"], paid["currency"], language)
        fees = _t(N_("Table fees, apart: %(amount)s to the club."), language, amount=amount)
    return {
        "title": _t(N_("Who pays whom"), language),
        "each": items,
        "nobody": _t(N_("Nobody pays anybody."), language),
        "many": len(items) > 5,  # smaller, so that a long list still fits
        "fees": fees,
    }


def board_view(board: Mapping[str, Any], language: str) -> dict[str, Any]:
    """What the big screen's board shows (``board.html``): the standings and each table of the
    current series, or who pays whom once a night for money is over."""
    night, paid = board["night"], board.get("money")
    tables = _tables(night, language)
    # A night of many players or tables sets its rows smaller, so that it still fits.
    crowd = max(len(board["standings"]), 3 * len(tables["each"]))
    return {
        "density": "" if crowd <= 12 else " dense" if crowd <= 18 else " denser",
        # The club whose stream of changes the screen follows (static/nights/screen.js).
        "club_id": night["club_id"],
        "name": night["name"],
        "game": word(Phrase(rules.get_variant(night["variant"]).title), language),
        "progress": _progress(night, language),
        "rate": rate_line(paid["rate"], board["units"], language, night["fee_basis"])
        if paid
        else None,
        "standings": _standings(board, language),
        "tables": tables,
        # The night is over: who pays whom takes the place of the tables' progress.
        "payments": _payments(paid, language) if paid and night["status"] == "closed" else None,
    }


@bp.get("/nights/<string:night_id>/screen/board")
@conditional
def board(night_id: str) -> Response:
    """The board's HTML for the big screen (admin or read-only token), ETag'd."""
    language = _language()
    standings = nights.night_standings(principal(), night_id)
    return _page("board.html", **board_view(standings, language))


@bp.get("/nights/<string:night_id>/cards")
def cards(night_id: str) -> Response:
    """The cards' shell: its script asks for the cards of ``?series=N`` (the admin token)."""
    language = _language()
    series = request.args.get("series", "1")
    number = series if series.isascii() and series.isdigit() and len(series) < 4 else "1"
    return _shell(
        language,
        _t(N_("Table cards"), language),
        "cards",
        {
            "cards": f"/nights/{night_id}/cards/{number}?lang={language}",
            "print": _t(N_("Print"), language),
            "token-missing": _t(
                N_("Open this page with the club's admin link (#token=…)."), language
            ),
        },
    )


def _qr(link: str) -> Markup:
    svg = segno.make(link, error="m").svg_inline(scale=4, omitsize=True)
    return Markup(svg)  # segno's own markup of the link, which it escapes


def cards_view(
    links: list[dict[str, Any]], night: Mapping[str, Any], language: str
) -> dict[str, Any]:
    """What the table cards show (``cards.html``): per table its number, seats in order, who
    deals first, the rate, and its link with the link's QR code."""
    root = request.url_root
    cards = []
    for table in links:
        link = table_link(root, table["table_id"], table["table_token"])
        cards.append(
            {
                "title": _t(N_("Table %(number)s"), language, number=table["number"]),
                "series": _t(N_("Series %(number)s"), language, number=table["series"]),
                "seats": [
                    {"name": s["name"], "first": s["seat"] == table["first_dealer"]}
                    for s in table["seats"]
                ],
                "qr": _qr(link),
                "link": link,
                "name": table["name"],
            }
        )
    return {
        "heading": _t(N_("Table cards"), language),
        "night": night["name"],
        "game": word(Phrase(rules.get_variant(night["variant"]).title), language),
        "rate": rate_line(night["rate"], night["units"], language, night["fee_basis"])
        if night["rate"]
        else None,
        "deals_first": _t(N_("deals first"), language),
        "scan": _t(N_("Scan to keep the score of this table."), language),
        "cards": cards,
    }


# A page's POST, not the API's (no Idempotency-Key): it may make a link (a table whose kept one
# stopped working), and with renew=1 it makes new ones for the whole series (series_links).
@bp.post("/nights/<string:night_id>/cards/<int:number>")
@not_idempotent(NONE)
def make_cards(night_id: str, number: int) -> Response:
    """The cards of the series' open tables, each with its table's one link (admin token);
    ``?renew=1``: new links, the previous ones stop working."""
    language = _language()
    who = principal()
    links = nights.series_links(who, night_id, number, renew=request.args.get("renew") == "1")
    night = nights.get_night(who, night_id)
    response = _page("cards.html", **cards_view(links, night, language))
    response.headers["Cache-Control"] = "no-store"  # it carries the tables' tokens
    return response


# The admin screen's words, in the server's catalogs like every other page's. Its script
# (static/nights/admin.js) words them with the pad's i18n (``t('Series {number}', …)``): the
# shell gives them in the request's language (``data-words``), keyed by their English, each
# ``%(name)s`` written ``{name}`` as the pad writes it.
ADMIN_WORDS = (
    N_("Club night"),
    N_("The club's nights"),
    N_("Start a club night"),
    N_("Name"),
    N_("Game"),
    N_("Players present"),
    N_("New players, one name per line"),
    N_("Hands per series"),
    N_("Until closed"),
    N_("Number of series"),
    N_("Season"),
    N_("No season"),
    N_("Money per chip (%(currency)s)"),
    N_("Money per point (%(currency)s)"),
    N_("Table fee per player (%(currency)s)"),
    N_("Settling the scores"),
    N_("Pairwise difference"),
    N_("Against the average"),
    N_("Not for money"),
    N_("Start the night"),
    N_("%(field)s: write an amount such as %(example)s."),
    N_(
        "This device keeps no admin token of this club. Open the club on the Solo pad with "
        "its admin link, then come back here through Club, Manage, Club night."
    ),
    N_("Open the Solo pad"),
    N_("open"),
    N_("closed"),
    N_("Series %(number)s of %(planned)s"),
    N_("No series drawn yet."),
    N_("Plays for %(rate)s."),
    N_("Not played for money."),
    N_("%(amount)s per chip"),
    N_("%(amount)s per point"),
    N_("table fee %(amount)s per player and series"),
    N_("table fee %(amount)s per player for the night"),
    N_("table fee %(amount)s per table, shared by its players"),
    N_("Table fee per table (%(currency)s)"),
    N_("The table fee is charged"),
    N_("per person and series"),
    N_("per person, once for the evening"),
    N_("per table, shared by its players"),
    N_("No table fee."),
    N_("Each person pays %(amount)s for every series they play."),
    N_("Each person pays %(amount)s once for the evening, however many series they play."),
    N_("Each table pays %(amount)s, shared evenly by the people playing at it."),
    N_("+%(hands)s hands for this series"),
    N_("+%(hands)s hand at table %(table)s"),
    N_("The night's result"),
    N_("Download the standings (CSV, for a spreadsheet)"),
    N_("Result sheet to print (the big screen)"),
    N_("Downloaded: %(file)s"),
    N_("Change the rate"),
    N_("Save the rate"),
    N_("Rate saved: the night's tables on the old rate play for the new one."),
    N_("Who is here"),
    N_(
        "Between series: tick a late arrival, untick an early leaver. The next draw seats those "
        "ticked here, and saves them first."
    ),
    N_("Saved who is here first: the draw seats those ticked."),
    N_("Save who is here"),
    N_("Saved: the next draw seats those present."),
    N_("Draw series %(number)s"),
    N_("Seed (to repeat a draw; empty: random)"),
    N_("Series %(number)s drawn with seed %(seed)s."),
    N_("End the series now anyway"),
    N_("Series %(number)s"),
    N_("Seed %(seed)s"),
    N_("Table %(number)s"),
    N_("deals first"),
    N_("Make new links (the phones at these tables must scan again)"),
    N_(
        "New links for every table of series %(number)s? The links shown and printed so far "
        "stop working, and the phones at these tables must scan the new cards."
    ),
    N_("Yes, make new links"),
    N_("Not yet"),
    N_("Print the table cards"),
    N_("Big screen"),
    N_(
        "The big screen opens with the club's read-only link when this device has one "
        "(Manage), else with the admin token: keep that screen to yourself."
    ),
    N_("Standings"),
    N_("Rank"),
    N_("Player"),
    N_("S%(number)s"),
    N_("Total"),
    N_("Money"),
    N_("Settle-up in money"),
    N_("%(payer)s pays %(payee)s %(amount)s"),
    N_("the pool"),
    N_("Nobody pays anybody."),
    N_("Table fees, apart: %(amount)s to the club."),
    N_(
        "Each table is rounded down to the cent as its own settle-up shows it, the cents left "
        "over going to the largest remainders; the night adds up those amounts per player."
    ),
    N_("Not counted (no rate in the night's currency): %(tables)s."),
    N_("Close the night"),
    N_(
        "Close the night? Its tables close with it: no hand can be recorded at them any more, "
        "and the night cannot be opened again."
    ),
    N_("Yes, close the night"),
    N_("Close anyway"),
    N_("The night is closed: its tables are closed too."),
    N_("All series are drawn: close the night when the tables are done."),
    N_("No connection: showing what was last loaded."),
    N_("Open nights"),
    N_("Go on with %(night)s"),
    N_("Same players as last night"),
    N_("Back to the club"),
    N_("Series ends at"),
    N_("Set the clock"),
    N_("No clock"),
    N_("End the series now"),
    N_("Yes, end it now"),
    N_("Series %(number)s ends at %(time)s."),
    N_("Series %(number)s has no clock."),
    N_("Series %(number)s is over: no table starts another hand."),
    N_(
        "End series %(number)s now? Each table stops at the hands it has recorded; a hand "
        'still in play needs "+1 hand" at its table.'
    ),
)
# Its counts, each in the forms its language has (the pad's ``tn('{n} hand', '{n} hands')``
# reads an entry per plural category): "1 Spiel", "2 Spiele".
ADMIN_COUNTS = (
    Nn_("%(played)s hand", "%(played)s hands"),
    Nn_("%(hands)s hand per series", "%(hands)s hands per series"),
    Nn_("This series: %(hands)s hand per table", "This series: %(hands)s hands per table"),
    Nn_(
        "Series %(number)s now has %(hands)s hand per table.",
        "Series %(number)s now has %(hands)s hands per table.",
    ),
    Nn_(
        "Table %(table)s: %(played)s of %(hands)s hand",
        "Table %(table)s: %(played)s of %(hands)s hands",
    ),
    Nn_(
        "Table %(table)s of series %(number)s now has %(hands)s hand.",
        "Table %(table)s of series %(number)s now has %(hands)s hands.",
    ),
)
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _pad_text(message: str) -> str:
    """A message as the pad's ``t()`` takes it: ``{name}`` for each ``%(name)s``."""
    return PLACEHOLDER.sub(r"{\1}", message)


@bp.get("/clubs/<string:club_id>/night-admin")
def night_admin(club_id: str) -> Response:
    """The club night's admin screen (the shell; its script works with the club's admin token
    the score pad keeps on this device, or ``#token=…``)."""
    language = _language()
    return _shell(
        language,
        _t(N_("Club night"), language),
        "admin",
        {"club": club_id, "words": page_words(ADMIN_WORDS, ADMIN_COUNTS, language)},
        _t(N_("Loading…"), language),
    )


def page_words(
    messages: tuple[str, ...], counts: tuple[tuple[str, str], ...], language: str
) -> str:
    """A script's words in ``language`` as the pad's ``t`` and ``tn`` read them (``data-words``,
    JSON keyed by their English, ``{name}`` for each ``%(name)s``)."""
    words: dict[str, Any] = {_pad_text(m): _pad_text(_t(m, language)) for m in messages}
    catalog = translations(language)
    for one, other in counts:
        # CLDR's "one" and "other" are all that en, de and es count a night's hands with
        # ("many", Spanish for a million, falls back to "other" in tn).
        words[_pad_text(one)] = {
            "one": _pad_text(catalog.ngettext(one, other, 1)),
            "other": _pad_text(catalog.ngettext(one, other, 2)),
        }
    return answer_text(words)


def register(app: Flask) -> None:
    app.register_blueprint(bp)
