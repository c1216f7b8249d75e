"""American Solo (variant ``american``): settling a hand, step by step, as the rulebook says.

``shared/rules/american-solo.md`` is the contract; the step numbers in the comments below are
its "Settling a played hand" steps. ``settle_played`` and ``settle_redeal`` are what the
variant object (``variant.AMERICAN``) calls. The module is pure: it imports only the standard
library and its siblings.

Settling is on the hot path of every recorded hand, correction and replay, so it is written
as straight-line code over the tables precomputed in ``model``.
"""

from __future__ import annotations

from ..base import POOL, Reason, Settlement, Suit, Transfer
from .model import (
    CONTRACT_RULES,
    OPPONENTS,
    PAIRS,
    TRICKS,
    UNPAIRED,
    AmericanOptions,
    AmericanState,
    BeteOnLostSolo,
    CalledCard,
    Contract,
    CouleurPolicy,
    ErrorKind,
    ForfeitHand,
    IncidentalTout,
    MatadoresPolicy,
    MisdealHand,
    PlayedHand,
    Rank,
    Side,
    make_settlement,
    make_state,
)

# Enum members, Reasons and words bound once: a class attribute lookup on an Enum costs as
# much as a dozen dict lookups, and this is the hot path of every settlement.
_STAKE = Reason.STAKE
_GAME = Reason.GAME
_STAMM = Reason.STAMM
_BETE = Reason.BETE
_SIMPLE = Contract.SIMPLE
_SOLO = Contract.SOLO
_FORCEE_SIMPLE = Contract.FORCEE_SIMPLE
_REVOKE = ErrorKind.REVOKE
_VOID = ErrorKind.UNANNOUNCED_VOID
_DECLARERS = Side.DECLARERS
_EITHER_SIDE = MatadoresPolicy.EITHER_SIDE
_LITERAL = IncidentalTout.LITERAL
_BETE_ANY = BeteOnLostSolo.ANY
_FIRST_WON = CouleurPolicy.FIRST_WON
_new_transfer = tuple.__new__  # Transfer(...) without NamedTuple's Python-level __new__

_SUIT_NAME: dict[Suit, str] = {s: s.value for s in Suit}
_SIDE_NAME: dict[Side, str] = {s: s.value for s in Side}
_CARD_NAME: dict[CalledCard, str] = {
    CalledCard(r, s): f"{r.value} of {s.value}" for r in Rank for s in Suit
}
_A_CONTRACT: dict[Contract, str] = {
    Contract.SIMPLE: "a simple game",
    Contract.FORCEE_SIMPLE: "a forcée simple",
    Contract.FORCEE_PARTOUT: "a forcée partout",
    Contract.SOLO: "a solo",
    Contract.TOUT: "a tout",
}
_TITLE: dict[Contract, str] = {c: rule.title for c, rule in CONTRACT_RULES.items()}
_LOST_WHAT: dict[Contract, str] = {c: f"lost {rule.title.lower()}"
                                   for c, rule in CONTRACT_RULES.items()}
_ERROR_VERB: dict[ErrorKind, str] = {
    ErrorKind.REVOKE: "revokes",
    ErrorKind.LEAD_OUT_OF_TURN: "leads out of turn",
    ErrorKind.PLAY_OUT_OF_TURN: "plays out of turn",
    ErrorKind.EXPOSED_CARD: "exposes a card",
    ErrorKind.UNANNOUNCED_VOID: "did not announce his void in the called suit",
}
_ERROR_NOUN: dict[ErrorKind, str] = {
    ErrorKind.REVOKE: "revoke",
    ErrorKind.LEAD_OUT_OF_TURN: "lead out of turn",
    ErrorKind.PLAY_OUT_OF_TURN: "play out of turn",
    ErrorKind.EXPOSED_CARD: "exposed card",
    ErrorKind.UNANNOUNCED_VOID: "unannounced void",
}
_IN_SUIT: dict[Suit, str] = {suit: f"in {suit.value}" for suit in Suit}
_IN_COULEUR: dict[Suit, str] = {suit: f"in couleur ({suit.value})" for suit in Suit}
_TRICKS_WORD = tuple(f"{t} trick" if t == 1 else f"{t} tricks" for t in range(TRICKS + 1))


def _no_stake(state: AmericanState) -> str:
    """Step 1 when no chips move: why not."""
    if state.stake_due:
        return f"Dealer (seat {state.dealer + 1}) stakes nothing: the stake is 0"
    return f"Dealer (seat {state.dealer + 1}) has already staked for this deal"


