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
  (admin token), which gives each open table of the series a new link (the previous one
  stops working: tokens are kept only as digests) and answers the cards, QR codes as SVG
  (``segno``).

Everything is in the request's language (``?lang=en|de|es``, else ``Accept-Language``), and
runs under the strict Content-Security-Policy (no inline script or style).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import segno
from babel.numbers import format_currency, get_currency_precision
from flask import Blueprint, Flask, Response, request
from markupsafe import Markup, escape

from .. import rules
from ..i18n import LANGUAGES, gettext, negotiate, translations, word
from ..i18n.marks import N_, Nn_
from ..rules import Phrase
from ..services import nights
from .auth import principal
from .caching import conditional
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


def _html(body: str, status: int = 200) -> Response:
    response = Response(body, status=status, mimetype="text/html")
    response.headers["Vary"] = "Accept-Language"
    response.headers["Cache-Control"] = "no-cache"
    return response


def _shell(language: str, title: str, page: str, data: dict[str, str], main: str = "") -> str:
    attributes = " ".join(f'data-{k}="{escape(v)}"' for k, v in data.items())
    return (
        f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        '<link rel="stylesheet" href="/night-assets/night.css">'
        f'<script type="module" src="/night-assets/{page}.js"></script>'
        f'</head><body class="{page}" {attributes}>'
        f'<main id="content" aria-live="polite">{main}</main></body></html>'
    )


@bp.get("/nights/<string:night_id>/screen")
def screen(night_id: str) -> Response:
    """The big screen's shell; its script polls the board."""
    language = _language()
    return _html(
        _shell(
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
            '<p class="waiting">' + escape(_t(N_("Loading the standings…"), language)) + "</p>",
        )
    )


def _signed(value: int | None) -> str:
    """A result as a sheet shows it: a real minus sign, a plus for gains."""
    if value is None:
        return ""
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "0"


def money(cents: int, currency: str, language: str, *, signed: bool = False) -> str:
    """Whole minor units as the language writes the amount ("1,50 €", "€1.50"), exact (a
    Decimal, never a float); ``signed``: a plus for a gain and a real minus sign for a loss."""
    amount = Decimal(abs(cents)).scaleb(-get_currency_precision(currency))
    text = format_currency(amount, currency, locale=language)
    if signed and cents:
        return ("+" if cents > 0 else "\u2212") + text
    return text


def rate_line(rate: Mapping[str, Any], units: str, language: str) -> str:
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
        line += "; " + _t(N_("table fee %(amount)s per player"), language, amount=fee)
    return line


