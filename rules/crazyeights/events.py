"""Crazy Eights actions (what a player decides) and events (what happened), all frozen values.

Events are public: they name the cards played, never a card drawn (rule 7), so every event may
be shown to the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card, Suit
from rules.engine import Action, Event

__all__ = [
    "CardDrawn",
    "CardPlayed",
    "Draw",
    "Forfeited",
    "Pass",
    "Passed",
    "PlayCard",
    "Reshuffled",
    "SuitChosen",
]


# ----------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play ``card``; ``suit`` is the suit named with an 8 (rule 10), ``None`` otherwise."""

    card: Card
    suit: Suit | None = None


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw one card from the stock; the turn goes on (rule 11)."""


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Nothing to draw and nothing that fits: the turn passes (rule 13)."""


# ----------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` put ``card`` on the discard pile; it is the top card now."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SuitChosen(Event):
    """With an 8, ``seat`` named ``suit`` as the suit to follow (rule 10)."""

    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """``seat`` drew a card from the stock, which holds ``stock`` cards now (rule 11)."""

    seat: int
    stock: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile but its top card was shuffled into a stock of ``cards`` (rule 12)."""

    cards: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """Nothing to draw and nothing that fits: ``seat`` passed (rule 13)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    """``seat`` left the game; ``returned`` cards were shuffled into the stock (rule 19)."""

    seat: int
    returned: int
