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
from collections.abc import Sequence
from functools import partial
from typing import Final

from rules.cards import SUITS, Card, Rank, Suit
from rules.levels import Level, decide
from rules.montecarlo import best_action
from rules.onecard.events import PlayCard, Take
from rules.onecard.search import sample_world
from rules.onecard.state import (
    _ATTACK,
    _PLAY,
    _PLAY7,
    _RANK,
    _SEVENS,
    _SUIT,
    _TAKE,
    JKB,
    OneCardView,
    State,
)

__all__ = ["choose_action", "favourite_suit", "legal_moves"]


def favourite_suit(hand: Sequence[Card], *, without: Card | None = None) -> Suit:
    """The suit ``hand`` holds most of (ties: ♠ ♥ ♦ ♣ order), ignoring ``without``."""
    return SUITS[_favourite(_suits_held([c.index for c in hand if c is not without]))]


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
    mask = 0
    for card in view.playable:
        mask |= 1 << card.index
    return _decide([c.index for c in view.hand or ()], mask, view.offense)


# The normal player's preferences per card index, packed into ints so that a move in a
# play-out builds no tuples (``_decide`` runs at every move of every play-out). Defending:
# the least, jokers last, then the smallest attack. Otherwise the most: a K (another turn),
# then an attack card, then (added per hand, times 64) the suit held most, then the lowest
# index. A hand never holds 64 cards, so the terms never overlap.
_DEFENCE_KEY: Final = tuple(100 * (i >= JKB) + _ATTACK[i] for i in range(54))
_PLAIN_KEY: Final = tuple(
    ((_RANK[i] == 13) * 2 + (_ATTACK[i] > 0)) * 4096 + 63 - i for i in range(54)
)


def _decide(hand: Sequence[int], mask: int, offense: int) -> PlayCard | Take:
    """The normal player's move from what it decides on, as card indices: its hand (in the
    order the cards came), a mask with the bit of each card of it that plays (others may be
    set too) and the pending offense point. The view's player and the search's play-outs
    both decide here, so they are the same player."""
    best = -1
    if offense:
        # Defend with the smallest card that answers; jokers are the last resort.
        least = 1_000
        for i in hand:
            if (mask >> i) & 1 and _DEFENCE_KEY[i] < least:
                best, least = i, _DEFENCE_KEY[i]
        return _TAKE if best < 0 else _play(best, hand)
    held = _suits_held(hand)
    most = -1
    joker = -1
    for i in hand:
        if (mask >> i) & 1:
            if i >= JKB:
                if joker < 0:
                    joker = i
            elif _PLAIN_KEY[i] + held[_SUIT[i]] * 64 > most:
                best, most = i, _PLAIN_KEY[i] + held[_SUIT[i]] * 64
    if best >= 0:
        return _play(best, hand, held)
    # Only jokers fit: keep them for defence unless they are all that is left.
    if joker >= 0 and held[4] + held[5] == len(hand):
        return _PLAY[joker]
    return _TAKE


def _suits_held(hand: Sequence[int]) -> list[int]:
    """How many cards ``hand`` holds of each suit position (♠ ♥ ♦ ♣, JK B, JK C)."""
    held = [0, 0, 0, 0, 0, 0]
    for i in hand:
        held[_SUIT[i]] += 1
    return held


def _favourite(held: Sequence[int]) -> int:
    """The suit position (of ♠ ♥ ♦ ♣) held most, the first on a tie."""
    favourite = 0
    for suit in (1, 2, 3):
        if held[suit] > held[favourite]:
            favourite = suit
    return favourite


def _play(index: int, hand: Sequence[int], held: list[int] | None = None) -> PlayCard:
    """Play card ``index`` of ``hand`` (whose :func:`_suits_held` is ``held``, when known):
    after a 7, name the suit the other cards hold most."""
    if index not in _SEVENS:
        return _PLAY[index]
    held = _suits_held(hand) if held is None else held[:]
    held[_SUIT[index]] -= 1
    return _PLAY7[index // 13][_favourite(held)]


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

HARD_ROLLOUTS = 360  # play-outs per decision, shared among the candidate actions
HARD_MIN_WORLDS = 12  # worlds sampled however many candidates there are
HARD_MARGIN = 0.02  # the win share another action must add to overrule the normal player
DEFAULT_SEED = 18  # the generator's seed when none is given: one view, one decision


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
    """The normal player inside the search, read off the sampled world's ints directly: the
    same move as from the view, without building one (most of a move's cost)."""
    hand, mask = state.playable_hand(seat)
    return _decide(hand, mask, state.offense)


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
