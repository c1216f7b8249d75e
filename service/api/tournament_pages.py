"""The pages of an open tournament, beside the club night's (``night_pages``) and built the
same way: a shell that needs no token, its script (``static/nights/<page>.js``, drawn with the
pad's lit-html and worded with the pad's ``t``), its words from the service's catalogs in the
request's language (``?lang=en|de|es``, else ``Accept-Language``: the phone's language).

- ``GET /clubs/<club_id>/tournament-admin`` — the director's screen (``tournament.js``): the
  settings, the registration link and its QR code, the entrants and their check-in, late
  entries and withdrawals, the draws and their table cards, the standings, the prizes and the
  cash sheet, the ranking list to print (``#tournament=<id>&ranking``), the director's console
  of the series' tables (``#tournament=<id>&console``, ``console.js``) and the tournament's
  close. It works with the club's admin token the score pad keeps on this device, or
  ``#token=…``.
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
    N_("Public results"),
    N_(
        "The results are public: anyone with this link follows them live, names as each "
        "player chose."
    ),
    N_("The results are not public yet."),
    N_("Publish the results"),
    N_("Take the results back"),
    N_("Show the prize places there"),
    N_("QR code of the public results"),
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
    # The new tournament's game, money and scoring.
    N_("yes"),
    N_("no"),
    N_("Losses money per lost game (%(currency)s, empty: none)"),
    N_("Table sizes"),
    N_("The draws seat the players at tables of these sizes."),
    N_("The game's options"),
    N_("Scoring"),
    N_("The game's own result"),
    N_("Place points at each table"),
    N_("The prizes are"),
    N_("Shares of the money taken"),
    N_("Fixed amounts"),
    N_("Prizes: each place's amount in %(currency)s, first place first"),
    # The tournament's close.
    N_("The tournament is closed: the ranking list is final."),
    N_("Close the tournament"),
    N_("Close anyway"),
    N_("Yes, close the tournament"),
    N_(
        "Close the tournament? Its tables close with it: no hand can be recorded any more, the "
        "ranking list and the prizes are final, and it cannot be opened again."
    ),
    # The director's console (console.js).
    N_("The director's console"),
    N_(
        "Every table of the series at a glance: what needs you first, disputes, confirmations, "
        "moves and substitutes."
    ),
    N_("Open the console"),
    N_("Console · %(name)s"),
    N_("Needs the director (%(count)s)"),
    N_("All tables (%(count)s)"),
    N_("Tables"),
    N_("No table needs the director now."),
    N_("Disputed"),
    N_("To be confirmed"),
    N_("No hand lately"),
    N_("Playing"),
    N_("Confirmed"),
    N_("Hands %(played)s/%(limit)s"),
    N_("Hands %(played)s"),
    N_("Last hand %(when)s"),
    N_("No hand yet"),
    N_("Confirmed by the director"),
    N_("Confirmations %(given)s/%(needed)s"),
    N_("Seat %(number)s"),
    N_("keeps the list"),
    N_("confirmed"),
    N_("Hand %(hand)s, disputed by %(name)s: “%(reason)s”"),
    N_("See the hand"),
    N_("Correct hand %(hand)s"),
    N_("Void hand %(hand)s"),
    N_("Reject the dispute"),
    N_("Hand %(number)s as recorded"),
    N_("void"),
    N_("As the service settled it"),
    N_("%(field)s: as recorded (%(value)s)"),
    N_("Save the correction"),
    N_("Void hand %(hand)s? Every later hand is settled again."),
    N_("Hand %(hand)s corrected: the table confirms its result again."),
    N_("Hand %(hand)s voided: the table confirms its result again."),
    N_("Dispute rejected: hand %(hand)s stands."),
    N_("Confirm the result as the director"),
    N_("Table %(number)s confirmed by the director."),
    N_("Move a player or seat a substitute"),
    N_(
        "Before a table’s first hand: a player moved swaps seats with the one sitting there; a "
        "registered player takes the seat of one who withdrew."
    ),
    N_("Table"),
    N_("Seat"),
    N_("Seat here"),
    N_("table %(table)s, seat %(seat)s"),
    N_("%(name)s sits at table %(table)s, seat %(seat)s."),
)
DIRECTOR_COUNTS = (
    Nn_("%(count)s entrant", "%(count)s entrants"),
    Nn_("%(hands)s hand per series", "%(hands)s hands per series"),
    Nn_("At most %(count)s entrant", "At most %(count)s entrants"),
    Nn_("%(count)s phone connected", "%(count)s phones connected"),
    Nn_("%(count)s open dispute", "%(count)s open disputes"),
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
