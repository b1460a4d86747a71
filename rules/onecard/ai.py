"""The One Card computer player: a pure function from a seat's view to its move.

It defends an attack whenever it can (cheapest defence first, a joker only when nothing else
answers), keeps its jokers for defence otherwise, prefers a K (another turn) and cards of the
suit it holds most of, and names after a 7 the suit it holds most of.

That is the ``normal`` level. ``easy`` is a casual player's slips over it (see
:func:`_easy`), ``hard`` a determinized Monte Carlo search with ``normal`` as the rollout
policy (see :func:`_hard` and :mod:`rules.montecarlo`). Every level decides from the view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import partial

from rules.cards import SUITS, Card, Rank, Suit
from rules.levels import Level, decide
from rules.montecarlo import best_action
from rules.onecard.events import PlayCard, Take
from rules.onecard.search import sample_world
from rules.onecard.state import OneCardView, State, attack_value

__all__ = ["choose_action", "favourite_suit", "legal_moves"]


def favourite_suit(hand: Sequence[Card], *, without: Card | None = None) -> Suit:
    """The suit ``hand`` holds most of (ties: ♠ ♥ ♦ ♣ order), ignoring ``without``."""
    counts = Counter(c.suit for c in hand if c is not without and not c.is_joker)
    return max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))


def choose_action(
    view: OneCardView, level: Level = Level.NORMAL, rng: random.Random | None = None
) -> PlayCard | Take:
    """The move for ``view.seat`` at ``level``; that seat must be the seat to act.

    ``rng`` drives the easy player's slips and the hard player's sampling; without one a
    fixed seed is used, so a decision is the same for the same view.
    """
    return decide(
        level, view, rng, easy=_easy, normal=_normal, hard=_hard, default_seed=DEFAULT_SEED
    )


def _normal(view: OneCardView) -> PlayCard | Take:
    """Today's rule-of-thumb player (the module docstring)."""
    return _decide(view.hand or (), view.playable, view.offense)


def _decide(hand: Sequence[Card], playable: Sequence[Card], offense: int) -> PlayCard | Take:
    """The normal player's move from what it decides on: its hand (in the order the cards
    came), the cards of it that play (in the same order) and the pending offense point."""
    if not playable:
        return Take()
    if offense:
        # Defend with the smallest card that answers; jokers are the last resort.
        card = min(playable, key=lambda c: (c.is_joker, attack_value(c)))
        return _play(card, hand)
    plain = [c for c in playable if not c.is_joker]
    if not plain:
        # Only jokers fit: keep them for defence unless they are all that is left.
        if all(c.is_joker for c in hand):
            return _play(playable[0], hand)
        return Take()
    counts = Counter(c.suit for c in hand)
    card = max(
        plain,
        key=lambda c: (c.rank is Rank.KING, attack_value(c) > 0, counts[c.suit], -c.index),
    )
    return _play(card, hand)


def _play(card: Card, hand: Sequence[Card]) -> PlayCard:
    if card.rank is Rank.SEVEN:
        return PlayCard(card, favourite_suit(hand, without=card))
    return PlayCard(card)


# -- easy: the slips of a casual player ------------------------------------------------------

EASY_TAKES_ANYWAY = 0.08  # takes a card although one would play (never under attack)
EASY_FIRST_FIT = 0.45  # plays the first card that fits, jokers and attacks included


def _easy(view: OneCardView, rng: random.Random) -> PlayCard | Take:
    """A casual player: often plays the first card that fits (spending jokers and attack
    cards early, defending with whatever comes first), names after a 7 the suit of the first
    other card in hand, and now and then takes a card although it could play."""
    playable = view.playable
    if playable and not view.offense and rng.random() < EASY_TAKES_ANYWAY:
        return Take()
    if playable and rng.random() < EASY_FIRST_FIT:
        card = playable[0]  # in hand order
        if card.rank is Rank.SEVEN:
            hand = view.hand or ()
            suit = next((c.suit for c in hand if c is not card and not c.is_joker), card.suit)
            return PlayCard(card, suit)
        return PlayCard(card)
    return _normal(view)


# -- hard: determinized Monte Carlo ------------------------------------------------------------

HARD_ROLLOUTS = 240  # play-outs per decision, shared among the candidate actions
HARD_MIN_WORLDS = 12  # worlds sampled however many candidates there are
HARD_MARGIN = 0.02  # the win share another action must add to overrule the normal player
DEFAULT_SEED = 18  # the generator's seed when none is given (issue 18)


def legal_moves(view: OneCardView) -> list[PlayCard | Take]:
    """Every move the view allows, as the engine lists them: a 7 once per suit, then Take."""
    moves: list[PlayCard | Take] = []
    for card in view.playable:
        if card.rank is Rank.SEVEN:
            moves += [PlayCard(card, suit) for suit in SUITS]
        else:
            moves.append(PlayCard(card))
    moves.append(Take())
    return moves


def _rollout(state: State, seat: int) -> PlayCard | Take:
    """The normal player inside the search, read off the sampled world directly: the same
    move as from the view, without building one (most of a move's cost)."""
    playable = dict.fromkeys(a.card for a in state.legal_actions(seat) if type(a) is PlayCard)
    return _decide(state.hand(seat), tuple(playable), state.offense)


def _hard(view: OneCardView, rng: random.Random) -> PlayCard | Take:
    """Tries each legal move in sampled worlds consistent with ``view`` (see
    :mod:`rules.onecard.search`), played out by the normal player (:func:`_rollout`), and
    keeps the best."""
    seat = view.seat
    if seat is None or not view.playable:
        return Take()
    hand = view.hand or ()
    candidates = [
        move
        for move in legal_moves(view)
        # Naming a suit it holds none of (but the 7 itself) is not worth a sample.
        if not isinstance(move, PlayCard)
        or move.suit is None
        or any(c.suit is move.suit and c is not move.card for c in hand)
        or move.suit is favourite_suit(hand, without=move.card)
    ]
    worlds = max(HARD_MIN_WORLDS, HARD_ROLLOUTS // len(candidates))
    return best_action(
        candidates,
        worlds,
        partial(sample_world, view),
        seat,
        _rollout,
        rng=rng,
        prefer=_normal(view),
        margin=HARD_MARGIN * worlds,
    )
