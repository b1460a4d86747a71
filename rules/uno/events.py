"""What Uno players do (actions) and what happens (events)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine import Action, Event

__all__ = [
    "CallUno",
    "CardPlayed",
    "CardsDrawn",
    "CatchUno",
    "Challenge",
    "ChallengeResolved",
    "ChooseColour",
    "ColourChosen",
    "DirectionChanged",
    "Draw",
    "FirstCard",
    "Forfeited",
    "HandsRotated",
    "HandsSwapped",
    "Pass",
    "Play",
    "PlayCard",
    "Reshuffled",
    "RuleBroken",
    "Skipped",
    "TurnPassed",
    "UnoAnnounced",
    "UnoCaught",
]


# -- actions -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play the card at ``index`` of the player's hand (0-based, as the seed's ``rank``).

    ``colour`` (0-3, see :class:`rules.uno.cards.Colour`) names the colour after a wild;
    ``target`` is the seat a 7 swaps hands with under the ``seven_zero`` house rule.
    """

    index: int
    colour: int | None = None
    target: int | None = None


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """:class:`Play` with the card named by its code (``red_5``, ``none_W+4``), as chat
    players name cards: the engine plays the first such card of the hand (after a draw,
    the card just drawn). Logged as the :class:`Play` it became."""

    card: str
    colour: int | None = None
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw instead of playing, or take the pending +2/+4 cards."""


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Keep the card just drawn and end the turn (official rule 6)."""


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """Challenge the Wild Draw Four just played on you (official rule 8)."""


@dataclass(frozen=True, slots=True)
class ChooseColour(Action):
    """Name the colour of a wild turned as the first card (official rule 4)."""

    colour: int


@dataclass(frozen=True, slots=True)
class CallUno(Action):
    """Say "UNO!" (option ``uno_call``): with two cards on your turn, or one card left."""


@dataclass(frozen=True, slots=True)
class CatchUno(Action):
    """Call out ``target``, who is down to one card and said nothing (option ``uno_call``)."""

    target: int


# -- events ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FirstCard(Event):
    """The deal turned ``card`` (its code) to start the discard pile, ``seat`` to play first
    (rule 2); what the card does then (official rule 4: a skip, two cards drawn, a reversal)
    follows as its own events. ``effect``: whether it does anything (seed rule 14: never)."""

    card: str
    seat: int
    effect: bool


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` played ``card`` (its code); ``colour`` is the colour in play afterwards."""

    seat: int
    card: str
    colour: str
    jump_in: bool = False


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """``seat`` took ``count`` cards (which ones is private to them)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    """``seat`` loses their turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    """Play now runs with ``direction`` (+1: increasing seats, -1: decreasing)."""

    direction: int


@dataclass(frozen=True, slots=True)
class ColourChosen(Event):
    """``seat`` named ``colour`` for the wild turned as the first card."""

    seat: int
    colour: str


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    """``seat`` ended their turn without playing."""

    seat: int


@dataclass(frozen=True, slots=True)
class RuleBroken(Event):
    """Seed ruleset: ``seat`` tried what the rules forbid and draws a penalty card."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class ChallengeResolved(Event):
    """``challenger`` challenged ``offender``'s Wild Draw Four; ``upheld``: it was illegal."""

    challenger: int
    offender: int
    upheld: bool


@dataclass(frozen=True, slots=True)
class UnoAnnounced(Event):
    """``seat`` is down to one card."""

    seat: int


@dataclass(frozen=True, slots=True)
class UnoCaught(Event):
    """``by`` caught ``seat`` not saying UNO; ``seat`` draws two."""

    seat: int
    by: int


@dataclass(frozen=True, slots=True)
class HandsSwapped(Event):
    """House rule ``seven_zero``: a 7 swapped the hands of two seats."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class HandsRotated(Event):
    """House rule ``seven_zero``: a 0 passed every hand one seat in ``direction``."""

    direction: int


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    """``seat`` left the game; its ``count`` cards went under the draw pile."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """The discard pile (but its top card) became a new draw pile of ``count`` cards."""

    count: int
