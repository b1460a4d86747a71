"""The search behind the hard players: the budgeted, sequentially halving choice."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.engine import Action, Outcome, Result
from rules.montecarlo import budgeted_action, rollout


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
