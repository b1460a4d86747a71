"""The search behind the hard players: the budgeted, sequentially halving choice."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.engine import Action, Outcome, Result
from rules.montecarlo import (
    MAX_ROLLOUT_MOVES,
    budgeted_action,
    clone,
    play_out_counted,
    rollout,
)
from rules.rng import GameRandom


@dataclass(frozen=True)
class Odds(Action):
    """A candidate that wins a toss when the world's number falls below ``p``."""

    p: float


class Toss:
    """A one-seat game: the candidate is chosen, then one move settles it against ``u``."""

    def __init__(self, u: float) -> None:
        self.u = u
        self.p: float | None = None
        self.result: Result | None = None

    @property
    def current_seat(self) -> int | None:
        return None if self.result is not None else 0

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def apply(self, seat: int, action: Any) -> None:
        if self.p is None:
            self.p = action.p
            return
        won = self.u < self.p
        self.result = Result((Outcome.WIN if won else Outcome.LOSE,), (int(won),), (0,))


class Dealer:
    """Deals worlds (one number each) and counts them."""

    def __init__(self) -> None:
        self.worlds = 0

    def __call__(self, rng: random.Random) -> Callable[[], Toss]:
        self.worlds += 1
        u = rng.random()
        return lambda: Toss(u)


def settle(state: Any, seat: int) -> Action:
    return Odds(0.0)  # any move settles the toss


def choose(candidates: list[Odds], dealer: Dealer, **kwargs: Any) -> Odds:
    options: dict[str, Any] = {"moves": 200, "min_worlds": 4, "max_worlds": 1_000}
    options.update(kwargs)
    return budgeted_action(candidates, dealer, 0, rollout(settle), rng=random.Random(1), **options)


def test_the_best_candidate_survives_the_halvings() -> None:
    odds = [Odds(p) for p in (0.3, 0.5, 0.45, 0.7, 0.2, 0.65, 0.1)]
    assert choose(odds, Dealer()) == Odds(0.7)


def test_the_budget_is_moves_and_overhead_with_a_floor_of_worlds() -> None:
    odds = [Odds(0.4), Odds(0.6)]
    cheap, dear, floor = Dealer(), Dealer(), Dealer()
    choose(odds, cheap, moves=100)
    choose(odds, dear, moves=100, overhead=4)
    choose(odds, floor, moves=0, min_worlds=9)
    # A world plays two one-move play-outs: 2 moves; with an overhead of 4, another 4 a
    # play-out and 8 for the world: 18.
    assert cheap.worlds == 50
    assert dear.worlds == 6
    assert floor.worlds == 9


def test_the_preferred_candidate_wins_within_the_margin() -> None:
    # In the same worlds 0.6 wins wherever 0.5 does, and a tenth of the worlds besides.
    odds = [Odds(0.5), Odds(0.6)]
    assert choose(odds, Dealer()) == Odds(0.6)
    assert choose(odds, Dealer(), prefer=Odds(0.5), margin=0.3) == Odds(0.5)
    assert choose(odds, Dealer(), prefer=Odds(0.5), margin=0.02) == Odds(0.6)


def test_a_single_candidate_is_chosen_without_a_world() -> None:
    dealer = Dealer()
    assert choose([Odds(0.1)], dealer) == Odds(0.1)
    assert dealer.worlds == 0


class Counting:
    """A game that ends after ``length`` moves, won by seat 0; it caches generator methods
    as engines do."""

    __slots__ = ("_draw", "_pick", "hands", "length", "made", "rng")

    def __init__(self, length: int, rng: GameRandom) -> None:
        self.length = length
        self.made = 0
        self.rng = rng
        self._draw = rng._random.random  # a C method
        self._pick = rng._random.randrange  # a Python one
        self.hands = [[1, 2], [3]]

    @property
    def current_seat(self) -> int | None:
        return None if self.is_over else 0

    @property
    def is_over(self) -> bool:
        return self.made >= self.length

    @property
    def result(self) -> Result:
        return Result((Outcome.WIN, Outcome.LOSE), (1, 0), (0, 1))

    def apply(self, seat: int, action: Any) -> None:
        self.made += 1


def test_a_clone_draws_from_its_own_generator_and_shares_no_list() -> None:
    original = Counting(3, GameRandom(1))
    first, second = clone(original, 9), clone(original, 9)
    assert first.rng is not original.rng
    assert first._draw() == second._draw() and first._pick(1000) == second._pick(1000)
    untouched = GameRandom(1)._random
    assert original._draw() == untouched.random()  # the original's generator never moved
    first.hands[0].append(4)
    assert original.hands == [[1, 2], [3]] and second.hands == [[1, 2], [3]]


def test_a_play_out_ending_on_its_last_allowed_move_counts_its_result() -> None:
    assert play_out_counted(Counting(MAX_ROLLOUT_MOVES, GameRandom(1)), 0, settle) == (
        1.0,
        MAX_ROLLOUT_MOVES,
    )
    assert play_out_counted(Counting(MAX_ROLLOUT_MOVES + 1, GameRandom(1)), 0, settle) == (
        0.5,
        MAX_ROLLOUT_MOVES,
    )
