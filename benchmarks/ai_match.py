"""Heads-up matches between computer players, for the card games' sections of ``ai.py``.

Each deal is played twice with the seats swapped (game ``2k`` and ``2k + 1`` share a deal
seed), so neither player profits from the seat that starts. A share counts a win as 1 and
a shared result as a half.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.ai_stats import wilson_interval
from benchmarks.harness import Report, percentile
from rules.engine import Action, Outcome
from rules.levels import Level

# A player: the seat's view and a generator to decide with -> the action.
Player = Callable[[Any, random.Random], Action]
DECISION_P99_MS = 200  # the levels' target: the hard player's budget per decision on one core
MAX_MOVES = 5_000  # a match game this long is scored as shared (it never happens in practice)


@dataclass
class Match:
    """What one match measured: the first player's points and each timed decision."""

    games: int = 0
    points: float = 0.0
    seconds: list[float] = field(default_factory=list)

    @property
    def share(self) -> float:
        """The first player's share of the points."""
        return self.points / self.games


def heads_up(
    new_game: Callable[[int], Any],
    first: Player,
    second: Player,
    games: int,
    seed: int,
    *,
    timed: bool = False,
) -> Match:
    """Play ``games`` two-seat games of ``first`` against ``second``.

    ``new_game(deal_seed)`` deals one game. With ``timed`` every decision of ``first`` is
    timed in CPU seconds of this process (so other load on the machine does not inflate it).
    """
    match = Match()
    for game in range(games):
        deal = seed * 1_000_003 + game // 2
        state = new_game(deal)
        hero = game % 2  # the seat ``first`` takes: swapped on the second play of a deal
        players = (first, second) if hero == 0 else (second, first)
        rngs = (random.Random(deal * 2), random.Random(deal * 2 + 1))
        for _ in range(MAX_MOVES):
            if state.is_over:
                break
            seat = state.current_seat
            view = state.view(seat)
            if timed and seat == hero:
                start = time.process_time()
                action = players[seat](view, rngs[seat])
                match.seconds.append(time.process_time() - start)
            else:
                action = players[seat](view, rngs[seat])
            state.apply(seat, action)
        match.games += 1
        if state.is_over:
            outcome = state.result.outcomes[hero]
            match.points += 1.0 if outcome is Outcome.WIN else 0.5 if outcome is Outcome.DRAW else 0
        else:
            match.points += 0.5
    return match


def record(report: Report, case: str, match: Match, *, target: float | None = None) -> None:
    """Add the share with its 95% interval (and the decision time p99 of a timed match);
    with ``target``, a note whether the interval's low end shows the share above it."""
    low, high = wilson_interval(match.points, match.games)
    report.add(case, "games", match.games, "games")
    report.add(case, "win share", match.share, "share")
    report.add(case, "win share 95% low", low, "share")
    report.add(case, "win share 95% high", high, "share")
    if match.seconds:
        p99 = percentile(match.seconds, 0.99) * 1000
        report.add(case, "decision p99", p99, "ms")
        report.add(case, "decision max", max(match.seconds) * 1000, "ms")
        verdict = "met" if p99 <= DECISION_P99_MS else "NOT met"
        report.note(f"target {case}: decision p99 <= {DECISION_P99_MS} ms: {verdict} ({p99:.1f})")
    if target is not None:
        if low >= target:
            verdict = "met"
        elif match.share >= target:
            verdict = "not shown (share above, interval reaches below)"
        else:
            verdict = "NOT met"
        report.note(
            f"target {case}: win share >= {target:.0%}: {verdict} "
            f"({match.share:.1%}, 95% {low:.1%}-{high:.1%}, {match.games} games)"
        )


# One match: its case name, the two players, how many games and the share to show (or None).
Case = tuple[str, Player, Player, int, float | None]


def level_cases(game: str, choose: Callable[..., Action], rand: Player, games: int) -> list[Case]:
    """The matches every card game plays: each level against ``rand``, normal against easy
    and hard against easy and normal, with the levels' targets. The hard player's matches
    play half of ``games`` against normal and a twentieth against the weaker players: each
    of its decisions plays hundreds of games in its head (see :func:`hard_games`)."""
    easy, normal, hard = (
        (lambda view, rng, level=level: choose(view, level, rng)) for level in Level
    )
    return [
        (f"{game} easy vs random", easy, rand, games, None),
        (f"{game} normal vs random", normal, rand, games, None),
        (f"{game} hard vs random", hard, rand, hard_games(games, weaker=True), None),
        (f"{game} normal vs easy", normal, easy, games, 0.5),
        (f"{game} hard vs easy", hard, easy, hard_games(games, weaker=True), 0.5),
        (f"{game} hard vs normal", hard, normal, hard_games(games), 0.55),
    ]


def hard_games(games: int, *, weaker: bool = False) -> int:
    """Games of a hard player's match: half of ``games`` against normal, whose target (55%)
    is close to a coin's half, so its interval must be narrow (about 3 points either way
    over 1,000 games); a twentieth against a weaker player (the share is far from a half,
    so fewer games show it). Even, so every deal is played from both seats."""
    return max(2, games // (20 if weaker else 2) // 2 * 2)


def run_cases(report: Report, new_game: Callable[[int], Any], cases: list[Case], seed: int) -> None:
    """Play and record each case; the hard player's decisions are timed."""
    for case, first, second, games, target in cases:
        timed = " hard vs " in f" {case}"
        match = heads_up(new_game, first, second, games, seed, timed=timed)
        record(report, case, match, target=target)
