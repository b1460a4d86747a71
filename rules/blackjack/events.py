"""Blackjack actions (what a player decides) and events (what happened), all frozen values.

Every hand is public at a Blackjack table (rule 15); the only secret is the House's first
card, which no event names before :class:`HouseTurn` or :class:`HouseBlackjack` reveals it.

:class:`Double` and :class:`Split` are moves of a casino table only (the ``ruleset`` option,
see :mod:`rules.blackjack.state`). An event about a hand of a seat that split names the hand
(``hand`` 0 or 1); ``hand`` is ``None`` for a seat's only hand, as at every seed table.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card
from rules.engine import Action, Event, GameOver

__all__ = [
    "CardDrawn",
    "Dealt",
    "Double",
    "Doubled",
    "GameOver",
    "HandedToComputer",
    "Hit",
    "HouseBlackjack",
    "HouseBusted",
    "HouseDrew",
    "HouseStood",
    "HouseTurn",
    "PairSplit",
    "PlayerBlackjack",
    "Split",
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
class Double(Action):
    """Casino: double the bet on a hand's first two cards, take one card, and stop."""


@dataclass(frozen=True, slots=True)
class Split(Action):
    """Casino: split two cards of one rank into two hands, each given a second card."""


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
class _CardTaken(Event):
    """``seat`` took ``card`` into a hand (``hand``: which of a split seat's), whose total
    is ``total`` now."""

    seat: int
    card: Card
    total: int
    hand: int | None = None

    @property
    def bust(self) -> bool:
        """Whether the card took the hand over 21."""
        return self.total > 21


@dataclass(frozen=True, slots=True)
class CardDrawn(_CardTaken):
    """``seat`` hit and drew ``card``; ``total`` is the hand's total now (rule 5)."""


@dataclass(frozen=True, slots=True)
class Stood(Event):
    """``seat`` stood on ``total``."""

    seat: int
    total: int
    hand: int | None = None


@dataclass(frozen=True, slots=True)
class Doubled(_CardTaken):
    """Casino: ``seat`` doubled its bet and drew ``card``, making ``total``; the hand is done."""


@dataclass(frozen=True, slots=True)
class PairSplit(Event):
    """Casino: ``seat`` split its pair into ``first`` and ``second``, each with a second card.

    ``aces``: split Aces take that one card each and stand, so the seat's turn is over.
    """

    seat: int
    first: tuple[Card, ...]
    second: tuple[Card, ...]
    totals: tuple[int, int]
    aces: bool


@dataclass(frozen=True, slots=True)
class PlayerBlackjack(Event):
    """Casino: ``seat``'s first two cards make 21, a Blackjack paid 3 to 2; it has no turn."""

    seat: int


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
