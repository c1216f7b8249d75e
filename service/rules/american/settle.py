"""American Solo (variant ``american``): settling a hand, step by step, as the rulebook says.

``shared/rules/american-solo.md`` is the contract; the step numbers in the comments below are
its "Settling a played hand" steps. ``settle_played`` and ``settle_redeal`` are what the
variant object (``variant.AMERICAN``) calls. The module is pure: it imports only the standard
library and its siblings.

Settling is on the hot path of every recorded hand, correction and replay, so it is written
as straight-line code over the tables precomputed in ``model``.
"""

from __future__ import annotations

from ..base import POOL, Reason, Settlement, Step, Suit, Transfer
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

# The words of the explanation, as steps (``service.i18n`` says them in the reader's language).
_SUIT_NAME: dict[Suit, str] = {s: s.value for s in Suit}
_SUIT: dict[Suit, Step] = {s: Step(f"suit.{s.value}") for s in Suit}
_SIDE: dict[Side, Step] = {s: Step(f"american.side.{s.value}") for s in Side}
_CARD: dict[CalledCard, Step] = {
    CalledCard(r, s): Step(f"card.{r.value}", {"suit": _SUIT[s]}) for r in Rank for s in Suit
}
_A_CONTRACT: dict[Contract, Step] = {c: Step(f"american.a_contract.{c.value}") for c in Contract}
_TITLE: dict[Contract, Step] = {c: Step(f"american.contract.{c.value}") for c in Contract}
_LOST_WHAT: dict[Contract, Step] = {c: Step(f"american.lost.{c.value}") for c in Contract}
_ERROR_VERB: dict[ErrorKind, Step] = {k: Step(f"american.error_verb.{k.value}") for k in ErrorKind}
_ERROR_NOUN: dict[ErrorKind, Step] = {k: Step(f"american.error_noun.{k.value}") for k in ErrorKind}
_FORFEIT = Step("american.forfeit")
_IN_SUIT: dict[Suit, Step] = {s: Step("where.in_suit", {"suit": _SUIT[s]}) for s in Suit}
_IN_COULEUR: dict[Suit, Step] = {s: Step("where.in_couleur", {"suit": _SUIT[s]}) for s in Suit}
_WON_LOST = {True: Step("result.won"), False: Step("result.lost")}
_LOSERS = {
    "defenders": Step("american.losers.defenders"),
    "declarer": Step("american.losers.declarer"),
    "declarers": Step("american.losers.declarers"),
}


def _no_stake(state: AmericanState) -> Step:
    """Step 1 when no chips move: why not."""
    if state.stake_due:
        return Step("stake.zero", {"dealer": state.dealer})
    return Step("stake.already", {"dealer": state.dealer})


