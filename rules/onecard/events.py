"""One Card actions (what a player decides) and events (what happened), all frozen values.

Events are public: they name the cards that were *played* (everyone sees those) but never a
card that was drawn, so every event may be shown to the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card, Suit
from rules.engine import Action, Event, GameOver, TurnAgain

__all__ = [
    "Attack",
    "AttackTaken",
    "Bankrupt",
    "CardPlayed",
    "CardsTaken",
    "DirectionChanged",
    "EmptyDeck",
    "Forfeited",
    "GameOver",
    "Jump",
    "OneCard",
    "PlayAgain",
    "PlayCard",
    "ShortDeck",
    "SuitChosen",
    "Take",
]


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play ``card``; ``suit`` is the suit chosen after a 7 (rule 9) and ``None`` otherwise."""

    card: Card
    suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take one card, or under attack the whole penalty (rules 11, 16)."""


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` put ``card`` on the table; it is now the open card."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SuitChosen(Event):
    """After a 7, ``seat`` chose the suit to match (rule 9)."""

    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class Attack(Event):
    """An attack card raised the offense point from ``before`` by ``added``; ``target`` answers."""

    seat: int
    target: int
    before: int
    added: int

    @property
    def total(self) -> int:
        """The offense point after this attack."""
        return self.before + self.added


@dataclass(frozen=True, slots=True)
class AttackTaken(Event):
    """``seat`` could not (or chose not to) defend and takes ``offense`` cards (rule 16)."""

    seat: int
    offense: int
    received: int


@dataclass(frozen=True, slots=True)
class CardsTaken(Event):
    """``seat`` took ``count`` cards without an attack pending (rule 11)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class ShortDeck(Event):
    """The main deck held fewer cards than ``wanted``; ``seat`` got the ``received`` left."""

    seat: int
    wanted: int
    received: int


@dataclass(frozen=True, slots=True)
class EmptyDeck(Event):
    """Nothing left to take except the open card; ``seat`` got nothing (rule 12)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Jump(Event):
    """A J skipped ``skipped``; ``target`` plays next (rule 18; with 2 players the same seat)."""

    seat: int
    skipped: int
    target: int


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    """A Q reversed the direction (``1`` is ``--->``, ``-1`` is ``<---``); ``target`` is next."""

    seat: int
    direction: int
    target: int


@dataclass(frozen=True, slots=True)
class PlayAgain(TurnAgain):
    """A K: ``seat`` plays again (rule 20)."""

    seat: int


@dataclass(frozen=True, slots=True)
class OneCard(Event):
    """``seat`` has one card left (rule 23)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Bankrupt(Event):
    """``seat`` reached 20 cards: ``returned`` cards went back to the main deck (rule 22)."""

    seat: int
    returned: int


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    """``seat`` left the game; ``returned`` cards went back to the main deck."""

    seat: int
    returned: int
