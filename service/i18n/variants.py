"""The words of ``GET /api/v1/variants``: every human text the variants' ``describe()`` gives
(a variant's and a contract's ``title``, the ``description`` of contracts, options, hand fields,
hand kinds, error kinds and bonuses, an option's and its ``choices``' ``title``, ``scoring``,
``payments``), for the catalogs; the names (``name``, ``allowed``, a choice's ``value``,
defaults) are the API's and never change.

The rules write these texts where they describe the game (they import nothing of ours), so
they are listed here for ``make translations``, as ``explanations.py`` lists the explanations'
words; ``tests/unit/test_catalogs.py`` fails when a text of ``describe()`` is missing here or
one listed here is no longer said. ``worded`` words a description in a language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .marks import N_

TEXT_KEYS: Final = frozenset(
    {"title", "prompt", "none_title", "description", "scoring", "payments", "trump", "lower"}
)
"""The keys whose string values are human text (``trump`` is Solo 66's "a suit", ``lower`` the
text of American Solo's matadores field, ``prompt`` and ``none_title`` a hand field's words in a
form); every other value is a name or a number."""

TEXTS: Final = (
    # American Solo.
    N_("American Solo"),
    N_("Simple game"),
    N_("calls an ace (a king when the caller holds all four aces); its holder is the partner"),
    N_("Forcée simple"),
    N_("all passed: Spadilla's holder must play, calling an ace (alone with 3 players)"),
    N_("Forcée partout"),
    N_("the holder of Spadilla and Basta plays, alone or with a called ace"),
    N_("Solo"),
    N_("played alone against all the others"),
    N_("Tout"),
    N_("all eight tricks, alone or with a called ace"),
    N_("Played"),
    N_("a game was bid and played (or decided by an error)"),
    N_("Forfeit"),
    N_(
        "seat passed holding Spadilla and Basta: that player pays a bête and the same dealer deals "
        "again"
    ),
    N_("Misdeal"),
    N_("a fresh deal: only the stake moves, the same dealer deals again"),
    N_("played, or forfeit (with only seat) or misdeal (nothing else)"),
    N_("the game played"),
    N_("the trump suit; a game in the couleur is worth double"),
    N_("the seat that bid (or was forced to play)"),
    N_("tricks taken by the declaring side"),
    N_(
        "the card called, never of the trump suit; required for a simple game (and a "
        "forcée simple with 4 or 5 players), never for a solo"
    ),
    N_("the holder of the called card (the declarer himself if he holds it: then a lone game)"),
    N_(
        "the declaring side took the first five tricks and played on for all eight (not "
        "on a tout); required with 8 tricks on any other contract"
    ),
    N_("integer from 0 (see matadores)"),
    N_(
        "the side holding all three higher matadores, and its lower ones (a lone "
        "declarer holds at most 5 lower ones)"
    ),
    N_("The side holding Spadilla, Manilla and Basta."),
    N_(
        "How many lower matadores follow unbroken (the most depends on the trump suit and the "
        "players)."
    ),
    N_("errors as {kind, seat} in the order they happened; kind is one of error_kinds"),
    N_("Revoke"),
    N_("a revoke, or a renege when not entitled (R15, R16): the offender's side loses"),
    N_("Lead out of turn"),
    N_(
        "a lead out of turn (R10, R11): in a lone game a defender's makes the defenders "
        "lose and the soloist's costs nothing; in a partner game the offender's side "
        "loses and the offender pays a bête"
    ),
    N_("Play out of turn"),
    N_("a card played out of turn: as a lead out of turn"),
    N_("Exposed card"),
    N_("an exposed card: as a lead out of turn"),
    N_("Unannounced void"),
    N_(
        "the caller of a partner game called the ace of a suit he holds none of and did "
        "not say so (R12): the declaring side loses"
    ),
    N_("chips the dealer puts into the pool at the start of his turn to deal"),
    N_("size of a stamm, and the most a bête can be"),
    N_("the couleur (favoured suit, worth double) at the start of the session"),
    N_(
        "fixed: couleur never changes; first_won: it becomes the trump suit of the first "
        "game won at the table"
    ),
    N_("any: every lost solo pays a bête; couleur_only: only a lost solo in couleur does"),
    N_(
        "either_side: matadores add to the payment whichever side holds them; "
        "declaring_side: only the declaring side's count"
    ),
    N_(
        "double: an incidental tout is worth twice the game's value; literal: twice in "
        "suit, four times in couleur"
    ),
    # Spanish Solo.
    N_("Spanish Solo"),
    N_(
        "declarer names trump and calls an ace; its holder is the partner; together they "
        "need 5 tricks"
    ),
    N_("declarer names trump and plays alone for 5 tricks"),
    N_("declarer names trump and plays alone for all 8 tricks"),
    N_(
        "declarer and partner each score +value if the target is made, -value if not; "
        "opponents score 0"
    ),
    N_("only played hands are recorded"),
    N_("the game declared"),
    N_("the trump suit; the colour doubles the value"),
    N_("the seat that declared (or, if all passed, the holder of the queen of clubs)"),
    N_("the ace called in a simple game; absent otherwise"),
    N_(
        "holder of the called ace (simple only; the declarer himself if he holds it: "
        "then he plays alone)"
    ),
    N_(
        "all passed and the holder of the queen of clubs had to play a simple game (kept "
        "for the record only)"
    ),
    N_("errors as {kind, seat}; kind is one of error_kinds"),
    N_("the offender's side loses the game"),
    N_("the colour: games with it as trump score double"),
    N_("the session ends after this many hands (null: no limit)"),
    N_("the session ends when a total exceeds this (null: no limit)"),
    # The hand fields' titles, prompts and empty choices (the words of the pad's form).
    N_("Kind of hand"),
    N_("Contract"),
    N_("choose the contract"),
    N_("Trump"),
    N_("choose the trump"),
    N_("Declarer"),
    N_("tap the declarer"),
    N_("Tricks taken"),
    N_("Called card"),
    N_("choose the called card"),
    N_("Partner (holds the called card)"),
    N_("tap the partner"),
    N_("Alone"),
    N_("Tout after five"),
    N_("Matadores"),
    N_("Errors"),
    N_("Forced"),
    N_("Giver of the ace"),
    N_("Nobody"),
    N_("Stopped after five"),
    N_("Went on after five"),
    N_("Tout announced"),
    N_("Asked for the partner"),
    N_("Matadors together"),
    N_("Soloist"),
    N_("tap the soloist"),
    N_("Soloist’s card points"),
    N_("set soloist points"),
    N_("Defenders’ card points"),
    N_("Last trick taken by"),
    N_("tap who took the last trick"),
    N_("Who forfeits"),
    N_("tap who forfeits"),
    N_("the seat that passed holding Spadilla and Basta: that player pays a bête"),
    # The options' titles, their values' and a nullable one's empty choice (the words of a new
    # table's form; "Mediateur" is a contract's title above).
    N_("Stake"),
    N_("Stamm"),
    N_("Couleur"),
    N_("How the couleur changes"),
    N_("Bête on a lost solo"),
    N_("Matadores count for"),
    N_("Tout after five is worth"),
    N_("End after this many hands"),
    N_("End at this score"),
    N_("No limit"),
    N_("Preferred suit"),
    N_("None"),
    N_("Deck"),
    N_("Clubs"),
    N_("Spades"),
    N_("Hearts"),
    N_("Diamonds"),
    N_("Fixed"),
    N_("Trump of the first game won"),
    N_("Every lost solo"),
    N_("Only in couleur"),
    N_("Either side"),
    N_("The declaring side only"),
    N_("Double"),
    N_("Twice in suit, four in couleur"),
    # The preview's state.
    N_("the seat that deals the hand"),
    N_("chips in the pool before the hand"),
    N_("the couleur in force (omitted: the option couleur's suit)"),
    N_("the dealer has not yet staked for this turn of dealing"),
    N_("a declaring side has already won a game at the table"),
    N_(
        "the preferred suit in force (it counts only with the option preferred_suit "
        "first_won; otherwise the option's suit is used)"
    ),
    # German Solo.
    N_("German Solo"),
    N_("Frage"),
    N_(
        "declarer names trump and calls a plain-suit ace (a king when holding all four "
        "aces); its holder is the hidden partner"
    ),
    N_("Grossfrage"),
    N_(
        "holder of Spadille and Manille calls a plain-suit ace; its holder names trump "
        "(not the called suit)"
    ),
    N_("Mediateur"),
    N_(
        "declarer names trump, demands the ace of a plain suit from the opponent holding "
        "it, gives back another card and plays alone (only with the option mediateur)"
    ),
    N_("declarer names trump and plays alone"),
    N_("Force (Mussfrage)"),
    N_(
        "Mussfrage: all passed; the holder of Spadille calls an ace, its holder names "
        "trump (not the called suit)"
    ),
    N_("prime: won the first five tricks (four with 24 cards) and stopped"),
    N_("tout: went on after the first five (four), made or not"),
    N_("tout announced with the declaration"),
    N_("Spadille, Manille and Baste were dealt to one party"),
    N_(
        "each of the declaring party scores +value if the target is made, -value if not; "
        "the others score 0"
    ),
    N_("the game declared (a mediateur only with the option mediateur)"),
    N_("the trump suit"),
    N_("the seat that declared (in a force, the holder of Spadille)"),
    N_(
        "the card called in a frage, grossfrage or force (not of trumps; a king only in "
        "a frage); in a mediateur, the ace demanded (optional, for the record)"
    ),
    N_("holder of the called card"),
    N_("in a mediateur, the opponent who gave the demanded ace (optional, for the record)"),
    N_("tricks taken by the declaring party"),
    N_("won the first five tricks (four with 24 cards) and stopped"),
    N_("won the first five (four) and went on for all the tricks"),
    N_(
        "games with this suit as trump score double; first_won: the trump of the first "
        "contract won, from the next hand on (null: none)"
    ),
    N_(
        "the mediateur is played: the declarer demands an ace, gives back a card and "
        "plays alone (base 4)"
    ),
    N_("32 cards; or 24 (Münsterland Sollo, no eights and nines): 6 tricks, target 4, tout all 6"),
    # Solo 66.
    N_("Solo 66"),
    N_("Game"),
    N_(
        'the declarer asked "partner?" when the called card had not been played by the fifth '
        "trick: then no tout and not all the tricks"
    ),
    N_("a suit"),
    N_(
        "the soloist names trump and plays alone against four defenders; 66 card points "
        "win, the defenders win with 66, otherwise drawn"
    ),
    N_("No trump"),
    N_("all passed: played without trump; whoever takes the last trick wins"),
    N_("the stake from each loser to each winner; nothing for a drawn game"),
    N_("the trump suit; null when all passed"),
    N_("the seat playing alone (required with a trump)"),
    N_("card points the soloist took (required with a trump)"),
    N_("card points the defenders took (with a trump)"),
    N_("the seat that took the last trick (required, and only allowed, without trump)"),
    N_("chips each loser pays each winner"),
)


def texts(described: Any) -> list[str]:
    """Every human text of a description (a variant's ``describe()``), in order."""
    found: list[str] = []
    _walk(described, found.append)
    return found


def worded(value: Any, word: Callable[[str], str]) -> Any:
    """A copy of a description with each human text put through ``word``; names and numbers
    as they are."""
    if isinstance(value, dict):
        return {
            key: word(item) if key in TEXT_KEYS and isinstance(item, str) else worded(item, word)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [worded(item, word) for item in value]
    return value


def _walk(value: Any, found: Callable[[str], None]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in TEXT_KEYS and isinstance(item, str):
                found(item)
            else:
                _walk(item, found)
    elif isinstance(value, list):
        for item in value:
            _walk(item, found)