def settle_played(
    n: int, options: AmericanOptions, state: AmericanState, hand: PlayedHand
) -> Settlement:
    pool = state.pool
    dealer = state.dealer
    # 1. Stake. Its transfer heads the list; it is put there once the game payments are known.
    stake = options.stake if state.stake_due else 0
    if stake:
        pool += stake
        lines = [Step("stake", {"dealer": dealer, "chips": stake})]
    else:
        lines = [_no_stake(state)]

    # 2. Value. A simple game whose called card is the caller's own ranks as a solo, and so
    # does a forcée simple whose called Ace is the forced caller's own (the rulebook's
    # Decision); a forcée simple played without a partner (3 players) stays what it is.
    contract = hand.contract
    declarer = hand.declarer
    partner = hand.partner
    trump = hand.trump
    called = hand.called
    lone = partner is None or partner == declarer
    holds_called = called is not None and partner == declarer
    ranks_as_solo = (lone and contract is _SIMPLE) or (holds_called and contract is _FORCEE_SIMPLE)
    game = _SOLO if ranks_as_solo else contract
    rule = CONTRACT_RULES[game]
    in_couleur = trump == state.couleur
    where = _IN_COULEUR[trump] if in_couleur else _IN_SUIT[trump]
    value = base = rule.in_couleur if in_couleur else rule.in_suit
    if called is None:
        lines.append(
            Step(
                "american.plays",
                {"seat": declarer, "contract": _A_CONTRACT[game], "where": where, "value": base},
            )
        )
    elif partner is not None and not lone:
        lines.append(
            Step(
                "american.plays_with",
                {
                    "seat": declarer,
                    "contract": _A_CONTRACT[game],
                    "where": where,
                    "partner": partner,
                    "card": _CARD[called],
                    "value": base,
                },
            )
        )
    elif contract is _FORCEE_SIMPLE:
        lines.append(
            Step(
                "american.forcee_simple_holds_called",
                {"seat": declarer, "where": where, "card": _CARD[called], "value": base},
            )
        )
    elif contract is _SIMPLE:
        lines.append(
            Step(
                "american.simple_holds_called",
                {"seat": declarer, "where": where, "card": _CARD[called], "value": base},
            )
        )
    else:
        lines.append(
            Step(
                "american.plays_holds_called",
                {
                    "seat": declarer,
                    "contract": _A_CONTRACT[game],
                    "where": where,
                    "card": _CARD[called],
                    "value": base,
                },
            )
        )
    if lone and game is _FORCEE_SIMPLE:
        lines.append(Step("american.forcee_simple_alone"))
    target = rule.target
    if hand.tout_after_five:
        target = TRICKS
        if in_couleur and options.incidental_tout is _LITERAL:
            value = 4 * base
            lines.append(Step("american.tout_in_couleur", {"base": base, "value": value}))
        else:
            value = 2 * base
            lines.append(Step("american.tout", {"base": base, "value": value}))
    matadores = hand.matadores
    if matadores is not None:
        side = matadores.side
        if side is _DECLARERS or options.matadores is _EITHER_SIDE:
            lower = matadores.lower
            lines.append(
                Step(
                    "american.matadores",
                    {
                        "side": _SIDE[side],
                        "lower": lower,
                        "count": 1 + lower,
                        "value": value + 1 + lower,
                    },
                )
            )
            value += 1 + lower
        else:
            lines.append(Step("american.matadores_not_counted"))

    # 3.-4. Sides and result: the first error that decides the game decides it.
    won: bool | None = None
    decider = _WON_LOST[True]  # replaced below: by the deciding error, or by the tricks
    betes: list[tuple[int, ErrorKind]] = []
    for kind, seat in hand.errors:
        declaring = seat == declarer or (not lone and seat == partner)
        verb = _ERROR_VERB[kind]
        if kind is _REVOKE or kind is _VOID:
            pays = False
        elif lone:
            if declaring:  # R10: the soloist's own slip costs him nothing
                lines.append(Step("american.error_soloist", {"seat": seat, "error": verb}))
                continue
            pays = False
        else:  # R11: the offender pays a bête even when the game was already decided
            pays = True
            betes.append((seat, kind))
        if won is not None:
            code = "american.error_after_decided_bete" if pays else "american.error_after_decided"
            lines.append(Step(code, {"seat": seat, "error": verb}))
            continue
        won = not declaring
        decider = Step("american.decided_by_error", {"seat": seat, "error": _ERROR_NOUN[kind]})
        losers = _LOSERS["defenders" if won else "declarer" if lone else "declarers"]
        code = "american.error_decides_bete" if pays else "american.error_decides"
        lines.append(Step(code, {"seat": seat, "error": verb, "losers": losers}))
    if won is None:
        tricks = hand.tricks
        won = tricks >= target
        decider = Step("american.decided_by_tricks", {"tricks": tricks})

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
    lines.append(
        Step(
            "american.result",
            {
                "contract": _TITLE[game],
                "where": where,
                "result": _WON_LOST[won],
                "decider": decider,
                "payments": paid,
            },
        )
    )

    # 6. Stamm: every lone game but a forcée simple is a solo for the pool.
    stamm = options.stamm
    solo = lone and game is not _FORCEE_SIMPLE
    if solo and won and in_couleur:
        chips = pool if pool < stamm else stamm
        if chips:
            transfers.append(_new_transfer(Transfer, (POOL, declarer, chips, _STAMM)))
            deltas[declarer] += chips
            pool -= chips
            lines.append(Step("american.stamm", {"seat": declarer, "chips": chips}))
        else:
            lines.append(Step("american.stamm_pool_empty", {"seat": declarer}))

    # 7. Bêtes, each reckoned at the moment it is paid: errors first, then a lost solo.
    for seat, kind in betes:
        pool = _bete(seat, _ERROR_NOUN[kind], pool, stamm, deltas, transfers, lines)
    if solo and not won:
        if in_couleur or options.bete_on_lost_solo is _BETE_ANY:
            pool = _bete(declarer, _LOST_WHAT[game], pool, stamm, deltas, transfers, lines)
        else:
            lines.append(Step("american.no_bete_in_suit"))

    # 8. Couleur.
    couleur = couleur_before = state.couleur
    first_game_won = state.first_game_won
    if won and not first_game_won:
        first_game_won = True
        if options.couleur_policy is _FIRST_WON and trump != couleur:
            couleur = trump
            lines.append(Step("american.couleur_now", {"suit": _SUIT[trump]}))

    # 9. Next deal.
    dealer += 1
    if dealer == n:
        dealer = 0
    lines.append(Step("deals_next", {"seat": dealer}))
    return make_settlement(
        "won" if won else "lost",
        in_couleur,
        value,
        tuple(transfers),
        tuple(deltas),
        state.pool,
        pool,
        _SUIT_NAME[couleur_before],
        _SUIT_NAME[couleur],
        dealer,
        tuple(lines),
        make_state(pool, couleur, dealer, True, first_game_won),
    )


