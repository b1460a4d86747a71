"""Blackjack computer players at each level: expected return per hand against the House.

    python benchmarks/ai_blackjack.py [--games HANDS] [--seed S] [--json OUT.json]

One computer seat plays fair seeded hands (``new(1, seed=s, fair=True)``, the shoe freshly
shuffled each hand) at each ``computer_level``: ``normal`` is the seed's rule (rule 7: hit
below 14, stand above 17, a coin from 14 to 17), ``hard`` is basic strategy for these rules,
``easy`` the backwards beginner (see ``rules/blackjack/ai.py``). A hand returns +1 won,
0 drawn, -1 lost (no 3:2 for a Blackjack here). Every level plays the same seeds, so the
difference between two levels is also taken hand by hand with its own interval.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Appended, not put first: imported from the tests, this folder's bot.py must not hide the
# bot package.
sys.path.append(str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent))

from ai_rows import add_mean, main, verdict
from harness import Report

from rules.blackjack import new
from rules.engine import Outcome
from rules.levels import Level

GAMES = 100_000  # hands each level plays
RETURN = {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSE: -1}
NAMES = {Level.EASY: "easy", Level.NORMAL: "normal (seed rule)", Level.HARD: "hard (basic)"}


def returns(level: Level, hands: int, seed: int) -> list[int]:
    """Each hand's return for a computer seat at ``level``, hands seeded from ``seed`` on."""
    options = {"computers": [0], "computer_level": level.value}
    out = []
    for s in range(seed, seed + hands):
        result = new(1, seed=s, fair=True, options=options).result
        assert result is not None  # a table of computers plays itself out at once
        out.append(RETURN[result.outcomes[0]])
    return out


def run(report: Report, games: int, seed: int) -> None:
    """The return per hand of each level over ``games`` hands, and the paired differences."""
    by_level = {level: returns(level, games, seed) for level in Level}
    means = {}
    for level, values in by_level.items():
        case = f"blackjack {NAMES[level]}, {games} hands"
        means[level] = add_mean(report, case, "return per hand", values, "units/hand")
    pairs = ((Level.HARD, Level.NORMAL), (Level.NORMAL, Level.EASY))
    for better, worse in pairs:
        diff = [a - b for a, b in zip(by_level[better], by_level[worse], strict=True)]
        case = f"blackjack {better.value} minus {worse.value}, same {games} hands"
        mean, low, high = add_mean(report, case, "return per hand", diff, "units/hand")
        report.note(
            f"blackjack {better.value} beats {worse.value}: {verdict(low > 0)} "
            f"({mean:+.4f}/hand, 95% {low:+.4f} to {high:+.4f})"
        )


if __name__ == "__main__":
    raise SystemExit(main("blackjack", run, GAMES))
