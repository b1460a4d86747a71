"""Go-Stop (Matgo) engine speed: random-policy games and decisions per second.

The policy picks uniformly among ``legal_actions`` (every card, each floor-card choice, shake
or not, bomb, Go or Stop, chongtong end or play on). Each batch plays whole games, deal
included; each figure is the median of ``--repeats`` (at least 5) runs on one core. The
verdict and the ratio use the wall-clock median; games per CPU second are shown beside it.

Target (engine speed, docs/design.md §8): 12,000 random games/s, the figure a TypeScript
Matgo engine (p2p-gostop) states on Node (V8 JIT). That peer is *reported, not measured*: no
Matgo engine is installable from a Python registry and p2p-gostop is not on npm (``npm view
p2p-gostop``: 404), so the ratio compares our measured figure with the stated one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from harness import Report, median_rate

from rules.gostop import new

GAMES_PER_BATCH = 50
TARGET_GAMES_PER_SECOND = 12_000
TS_MATGO_REPORTED_GAMES_PER_SECOND = 12_000


def play_random_game(seed: int, pick: Callable[[], float] | None = None) -> int:
    """One game under the random policy; returns the number of decisions taken.

    ``pick`` draws the policy's floats; without one the game seeds its own generator, so a
    seed alone replays it. The batches pass one generator for all their games: seeding a
    Mersenne Twister costs about 3.5 us, a twenty-fifth of a whole game, and is the harness's
    cost, not the engine's (the deal's own seeding stays in every game).
    """
    state = new(2, seed=seed)
    if pick is None:
        pick = random.Random(seed).random
    legal = state.legal_actions
    apply = state.apply
    decisions = 0
    seat = state.current_seat
    while seat is not None:
        options = legal(seat)
        apply(seat, options[int(pick() * len(options))])
        decisions += 1
        seat = state.current_seat
    return decisions


def _batches() -> tuple[Callable[[], int], Callable[[], int]]:
    seeds = iter(range(10**9))
    pick = random.Random(0).random  # the policy's floats, one generator for every batch

    def decisions() -> int:
        return sum(play_random_game(next(seeds), pick) for _ in range(GAMES_PER_BATCH))

    def games() -> int:
        for _ in range(GAMES_PER_BATCH):
            play_random_game(next(seeds), pick)
        return GAMES_PER_BATCH

    return decisions, games


def median_cpu_rate(
    run_batch: Callable[[], int], *, repeats: int, min_seconds: float = 0.3
) -> float:
    """Like ``harness.median_rate`` but over this process's CPU time, not the wall clock.

    On a shared machine the wall clock also counts time spent waiting for a core; CPU time is
    what "per second on one core" means.
    """
    rates = []
    for _ in range(repeats):
        items = 0
        start = time.process_time()
        while True:
            items += run_batch()
            elapsed = time.process_time() - start
            if elapsed >= min_seconds:
                break
        rates.append(items / elapsed)
    return statistics.median(rates)


def bench(report: Report, args: argparse.Namespace) -> None:
    """Random-policy games/s and decisions/s, beside the reported TypeScript figure."""
    repeats = max(5, getattr(args, "repeats", 5))
    case = "gostop random game, 2 players"
    decisions, games = _batches()
    per_game = median_rate(games, repeats=repeats)
    report.add(case, "games/s", per_game, "games/s")
    report.add(case, "decisions/s", median_rate(decisions, repeats=repeats), "decisions/s")
    cpu_games = median_cpu_rate(games, repeats=repeats)
    report.add(case, "games per CPU second", cpu_games, "games/s")
    peer = "typescript-matgo (reported, Node)"
    report.add_baseline(
        peer, "matgo random game", "games/s", TS_MATGO_REPORTED_GAMES_PER_SECOND, "games/s"
    )
    ratio = per_game / TS_MATGO_REPORTED_GAMES_PER_SECOND
    report.set_ratio(peer, ratio)
    verdict = "meets" if per_game >= TARGET_GAMES_PER_SECOND else "misses"
    report.note(
        f"gostop {per_game:,.0f} games/s wall clock, {cpu_games:,.0f} per CPU second: {verdict} "
        f"the {TARGET_GAMES_PER_SECOND:,} target; {ratio:.2f}x the TypeScript engine's stated "
        "~12,000/s (reported, not measured here: p2p-gostop is not on npm)"
    )