def settle_played(n: int, options: AmericanOptions, state: AmericanState,
                   hand: PlayedHand) -> Settlement:
    pool = state.pool
    dealer = state.dealer
    # 1. Stake. Its transfer heads the list; it is put there once the game payments are known.
    stake = options.stake if state.stake_due else 0
    if stake:
        pool += stake
        lines = [f"Dealer (seat {dealer + 1}) stakes {stake} into the pool"]
    else:
        lines = [_no_stake(state)]

    # 2. Value. A simple game whose called card is the caller's own ranks as a solo.
    contract = hand.contract
    declarer = hand.declarer
    partner = hand.partner
    trump = hand.trump
    called = hand.called
    lone = partner is None or partner == declarer
    game = _SOLO if lone and contract is _SIMPLE else contract
    rule = CONTRACT_RULES[game]
    in_couleur = trump == state.couleur
    where = _IN_COULEUR[trump] if in_couleur else _IN_SUIT[trump]
    value = base = rule.in_couleur if in_couleur else rule.in_suit
    if called is None:
        lines.append(f"Seat {declarer + 1} plays {_A_CONTRACT[game]} {where}: worth {base}")
    elif partner is not None and not lone:
        lines.append(f"Seat {declarer + 1} plays {_A_CONTRACT[game]} {where} with seat "
                     f"{partner + 1}, who holds the called {_CARD_NAME[called]}: worth {base}")
    elif contract is _SIMPLE:
        lines.append(f"Seat {declarer + 1} plays a simple game {where} and holds the called "
                     f"{_CARD_NAME[called]} himself: it ranks as a solo, worth {base}")
    else:
        lines.append(f"Seat {declarer + 1} plays {_A_CONTRACT[game]} {where} and holds the called "
                     f"{_CARD_NAME[called]} himself: worth {base}")
    if lone and game is _FORCEE_SIMPLE:
        lines.append("A forcée simple played alone is no solo: no stamm, no bête")
    target = rule.target
    if hand.tout_after_five:
        target = TRICKS
        if in_couleur and options.incidental_tout is _LITERAL:
            value = 4 * base
            lines.append(f"Incidental tout in couleur: {base} four times is {value}; "
                         f"all 8 tricks are needed")
        else:
            value = 2 * base
            lines.append(f"Incidental tout: {base} doubles to {value}; all 8 tricks are needed")
    matadores = hand.matadores
    if matadores is not None:
        side = matadores.side
        if side is _DECLARERS or options.matadores is _EITHER_SIDE:
            lower = matadores.lower
            lines.append(f"Matadores held by the {_SIDE_NAME[side]}: 1 + {lower} lower = "
                         f"{1 + lower}, so a payment is {value + 1 + lower}")
            value += 1 + lower
        else:
            lines.append("Matadores held by the defenders do not count: only the declaring "
                         "side's do at this table")

    # 3.-4. Sides and result: the first error that decides the game decides it.
    won: bool | None = None
    decider = ""
    betes: list[tuple[int, ErrorKind]] = []
    for kind, seat in hand.errors:
        declaring = seat == declarer or (not lone and seat == partner)
        verb = _ERROR_VERB[kind]
        if kind is _REVOKE or kind is _VOID:
            pays = False
        elif lone:
            if declaring:  # R10: the soloist's own slip costs him nothing
                lines.append(f"Seat {seat + 1} {verb}: no penalty for the soloist")
                continue
            pays = False
        else:  # R11: the offender pays a bête even when the game was already decided
            pays = True
            betes.append((seat, kind))
        if won is not None:
            tail = ", but he still pays a bête" if pays else ""
            lines.append(f"Seat {seat + 1} {verb}: the game was already decided{tail}")
            continue
        won = not declaring
        decider = f"on seat {seat + 1}'s {_ERROR_NOUN[kind]}"
        losers = "defenders lose" if won else "declarer loses" if lone else "declarers lose"
        tail = ", and he pays a bête" if pays else ""
        lines.append(f"Seat {seat + 1} {verb}: the {losers} the game{tail}")
    if won is None:
        tricks = hand.tricks
        won = tricks >= target
        decider = f"with {_TRICKS_WORD[tricks]}"

    # 5. Game payments, towards the winners.
    key = (n, declarer, declarer if partner is None else partner, value, won)
    payments = _PAYMENTS.get(key)
    if payments is None:
        payments = _game_payments(*key)
        if value <= _MOST_TABULATED_VALUE:
            _PAYMENTS[key] = payments
    game_transfers, game_deltas, paid = payments
    deltas = list(game_deltas)
    if stake:
        transfers = [_new_transfer(Transfer, (dealer, POOL, stake, _STAKE)), *game_transfers]
        deltas[dealer] -= stake
    else:
        transfers = list(game_transfers)
    lines.append(f"{_TITLE[game]} {where} {'won' if won else 'lost'} {decider}: {paid}")

    # 6. Stamm: every lone game but a forcée simple is a solo for the pool.
    stamm = options.stamm
    solo = lone and game is not _FORCEE_SIMPLE
    if solo and won and in_couleur:
        chips = pool if pool < stamm else stamm
        if chips:
            transfers.append(_new_transfer(Transfer, (POOL, declarer, chips, _STAMM)))
            deltas[declarer] += chips
            pool -= chips
            lines.append(f"Seat {declarer + 1} draws a stamm of {chips} from the pool")
        else:
            lines.append(f"Seat {declarer + 1} would draw a stamm, but the pool is empty")

    # 7. Bêtes, each reckoned at the moment it is paid: errors first, then a lost solo.
    for seat, kind in betes:
        pool = _bete(seat, _ERROR_NOUN[kind], pool, stamm, deltas, transfers, lines)
    if solo and not won:
        if in_couleur or options.bete_on_lost_solo is _BETE_ANY:
            pool = _bete(declarer, _LOST_WHAT[game], pool, stamm, deltas, transfers, lines)
        else:
            lines.append("No bête for a lost solo in suit: at this table only a lost solo in "
                         "couleur pays one")

    # 8. Couleur.
    couleur = couleur_before = state.couleur
    first_game_won = state.first_game_won
    if won and not first_game_won:
        first_game_won = True
        if options.couleur_policy is _FIRST_WON and trump != couleur:
            couleur = trump
            lines.append(f"Couleur is now {_SUIT_NAME[trump]}: the first game won at the table "
                         f"was played in it")

    # 9. Next deal.
    dealer += 1
    if dealer == n:
        dealer = 0
    lines.append(f"Seat {dealer + 1} deals next")
    return make_settlement(
        "won" if won else "lost", in_couleur, value, tuple(transfers), tuple(deltas),
        state.pool, pool, _SUIT_NAME[couleur_before], _SUIT_NAME[couleur], dealer,
        tuple(lines), make_state(pool, couleur, dealer, True, first_game_won),
    )


