"""Uno engine speed: random-policy games per second, beside RLCard's raw ``UnoGame`` loop.

The policy plays RLCard's game at random: a uniformly chosen playable card (each wild
colour counts as one choice), drawing only when nothing is playable, playing a drawn card
that can be played (RLCard plays it automatically) and taking +2/+4 cards without a
challenge (RLCard has none). Both engines play whole games (deal included) with 2 and 4
players; each figure is the median of ``--repeats`` runs (at least 5), Deckhand's and
RLCard's runs alternating. RLCard is measured only when it is importable
(``.venv/bin/pip install rlcard``); it is never a test dependency.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from harness import Report, interleaved_rates, median_rate

from rules.uno import Draw, Pass, new

CASES = (2, 4)
_LAST_RESORT = (Draw, Pass)
GAMES_PER_BATCH = 20
MAX_ACTIONS = 10_000  # a random game this long is abandoned (it never happens in practice)


def play_random_game(players: int, seed: int, ruleset: str = "official") -> int:
    """One game under the benchmark policy; returns the number of actions taken."""
    state = new(players, seed=seed, options={"ruleset": ruleset})
    pick = random.Random(seed).random
    legal = state.legal_actions
    apply = state.apply
    actions = 0
    for actions in range(1, MAX_ACTIONS + 1):  # noqa: B007 (returned: the game length)
        seat = state.turn
        options = legal(seat)
        if state.pending:
            apply(seat, options[-1])  # take the +2/+4 cards: RLCard has no challenge
        else:
            count = len(options)
            if count > 1 and options[-1].__class__ in _LAST_RESORT:
                count -= 1  # draw only when nothing plays; a playable drawn card is played
            apply(seat, options[int(pick() * count)])
        if state._result is not None:
            break
    return actions


def _deckhand_batch(players: int, ruleset: str) -> Callable[[], int]:
    seeds = iter(range(10**9))

    def batch() -> int:
        for _ in range(GAMES_PER_BATCH):
            play_random_game(players, next(seeds), ruleset)
        return GAMES_PER_BATCH

    return batch


def _rlcard_batch(players: int) -> Callable[[], int] | None:
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    choice = random.Random(0).choice

    def batch() -> int:
        for _ in range(GAMES_PER_BATCH):
            game.init_game()
            while not game.is_over():
                game.step(choice(game.get_legal_actions()))
        return GAMES_PER_BATCH

    return batch


def bench(report: Report, args: argparse.Namespace) -> None:
    """Random-policy games/s for 2 and 4 players, both rulesets, and RLCard when present."""
    repeats = max(5, getattr(args, "repeats", 5))
    ratios: list[float] = []
    for players in CASES:
        case = f"uno random game, {players} players"
        ours, theirs = interleaved_rates(
            _deckhand_batch(players, "official"), _rlcard_batch(players), repeats
        )
        report.add(case, "games/s", ours, "games/s")
        seed_rate = median_rate(_deckhand_batch(players, "seed"), repeats=repeats)
        report.add(f"{case}, seed ruleset", "games/s", seed_rate, "games/s")
        if theirs is None:
            continue
        report.add_baseline("rlcard", case, "games/s", theirs, "games/s")
        ratios.append(ours / theirs)
        report.note(f"uno {players} players: {ours / theirs:.2f}x RLCard UnoGame")
    if ratios:
        report.set_ratio("rlcard", min(ratios))
    else:
        report.note("rlcard not importable: install it to measure the peer")
