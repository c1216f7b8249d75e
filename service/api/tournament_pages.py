"""The pages of an open tournament, beside the club night's (``night_pages``) and built the
same way: a shell that needs no token, its script (``static/nights/<page>.js``, drawn with the
pad's lit-html and worded with the pad's ``t``), its words from the service's catalogs in the
request's language (``?lang=en|de|es``, else ``Accept-Language``: the phone's language).

- ``GET /clubs/<club_id>/tournament-admin`` — the director's screen (``tournament.js``): the
  settings, the registration link and its QR code, the entrants and their check-in, late
  entries and withdrawals, the draws and their table cards, the standings, the prizes and the
  cash sheet, and the ranking list to print (``#tournament=<id>&ranking``). It works with the
  club's admin token the score pad keeps on this device, or ``#token=…``.
- ``GET /tournaments/<id>/register`` — the public registration page (``register.js``), opened
  from the registration link (``#token=<registration_token>``, which never reaches a server
  but as the ``register`` operation's bearer token).

The table's phone loads none of this: a table's first screen does not grow.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response

from ..i18n.marks import N_, Nn_
from .night_pages import _language, _shell, _t, page_words

bp = Blueprint("tournament_pages", __name__)

# The director's screen's words (tournament.js), and the club night's it shares.
DIRECTOR_WORDS = (
    N_("Open tournaments"),
    N_("Open tournament"),
    N_("Back to the club"),
    N_("No connection: showing what was last loaded."),
    N_(
        "This device keeps no admin token of this club. Open the club on the Solo pad with "
        "its admin link, then come back here through Club, Manage, Open tournaments."
    ),
    N_("Open the Solo pad"),
    N_("New open tournament"),
    N_("Name"),
    N_("Game"),
    N_("Number of series"),
    N_("Hands per series"),
    N_("Entry fee (%(currency)s)"),
    N_("Most entrants (empty: no limit)"),
    N_("Prizes: each place's share of the fees in %, first place first"),
    N_("Create the tournament"),
    N_("%(field)s: write an amount such as %(example)s."),
    N_("%(field)s: write shares such as 50, 30, 20."),
    N_("Series %(number)s of %(planned)s"),
    N_("No series drawn yet."),
    N_("Entry fee %(amount)s"),
    N_("No entry fee."),
    N_("No limit on entrants."),
    N_("Prizes: %(prizes)s"),
    N_("No prizes."),
    N_("Scoring: the game's own result"),
    N_("Scoring: place points at each table"),
    N_("Registration"),
    N_("Registration is open."),
    N_("Registration is closed."),
    N_("Open registration"),
    N_("Close registration"),
    N_("Players register with this link or its QR code:"),
    N_("Show the QR code"),
    N_("QR code of the registration link"),
    N_("Copy the link"),
    N_("Copied."),
    N_("Entrants"),
    N_("Search by name or club"),
    N_("All"),
    N_("Registered"),
    N_("Checked in"),
    N_("Waiting"),
    N_("Withdrawn"),
    N_("waiting, no. %(position)s"),
    N_("Check in"),
    N_("Undo check-in"),
    N_("Withdraw"),
    N_("Withdraw the entry of %(name)s?"),
    N_("Not yet"),
    N_("Enter again"),
    N_("Nobody matches."),
    N_("Late entry"),
    N_("A player of the club"),
    N_("Choose a player"),
    N_("Or a guest: name"),
    N_("Club (optional)"),
    N_("Checked in at once"),
    N_("Enter"),
    N_("Choose a player of the club or write a guest's name."),
    N_("Draw series %(number)s"),
    N_("Series %(number)s drawn with seed %(seed)s."),
    N_("All series are drawn."),
    N_("The draw seats everyone checked in: %(count)s."),
    N_("Series %(number)s"),
    N_("Table %(number)s"),
    N_("deals first"),
    N_("Print the table cards"),
    N_("Big screen"),
    N_("Standings"),
    N_("Rank"),
    N_("Player"),
    N_("S%(number)s"),
    N_("Total"),
    N_("withdrawn"),
    N_("Nobody has played yet."),
    N_("Prizes and cash sheet"),
    N_("Prize"),
    N_("Place %(place)s"),
    N_("Entry fees: %(paying)s × %(fee)s"),
    N_("Losses money: %(games)s × %(fee)s"),
    N_("Prizes paid"),
    N_("Remains with the host"),
    N_("The ranking list"),
    N_("Ranking list to print"),
    N_("Download the ranking (CSV, for a spreadsheet)"),
    N_("Downloaded: %(file)s"),
    N_("Print"),
    N_("Back to the tournament"),
    N_("Ranking list · %(name)s"),
    N_("Provisional ranking as of %(time)s: final once the tournament is closed."),
    N_("Final ranking."),
)
DIRECTOR_COUNTS = (
    Nn_("%(count)s entrant", "%(count)s entrants"),
    Nn_("%(hands)s hand per series", "%(hands)s hands per series"),
    Nn_("At most %(count)s entrant", "At most %(count)s entrants"),
)

# The registration page's words (register.js).
REGISTER_WORDS = (
    N_("Register for the tournament"),
    N_("Your name"),
    N_("Your club (optional)"),
    N_("How to reach you (optional: phone or e-mail)"),
    N_("Only the tournament director sees this."),
    N_("Your name in the published results"),
    N_("Full name: %(name)s"),
    N_("First name and initial: %(name)s"),
    N_("Register"),
    N_("You are registered, %(name)s."),
    N_("The tournament is full: you are on the waiting list, number %(position)s."),
    N_("If a place becomes free, you move up in the order of the list."),
    N_("Register someone else"),
    N_("Registration for this tournament is closed."),
    N_("This is not the tournament's registration link: ask its director for the link."),
    N_("Open this page with the tournament's registration link (#token=…)."),
    N_("No connection: try again when online."),
    N_("Language"),
)


@bp.get("/clubs/<string:club_id>/tournament-admin")
def director(club_id: str) -> Response:
    """The director's screen (the shell; ``tournament.js`` does the rest with the token)."""
    language = _language()
    return _shell(
        language,
        _t(N_("Open tournament"), language),
        "tournament",
        {"club": club_id, "words": page_words(DIRECTOR_WORDS, DIRECTOR_COUNTS, language)},
        _t(N_("Loading…"), language),
        look="admin",
    )


@bp.get("/tournaments/<string:tournament_id>/register")
def registration(tournament_id: str) -> Response:
    """The public registration page (the shell; ``register.js`` posts the registration with
    the link's token)."""
    language = _language()
    return _shell(
        language,
        _t(N_("Register for the tournament"), language),
        "register",
        {"tournament": tournament_id, "words": page_words(REGISTER_WORDS, (), language)},
        look="admin",
    )


def register(app: Flask) -> None:
    app.register_blueprint(bp)
