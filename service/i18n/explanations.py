"""The words of every explanation step: each step code's message (its English is the message
id; ``locales/<lang>/LC_MESSAGES/messages.po`` translate it).

A message names its values by ``%(name)s``. ``i18n.explain`` fills them in: a seat (the names in
``SEAT_ARGS``) is one whole phrase, the player's name where the table knows it, else ``SEAT`` or
``SEAT_OF`` (numbered from 1, as the players count), so a message never says "seat" itself and
reads with a name in its place, for a woman as for a man; ``score`` is signed, ``seats`` is a
list of seats, a nested step is worded first, a list of steps is joined (``terms`` by " + "). A
message with a plural form is a pair (singular, plural) with the value that counts in
``PLURALS``.
"""

from __future__ import annotations

from typing import Final

from .marks import N_, Nn_

SEAT_ARGS: Final = frozenset({"seat", "dealer", "partner", "giver", "payer", "payee"})
JOINERS: Final = {"terms": " + "}
PLURALS: Final = {
    "american.decided_by_tricks": "tricks",
    "solo66.each_pay": "chips",
    "solo66.pays_each": "chips",
    "session.played": "played",
    "session.played_of": "played",
}

SEAT: Final = N_("seat %(seat)s")
# Where a number stands in an answer beside the API's seats (from 0), it says its count.
SEAT_OF: Final = N_("seat %(seat)s of %(players)s")
SEATS_AND: Final = N_("%(seats)s and %(last)s")

