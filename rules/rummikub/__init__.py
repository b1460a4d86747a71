"""Rummikub: the engine for docs/rules/rummikub.md.

``new(players, seed=...)`` deals a game, ``restore(snapshot)`` continues one. Tiles and their
parser are in :mod:`rules.rummikub.tiles`, set checking with reasons in
:mod:`rules.rummikub.sets`, actions and events in :mod:`rules.rummikub.events`, the turn
machine in :mod:`rules.rummikub.state`, the exact solver in :mod:`rules.rummikub.solver` and
the computer player in :mod:`rules.rummikub.ai`.
"""

from rules.rummikub.events import (
    AddTiles,
    Back,
    Done,
    Draw,
    Gather,
    Left,
    Meld,
    MoveTiles,
    Passed,
    PutSet,
    SplitSet,
    Stage,
    TableChanged,
    TilesDrawn,
    TimedOut,
    TimeOut,
    Undo,
)
from rules.rummikub.state import (
    HAND_SIZE,
    INITIAL_MELD,
    TIMEOUT_PENALTY,
    RummikubView,
    State,
    new,
    rack_value,
    restore,
)

__all__ = [
    "HAND_SIZE",
    "INITIAL_MELD",
    "TIMEOUT_PENALTY",
    "AddTiles",
    "Back",
    "Done",
    "Draw",
    "Gather",
    "Left",
    "Meld",
    "MoveTiles",
    "Passed",
    "PutSet",
    "RummikubView",
    "SplitSet",
    "Stage",
    "State",
    "TableChanged",
    "TilesDrawn",
    "TimeOut",
    "TimedOut",
    "Undo",
    "new",
    "rack_value",
    "restore",
]
