"""Rummikub actions (what a player decides) and events (what happened), all frozen values.

Set numbers in actions are 0-based positions in the staged table (the bot shows them from 1).
Events are public: a table committed names the tiles that came from a rack, which everyone
sees laid down, but a draw only counts its tiles.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine import Action, Event
from rules.rummikub.tiles import Tile

__all__ = [
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
    "Sets",
    "SplitSet",
    "Stage",
    "TableChanged",
    "TilesDrawn",
    "TimeOut",
    "TimedOut",
    "Undo",
]

Sets = tuple[tuple[Tile, ...], ...]  # a table: its sets, each a run or a group of tiles


# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class PutSet(Action):
    """Put a new set on the staged table, made of rack tiles."""

    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class AddTiles(Action):
    """Add rack tiles to staged set ``target``."""

    target: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class MoveTiles(Action):
    """Move tiles from staged set ``source`` to set ``target`` (``None``: a new set)."""

    source: int
    tiles: tuple[Tile, ...]
    target: int | None = None


@dataclass(frozen=True, slots=True)
class SplitSet(Action):
    """Split staged set ``target`` before its tile at position ``at`` (1 .. len - 1)."""

    target: int
    at: int


@dataclass(frozen=True, slots=True)
class Gather(Action):
    """Bring tiles to staged set ``target`` (``None``: a new set) in one step: each tile from
    the rack (source ``None``) or from staged set ``source``; ``/rummikub add`` and ``move``."""

    tiles: tuple[tuple[int | None, Tile], ...]
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Stage(Action):
    """Replace the staged table with ``table`` without committing (the Arrange box): the
    committed table's tiles and rack tiles only, checked like :class:`Meld` but staged."""

    table: Sets


@dataclass(frozen=True, slots=True)
class Back(Action):
    """Undo the last staging step only (:class:`Undo` throws them all away)."""


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Throw the staged changes away; the turn goes on."""


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Commit the staged table (rules 8, 9 and 11)."""


@dataclass(frozen=True, slots=True)
class Meld(Action):
    """Replace the staged table with ``table`` and commit it."""

    table: Sets


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw one tile and end the turn (rule 7); with an empty pool, pass."""


@dataclass(frozen=True, slots=True)
class TimeOut(Action):
    """The turn clock ran out (rule 12): staged changes are undone and tiles drawn."""


# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class TableChanged(Event):
    """``seat`` committed: ``tiles`` came from their rack; ``table`` is the new table."""

    seat: int
    tiles: tuple[Tile, ...]
    table: Sets
    value: int


@dataclass(frozen=True, slots=True)
class TilesDrawn(Event):
    """``seat`` drew ``count`` tiles (which ones only their own view shows)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """``seat`` could not draw (the pool is empty) and passed."""

    seat: int


@dataclass(frozen=True, slots=True)
class Left(Event):
    """``seat`` left the game; the ``returned`` tiles of its rack went back into the pool."""

    seat: int
    returned: int


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat``'s clock ran out; staged changes were undone and ``drawn`` tiles drawn."""

    seat: int
    drawn: int
