"""Go-Stop actions (what a player decides) and events (what happened), all frozen values.

Events name only cards both players see (played, shown in a shake or a bomb, flipped,
captured, stolen). Cards are :class:`HwatuCard` values here; the turn machine
(:mod:`rules.gostop.state`) keeps indices inside.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine import Action, Event
from rules.gostop.cards import HwatuCard

__all__ = [
    "Bomb",
    "Bombed",
    "Captured",
    "CardPlayed",
    "ChongtongChoice",
    "ChongtongWin",
    "Flipped",
    "Forfeited",
    "Go",
    "GoCalled",
    "InstantPoints",
    "Play",
    "Shook",
    "Special",
    "Stolen",
    "Stop",
    "Stopped",
    "TakeFlip",
]


# ---------------------------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play ``card`` from hand (rule 6).

    ``target``: which floor card it takes when two floor cards of its month differ in kind.
    ``shake``: show the three of a month held when the floor has none (rule 14).
    """

    card: HwatuCard
    target: HwatuCard | None = None
    shake: bool = False


@dataclass(frozen=True, slots=True)
class Bomb(Action):
    """Play the three cards of ``month`` held onto the fourth on the floor (rule 13)."""

    month: int


@dataclass(frozen=True, slots=True)
class TakeFlip(Action):
    """Which of two different floor cards the flipped card takes (rule 7)."""

    target: HwatuCard


@dataclass(frozen=True, slots=True)
class Go(Action):
    """Play on for more points (rule 22)."""


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """End the game and win (rule 22)."""


@dataclass(frozen=True, slots=True)
class ChongtongChoice(Action):
    """A player dealt all four of a month: ``end`` takes 10 points now, else play on (rule 5)."""

    end: bool


# ---------------------------------------------------------------------------------------------
# Events


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card`` from hand (a bomb is :class:`Bombed` instead)."""

    seat: int
    card: HwatuCard


@dataclass(frozen=True, slots=True)
class Shook(Event):
    """``seat`` showed three cards of ``month`` (rule 14)."""

    seat: int
    month: int
    cards: tuple[HwatuCard, ...]


@dataclass(frozen=True, slots=True)
class Bombed(Event):
    """``seat`` bombed with ``cards`` (rule 13)."""

    seat: int
    month: int
    cards: tuple[HwatuCard, ...]


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    """The top card of the pile was turned over during ``seat``'s turn."""

    seat: int
    card: HwatuCard


@dataclass(frozen=True, slots=True)
class Captured(Event):
    """``seat`` took ``cards`` into their capture pile."""

    seat: int
    cards: tuple[HwatuCard, ...]


@dataclass(frozen=True, slots=True)
class Special(Event):
    """A named happening: ``ppuk``, ``jjok``, ``ttadak``, ``sweep``, ``stack`` (took a stack)."""

    seat: int
    name: str
    month: int = 0


@dataclass(frozen=True, slots=True)
class Stolen(Event):
    """``seat`` took ``card`` out of the other player's pile (rule 15)."""

    seat: int
    card: HwatuCard


@dataclass(frozen=True, slots=True)
class InstantPoints(Event):
    """Points paid at once (rule 16); ``total`` is the seat's instant points so far."""

    seat: int
    points: int
    total: int
    reason: str


@dataclass(frozen=True, slots=True)
class GoCalled(Event):
    """``seat`` called their ``count``-th Go at ``score`` points."""

    seat: int
    count: int
    score: int


@dataclass(frozen=True, slots=True)
class Stopped(Event):
    """``seat`` stopped (or was stopped on their last card) with ``score`` points."""

    seat: int
    score: int
    automatic: bool


@dataclass(frozen=True, slots=True)
class ChongtongWin(Event):
    """``seat`` ended the game with a chongtong of ``month``."""

    seat: int
    month: int


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    """``seat`` left the game; the other seat wins (:meth:`State.forfeit`)."""

    seat: int