def _bete(seat: int, why: str, pool: int, stamm: int, deltas: list[int],
          transfers: list[Transfer], lines: list[str]) -> int:
    """One bête of ``min(pool, stamm)`` into the pool; returns the pool after it."""
    chips = pool if pool < stamm else stamm
    if chips:
        transfers.append(_new_transfer(Transfer, (seat, POOL, chips, _BETE)))
        deltas[seat] -= chips
        lines.append(f"Seat {seat + 1} pays a bête of {chips} ({why})")
    else:
        lines.append(f"Seat {seat + 1} owes a bête ({why}), but the pool is empty")
    return pool + chips


# _PAYMENTS[players, declarer, partner (the declarer in a lone game), value, won] -> the game
# payments: transfers, each seat's net chips from them, and the words for them. Filled as
# hands are settled (a few thousand entries at most); a value above the bound, which no valid
# hand reaches, is computed every time rather than kept.
_Payments = tuple[tuple[Transfer, ...], tuple[int, ...], str]
_PAYMENTS: dict[tuple[int, int, int, int, bool], _Payments] = {}
_MOST_TABULATED_VALUE = 4 * max(rule.in_couleur for rule in CONTRACT_RULES.values()) + 1 + 9


def _game_payments(n: int, declarer: int, partner: int, value: int, won: bool) -> _Payments:
    """Step 5. A lone game: each opponent and the declarer, in ascending seat order. A partner
    game: the pairs of the Decision, the declarer's first."""
    deltas = [0] * n
    transfers: list[Transfer] = []
    if partner == declarer:
        for opponent in OPPONENTS[n][declarer]:
            source, target = (opponent, declarer) if won else (declarer, opponent)
            transfers.append(Transfer(source, target, value, _GAME))
            deltas[source] -= value
            deltas[target] += value
        return tuple(transfers), tuple(deltas), \
            f"{value} from each opponent" if won else f"{value} to each opponent"
    paid = []
    for seat, opponent in PAIRS[n][declarer][partner]:
        source, target = (opponent, seat) if won else (seat, opponent)
        transfers.append(Transfer(source, target, value, _GAME))
        deltas[source] -= value
        deltas[target] += value
        paid.append(f"seat {source + 1} pays {value} to seat {target + 1}")
    paid.extend(f"seat {seat + 1} is not paired" for seat in UNPAIRED[n][declarer][partner])
    return tuple(transfers), tuple(deltas), ", ".join(paid)


def settle_redeal(n: int, options: AmericanOptions, state: AmericanState,
                   hand: ForfeitHand | MisdealHand) -> Settlement:
    """A forfeit or a misdeal: the same dealer deals again, and no stake is due for it."""
    deltas = [0] * n
    transfers: list[Transfer] = []
    pool = state.pool
    dealer = state.dealer
    stake = options.stake if state.stake_due else 0
    if stake:
        transfers.append(Transfer(dealer, POOL, stake, _STAKE))
        deltas[dealer] -= stake
        pool += stake
        lines = [f"Dealer (seat {dealer + 1}) stakes {stake} into the pool"]
    else:
        lines = [_no_stake(state)]
    if type(hand) is ForfeitHand:
        seat = hand.seat
        lines.append(f"Seat {seat + 1} passed holding Spadilla and Basta when he had to announce")
        pool = _bete(seat, "forfeit", pool, options.stamm, deltas, transfers, lines)
    else:
        lines.append("Misdeal: no chips move beyond the stake")
    lines.append(f"Seat {dealer + 1} deals again, with no new stake")
    couleur = state.couleur
    name = _SUIT_NAME[couleur]
    return make_settlement(
        None, None, None, tuple(transfers), tuple(deltas), state.pool, pool, name, name,
        dealer, tuple(lines), make_state(pool, couleur, dealer, False, state.first_game_won),
    )
