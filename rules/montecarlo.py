"""Determinized Monte Carlo: the search behind the ``hard`` computer players (issue 18).

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
from typing import Any, Protocol, TypeVar

from rules.engine import Action, Outcome
from rules.rng import GameRandom

__all__ = ["Playable", "Policy", "best_action", "clone", "play_out"]

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
    seeded with ``seed``: lists (and lists of lists) are copied, everything else is shared.

    Far cheaper than a snapshot round trip, whose generator state is most of its cost; the
    generator's bound methods an engine caches are bound to the new generator.
    """
    cls = type(state)
    copy = cls.__new__(cls)
    rng = GameRandom(seed)
    old: Any = None
    for name in cls.__slots__:  # type: ignore[attr-defined]
        value = getattr(state, name)
        if isinstance(value, GameRandom):
            old, value = value, rng
        elif isinstance(value, list):
            value = [v[:] if isinstance(v, list) else v for v in value]
        setattr(copy, name, value)
    for name in cls.__slots__:  # type: ignore[attr-defined]
        value = getattr(copy, name)
        if old is not None and getattr(value, "__self__", None) is old._random:
            setattr(copy, name, getattr(rng._random, value.__name__))
    return copy


Policy = Callable[[Any, int], Action]  # (state, seat to act) -> its action


def play_out(state: Playable, seat: int, policy: Policy) -> float:
    """Play ``state`` to its end with ``policy`` for every seat; ``seat``'s result:
    1 for a win, 0.5 for a shared result (or an endless game), 0 for a loss."""
    apply = state.apply
    for _ in range(MAX_ROLLOUT_MOVES):
        if state.is_over:
            outcome = state.result.outcomes[seat]
            return 1.0 if outcome is Outcome.WIN else 0.5 if outcome is Outcome.DRAW else 0.0
        mover = state.current_seat
        assert mover is not None
        apply(mover, policy(state, mover))
    return 0.5


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
