"""Blackjack engine speed: random-policy games per second, beside RLCard's ``BlackjackGame``.

Every seat is played by a policy choosing Hit or Stand uniformly at random, the House plays
by its rule, and a game is counted from the deal (a fresh 4-deck shoe) to the result. The
main cases are unseeded games (the fair shoe Discord tables use, rule 12) with 1 and 4
players; the seed program's reproduction (``seed=N``: the 1000-swap shuffle in pure Python,
rule 11) is measured as its own case. RLCard's raw game loop is measured in the same run
with the same players and 4 decks, when it is importable (``.venv/bin/pip install rlcard``;
never a test dependency). Each figure is the median of ``--repeats`` (at least 5) runs.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from harness import Report, median_rate

from rules.blackjack import new

CASES = (1, 4)
DECKS = 4
GAMES_PER_BATCH = 50


def play_random_game(players: int, pick: Callable[[], float], seed: int | None = None) -> int:
    """One game with every seat choosing at random; returns the number of decisions."""
    state = new(players, seed=seed)
    apply = state.apply
    legal = state.legal_actions
    decisions = 0
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        options = legal(seat)
        apply(seat, options[int(pick() * 2)])
        decisions += 1
    return decisions


def _deckhand_batch(players: int, *, seeded: bool) -> Callable[[], int]:
    pick = random.Random(0).random
    seeds = iter(range(10**9))

    def batch() -> int:
        for _ in range(GAMES_PER_BATCH):
            play_random_game(players, pick, next(seeds) if seeded else None)
        return GAMES_PER_BATCH

    return batch


def _rlcard_batch(players: int) -> Callable[[], int] | None:
    try:
        from rlcard.games.blackjack.game import BlackjackGame
    except ImportError:
        return None
    game = BlackjackGame()
    game.configure({"game_num_players": players, "game_num_decks": DECKS})
    game.np_random.seed(0)
    choice = random.Random(0).choice
    actions = ("hit", "stand")

    def batch() -> int:
        for _ in range(GAMES_PER_BATCH):
            game.init_game()
            while not game.is_over():
                game.step(choice(actions))
        return GAMES_PER_BATCH

    return batch


def bench(report: Report, args: argparse.Namespace) -> None:
    """Random-policy games/s for 1 and 4 players (fair and seeded), and RLCard when present."""
    repeats = max(5, getattr(args, "repeats", 5))
    ratios: list[float] = []
    for players in CASES:
        case = f"blackjack random game, {players} player{'s' if players > 1 else ''}"
        ours = median_rate(_deckhand_batch(players, seeded=False), repeats=repeats)
        report.add(case, "games/s", ours, "games/s")
        seeded = median_rate(_deckhand_batch(players, seeded=True), repeats=repeats)
        report.add(f"{case}, seed program's shuffle", "games/s", seeded, "games/s")
        rlcard = _rlcard_batch(players)
        if rlcard is None:
            continue
        theirs = median_rate(rlcard, repeats=repeats)
        report.add_baseline("rlcard", case, "games/s", theirs, "games/s")
        ratios.append(ours / theirs)
        report.note(f"blackjack {players} players: {ours / theirs:.2f}x RLCard BlackjackGame")
    if ratios:
        report.set_ratio("rlcard", min(ratios))
    else:
        report.note("rlcard not importable: install it to measure the peer")
