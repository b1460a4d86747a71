"""Determinized Monte Carlo: the search behind the ``hard`` computer players.

A game's ``ai.py`` samples *worlds*: full engine states consistent with what its seat has
seen (its own hand, the table, the card counts), the unseen cards dealt at random. Every
candidate action is tried in the same worlds and played out to the end by a rollout policy
(the normal player's rules), and the action with the best average result wins. Trying all candidates
in the same worlds (common random numbers) makes their comparison far less noisy than their
separate averages.

The budget is a number of worlds, never a clock, so a decision is the same for the same view
and the same random generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from types import MethodType
from typing import Any, Protocol, TypeVar

from rules.engine import Action, Outcome
from rules.rng import GameRandom

__all__ = [
    "Playable",
    "Policy",
    "Rollout",
    "best_action",
    "budgeted_action",
    "clone",
    "play_out",
    "play_out_counted",
    "rollout",
]

A = TypeVar("A", bound=Action)

MAX_ROLLOUT_MOVES = 2_000  # a rollout this long counts as a draw (it never happens in practice)


class Playable(Protocol):
    """The slice of the engine contract a rollout needs."""

    @property
    def current_seat(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def result(self) -> Any: ...

    def apply(self, seat: int, action: Any) -> Any: ...


S = TypeVar("S")


def clone(state: S, seed: int) -> S:
    """A copy of an engine state (a class with ``__slots__``) drawing from a fresh generator
    seeded with ``seed``: lists are copied, and so are the lists in a list whose first item
    is a list (hands); everything else is shared.

    Far cheaper than a snapshot round trip, whose generator state is most of its cost; the
    methods of the generator an engine caches (bound to its ``random.Random``) are bound to
    the new generator.
    """
    cls = type(state)
    copy = cls.__new__(cls)
    rng = GameRandom(seed)
    old: Any = None
    bound = []
    # One pass on the types alone: the hard players copy a world for every play-out.
    for name in cls.__slots__:  # type: ignore[attr-defined]
        value = getattr(state, name)
        kind = type(value)
        if kind is list:
            if value and type(value[0]) is list:
                value = [v[:] if type(v) is list else v for v in value]
            else:
                value = value[:]
        elif kind is GameRandom:
            old, value = value, rng
        elif kind is _BUILTIN_METHOD or kind is MethodType:
            bound.append(name)
        setattr(copy, name, value)
    for name in bound:
        value = getattr(copy, name)
        if old is not None and value.__self__ is old._random:
            setattr(copy, name, getattr(rng._random, value.__name__))
    return copy


_BUILTIN_METHOD = type(random.Random().random)  # a cached C method (``randrange`` is Python)


Policy = Callable[[Any, int], Action]  # (state, seat to act) -> its action


def play_out(state: Playable, seat: int, policy: Policy) -> float:
    """Play ``state`` to its end with ``policy`` for every seat; ``seat``'s result:
    1 for a win, 0.5 for a shared result (or an endless game), 0 for a loss."""
    return play_out_counted(state, seat, policy)[0]


def play_out_counted(state: Playable, seat: int, policy: Policy) -> tuple[float, int]:
    """:func:`play_out`, and the number of moves it made (``MAX_ROLLOUT_MOVES`` for a game
    that did not end)."""
    apply = state.apply
    for made in range(MAX_ROLLOUT_MOVES + 1):
        if state.is_over:
            outcome = state.result.outcomes[seat]
            return (
                1.0 if outcome is Outcome.WIN else 0.5 if outcome is Outcome.DRAW else 0.0
            ), made
        if made == MAX_ROLLOUT_MOVES:
            break
        mover = state.current_seat
        assert mover is not None
        apply(mover, policy(state, mover))
    return 0.5, MAX_ROLLOUT_MOVES


# (state after the candidate, the seat deciding) -> (that seat's result, moves made): a
# play-out. A game may bring its own, faster than the engine move by move (and count a
# dearer move as more than one, so that the budget stays the time it stands for).
Rollout = Callable[[Any, int], tuple[float, int]]


def rollout(policy: Policy) -> Rollout:
    """The play-out of :func:`play_out_counted` with ``policy`` in every seat."""
    return lambda state, seat: play_out_counted(state, seat, policy)


def best_action(
    candidates: Sequence[A],
    worlds: int,
    deal: Callable[[random.Random], Callable[[], Playable]],
    seat: int,
    policy: Policy,
    *,
    rng: random.Random,
    prefer: A | None = None,
    margin: float = 0.0,
) -> A:
    """The candidate with the best mean result over ``worlds`` sampled worlds.

    ``deal(rng)`` samples one world and returns a factory of fresh copies of it, one per
    candidate. ``prefer`` (the normal player's choice) wins unless another candidate beats it
    by more than ``margin`` results in total: where the samples cannot tell actions apart,
    the rule of thumb is the better guess than noise.
    """
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        fresh = deal(rng)
        for i, action in enumerate(candidates):
            state = fresh()
            state.apply(seat, action)
            totals[i] += play_out(state, seat, policy)
    if prefer is not None:
        totals[candidates.index(prefer)] += margin
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


def budgeted_action(
    candidates: Sequence[A],
    deal: Callable[[random.Random], Callable[[], Playable]],
    seat: int,
    play: Rollout,
    *,
    rng: random.Random,
    moves: int,
    min_worlds: int,
    max_worlds: int,
    prefer: A | None = None,
    margin: float = 0.0,
    overhead: int = 0,
) -> A:
    """:func:`best_action` with a budget of moves played out instead of a number of worlds,
    spent by sequential halving; ``play`` plays each out (see :data:`Rollout`).

    The budget is split into rounds, one per halving of the candidates: each round samples
    worlds (every candidate still in tried in each) until the play-outs have made its share
    of ``moves`` moves, counting ``overhead`` moves for the copy each play-out starts from
    and twice that for sampling a world; then the worse half of the candidates drops out.
    The close contenders so get most of the worlds. At least ``min_worlds`` worlds in all,
    at most ``max_worlds`` a round. A decision's cost so stays about the same early in a
    game, where every play-out is long, as near its end, where short play-outs buy many
    more worlds. ``margin`` is the mean result per world another candidate must add to
    overrule ``prefer``. Still no clock: the same view and generator give the same decision.
    """
    count = len(candidates)
    if count == 1:
        return candidates[0]
    totals = [0.0] * count
    favoured = -1 if prefer is None else candidates.index(prefer)
    alive = list(range(count))
    rounds = (count - 1).bit_length()
    least = -(-min_worlds // rounds)
    spent = 0
    worlds = 0

    def rank(i: int) -> tuple[float, int]:
        return totals[i] + (margin * worlds if i == favoured else 0.0), -i

    for round_ in range(1, rounds + 1):
        budget = moves * round_ // rounds
        made_here = 0
        while made_here < max_worlds and (made_here < least or spent < budget):
            fresh = deal(rng)
            spent += 2 * overhead
            for i in alive:
                state = fresh()
                state.apply(seat, candidates[i])
                result, made = play(state, seat)
                spent += made + overhead
                totals[i] += result
            made_here += 1
            worlds += 1
        if round_ < rounds:
            alive = sorted(sorted(alive, key=rank, reverse=True)[: (len(alive) + 1) // 2])
    return candidates[max(alive, key=rank)]
