"""Blackjack actions (what a player decides) and events (what happened), all frozen values.

Every hand is public at a Blackjack table (rule 15); the only secret is the House's first
card, which no event names before :class:`HouseTurn` or :class:`HouseBlackjack` reveals it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card
from rules.engine import Action, Event, GameOver

__all__ = [
    "CardDrawn",
    "Dealt",
    "GameOver",
    "HandedToComputer",
    "Hit",
    "HouseBlackjack",
    "HouseBusted",
    "HouseDrew",
    "HouseStood",
    "HouseTurn",
    "Stand",
    "Stood",
    "TurnStarted",
]


@dataclass(frozen=True, slots=True)
class Hit(Action):
    """Take one more card (rule 6)."""


@dataclass(frozen=True, slots=True)
class Stand(Action):
    """Keep the hand as it is; the turn passes on (rule 6)."""


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Two cards to every player and the House's face-up card (rules 2-3).

    ``hands[i]`` is seat ``i``'s two cards; the House's face-down card is not named.
    """

    hands: tuple[tuple[Card, ...], ...]
    up_card: Card


@dataclass(frozen=True, slots=True)
class HouseBlackjack(Event):
    """The House's first two cards make 21: it shows ``hole`` and every player loses (rule 4)."""

    hole: Card


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """It is ``seat``'s turn (rule 6)."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """``seat`` hit and drew ``card``; ``total`` is the hand's total now (rule 5)."""

    seat: int
    card: Card
    total: int

    @property
    def bust(self) -> bool:
        """Whether the card took the hand over 21."""
        return self.total > 21


@dataclass(frozen=True, slots=True)
class Stood(Event):
    """``seat`` stood on ``total``."""

    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class HandedToComputer(Event):
    """A computer player holds ``seat`` from now on (it left, was kicked or timed out)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HouseTurn(Event):
    """The players are done: the House turns over ``hole``, making ``total`` (rule 8)."""

    hole: Card
    total: int


@dataclass(frozen=True, slots=True)
class HouseDrew(Event):
    """The House hit on 16 or less and drew ``card``, making ``total`` (rule 8)."""

    card: Card
    total: int

    @property
    def bust(self) -> bool:
        """Whether the card took the House over 21."""
        return self.total > 21


@dataclass(frozen=True, slots=True)
class HouseStood(Event):
    """The House stands on ``total`` (17 or more, rule 8)."""

    total: int


@dataclass(frozen=True, slots=True)
class HouseBusted(Event):
    """The House went over 21 with ``total``."""

    total: int
