"""One Card engine speed: random-policy decisions and games per second with 4 players.

The policy picks uniformly among ``legal_actions`` (every playable card, a 7 once per suit,
and Take). Each batch plays whole games, deal included; each figure is the median of
``--repeats`` (at least 5) runs. The peer is OpenSpiel's ``crazy_eights`` (the closest game
it ships: match suit or rank, attack-free) driven the same way from Python, chance nodes
sampled by their probabilities; it is measured only when ``pyspiel`` is importable
(the bench extra: ``pip install -e .[bench]``) and is never a test dependency. Target: 100k
decisions/s.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from harness import Report, median_rate

from rules.onecard import new

PLAYERS = 4
GAMES_PER_BATCH = 20


def play_random_game(players: int, seed: int) -> int:
    """One game under the random policy; returns the number of decisions taken."""
    state = new(players, seed=seed)
    pick = random.Random(seed).random
    legal = state.legal_actions
    apply = state.apply
    decisions = 0
    while state._result is None:
        seat = state._current
        options = legal(seat)
        apply(seat, options[int(pick() * len(options))])
        decisions += 1
    return decisions


def _deckhand_batches() -> tuple[Callable[[], int], Callable[[], int]]:
    seeds = iter(range(10**9))

    def decisions() -> int:
        return sum(play_random_game(PLAYERS, next(seeds)) for _ in range(GAMES_PER_BATCH))

    def games() -> int:
        for _ in range(GAMES_PER_BATCH):
            play_random_game(PLAYERS, next(seeds))
        return GAMES_PER_BATCH

    return decisions, games


def _openspiel_batches() -> tuple[Callable[[], int], Callable[[], int]] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": PLAYERS})
    rng = random.Random(0)

    def play() -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return int(decisions)

    def decisions() -> int:
        return sum(play() for _ in range(GAMES_PER_BATCH))

    def games() -> int:
        for _ in range(GAMES_PER_BATCH):
            play()
        return GAMES_PER_BATCH

    return decisions, games


def bench(report: Report, args: argparse.Namespace) -> None:
    """Random-policy decisions/s and games/s with 4 players, and OpenSpiel when present."""
    repeats = max(5, getattr(args, "repeats", 5))
    case = f"onecard random game, {PLAYERS} players"
    decisions, games = _deckhand_batches()
    ours = median_rate(decisions, repeats=repeats)
    report.add(case, "decisions/s", ours, "decisions/s")
    report.add(case, "games/s", median_rate(games, repeats=repeats), "games/s")
    peer = _openspiel_batches()
    if peer is None:
        report.note("open_spiel not importable: install it to measure crazy_eights")
        return
    theirs = median_rate(peer[0], repeats=repeats)
    peer_case = f"crazy_eights random game, {PLAYERS} players"
    report.add_baseline("open_spiel", peer_case, "decisions/s", theirs, "decisions/s")
    report.add_baseline(
        "open_spiel", peer_case, "games/s", median_rate(peer[1], repeats=repeats), "games/s"
    )
    report.set_ratio("open_spiel", ours / theirs)
    report.note(
        f"onecard {ours / theirs:.2f}x OpenSpiel crazy_eights in decisions/s "
        "(different games: crazy_eights has no attacks; both driven from Python)"
    )
