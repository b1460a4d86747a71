"""Go-Stop computer players at each level: mean point difference per game, heads-up.

    python benchmarks/ai_gostop.py [--games N] [--seed S] [--json OUT.json]

Every match plays each deal twice with the seats swapped, so the deal's luck cancels; a
deal's figure is the first player's mean point difference (its final score minus the
other's) over its two games, and the interval is over deals. Opponents: each other level,
a uniformly random legal player, and a greedy one (the biggest capture first, Stop at once).
The hard player's decision time p99 is taken over every hard decision of the section.
Target (docs/design.md §8): hard at least +1.0 point per game over normal; easy loses to normal.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

# Appended, not put first: imported from the tests, this folder's bot.py must not hide the
# bot package.
sys.path.append(str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent))

from ai_rows import Timings, add_mean, lineup, main, pairings, verdict
from harness import Report

from rules.engine import Action
from rules.gostop import Bomb, ChongtongChoice, GostopView, Play, Stop, new
from rules.gostop.ai import choose_action

Player = Callable[[GostopView, random.Random], Action]
GAMES = 250  # deals per match (each played twice); hard vs normal plays four times as many


def random_player(view: GostopView, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return view.legal[int(rng.random() * len(view.legal))]


def _captures(view: GostopView, action: Action) -> int:
    on_floor = {month: len(cards) for month, cards, _stack in view.floor}
    if isinstance(action, Bomb):
        return 4
    if isinstance(action, Play):
        n = on_floor.get(action.card.month, 0) if action.card.month else 0
        return 1 if not action.card.month else (0 if n == 0 else 4 if n == 3 else 2)
    return 0


def greedy_player(view: GostopView, rng: random.Random) -> Action:
    """The biggest capture first (the first such card in hand order); Stop as soon as it
    may; a chongtong ends the game; a flip takes the first floor card offered."""
    first = view.legal[0]
    if isinstance(first, ChongtongChoice):
        return ChongtongChoice(end=True)
    if isinstance(first, Play | Bomb):
        return max(view.legal, key=lambda a: _captures(view, a))
    if any(isinstance(a, Stop) for a in view.legal):
        return Stop()
    return first


def point_difference(seed: int, players: tuple[Player, Player]) -> int:
    """One game dealt from ``seed``: seat 0's final score minus seat 1's."""
    state = new(2, seed=seed)
    rngs = (random.Random(2 * seed), random.Random(2 * seed + 1))
    seat = state.current_seat
    while seat is not None:
        state.apply(seat, players[seat](state.view(seat), rngs[seat]))
        seat = state.current_seat
    assert state.result is not None
    return state.result.scores[0] - state.result.scores[1]


def match(a: Player, b: Player, deals: int, seed: int) -> list[float]:
    """Per deal, ``a``'s mean point difference over the deal played from both seats."""
    return [
        (point_difference(s, (a, b)) - point_difference(s, (b, a))) / 2
        for s in range(seed, seed + deals)
    ]


def run(report: Report, games: int, seed: int) -> None:
    """Every level against each other, random and greedy, ``games`` deals a match."""
    timings = Timings()
    players = lineup(choose_action, timings, random=random_player, greedy=greedy_player)
    pairs = pairings(games, ("random", "greedy"))
    means: dict[tuple[str, str], tuple[float, float, float]] = {}
    for first, second, deals in pairs:
        values = match(players[first], players[second], deals, seed)
        case = f"gostop {first} vs {second}, {deals} deals x2"
        means[first, second] = add_mean(report, case, "mean points", values, "points/game")
    p99 = timings.add_rows(report, "gostop hard decisions")
    mean, low, high = means["hard", "normal"]
    report.note(
        f"gostop hard vs normal {mean:+.2f} points/game (95% {low:+.2f} to {high:+.2f}): "
        f"target +1.0 {verdict(mean >= 1.0)} on the mean, "
        f"{verdict(low >= 1.0)} at the interval's low end, hard better than normal "
        f"{verdict(low > 0)} (low end above 0)"
    )
    mean, low, high = means["normal", "easy"]
    report.note(
        f"gostop easy loses to normal: {verdict(low > 0)} (normal {mean:+.2f}, 95% "
        f"{low:+.2f} to {high:+.2f})"
    )
    report.note(f"gostop hard decision p99 {p99:.0f} ms CPU: 200 ms {verdict(p99 <= 200)}")


if __name__ == "__main__":
    raise SystemExit(main("gostop", run, GAMES))
