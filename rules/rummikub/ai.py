"""The computer player and the hint: the solver's best play, and when the computer keeps a joker.

:func:`hint` is rule 16: the solver's best play for the seat's rack (before the initial meld,
a meld worth 30 from the rack; afterwards the play that puts down the most tiles). The
computer (:func:`best_play`) starts from it but weighs a play that needs a rack joker against
the best play without it: when the joker only buys one more tile (and does not empty the
rack), the joker stays on the rack for later; and once melded, when the joker is the only way
to play and the play puts down at most 2 other tiles, it draws instead. An initial meld is
always worth the joker: it opens the table. With no play it draws.

Levels: ``normal`` is that computer. ``easy`` plays like a beginner: it only lays
down new sets from its own rack and lays single tiles off at the ends of sets on the table,
but never splits or rearranges a set, and now and
then (one turn in five, drawn from ``rng``) it draws although it could play.
``hard`` hoards its jokers for the turn they finish its rack: it plays the solver's best play
without its rack jokers, and spends one only when that empties the rack, when no initial meld
can be made without it, or when the pool is empty and there is nothing else to play (rather
than pass). Measured against normal on three sets of deals outside the benchmark's (600, 600
and 800 games), spending a joker for four more tiles (the previous hard) won 55.8%, 53.7% and
56.0%, hoarding them 57.8%, 58.3% and 59.5%; spending them once normal is near out, holding
playable tiles back as a reserve, or choosing among the most-tiles plays by the pairs and
near-runs left on the rack gained nothing or lost ground (50%, 46-48%, 56.3%).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from rules.engine import Action
from rules.levels import Level, decide
from rules.rummikub.events import Draw, Meld, Sets
from rules.rummikub.sets import check_set
from rules.rummikub.solver import Solution, solve
from rules.rummikub.state import RummikubView
from rules.rummikub.tiles import JOKER, Tile

__all__ = ["JOKER_GAIN", "NextMeld", "best_play", "choose_action", "hint", "lay_offs", "next_meld"]

JOKER_GAIN = 2  # a rack joker is played only for at least this many more real tiles
DEFAULT_SEED = 18  # the rng when none is given, so every level stays deterministic
EASY_MISSED_TURN = 0.2  # how often easy draws although it could play


def hint(view: RummikubView) -> Solution:
    """Rule 16: the solver's best play for the rack in ``view`` (no play: ``found`` is false)."""
    assert view.seat is not None
    return solve(view.rack, view.table, initial=not view.melded[view.seat])


@dataclass(frozen=True, slots=True)
class NextMeld:
    """One meld of the hint's play (rule 16: a hint shows one meld at a time, not the turn).

    ``meld`` is the set to make, ``rack`` its tiles that come from the rack; ``table`` is the
    staged table once it is made (the sets made so far kept, the meld last, the tiles it
    takes gone from the other sets): what the Arrange box takes to stage it. ``left``: melds
    of the play still to make after this one.
    """

    meld: tuple[Tile, ...]
    rack: tuple[Tile, ...]
    table: Sets
    left: int


def next_meld(view: RummikubView, play: Solution) -> NextMeld | Literal["done", "reset"]:
    """The next meld of ``play`` (the hint's, from the committed table) from where the seat's
    staged table stands: ``"done"`` when the staged table is the play, ``"reset"`` when it
    can no longer become it (a rack tile the play keeps was put down)."""
    current = [tuple(s) for s in (view.staged if view.staged is not None else view.table)]
    rack = Counter(view.staged_rack if view.staged_rack is not None else view.rack)
    if Counter(view.rack) - Counter(play.tiles) - rack:
        return "reset"  # a rack tile the play keeps is on the staged table
    made: set[int] = set()
    unmade: list[tuple[Tile, ...]] = []
    for target in play.table:
        key = sorted(target)
        found = next((i for i, s in enumerate(current) if i not in made and sorted(s) == key), None)
        if found is None:
            unmade.append(tuple(target))
        else:
            made.add(found)
    if not unmade:
        leftover = any(s for i, s in enumerate(current) if i not in made)
        return "reset" if leftover else "done"
    meld = unmade[0]
    # Table tiles first (the play puts down only the rack tiles it counts), then the rack.
    need = Counter(meld)
    table: list[tuple[Tile, ...]] = []
    for i, tiles in enumerate(current):
        kept = list(tiles)
        if i not in made:
            kept = []
            for tile in tiles:
                if need[tile] > 0:
                    need[tile] -= 1
                else:
                    kept.append(tile)
        if kept:
            table.append(tuple(kept))
    if need - rack:
        return "reset"
    shown = tuple(check_set(meld).tiles)  # as the turn view reads it (rule 15)
    from_rack = tuple(sorted(need.elements()))
    return NextMeld(shown, from_rack, (*table, shown), len(unmade) - 1)


