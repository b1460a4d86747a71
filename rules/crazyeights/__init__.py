"""Crazy Eights (크레이지 에이트): the engine for docs/rules/crazyeights.md.

``new(players, seed=...)`` deals a game, ``restore(snapshot)`` continues one; moves are
:class:`PlayCard`, :class:`Draw` and :class:`Pass`, and :mod:`rules.crazyeights.ai` is the
computer player.
"""

from rules.crazyeights.events import (
    CardDrawn,
    CardPlayed,
    Draw,
    Forfeited,
    Pass,
    Passed,
    PlayCard,
    Reshuffled,
    SuitChosen,
)
from rules.crazyeights.state import (
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    CrazyEightsView,
    State,
    card_points,
    hand_size,
    legal_moves,
    new,
    position,
    restore,
)
from rules.engine import GameOver

__all__ = [
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "CardDrawn",
    "CardPlayed",
    "CrazyEightsView",
    "Draw",
    "Forfeited",
    "GameOver",
    "Pass",
    "Passed",
    "PlayCard",
    "Reshuffled",
    "State",
    "SuitChosen",
    "card_points",
    "hand_size",
    "legal_moves",
    "new",
    "position",
    "restore",
]