MESSAGES: Final[dict[str, str | tuple[str, str]]] = {
    # Shared by the variants.
    "stake": N_("Dealer (%(dealer)s) stakes %(chips)s into the pool"),
    "stake.zero": N_("Dealer (%(dealer)s) stakes nothing: the stake is 0"),
    "stake.already": N_("Dealer (%(dealer)s) has already staked for this deal"),
    "deals_next": N_("%(seat)s deals next"),
    "result.won": N_("won"),
    "result.lost": N_("lost"),
    "suit.clubs": N_("clubs"),
    "suit.spades": N_("spades"),
    "suit.hearts": N_("hearts"),
    "suit.diamonds": N_("diamonds"),
    "card.ace": N_("ace of %(suit)s"),
    "card.king": N_("king of %(suit)s"),
    "where.in_suit": N_("in %(suit)s"),
    "where.in_couleur": N_("in couleur (%(suit)s)"),
    # American Solo.
    "american.side.declarers": N_("declarers"),
    "american.side.defenders": N_("defenders"),
    "american.a_contract.simple": N_("a simple game"),
    "american.a_contract.forcee_simple": N_("a forcée simple"),
    "american.a_contract.forcee_partout": N_("a forcée partout"),
    "american.a_contract.solo": N_("a solo"),
    "american.a_contract.tout": N_("a tout"),
    "american.contract.simple": N_("Simple game"),
    "american.contract.forcee_simple": N_("Forcée simple"),
    "american.contract.forcee_partout": N_("Forcée partout"),
    "american.contract.solo": N_("Solo"),
    "american.contract.tout": N_("Tout"),
    "american.lost.simple": N_("lost simple game"),
    "american.lost.forcee_simple": N_("lost forcée simple"),
    "american.lost.forcee_partout": N_("lost forcée partout"),
    "american.lost.solo": N_("lost solo"),
    "american.lost.tout": N_("lost tout"),
    "american.error_verb.revoke": N_("revokes"),
    "american.error_verb.lead_out_of_turn": N_("leads out of turn"),
    "american.error_verb.play_out_of_turn": N_("plays out of turn"),
    "american.error_verb.exposed_card": N_("exposes a card"),
    "american.error_verb.unannounced_void": N_("did not announce his void in the called suit"),
    "american.error_noun.revoke": N_("revoke"),
    "american.error_noun.lead_out_of_turn": N_("lead out of turn"),
    "american.error_noun.play_out_of_turn": N_("play out of turn"),
    "american.error_noun.exposed_card": N_("exposed card"),
    "american.error_noun.unannounced_void": N_("unannounced void"),
    "american.forfeit": N_("forfeit"),
    "american.losers.defenders": N_("defenders lose"),
    "american.losers.declarer": N_("declarer loses"),
    "american.losers.declarers": N_("declarers lose"),
    "american.plays": N_("%(seat)s plays %(contract)s %(where)s: worth %(value)s"),
    "american.plays_with": N_(
        "%(seat)s plays %(contract)s %(where)s with %(partner)s, "
        "who holds the called %(card)s: worth %(value)s"
    ),
    "american.simple_holds_called": N_(
        "%(seat)s plays a simple game %(where)s and holds "
        "the called %(card)s: it ranks as a solo, worth %(value)s"
    ),
    "american.forcee_simple_holds_called": N_(
        "%(seat)s must play a forcée simple %(where)s and holds "
        "the called %(card)s: it ranks as a solo, worth %(value)s"
    ),
    "american.plays_holds_called": N_(
        "%(seat)s plays %(contract)s %(where)s and holds the called %(card)s: worth %(value)s"
    ),
    "american.forcee_simple_alone": N_(
        "A forcée simple played alone is no solo: no stamm, no bête"
    ),
    "american.tout_in_couleur": N_(
        "Incidental tout in couleur: %(base)s four times is %(value)s; all 8 tricks are needed"
    ),
    "american.tout": N_("Incidental tout: %(base)s doubles to %(value)s; all 8 tricks are needed"),
    "american.matadores": N_(
        "Matadores held by the %(side)s: 1 + %(lower)s lower = %(count)s, so a payment is %(value)s"
    ),
    "american.matadores_not_counted": N_(
        "Matadores held by the defenders do not count: only the declaring side's do at this table"
    ),
    "american.error_soloist": N_("%(seat)s %(error)s: no penalty for the soloist"),
    "american.error_after_decided": N_("%(seat)s %(error)s: the game was already decided"),
    "american.error_after_decided_bete": N_(
        "%(seat)s %(error)s: the game was already decided, but a bête is still due"
    ),
    "american.decided_by_error": N_("on %(seat)s's %(error)s"),
    "american.error_decides": N_("%(seat)s %(error)s: the %(losers)s the game"),
    "american.error_decides_bete": N_(
        "%(seat)s %(error)s: the %(losers)s the game, and that player pays a bête"
    ),
    "american.decided_by_tricks": Nn_("with %(tricks)s trick", "with %(tricks)s tricks"),
    "american.result": N_("%(contract)s %(where)s %(result)s %(decider)s: %(payments)s"),
    "american.stamm": N_("%(seat)s draws a stamm of %(chips)s from the pool"),
    "american.stamm_pool_empty": N_("%(seat)s would draw a stamm, but the pool is empty"),
    "american.no_bete_in_suit": N_(
        "No bête for a lost solo in suit: at this table only a lost solo in couleur pays one"
    ),
    "american.couleur_now": N_(
        "Couleur is now %(suit)s: the first game won at the table was played in it"
    ),
    "american.bete": N_("%(seat)s pays a bête of %(chips)s (%(why)s)"),
    "american.bete_pool_empty": N_("%(seat)s owes a bête (%(why)s), but the pool is empty"),
    "american.paid_by_each": N_("%(value)s from each opponent"),
    "american.paid_to_each": N_("%(value)s to each opponent"),
    "american.pair_pays": N_("%(payer)s pays %(value)s to %(payee)s"),
    "american.not_paired": N_("%(seat)s is not paired"),
    "american.forfeit_passed": N_(
        "%(seat)s passed holding Spadilla and Basta when an announcement was due"
    ),
    "american.misdeal": N_("Misdeal: no chips move beyond the stake"),
    "american.deals_again": N_("%(seat)s deals again, with no new stake"),
    # German Solo.
    "german.revoke_opponents": N_("%(seat)s revoked, so the opponents lose the game: %(result)s"),
    "german.revoke_party": N_("%(seat)s revoked, so the declaring party lose the game: %(result)s"),
    "german.tricks": N_(
        "The declaring party took %(tricks)s tricks with %(target)s needed: %(result)s"
    ),
    "german.scores_each": N_("%(seats)s score %(score)s each; the others score 0"),
    "german.scores": N_("%(seats)s scores %(score)s; the others score 0"),
    "german.term": N_("%(term)s %(value)s"),
    "german.term.base": N_("base"),
    "german.term.prime": N_("prime"),
    "german.term.tout_after_five": N_("tout after five"),
    "german.term.tout_after_four": N_("tout after four"),
    "german.term.tout_announced": N_("tout announced"),
    "german.term.matadors_together": N_("matadors together"),
    "german.value": N_("Value: %(terms)s"),
    "german.value_sum": N_("Value: %(terms)s = %(sum)s"),
    "german.value_doubled": N_(
        "Value: %(terms)s, doubled for the preferred suit %(suit)s = %(value)s"
    ),
    "german.value_sum_doubled": N_(
        "Value: %(terms)s = %(sum)s, doubled for the preferred suit %(suit)s = %(value)s"
    ),
    "german.preferred_now": N_(
        "The first contract won: %(suit)s is the preferred suit from the next hand on"
    ),
    "german.contract.frage": N_("Frage"),
    "german.contract.grossfrage": N_("Grossfrage"),
    "german.contract.mediateur": N_("Mediateur"),
    "german.contract.solo": N_("Solo"),
    "german.contract.force": N_("Force (Mussfrage)"),
    "german.needs": N_("%(target)s tricks"),
    "german.needs.tout_after_five": N_("all %(target)s tricks (went on after five)"),
    "german.needs.tout_after_four": N_("all %(target)s tricks (went on after four)"),
    "german.needs.tout_announced": N_("all %(target)s tricks (tout announced)"),
    "german.needs.prime_after_five": N_("%(target)s tricks (stopped after five for prime)"),
    "german.needs.prime_after_four": N_("%(target)s tricks (stopped after four for prime)"),
    "german.mediateur": N_(
        "%(contract)s in %(suit)s: %(seat)s plays alone after demanding an ace; target %(needs)s"
    ),
    "german.mediateur_ace": N_(
        "%(contract)s in %(suit)s: %(seat)s plays alone after "
        "demanding an ace with the %(ace)s; target %(needs)s"
    ),
    "german.mediateur_from": N_(
        "%(contract)s in %(suit)s: %(seat)s plays alone after "
        "demanding an ace from %(giver)s; target %(needs)s"
    ),
    "german.mediateur_ace_from": N_(
        "%(contract)s in %(suit)s: %(seat)s plays alone after "
        "demanding an ace with the %(ace)s from %(giver)s; "
        "target %(needs)s"
    ),
    "german.alone": N_("%(contract)s in %(suit)s: %(seat)s plays alone; target %(needs)s"),
    "german.with_partner": N_(
        "%(contract)s in %(suit)s: %(seat)s declares with "
        "%(partner)s, holder of the %(card)s; target %(needs)s"
    ),
    # Spanish Solo.
    "spanish.revoke_opponents": N_("%(seat)s revoked, so the opponents lose the game: %(result)s"),
    "spanish.revoke_party": N_("%(seat)s revoked, so the declaring side lose the game: %(result)s"),
    "spanish.tricks": N_(
        "The declaring side took %(tricks)s tricks with %(target)s needed: %(result)s"
    ),
    "spanish.scores_each": N_("%(seats)s score %(score)s each; the opponents score 0"),
    "spanish.scores": N_("%(seats)s scores %(score)s; the opponents score 0"),
    "spanish.in_colour": N_("in colour"),
    "spanish.in_suit": N_("in suit"),
    "spanish.needs_all": N_("target all %(target)s tricks"),
    "spanish.needs": N_("target %(target)s tricks"),
    "spanish.contract.forced": N_("Forced simple game (all passed)"),
    "spanish.contract.simple": N_("Simple game"),
    "spanish.contract.solo": N_("Solo"),
    "spanish.contract.tout": N_("Tout"),
    "spanish.own_ace": N_(
        "%(contract)s in %(suit)s, %(where)s: %(value)s points, %(needs)s; "
        "%(seat)s called the %(ace)s from their own hand and plays alone"
    ),
    "spanish.with_partner": N_(
        "%(contract)s in %(suit)s, %(where)s: %(value)s points, "
        "%(needs)s; %(seat)s declares with %(partner)s, holder "
        "of the %(ace)s"
    ),
    "spanish.alone": N_(
        "%(contract)s in %(suit)s, %(where)s: %(value)s points, %(needs)s; %(seat)s alone"
    ),
    # Spanish Solo's session (targets): its progress, as parts of one line joined by "; ".
    "session.hands_of": N_("%(played)s of %(target)s hands played"),
    "session.exceeded": N_("%(seats)s went past the target score of %(target)s"),
    "session.played": Nn_("%(played)s hand played", "%(played)s hands played"),
    "session.played_of": Nn_(
        "%(played)s hand played of %(target)s", "%(played)s hands played of %(target)s"
    ),
    "session.score_not_exceeded": N_("no total above the target score of %(target)s yet"),
    "session.won_by": N_("%(seats)s won with the highest total, %(total)s"),
    # Solo 66.
    "solo66.all_passed": N_(
        "All passed: played without trump; %(seat)s took the last trick and wins"
    ),
    "solo66.each_pay": Nn_(
        "%(seats)s each pay %(chips)s chip to %(seat)s",
        "%(seats)s each pay %(chips)s chips to %(seat)s",
    ),
    "solo66.plays": N_(
        "%(seat)s plays alone with %(suit)s as trump: %(soloist_points)s "
        "card points against the defenders' %(defender_points)s"
    ),
    "solo66.won": N_("The soloist has %(win)s or more: won"),
    "solo66.lost": N_("The soloist has less than %(win)s and the defenders %(win)s or more: lost"),
    "solo66.drawn": N_("Neither side reached %(win)s: drawn, no chips move"),
    "solo66.pays_each": Nn_(
        "%(seat)s pays %(chips)s chip to each of %(seats)s",
        "%(seat)s pays %(chips)s chips to each of %(seats)s",
    ),
}
