"""The computer player: the solver's best play, keeping a joker when playing it gains little.

Before the initial meld it looks for a meld worth 30 from the rack; afterwards for the play
that puts down the most tiles. A play that needs a rack joker is weighed against the best
play without it: when the joker only buys one more tile (and does not empty the rack), the
joker stays on the rack for later. With no play it draws.
"""

from __future__ import annotations

from rules.engine import Action
from rules.rummikub.solver import Solution, solve
from rules.rummikub.state import Draw, Meld, RummikubView
from rules.rummikub.tiles import JOKER

__all__ = ["JOKER_GAIN", "best_play", "choose_action"]

JOKER_GAIN = 2  # a rack joker is played only for at least this many more real tiles


def best_play(view: RummikubView) -> Solution:
    """The play the computer would make from this view (no play: ``found`` is false)."""
    assert view.seat is not None
    rack = list(view.rack)
    initial = not view.melded[view.seat]
    play = solve(rack, view.table, initial=initial)
    if not play.found or JOKER not in play.tiles or len(play.tiles) == len(rack):
        return play
    without = solve([t for t in rack if t is not JOKER], view.table, initial=initial)
    reals = sum(1 for t in play.tiles if t is not JOKER)
    if without.found and reals - len(without.tiles) < JOKER_GAIN:
        return without
    if not without.found and reals < JOKER_GAIN + 1 and view.pool:
        return without  # not worth giving the joker away: draw instead
    return play


def choose_action(view: RummikubView) -> Action:
    """The computer's move for the seat whose turn it is in ``view``."""
    play = best_play(view)
    if play.found:
        return Meld(play.table)
    return Draw()