def _rows(cells: Iterable[str], tag: str = "td") -> str:
    return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def board_html(board: dict[str, Any], language: str) -> str:
    """The big screen's content: the standings and each table of the current series."""
    night = board["night"]
    variant = rules.get_variant(night["variant"])
    series = night["series"]
    current = series[-1] if series else None
    if current is None:
        progress = _t(N_("Waiting for the first draw."), language)
    else:
        progress = _t(
            N_("Series %(number)s of %(planned)s"),
            language,
            number=current["number"],
            planned=night["series_planned"],
        )
    if night["status"] == "closed":
        progress = _t(N_("The night is over: final standings."), language)
    units = _t(N_("Chips") if board["units"] == "chips" else N_("Points"), language)
    paid = board.get("money")
    head = [
        escape(_t(N_("Rank"), language)),
        escape(_t(N_("Player"), language)),
        *(escape(_t(N_("S%(number)s"), language, number=s["number"])) for s in series),
        escape(units),
        *([escape(_t(N_("Money"), language))] if paid else []),
    ]
    rows = []
    for line in board["standings"]:
        cells = [
            str(line["rank"]),
            str(escape(line["name"])),
            *("" if result is None else _signed(result["result"]) for result in line["series"]),
            f"<strong>{_signed(line['total'])}</strong>",
            *(
                [escape(money(line["cents"], paid["currency"], language, signed=True))]
                if paid
                else []
            ),
        ]
        rows.append(_rows(cells))
    standings = (
        f'<table class="standings"><thead>{_rows(head, "th")}</thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    tables = []
    hands_due = night["hands_per_series"]
    for table in current["tables"] if current else []:
        names = ", ".join(str(escape(s["name"])) for s in table["seats"])
        if hands_due is None:
            played = table["hands_played"]
            one, many = Nn_("%(played)s hand", "%(played)s hands")
            count = translations(language).ngettext(one, many, played) % {"played": played}
            bar = ""
        else:
            count = _t(
                N_("%(played)s of %(hands)s hands"),
                language,
                played=table["hands_played"],
                hands=hands_due,
            )
            bar = (
                f'<progress max="{hands_due}" value="{min(table["hands_played"], hands_due)}">'
                f"</progress>"
            )
        state = _t(N_("done"), language) if table["done"] else ""
        title = _t(N_("Table %(number)s"), language, number=table["number"])
        tables.append(
            '<li class="table'
            + (" done" if table["done"] else "")
            + '">'
            + f"<h3>{escape(title)}"
            + (f' <span class="state">{escape(state)}</span>' if state else "")
            + f'</h3><p class="names">{names}</p><p class="count">{escape(count)}</p>{bar}</li>'
        )
    game = word(Phrase(variant.title), language)
    standings_title = _t(N_("Standings"), language)
    tables_title = _t(N_("Tables"), language)
    right = f'<h2>{escape(tables_title)}</h2><ul class="tables">{"".join(tables)}</ul>'
    if paid and night["status"] == "closed":
        # The night is over: who pays whom takes the place of the tables' progress.
        right = payments_html(paid, language)
    rate = f" · {escape(rate_line(paid['rate'], board['units'], language))}" if paid else ""
    # A night of many players or tables sets its rows smaller, so that it still fits.
    crowd = max(len(board["standings"]), 3 * len(tables))
    density = "" if crowd <= 12 else " dense" if crowd <= 18 else " denser"
    return (
        f'<div class="board{density}">'
        f"<header><h1>{escape(night['name'])}</h1>"
        f'<p class="game">{escape(game)} · {escape(progress)}{rate}</p></header>'
        f'<div class="columns"><section class="left"><h2>{escape(standings_title)}</h2>'
        f"{standings}</section>"
        f'<section class="right">{right}</section></div></div>'
    )


def payments_html(paid: Mapping[str, Any], language: str) -> str:
    """The night's settle-up in money: who pays whom, then the table fees, apart."""
    pool = _t(N_("the pool"), language)
    items = []
    for transfer in paid["transfers"]:
        payer = transfer["from"]["name"] or pool
        payee = transfer["to"]["name"] or pool
        amount = money(transfer["cents"], paid["currency"], language)
        items.append(
            f'<li><span class="who">{escape(payer)}</span> → '
            f'<span class="who">{escape(payee)}</span> <strong>{escape(amount)}</strong></li>'
        )
    if not items:
        nobody = _t(N_("Nobody pays anybody."), language)
        items.append(f"<li>{escape(nobody)}</li>")
    fees = ""
    if paid["fees_cents"]:
        amount = money(paid["fees_cents"], paid["currency"], language)
        line = _t(N_("Table fees, apart: %(amount)s to the club."), language, amount=amount)
        fees = f'<p class="fees">{escape(line)}</p>'
    title = _t(N_("Who pays whom"), language)
    many = " many" if len(items) > 5 else ""  # smaller, so that a long list still fits
    return f'<h2>{escape(title)}</h2><ul class="payments{many}">{"".join(items)}</ul>{fees}'


@bp.get("/nights/<string:night_id>/screen/board")
@conditional
def board(night_id: str) -> Response:
    """The board's HTML for the big screen (admin or read-only token), ETag'd."""
    language = _language()
    standings = nights.night_standings(principal(), night_id)
    return _html(board_html(standings, language))


@bp.get("/nights/<string:night_id>/cards")
def cards(night_id: str) -> Response:
    """The cards' shell: its script asks for the cards of ``?series=N`` (the admin token)."""
    language = _language()
    series = request.args.get("series", "1")
    number = series if series.isascii() and series.isdigit() and len(series) < 4 else "1"
    return _html(
        _shell(
            language,
            _t(N_("Table cards"), language),
            "cards",
            {
                "cards": f"/nights/{night_id}/cards/{number}?lang={language}",
                "print": _t(N_("Print"), language),
                "renew": _t(N_("Make new links anyway"), language),
                "token-missing": _t(
                    N_("Open this page with the club's admin link (#token=…)."), language
                ),
            },
        )
    )


def _qr(link: str) -> Markup:
    svg = segno.make(link, error="m").svg_inline(scale=4, omitsize=True)
    return Markup(svg)  # segno's own markup of the link, which it escapes


def cards_html(links: list[dict[str, Any]], night: dict[str, Any], language: str) -> str:
    variant = rules.get_variant(night["variant"])
    game = word(Phrase(variant.title), language)
    deals_first = _t(N_("deals first"), language)
    scan = _t(N_("Scan to keep the score of this table."), language)
    root = request.url_root
    heading = _t(N_("Table cards"), language)
    out = [f"<h1>{escape(heading)} · {escape(night['name'])}</h1>"]
    for table in links:
        link = f"{root}#table={table['table_id']}&token={table['table_token']}"
        seats = "".join(
            f"<li>{escape(s['name'])}"
            + (
                f" <strong>({escape(deals_first)})</strong>"
                if s["seat"] == table["first_dealer"]
                else ""
            )
            + "</li>"
            for s in table["seats"]
        )
        title = _t(N_("Table %(number)s"), language, number=table["number"])
        series = _t(N_("Series %(number)s"), language, number=table["series"])
        out.append(
            '<article class="card">'
            f"<h2>{escape(title)}</h2>"
            f'<p class="meta">{escape(night["name"])} · {escape(game)} · {escape(series)}</p>'
            + (
                f'<p class="rate">{escape(rate_line(night["rate"], night["units"], language))}</p>'
                if night["rate"]
                else ""
            )
            + f'<ol class="seats">{seats}</ol>'
            f'<div class="qr">{_qr(link)}</div>'
            f'<p class="scan">{escape(scan)} '
            f'<a href="{escape(link)}">{escape(table["name"])}</a></p>'
            "</article>"
        )
    return "".join(out)


# A page's POST, not the API's (no Idempotency-Key): asking again is what makes new links, and
# once a table of the series plays it is refused unless asked with renew=1 (series_links).
@bp.post("/nights/<string:night_id>/cards/<int:number>")
@not_idempotent(NONE)
def make_cards(night_id: str, number: int) -> Response:
    """New links for the series' open tables and their cards (admin token)."""
    language = _language()
    who = principal()
    links = nights.series_links(who, night_id, number, renew=request.args.get("renew") == "1")
    night = nights.get_night(who, night_id)
    response = _html(cards_html(links, night, language))
    response.headers["Cache-Control"] = "no-store"  # it carries the tables' tokens
    return response


# The admin screen's words, in the server's catalogs like every other page's; its script gets
# them in the request's language (``data-words``), placeholders as ``%(name)s``.
ADMIN_WORDS = {
    "title": N_("Club night"),
    "nights": N_("The club's nights"),
    "start": N_("Start a club night"),
    "name": N_("Name"),
    "game": N_("Game"),
    "present": N_("Players present"),
    "new_players": N_("New players, one name per line"),
    "hands": N_("Hands per series"),
    "until_closed": N_("Until closed"),
    "series_count": N_("Number of series"),
    "season": N_("Season"),
    "no_season": N_("No season"),
    "per_chip": N_("Money per chip (%(currency)s)"),
    "per_point": N_("Money per point (%(currency)s)"),
    "fee": N_("Table fee per player (%(currency)s)"),
    "settling": N_("Settling the scores"),
    "pairs": N_("Pairwise difference"),
    "average": N_("Against the average"),
    "not_for_money": N_("Not for money"),
    "start_button": N_("Start the night"),
    "bad_amount": N_("%(field)s: write an amount such as %(example)s."),
    "no_token": N_(
        "This device keeps no admin token of this club. Open the club on the Solo pad with "
        "its admin link, then come back here through Club, Manage, Club night."
    ),
    "to_pad": N_("Open the Solo pad"),
    "open": N_("open"),
    "closed": N_("closed"),
    "series_of": N_("Series %(number)s of %(planned)s"),
    "no_series": N_("No series drawn yet."),
    "hands_each": N_("%(hands)s hands per series"),
    "rate": N_("Plays for %(rate)s."),
    "no_rate": N_("Not played for money."),
    "per_chip_amount": N_("%(amount)s per chip"),
    "per_point_amount": N_("%(amount)s per point"),
    "fee_amount": N_("table fee %(amount)s per player"),
    "change_rate": N_("Change the rate"),
    "save_rate": N_("Save the rate"),
    "rate_saved": N_("Rate saved: the night's tables on the old rate play for the new one."),
    "presence": N_("Who is here"),
    "presence_hint": N_(
        "Between series: mark a late arrival or an early leaver; the next draw seats those present."
    ),
    "save_presence": N_("Save who is here"),
    "presence_saved": N_("Saved: the next draw seats those present."),
    "draw": N_("Draw series %(number)s"),
    "seed": N_("Seed (to repeat a draw; empty: random)"),
    "drawn": N_("Series %(number)s drawn with seed %(seed)s."),
    "end_anyway": N_("End the series now anyway"),
    "series": N_("Series %(number)s"),
    "seed_shown": N_("Seed %(seed)s"),
    "table": N_("Table %(number)s"),
    "deals_first": N_("deals first"),
    "links": N_("Links and QR codes of the tables"),
    "links_again": N_("Make new links (the phones at these tables must scan again)"),
    "print": N_("Print the table cards"),
    "screen": N_("Big screen"),
    "screen_hint": N_(
        "The big screen opens with the club's read-only link when this device has one "
        "(Manage), else with the admin token: keep that screen to yourself."
    ),
    "standings": N_("Standings"),
    "rank": N_("Rank"),
    "player": N_("Player"),
    "short_series": N_("S%(number)s"),
    "total": N_("Total"),
    "money": N_("Money"),
    "settle_up": N_("Settle-up in money"),
    "pays": N_("%(payer)s pays %(payee)s %(amount)s"),
    "pool": N_("the pool"),
    "nobody_pays": N_("Nobody pays anybody."),
    "fees": N_("Table fees, apart: %(amount)s to the club."),
    "rounding": N_(
        "Each table is rounded down to the cent as its own settle-up shows it, the cents left "
        "over going to the largest remainders; the night adds up those amounts per player."
    ),
    "left_out": N_("Not counted (no rate in the night's currency): %(tables)s."),
    "close": N_("Close the night"),
    "close_anyway": N_("Close anyway"),
    "closed_done": N_("The night is closed: its tables are closed too."),
    "all_drawn": N_("All series are drawn: close the night when the tables are done."),
    "offline": N_("No connection: showing what was last loaded."),
    "hands_played": N_("%(played)s hands"),
}


@bp.get("/clubs/<string:club_id>/night-admin")
def night_admin(club_id: str) -> Response:
    """The club night's admin screen (the shell; its script works with the club's admin token
    the score pad keeps on this device, or ``#token=…``)."""
    language = _language()
    words = {key: _t(message, language) for key, message in ADMIN_WORDS.items()}
    return _html(
        _shell(
            language,
            words["title"],
            "admin",
            {"club": club_id, "words": json.dumps(words, ensure_ascii=False)},
            '<p class="waiting">' + escape(_t(N_("Loading…"), language)) + "</p>",
        )
    )


def register(app: Flask) -> None:
    app.register_blueprint(bp)
