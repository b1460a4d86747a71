"""How well a computer seat plays (issue 18): one scale shared by every game's ``ai.py``."""

from __future__ import annotations

from enum import Enum, unique

__all__ = ["Level"]


@unique
class Level(Enum):
    """A computer player's strength: ``easy`` makes human-like mistakes, ``normal`` is the
    rule-of-thumb player, ``hard`` searches. Every level decides from its seat's view only."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
