"""The Crazy Eights computer player: a pure function from a seat's view to its move.

``normal`` keeps its 8s for when nothing else fits, plays the card whose suit it holds most
of (so that it can follow again; the higher card first on a tie, to carry fewer points),
names with an 8 the suit it holds most of, and draws only when nothing fits.

``easy`` plays a card that fits at random and names a suit at random, now and then drawing
although a card fits. ``hard`` is a determinized Monte Carlo search (:mod:`rules.montecarlo`):
every card it may play is tried in worlds sampled from its view (the unseen cards dealt at
random to the other hands and the stock), each played out by ``normal``. Every level decides
from the view alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Final

from rules.cards import SUITS
from rules.crazyeights.events import Draw, Pass, PlayCard
from rules.crazyeights.state import (
    _DRAW,
    _EIGHT,
    _PASS,
    _PLAY,
    _PLAY8,
    _POINTS,
    _RANK,
    _SUIT,
    CrazyEightsView,
    State,
    legal_moves,
    playable_mask,
)
from rules.engine import Outcome
from rules.levels import Level, decide
from rules.montecarlo import MAX_ROLLOUT_MOVES, budgeted_action, clone
from rules.rng import GameRandom

__all__ = ["choose_action", "play_out", "sample_world"]

Move = PlayCard | Draw | Pass


def choose_action(
    view: CrazyEightsView, level: Level = Level.NORMAL, rng: random.Random | None = None
) -> Move:
    """The move for ``view.seat`` at ``level``; that seat must be the seat to act.

    ``rng`` drives the easy player's picks and the hard player's sampling; without one a
    fixed seed is used, so a decision is the same for the same view.
    """
    return decide(
        level, view, rng, easy=_easy, normal=_normal, hard=_hard, default_seed=DEFAULT_SEED
    )


# -- normal: the rule of thumb -------------------------------------------------------------


def _normal(view: CrazyEightsView) -> Move:
    """The rule-of-thumb player (the module docstring)."""
    mask = 0
    for card in view.playable:
        mask |= 1 << card.index
    code = _choice([c.index for c in view.hand or ()], mask, view.can_draw)
    if code >= 0:
        index = code >> 2
        return _PLAY8[index][code & 3] if _RANK[index] == _EIGHT else _PLAY[index]
    return _DRAW if code == _DRAW_CODE else _PASS


_DRAW_CODE: Final = -1
_PASS_CODE: Final = -2


def _choice(hand: Sequence[int], mask: int, can_draw: bool) -> int:
    """The normal player's move as an int, from card indices: its hand, a mask with the bit
    of each card of it that fits (others may be set too) and whether it may draw. A play is
    ``index * 4 + suit to follow``; else ``_DRAW_CODE`` or ``_PASS_CODE``. The view's player
    and the search's play-outs both decide here, so they are the same player."""
    held = _suits_held(hand)
    best = -1
    most = -1
    eight = -1
    for i in hand:
        if (mask >> i) & 1:
            if _RANK[i] == _EIGHT:
                if eight < 0:
                    eight = i
                continue
            # The other cards of its suit it could follow with, then the points it sheds,
            # then the lowest index (a hand never holds 64 cards: the terms never overlap).
            key = (held[_SUIT[i]] - 1) * 4096 + _POINTS[i] * 64 + 63 - i
            if key > most:
                best, most = i, key
    if best >= 0:
        return best * 4 + _SUIT[best]
    if eight >= 0:
        return eight * 4 + _favourite(held)
    return _DRAW_CODE if can_draw else _PASS_CODE


def _suits_held(hand: Sequence[int]) -> list[int]:
    """How many cards but 8s ``hand`` holds of each suit (♠ ♥ ♦ ♣): an 8 follows any suit."""
    held = [0, 0, 0, 0]
    for i in hand:
        if _RANK[i] != _EIGHT:
            held[_SUIT[i]] += 1
    return held


def _favourite(held: Sequence[int]) -> int:
    """The suit position held most, the first on a tie."""
    favourite = 0
    for suit in (1, 2, 3):
        if held[suit] > held[favourite]:
            favourite = suit
    return favourite


# -- easy: a beginner ----------------------------------------------------------------------

EASY_DRAWS_ANYWAY = 0.1  # draws although a card fits


def _easy(view: CrazyEightsView, rng: random.Random) -> Move:
    """Any card that fits, at random (an 8 as readily as another), naming a suit at random;
    now and then a draw although a card fits."""
    if not view.playable or (view.can_draw and rng.random() < EASY_DRAWS_ANYWAY):
        return _DRAW if view.can_draw else _PASS
    card = rng.choice(view.playable)
    if _RANK[card.index] == _EIGHT:
        return _PLAY8[card.index][rng.randrange(4)]
    return _PLAY[card.index]