def best_play(
    view: RummikubView, joker_gain: int | None = JOKER_GAIN, *, keep_for_initial: bool = True
) -> Solution:
    """The play the computer would make from this view (no play: ``found`` is false).

    A rack joker is spent only when it buys at least ``joker_gain`` more real tiles (or
    empties the rack); ``joker_gain=None``: only when it empties the rack, makes an initial
    meld possible at all, or is all there is to play with an empty pool.
    ``keep_for_initial=False`` always spends it on the initial meld."""
    assert view.seat is not None
    rack = list(view.rack)
    initial = not view.melded[view.seat]
    play = hint(view)
    if not play.found or JOKER not in play.tiles or len(play.tiles) == len(rack):
        return play
    if initial and not keep_for_initial:
        return play
    without = solve([t for t in rack if t is not JOKER], view.table, initial=initial)
    reals = sum(1 for t in play.tiles if t is not JOKER)
    if without.found and (joker_gain is None or reals - len(without.tiles) < joker_gain):
        return without
    worth = joker_gain is not None and reals >= joker_gain + 1
    if not without.found and not initial and not worth and view.pool:
        return without  # not worth giving the joker away: draw instead
    return play


def _hard(view: RummikubView) -> Action:
    # Measured against normal: what wins is tempo (a play of fewer tiles for more points
    # lost badly) and jokers kept for the turn they finish a rack (see the module).
    play = best_play(view, None)
    return Meld(play.table) if play.found else Draw()


def lay_offs(tile: Tile, table: Sequence[Sequence[Tile]]) -> Iterator[tuple[int, Sets]]:
    """Each way to add ``tile`` to an end of one set of ``table``: (set index, new table)."""
    for i, tiles in enumerate(table):
        for grown in ((*tiles, tile), (tile, *tiles)):
            if check_set(grown).valid:
                yield i, (*map(tuple, table[:i]), grown, *map(tuple, table[i + 1 :]))


def _beginner(view: RummikubView) -> Action:
    """New sets from the rack, then single tiles laid off at the ends of sets, but never a
    set split or rearranged (how a beginner plays)."""
    assert view.seat is not None
    if not view.melded[view.seat]:
        meld = hint(view)  # the initial meld is made of rack tiles anyway
        return Meld(meld.table) if meld.found else Draw()
    sets = solve(view.rack)
    rack = list(view.rack)
    for tile in sets.tiles:
        rack.remove(tile)
    table: Sets = (*view.table, *sets.table)
    for tile in sorted(rack):
        table = next((grown for _i, grown in lay_offs(tile, table)), table)
    return Draw() if table == view.table else Meld(table)


def _easy(view: RummikubView, rng: random.Random) -> Action:
    if rng.random() < EASY_MISSED_TURN and view.pool:
        return Draw()
    return _beginner(view)


def choose_action(
    view: RummikubView, level: Level = Level.NORMAL, rng: random.Random | None = None
) -> Action:
    """The computer's move for the seat whose turn it is in ``view``; ``rng`` drives easy's
    slips (a fixed seed when None); normal and hard draw nothing."""
    return decide(
        level,
        view,
        rng,
        easy=_easy,
        normal=_normal,
        hard=lambda view, _: _hard(view),
        default_seed=DEFAULT_SEED,
    )


def _normal(view: RummikubView) -> Action:
    play = best_play(view)
    return Meld(play.table) if play.found else Draw()
