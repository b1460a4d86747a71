"""One Card (원카드): the engine for docs/rules/onecard.md.

``new(players, seed=...)`` deals a game, ``restore(snapshot)`` continues one; moves are
:class:`PlayCard` and :class:`Take`, and :mod:`rules.onecard.ai` is the computer player.
"""

from rules.onecard.events import (
    Attack,
    AttackTaken,
    Bankrupt,
    CardPlayed,
    CardsTaken,
    DirectionChanged,
    EmptyDeck,
    Forfeited,
    GameOver,
    Jump,
    OneCard,
    PlayAgain,
    PlayCard,
    ShortDeck,
    SuitChosen,
    Take,
)
from rules.onecard.state import (
    BANKRUPT_AT,
    NAMES,
    OneCardView,
    State,
    attack_value,
    new,
    position,
    restore,
)

__all__ = [
    "BANKRUPT_AT",
    "NAMES",
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
    "OneCardView",
    "PlayAgain",
    "PlayCard",
    "ShortDeck",
    "State",
    "SuitChosen",
    "Take",
    "attack_value",
    "new",
    "position",
    "restore",
]