# -- hard: determinized Monte Carlo --------------------------------------------------------

HARD_MOVES = 12_000  # moves played out per decision (a draw is a move)
HARD_OVERHEAD = 4  # what a copy of a world costs, in moves (a new world: twice)
HARD_ROLLOUTS = 1_200  # play-outs per decision at most, however short they are
HARD_MIN_WORLDS = 12  # worlds sampled however many candidates there are
HARD_MARGIN = 0.02  # the win share another move must add to overrule the normal player
DEFAULT_SEED = 8  # the generator's seed when none is given: one view, one decision


def play_out(state: State, seat: int) -> tuple[float, int]:
    """``seat``'s result of playing ``state`` to its end with the normal player in every
    seat (1 a win, 0.5 a shared result or an endless game, 0 a loss) and the moves it made:
    the hard player's play-out (a :data:`rules.montecarlo.Rollout`).

    The normal player's choices go straight into the engine's own moves, past ``apply``'s
    checks (it only ever makes legal ones) and its log: the same game as through ``apply``,
    move for move (a test plays both), several times faster.
    """
    made = 0
    while state._result is None:
        if made == MAX_ROLLOUT_MOVES:
            return 0.5, made
        mover = state._current
        code = _choice(
            state._hands[mover], playable_mask(state._discard[-1], state._suit), state._can_draw()
        )
        if code >= 0:
            state._play(mover, code >> 2, code & 3)
        elif code == _DRAW_CODE:
            state._draw(mover)
        else:
            state._end_turn(mover)
        made += 1
    outcome = state._result.outcomes[seat]
    return (1.0 if outcome is Outcome.WIN else 0.5 if outcome is Outcome.DRAW else 0.0), made


def _hard(view: CrazyEightsView, rng: random.Random) -> Move:
    """Each card that fits (an 8 naming a suit it holds, or its favourite) tried in worlds
    sampled for ``view`` and played out by the normal player (:func:`play_out`); the best
    wins. With nothing that fits there is nothing to search: it draws, or passes."""
    seat = view.seat
    if seat is None or not view.playable:
        return _normal(view)
    held = _suits_held([c.index for c in view.hand or ()])
    favourite = SUITS[_favourite(held)]
    candidates = [
        move
        for move in legal_moves(view)
        # Drawing while a card fits is left to the rule of thumb, and so is naming a suit
        # it holds none of: neither is worth a share of the samples.
        if isinstance(move, PlayCard)
        and (move.suit is None or held[SUITS.index(move.suit)] or move.suit is favourite)
    ]
    prefer = _normal(view)
    assert isinstance(prefer, PlayCard)  # a card fits, so the rule of thumb plays one
    return budgeted_action(
        candidates,
        partial(sample_world, view),
        seat,
        play_out,
        rng=rng,
        moves=HARD_MOVES,
        min_worlds=HARD_MIN_WORLDS,
        max_worlds=max(HARD_MIN_WORLDS, HARD_ROLLOUTS // len(candidates)),
        prefer=prefer,
        margin=HARD_MARGIN,
        overhead=HARD_OVERHEAD,
    )


# -- the worlds the hard player samples ----------------------------------------------------

# The generator of every world :func:`sample_world` keeps: never drawn from, since only its
# copies play, each with a generator of its own.
_WORLDS_RNG: Final = GameRandom(0)


def sample_world(view: CrazyEightsView, rng: random.Random) -> Callable[[], State]:
    """A factory of fresh copies of one full state whose ``view(view.seat)`` shows what
    ``view`` shows: the cards the seat cannot see (other hands and the stock) dealt at random
    from those in neither its hand nor the discard pile. Each copy reshuffles from its own
    generator, seeded by ``rng``."""
    seat = view.seat
    if seat is None or view.hand is None or view.current is None:
        raise ValueError("a world is sampled for a seated player of a game in progress")
    seen = {card.index for card in (*view.hand, *view.pile, view.top)}
    unseen = [i for i in range(52) if i not in seen]
    rng.shuffle(unseen)
    state = State(view.players, _WORLDS_RNG)
    for other, count in enumerate(view.counts):
        if other == seat:
            state._hands[other] = [card.index for card in view.hand]
        else:
            state._hands[other] = unseen[len(unseen) - count :]
            del unseen[len(unseen) - count :]
    state._stock = unseen
    state._discard = [*(card.index for card in view.pile), view.top.index]
    state._suit = SUITS.index(view.suit)
    state._current = view.current
    state._drawn = view.drawn
    state._turn = view.turn
    state._buried = view.buried
    # Who left first only orders the losers of the finish: not in the view, not needed by
    # a search that plays for the win.
    state._out = [not playing for playing in view.playing]
    state._out_order = [s for s in range(view.players) if not view.playing[s]]
    seed = rng.getrandbits(63)
    return lambda: clone(state, seed)
