"""One Card's section of the computer-player benchmark (``ai.py``): heads-up matches.

The levels play each other, a uniformly random legal player and the greedy baseline, which
plays its strongest attack first (the highest attack value, then the highest rank), names
after a 7 the suit it holds most and defends whenever it can.
"""

from __future__ import annotations

import random

from benchmarks.ai_match import hard_games, level_cases, run_cases
from benchmarks.harness import Report
from rules.cards import Rank
from rules.onecard import OneCardView, PlayCard, Take, attack_value, new
from rules.onecard.ai import choose_action, favourite_suit, legal_moves

GAMES = 2_000  # games a match; the hard player's matches play fewer (ai_match.hard_games)


def random_player(view: OneCardView, rng: random.Random) -> PlayCard | Take:
    """A uniformly random legal move (each suit named after a 7 counts as one move)."""
    return rng.choice(legal_moves(view))


def greedy_player(view: OneCardView, rng: random.Random) -> PlayCard | Take:
    """The baseline: the strongest attack first, then the highest rank; takes only when
    nothing plays."""
    if not view.playable:
        return Take()
    card = max(view.playable, key=lambda c: (attack_value(c), int(c.rank)))
    if card.rank is Rank.SEVEN:
        return PlayCard(card, favourite_suit(view.hand or (), without=card))
    return PlayCard(card)


def run(report: Report, games: int, seed: int) -> None:
    """One Card's matches (see the module docstring), ``games`` a match."""
    cases = level_cases("onecard", choose_action, random_player, games)
    cases += [
        ("onecard normal vs greedy", cases[1][1], greedy_player, games, None),
        (
            "onecard hard vs greedy",
            cases[2][1],
            greedy_player,
            hard_games(games, weaker=True),
            None,
        ),
    ]
    run_cases(report, lambda deal: new(2, seed=deal), cases, seed)
