"""The computer Uno player: a pure function from a seat's view to one of its legal actions.

It keeps wilds until nothing else plays (or the next player is about to win), plays the
colour it holds most of, names that colour after a wild, and saves +2, skips and Wild Draw
Fours for the player about to go out (never a Wild Draw Four held with the colour in play:
no bluffs). It stacks when it can, never challenges, says UNO and catches anyone who forgot.

That is the ``normal`` level. ``easy`` is a casual player's slips over it (see
:func:`_easy`), ``hard`` a determinized Monte Carlo search whose play-outs are ``normal``
itself, read off the engine's ints (see :func:`_hard` and :mod:`rules.montecarlo`). Every
level decides from the view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from rules.engine import Action
from rules.levels import Level, decide
from rules.montecarlo import budgeted_action
from rules.uno.cards import COLOUR_NAMES, RANK_NAMES
from rules.uno.events import CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from rules.uno.search import play_out, sample_world
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
    """The action this seat takes at ``level``; ``view.legal`` must not be empty.

    ``rng`` drives the easy player's slips and the hard player's sampling; without one a
    fixed seed is used, so a decision is the same for the same view.
    """
    if not view.legal:
        raise ValueError("the computer player was asked to act with nothing to do")
    return decide(
        level, view, rng, easy=_easy, normal=_normal, hard=_hard, default_seed=DEFAULT_SEED
    )


def _normal(view: UnoView) -> Action:
    """Today's rule-of-thumb player (the module docstring)."""
    legal = view.legal
    for action in legal:
        if isinstance(action, (CatchUno, CallUno)):
            return action
    hand = view.hand or ()
    held = _held(hand)
    favourite = max(range(4), key=lambda c: (held[c], -c))
    plays = _honest_plays(view, held)
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


def _honest_plays(view: UnoView, held: Sequence[int]) -> list[Play]:
    """The legal plays but a Wild Draw Four bluff: no level of this player bluffs."""
    hand = view.hand or ()
    plays = [a for a in view.legal if isinstance(a, Play)]
    if view.ruleset == "official" and held[COLOUR_NAMES.index(view.colour)]:
        # Rule 5: holding the colour in play, a Wild Draw Four is a bluff the engine lets
        # down for rule 8's challenge to catch.
        plays = [a for a in plays if _split(hand[a.index])[1] != "W+4"]
    return plays


def _held(hand: Sequence[str]) -> list[int]:
    """Cards per colour index (the wilds under index 4)."""
    held = [0, 0, 0, 0, 0]
    for code in hand:
        held[_split(code)[0]] += 1
    return held


# -- easy: the slips of a casual player ------------------------------------------------------

EASY_FORGETS_UNO = 0.35  # says nothing on going down to one card
EASY_MISSES_CATCH = 0.5  # does not notice that someone else forgot
EASY_DRAWS_ANYWAY = 0.08  # draws although a card would play
EASY_FIRST_FIT = 0.45  # plays the first card that fits instead of planning


def _easy(view: UnoView, rng: random.Random) -> Action:
    """A casual player: often plays the first card that fits (spending wilds and attacks
    early), names the colour of the first card in hand it sees, sometimes draws although
    it could play, forgets to say UNO and misses others who forgot. It never bluffs."""
    legal = list(view.legal)
    for kind, odds in ((CallUno, EASY_FORGETS_UNO), (CatchUno, EASY_MISSES_CATCH)):
        slipped = [a for a in legal if not isinstance(a, kind)]
        if slipped != legal and slipped and rng.random() < odds:
            legal = slipped
    view = replace(view, legal=tuple(legal))
    if any(isinstance(a, (CallUno, CatchUno)) for a in legal):
        return _normal(view)
    hand = view.hand or ()
    plays = _honest_plays(view, _held(hand))
    draw = next((a for a in legal if isinstance(a, Draw)), None)
    if plays and draw is not None and not view.pending and rng.random() < EASY_DRAWS_ANYWAY:
        return draw
    if plays and rng.random() < EASY_FIRST_FIT:
        first = plays[0]  # legal plays come in hand order
        if first.colour is None:
            return first
        # The colour of the first coloured card in hand, not the colour held most.
        colour = next((c for c, _ in map(_split, hand) if c < 4), rng.randrange(4))
        return next(a for a in plays if a.index == first.index and a.colour == colour)
    return _normal(view)


# -- hard: determinized Monte Carlo ------------------------------------------------------------

HARD_MOVES = 40_000  # moves played out per decision (plain ones: see search.ENGINE_MOVE)
HARD_OVERHEAD = 8  # what a copy of a world and its first move cost, in moves (a new world: twice)
HARD_ROLLOUTS = 6_000  # play-outs per decision at most, however short they are
HARD_MIN_WORLDS = 12  # worlds sampled however many candidates there are
HARD_MARGIN = 0.02  # the win share another action must add to overrule the normal player
DEFAULT_SEED = 18  # the generator's seed when none is given: one view, one decision
_ROLLOUT = play_out  # every seat of a play-out: the normal player, read off the ints


def _hard(view: UnoView, rng: random.Random) -> Action:
    """Tries each distinct legal action in sampled worlds consistent with ``view`` (see
    :mod:`rules.uno.search`), played out by :func:`rules.uno.search.play_out` (the normal
    player's very decisions, read off the engine's ints: many times faster than building
    views), and keeps the best. The budget is moves played out, not play-outs: short
    play-outs near a game's end buy many more worlds for the same time. Saying UNO and
    catching are always right; it never challenges (the bluff is not in the view) and
    jumps in like the normal player."""
    legal = view.legal
    for action in legal:
        if isinstance(action, (CatchUno, CallUno)):
            return action
    seat = view.seat
    if seat is None or seat != view.current_seat:
        return _normal(view)
    hand = view.hand or ()
    held = _held(hand)
    distinct: dict[object, Action] = {}
    for action in legal:
        named = action.colour if isinstance(action, (Play, ChooseColour)) else None
        if isinstance(action, Challenge) or (
            named is not None and not held[named] and any(held[:4])
        ):
            continue  # naming a colour it holds none of is not worth a sample
        key: object = (
            (hand[action.index], action.colour, action.target)
            if isinstance(action, Play)
            else action
        )
        distinct.setdefault(key, action)
    candidates = list(distinct.values())
    normal = _normal(view)
    if len(hand) == 1 and isinstance(normal, Play) and view.ruleset == "official":
        # Going out wins at once (rule 10), whatever the others hold: nothing to weigh. A
        # last wild's four colours each won in every world, a search's worst case.
        return normal
    prefer = next(
        (
            a
            for a in candidates
            if a == normal
            or (
                isinstance(a, Play)
                and isinstance(normal, Play)
                and (hand[a.index], a.colour, a.target)
                == (hand[normal.index], normal.colour, normal.target)
            )
        ),
        None,
    )
    return budgeted_action(
        candidates,
        partial(sample_world, view),
        seat,
        _ROLLOUT,
        rng=rng,
        moves=HARD_MOVES,
        min_worlds=HARD_MIN_WORLDS,
        max_worlds=max(HARD_MIN_WORLDS, HARD_ROLLOUTS // len(candidates)),
        prefer=prefer,
        margin=HARD_MARGIN,
        overhead=HARD_OVERHEAD,
    )


def _points(rank: str) -> int:
    # Among equals, shed the card that would cost most if someone else goes out.
    index = RANK_NAMES.index(rank)
    return index if index < 10 else 10
