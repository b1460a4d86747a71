"""Crazy Eights' section of the computer-player benchmark (``ai.py``): heads-up matches.

The levels play each other, a uniformly random legal player and the greedy baseline, which
sheds the card worth most points first (so an 8, worth 50, as soon as it fits), names with an
8 the suit it holds most and draws only when nothing fits.
"""

from __future__ import annotations

import random
from collections import Counter

from benchmarks.ai_match import hard_games, level_cases, run_cases
from benchmarks.harness import Report
from rules.cards import Rank
from rules.crazyeights import CrazyEightsView, Draw, Pass, PlayCard, card_points, legal_moves, new
from rules.crazyeights.ai import choose_action

GAMES = 2_000  # games a match; the hard player's matches play fewer (ai_match.hard_games)


def random_player(view: CrazyEightsView, rng: random.Random) -> PlayCard | Draw | Pass:
    """A uniformly random legal move (each suit named with an 8 counts as one move)."""
    return rng.choice(legal_moves(view))


def greedy_player(view: CrazyEightsView, rng: random.Random) -> PlayCard | Draw | Pass:
    """The baseline: the card worth most points first (the first of them on a tie); draws
    only when nothing fits."""
    if not view.playable:
        return Draw() if view.can_draw else Pass()
    card = max(view.playable, key=card_points)
    if card.rank is Rank.EIGHT:
        held = Counter(c.suit for c in view.hand or () if c.rank is not Rank.EIGHT)
        return PlayCard(card, max(held, key=held.__getitem__, default=card.suit))
    return PlayCard(card)


def run(report: Report, games: int, seed: int) -> None:
    """Crazy Eights' matches (see the module docstring), ``games`` a match."""
    cases = level_cases("crazyeights", choose_action, random_player, games)
    cases += [
        ("crazyeights normal vs greedy", cases[1][1], greedy_player, games, None),
        (
            "crazyeights hard vs greedy",
            cases[2][1],
            greedy_player,
            hard_games(games, weaker=True),
            None,
        ),
    ]
    run_cases(report, lambda deal: new(2, seed=deal), cases, seed)
