"""Blackjack: the engine for rules/blackjack.md.

``new(players, seed=...)`` deals a game, ``restore(snapshot)`` continues one; the moves are
:class:`Hit` and :class:`Stand`, the House and computer seats play themselves, and
:mod:`rules.blackjack.ai` is the seed program's computer player.
"""

from rules.blackjack.events import (
    CardDrawn,
    Dealt,
    GameOver,
    HandedToComputer,
    Hit,
    HouseBlackjack,
    HouseBusted,
    HouseDrew,
    HouseStood,
    HouseTurn,
    Stand,
    Stood,
    TurnStarted,
)
from rules.blackjack.state import (
    BLACKJACK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SHOE_SIZE,
    BlackjackView,
    State,
    hand_total,
    judge,
    new,
    replay,
    restore,
    seed_shoe,
)

__all__ = [
    "BLACKJACK",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SHOE_SIZE",
    "BlackjackView",
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
    "State",
    "Stood",
    "TurnStarted",
    "hand_total",
    "judge",
    "new",
    "replay",
    "restore",
    "seed_shoe",
]
