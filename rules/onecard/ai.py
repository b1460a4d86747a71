"""The One Card computer player: a pure function from a seat's view to its move.

It defends an attack whenever it can (cheapest defence first, a joker only when nothing else
answers), keeps its jokers for defence otherwise, prefers a K (another turn) and cards of the
suit it holds most of, and names after a 7 the suit it holds most of.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rules.cards import SUITS, Card, Rank, Suit
from rules.levels import Level
from rules.onecard.events import PlayCard, Take
from rules.onecard.state import OneCardView, attack_value

__all__ = ["choose_action", "favourite_suit"]


def favourite_suit(hand: Sequence[Card], *, without: Card | None = None) -> Suit:
    """The suit ``hand`` holds most of (ties: ♠ ♥ ♦ ♣ order), ignoring ``without``."""
    counts = Counter(c.suit for c in hand if c is not without and not c.is_joker)
    return max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))


def choose_action(
    view: OneCardView, level: Level = Level.NORMAL, rng: random.Random | None = None
) -> PlayCard | Take:
    """The move for ``view.seat``, which must be the seat to act."""
    hand = view.hand or ()
    playable = view.playable
    if not playable:
        return Take()
    if view.offense:
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