def _bete(
    seat: int,
    why: Step,
    pool: int,
    stamm: int,
    deltas: list[int],
    transfers: list[Transfer],
    lines: list[Step],
) -> int:
    """One bête of ``min(pool, stamm)`` into the pool; returns the pool after it."""
    chips = pool if pool < stamm else stamm
    if chips:
        transfers.append(_new_transfer(Transfer, (seat, POOL, chips, _BETE)))
        deltas[seat] -= chips
        lines.append(Step("american.bete", {"seat": seat, "chips": chips, "why": why}))
    else:
        lines.append(Step("american.bete_pool_empty", {"seat": seat, "why": why}))
    return pool + chips


# _PAYMENTS[players, declarer, partner (the declarer in a lone game), value, won] -> the game
# payments: transfers, each seat's net chips from them, and the words for them. Filled as
# hands are settled (a few thousand entries at most); a value above the bound, which no valid
# hand reaches, is computed every time rather than kept.
_Payments = tuple[tuple[Transfer, ...], tuple[int, ...], Step]
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
        return (
            tuple(transfers),
            tuple(deltas),
            Step("american.paid_by_each" if won else "american.paid_to_each", {"value": value}),
        )
    paid = []
    for seat, opponent in PAIRS[n][declarer][partner]:
        source, target = (opponent, seat) if won else (seat, opponent)
        transfers.append(Transfer(source, target, value, _GAME))
        deltas[source] -= value
        deltas[target] += value
        paid.append(Step("american.pair_pays", {"payer": source, "value": value, "payee": target}))
    paid.extend(
        Step("american.not_paired", {"seat": seat}) for seat in UNPAIRED[n][declarer][partner]
    )
    return tuple(transfers), tuple(deltas), Step("list", {"items": tuple(paid)})


def settle_redeal(
    n: int, options: AmericanOptions, state: AmericanState, hand: ForfeitHand | MisdealHand
) -> Settlement:
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
        lines = [Step("stake", {"dealer": dealer, "chips": stake})]
    else:
        lines = [_no_stake(state)]
    if type(hand) is ForfeitHand:
        seat = hand.seat
        lines.append(Step("american.forfeit_passed", {"seat": seat}))
        pool = _bete(seat, _FORFEIT, pool, options.stamm, deltas, transfers, lines)
    else:
        lines.append(Step("american.misdeal"))
    lines.append(Step("american.deals_again", {"seat": dealer}))
    couleur = state.couleur
    name = _SUIT_NAME[couleur]
    return make_settlement(
        None,
        None,
        None,
        tuple(transfers),
        tuple(deltas),
        state.pool,
        pool,
        name,
        name,
        dealer,
        tuple(lines),
        make_state(pool, couleur, dealer, False, state.first_game_won),
    )
