"""Rows and the stand-alone entry point shared by the board games' computer-player sections
(``ai_gostop.py``, ``ai_rummikub.py``, ``ai_blackjack.py``): each figure goes in the report
with its 95% interval as two more rows, and each module can run alone with ``--json``.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ai_stats import mean_interval, wilson_interval
from harness import Report, percentile

from rules.levels import Level

T = TypeVar("T")


def add_mean(
    report: Report, case: str, metric: str, values: Sequence[float], unit: str
) -> tuple[float, float, float]:
    """Add the mean of ``values`` and its 95% low and high; returns ``(mean, low, high)``."""
    mean, low, high = mean_interval(values)
    report.add(case, metric, mean, unit)
    report.add(case, f"{metric} 95% low", low, unit)
    report.add(case, f"{metric} 95% high", high, unit)
    return mean, low, high


def add_share(report: Report, case: str, wins: float, trials: int) -> tuple[float, float, float]:
    """Add a win share (a draw counts half) and its Wilson 95% interval, in percent."""
    low, high = wilson_interval(wins, trials)
    share = wins / trials
    report.add(case, "win share", 100 * share, "%")
    report.add(case, "win share 95% low", 100 * low, "%")
    report.add(case, "win share 95% high", 100 * high, "%")
    return share, low, high


class Timings:
    """Decision times of one player: wall clock and this process's CPU time, in seconds."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def time(self, decide: Callable[[], T]) -> T:
        """Run ``decide`` and keep how long it took."""
        wall, cpu = time.perf_counter(), time.process_time()
        result = decide()
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return result

    def add_rows(self, report: Report, case: str) -> float:
        """Add the p99 decision time (CPU and wall clock) in ms; returns the CPU one, which
        is what "on one core" means on a shared machine."""
        cpu = 1000 * percentile(self.cpu, 0.99)
        report.add(case, "decision p99 (CPU)", cpu, "ms")
        report.add(case, "decision p99 (wall clock)", 1000 * percentile(self.wall, 0.99), "ms")
        report.add(case, "slowest decision (CPU)", 1000 * max(self.cpu), "ms")
        report.add(case, "decisions timed", len(self.cpu), "decisions")
        return cpu


def verdict(met: bool) -> str:
    """``met`` or ``NOT met`` for a note."""
    return "met" if met else "NOT met"


def main(name: str, run: Callable[[Report, int, int], None], games: int) -> int:
    """Run one section alone: ``--games``, ``--seed``, ``--json``; print the table."""
    parser = argparse.ArgumentParser(description=f"computer-player benchmark: {name}")
    parser.add_argument("--games", type=int, default=games, help="games (deals) per match")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed")
    parser.add_argument("--json", metavar="OUT.json", help="also write the report as JSON")
    args = parser.parse_args()
    report = Report(benchmark=f"ai.{name}")
    run(report, args.games, args.seed)
    load = os.getloadavg()[0]
    report.note(f"machine load (1 min) at the end: {load:.2f}")
    report.print_table()
    if args.json:
        report.write_json(args.json)
    return 0


Player = Callable[[Any, random.Random], Any]  # a game's view and an rng -> its move


def lineup(
    choose: Callable[[Any, Level, random.Random], Any],
    timings: Timings,
    **peers: Player,
) -> dict[str, Player]:
    """The game's three levels by name (hard's decisions timed), then its ``peers``."""

    def at(level: Level) -> Player:
        def play(view: Any, rng: random.Random) -> Any:
            if level is Level.HARD:
                return timings.time(lambda: choose(view, level, rng))
            return choose(view, level, rng)

        return play

    return {level.value: at(level) for level in Level} | peers


def pairings(
    games: int, peers: Sequence[str], *, hard_vs_normal: int = 4
) -> list[tuple[str, str, int]]:
    """The matches of a section, ``(first, second, deals)``: hard against normal
    ``hard_vs_normal`` times as long (the target it must show), then the levels against each
    other and every level against each peer."""
    return [
        ("hard", "normal", hard_vs_normal * games),
        ("normal", "easy", games),
        ("hard", "easy", games),
        *((level.value, peer, games) for peer in peers for level in Level),
    ]
