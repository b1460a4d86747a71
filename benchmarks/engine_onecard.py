"""One Card engine speed: random-policy decisions and games per second with 2 and 4 players.

The policy picks uniformly among ``legal_actions`` (every playable card, a 7 once per suit,
and Take). Each batch plays whole games, deal included; each figure is the median of
``--repeats`` (at least 5) runs. The peer is OpenSpiel's ``crazy_eights`` (the closest game
it ships: match suit or rank, attack-free) driven the same way from Python, chance nodes
sampled by their probabilities; it is measured in the same run, for the same player counts,
only when ``pyspiel`` is importable (the bench extra: ``pip install -e .[bench]``) and is never
a test dependency. Runs of the two alternate so machine load hits both alike. Target: 100k
decisions/s with 4 players.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from harness import Report, interleaved_rates

from rules.onecard import new

PLAYER_COUNTS = (2, 4)
GAMES_PER_BATCH = 20


def play_random_game(players: int, seed: int, deal: Callable[..., Any] = new) -> int:
    """One game under the random policy; returns the number of decisions taken. ``deal`` is
    the engine's ``new`` (Crazy Eights' section plays its own game here too)."""
    state = deal(players, seed=seed)
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


Batches = tuple[Callable[[], int], Callable[[], int]]


def _deckhand_batches(players: int, deal: Callable[..., Any]) -> Batches:
    seeds = iter(range(10**9))

    def decisions() -> int:
        return sum(play_random_game(players, next(seeds), deal) for _ in range(GAMES_PER_BATCH))

    def games() -> int:
        for _ in range(GAMES_PER_BATCH):
            play_random_game(players, next(seeds), deal)
        return GAMES_PER_BATCH

    return decisions, games


def _openspiel_batches(players: int) -> Batches | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": players})
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
    """Random-policy decisions/s and games/s with 2 and 4 players, and OpenSpiel when present.

    The recorded ratio is the smallest decisions/s ratio over the player counts; each count's
    ratios are printed as notes.
    """
    bench_beside_crazy_eights(
        report,
        args,
        "onecard",
        new,
        "different games: crazy_eights has no attacks and its games differ in length, so "
        "compare decisions/s",
    )


def bench_beside_crazy_eights(
    report: Report, args: argparse.Namespace, game: str, deal: Callable[..., Any], caveat: str
) -> None:
    """``game``'s random games (dealt by ``deal``) beside OpenSpiel's ``crazy_eights`` for
    :func:`bench`; ``caveat`` says how the two games differ."""
    repeats = max(5, getattr(args, "repeats", 5))
    ratios: list[float] = []
    for players in PLAYER_COUNTS:
        case = f"{game} random game, {players} players"
        peer_case = f"crazy_eights random game, {players} players"
        ours_batches = _deckhand_batches(players, deal)
        peer = _openspiel_batches(players)
        rates: dict[str, tuple[float, float | None]] = {}
        for index, metric in enumerate(("decisions/s", "games/s")):
            ours, theirs = interleaved_rates(
                ours_batches[index], None if peer is None else peer[index], repeats
            )
            rates[metric] = (ours, theirs)
            report.add(case, metric, ours, metric)
            if theirs is not None:
                report.add_baseline("open_spiel", peer_case, metric, theirs, metric)
        if peer is None:
            continue
        per_metric = {metric: ours / theirs for metric, (ours, theirs) in rates.items() if theirs}
        ratios.append(per_metric["decisions/s"])
        report.note(
            f"{game} {players} players: {per_metric['decisions/s']:.2f}x OpenSpiel crazy_eights "
            f"in decisions/s, {per_metric['games/s']:.2f}x in games/s"
        )
    if ratios:
        report.set_ratio("open_spiel", min(ratios))
        report.note(
            f"{caveat}; both driven from Python; the ratio above is the smaller decisions/s "
            "ratio of the player counts"
        )
    else:
        report.note("open_spiel not importable: install it to measure crazy_eights")
