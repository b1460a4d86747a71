"""Rummikub computer players at each level: win share and mean points, heads-up.

    python benchmarks/ai_rummikub.py [--games N] [--seed S] [--json OUT.json]

Every match plays each deal twice with the seats swapped. A game's points are the first
player's final score (rule 13: the winner gains what the loser's rack is worth, the loser
loses it); the points interval is over deals (each deal's two games averaged), the win
share's is Wilson's over games (a shared win counts half). Opponents: each other level, a
random player (a uniform pick among drawing and every single legal placement: one new set of
three from the rack, or one rack tile added to an end of a table set; before its initial
meld, drawing or the solver's meld) and a greedy one (the solver's most-tiles play each turn).
Target (docs/design.md §8): hard wins at least 55% heads-up against normal; easy loses to normal.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable
from pathlib import Path

# Appended, not put first: imported from the tests, this folder's bot.py must not hide the
# bot package.
sys.path.append(str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent))

from ai_rows import Timings, add_mean, add_share, lineup, main, pairings, verdict
from harness import Report

from rules.engine import Action
from rules.rummikub import new
from rules.rummikub.ai import choose_action, hint, lay_offs
from rules.rummikub.events import Draw, Meld
from rules.rummikub.sets import check_set
from rules.rummikub.state import RummikubView

Player = Callable[[RummikubView, random.Random], Action]
GAMES = 60  # deals per match (each played twice); hard vs normal plays HARD_VS_NORMAL times as many
# Eight times: 960 games put the interval of a share near 58% about 3 points either way,
# the width needed to show it above 55%.
HARD_VS_NORMAL = 8


def placements(view: RummikubView) -> list[Action]:
    """Every single legal placement: a new set of three rack tiles, or one rack tile added
    to either end of a table set (before the initial meld: the solver's meld, if any)."""
    assert view.seat is not None
    if not view.melded[view.seat]:
        meld = hint(view)
        return [Meld(meld.table)] if meld.found else []
    table = list(view.table)
    plays: list[Action] = []
    for trio in sorted(set(itertools.combinations(sorted(view.rack), 3))):
        if check_set(trio).valid:
            plays.append(Meld((*table, trio)))
    for tile in sorted(set(view.rack)):
        plays.extend(Meld(grown) for _i, grown in lay_offs(tile, table))
    return plays


def random_player(view: RummikubView, rng: random.Random) -> Action:
    """Draw or one legal placement, uniformly."""
    choices: list[Action] = [Draw(), *placements(view)]
    return choices[int(rng.random() * len(choices))]


def greedy_player(view: RummikubView, rng: random.Random) -> Action:
    """The solver's play with the most tiles (jokers included); draw when there is none."""
    play = hint(view)
    return Meld(play.table) if play.found else Draw()


def play_game(seed: int, players: tuple[Player, Player]) -> tuple[float, int]:
    """One game dealt from ``seed``: seat 0's win (1, a half when shared, 0) and points."""
    state = new(2, seed=seed)
    rngs = (random.Random(2 * seed), random.Random(2 * seed + 1))
    seat = state.current_seat
    while seat is not None:
        state.apply(seat, players[seat](state.view(seat), rngs[seat]))
        seat = state.current_seat
    result = state.result
    assert result is not None
    win = 1 / len(result.winners) if 0 in result.winners else 0.0
    return win, result.scores[0]


def match(a: Player, b: Player, deals: int, seed: int) -> tuple[float, list[float]]:
    """``a``'s wins over the ``2 * deals`` games and its mean points per deal."""
    wins = 0.0
    points: list[float] = []
    for s in range(seed, seed + deals):
        first_win, first_points = play_game(s, (a, b))
        second_win, second_points = play_game(s, (b, a))
        wins += first_win + 1 - second_win
        points.append((first_points - second_points) / 2)
    return wins, points


def run(report: Report, games: int, seed: int) -> None:
    """Every level against each other, random and greedy, ``games`` deals a match."""
    timings = Timings()
    players = lineup(choose_action, timings, random=random_player, greedy=greedy_player)
    pairs = pairings(games, ("random", "greedy"), hard_vs_normal=HARD_VS_NORMAL)
    shares: dict[tuple[str, str], tuple[float, float, float]] = {}
    for first, second, deals in pairs:
        wins, points = match(players[first], players[second], deals, seed)
        case = f"rummikub {first} vs {second}, {deals} deals x2"
        shares[first, second] = add_share(report, case, wins, 2 * deals)
        add_mean(report, case, "mean points", points, "points/game")
    p99 = timings.add_rows(report, "rummikub hard decisions")
    share, low, high = shares["hard", "normal"]
    report.note(
        f"rummikub hard vs normal {100 * share:.1f}% (95% {100 * low:.1f} to {100 * high:.1f}): "
        f"target 55% {verdict(share >= 0.55)} on the share, {verdict(low >= 0.55)} at the "
        f"interval's low end, hard better than normal {verdict(low > 0.5)} (low end above 50%)"
    )
    share, low, high = shares["normal", "easy"]
    report.note(
        f"rummikub easy loses to normal: {verdict(low > 0.5)} (normal wins {100 * share:.1f}%, "
        f"95% {100 * low:.1f} to {100 * high:.1f})"
    )
    report.note(f"rummikub hard decision p99 {p99:.0f} ms CPU: 200 ms {verdict(p99 <= 200)}")


if __name__ == "__main__":
    raise SystemExit(main("rummikub", run, GAMES))
