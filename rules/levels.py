"""A computer seat's level, how well it plays: one scale shared by every game's ``ai.py``."""

from __future__ import annotations

import random
from collections.abc import Callable
from enum import Enum, unique
from typing import TypeVar

__all__ = ["Level", "decide"]

View = TypeVar("View")
Choice = TypeVar("Choice")


@unique
class Level(Enum):
    """A computer player's strength: ``easy`` makes human-like mistakes, ``normal`` is the
    rule-of-thumb player, ``hard`` searches. Every level decides from its seat's view only."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def decide(
    level: Level,
    view: View,
    rng: random.Random | None,
    *,
    easy: Callable[[View, random.Random], Choice],
    normal: Callable[[View], Choice],
    hard: Callable[[View, random.Random], Choice],
    default_seed: int,
) -> Choice:
    """The decision of the game's player at ``level``. Normal draws nothing; easy's slips and
    hard's sampling draw from ``rng``, or without one from a generator seeded with
    ``default_seed``, so a decision is the same for the same view."""
    if level is Level.NORMAL:
        return normal(view)
    chosen = rng if rng is not None else random.Random(default_seed)
    return (easy if level is Level.EASY else hard)(view, chosen)
