"""The computer Uno player: a pure function from a seat's view to one of its legal actions.

It keeps wilds until nothing else plays (or the next player is about to win), plays the
colour it holds most of, names that colour after a wild, and saves +2, skips and Wild Draw
Fours for the player about to go out (never a Wild Draw Four held with the colour in play:
no bluffs). It stacks when it can, never challenges, says UNO and catches anyone who forgot.
"""

from __future__ import annotations

import random

from rules.engine import Action
from rules.levels import Level
from rules.uno.actions import CallUno, CatchUno, ChooseColour, Draw, Pass, Play
from rules.uno.cards import COLOUR_NAMES, RANK_NAMES
from rules.uno.state import UnoView

__all__ = ["choose_action"]

_THREAT = 2  # the next player with this many cards or fewer is about to win
_ATTACKS = frozenset(("+2", "S", "W+4", "R"))


def _split(code: str) -> tuple[int, str]:
    colour, _, rank = code.partition("_")
    return COLOUR_NAMES.index(colour), rank


def choose_action(
    view: UnoView, level: Level = Level.NORMAL, rng: random.Random | None = None
) -> Action:
    """The action this seat takes; ``view.legal`` must not be empty."""
    legal = view.legal
    if not legal:
        raise ValueError("the computer player was asked to act with nothing to do")
    for action in legal:
        if isinstance(action, (CatchUno, CallUno)):
            return action
    hand = view.hand or ()
    held = [0, 0, 0, 0, 0]
    for code in hand:
        held[_split(code)[0]] += 1
    favourite = max(range(4), key=lambda c: (held[c], -c))
    plays = [a for a in legal if isinstance(a, Play)]
    if view.ruleset == "official" and held[COLOUR_NAMES.index(view.colour)]:
        # Rule 5: holding the colour in play, a Wild Draw Four is a bluff the engine lets
        # down for rule 8's challenge to catch. This player never bluffs.
        plays = [a for a in plays if _split(hand[a.index])[1] != "W+4"]
    if not plays:
        for action in legal:
            if isinstance(action, ChooseColour) and action.colour == favourite:
                return action
        return next((a for a in legal if isinstance(a, (Draw, Pass))), legal[0])
    counts = view.hand_counts
    seat = view.seat if view.seat is not None else 0
    following = (seat + view.direction) % len(counts)
    threat = counts[following] <= _THREAT
    fewest = min((s for s in range(len(counts)) if s != seat), key=lambda s: (counts[s], s))

    def score(action: Play) -> tuple[int, int, int]:
        colour, rank = _split(hand[action.index])
        wild = rank in ("W", "W+4")
        attack = threat and rank in _ATTACKS
        if wild:
            chosen = 0 if action.colour == favourite else -1
            # W before W+4 unless the W+4 is the attack the table needs.
            order = 2 if (rank == "W+4") == threat else 1
            return (1 if attack else -1, chosen, order)
        if action.target is not None and action.target != fewest:
            return (-2, 0, 0)
        keep_for_later = 0 if threat or rank not in _ATTACKS else -1
        return (1 if attack else 0, keep_for_later, held[colour] * 20 + _points(rank))

    best = max(plays, key=score)
    if isinstance(best, Play) and view.phase == "after_draw":
        _, rank = _split(hand[best.index])
        if rank in ("W", "W+4") and not threat and any(isinstance(a, Pass) for a in legal):
            return next(a for a in legal if isinstance(a, Pass))  # keep the wild for later
    return best


def _points(rank: str) -> int:
    # Among equals, shed the card that would cost most if someone else goes out.
    index = RANK_NAMES.index(rank)
    return index if index < 10 else 10
