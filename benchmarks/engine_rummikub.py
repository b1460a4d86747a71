"""Rummikub solver speed beside ``rummikub-solver`` (an ILP on cvxpy), on the same states.

Cases, 50 states each, dealt reproducibly from seeds: openings (a 14-tile rack, an empty
table), mid-game (about 30 tiles on the table, 12 on the rack), late game (about 60 on
the table, 10 on the rack) and a full table (about 85 on the table, 12 on the rack, both
jokers dealt: two on the rack, two on the table or one of each, in turn). A table is made
by shuffling the tiles and letting the solver lay out the first ones; the rack is the tiles
drawn next. Every state is solved in "most tiles" mode by both solvers (the peer's
initial-meld mode ignores jokers, so openings are compared without the 30-point rule); a
state where they place a different number of tiles fails the run (exit status 1).
Reported: median, p90 and max solve time per case, and the cold import time of each solver
(a fresh interpreter, minus the interpreter's own start-up). The peer is measured only when
importable (``.venv/bin/pip install rummikub-solver``); it is never a test dependency.
Targets: the same optimum everywhere, a mid-game median at least 4x faster, import <= 0.2 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from harness import Report, percentile

from rules.rummikub.solver import solve
from rules.rummikub.tiles import FULL_SET, JOKER, JOKER_COUNT, Tile

STATES = 50
CASES = (("opening", 0, 14), ("mid-game", 30, 12), ("late game", 60, 10))
FULL_TABLE = ("full table", 85, 12)
ROOT = Path(__file__).resolve().parent.parent

State = tuple[list[Tile], list[list[Tile]]]


def make_state(seed: int, on_table: int, rack_size: int) -> State:
    """A rack and a valid table of about ``on_table`` tiles, dealt from ``seed``."""
    bag = list(FULL_SET)
    random.Random(seed).shuffle(bag)
    table: list[list[Tile]] = []
    taken = 0
    if on_table:
        for taken in range(on_table, len(bag) - rack_size):
            laid = solve(bag[:taken], [])
            if len(laid.tiles) >= on_table:
                table = [list(s) for s in laid.table]
                break
    left = Counter(bag[:taken]) - Counter(t for s in table for t in s)
    spare = [t for t in bag[:taken] if left[t] and not left.subtract([t])] + bag[taken:]
    random.Random(seed + 1).shuffle(spare)
    return spare[:rack_size], table


def make_full_state(seed: int, on_table: int, rack_size: int) -> State:
    """Like :func:`make_state` with both jokers dealt: on the rack, on the table, or split.

    The seed picks where they go: 2, 0 or 1 of them on the rack.
    """
    on_rack = (2, 0, 1)[seed % 3]
    bag = [t for t in FULL_SET if not t.is_joker]
    random.Random(seed).shuffle(bag)
    table_jokers = [JOKER] * (JOKER_COUNT - on_rack)
    table: list[list[Tile]] = []
    taken = on_table
    for taken in range(on_table - len(table_jokers), len(bag) - rack_size):
        laid = solve(bag[:taken] + table_jokers, [])
        if len(laid.tiles) >= on_table:
            table = [list(s) for s in laid.table]
            break
    left = Counter(bag[:taken] + table_jokers) - Counter(t for s in table for t in s)
    spare = list(left.elements()) + bag[taken:]
    random.Random(seed + 1).shuffle(spare)
    spare = [t for t in spare if not t.is_joker]
    return spare[: rack_size - on_rack] + [JOKER] * on_rack, table


def _ours(state: State) -> int:
    rack, table = state
    return len(solve(rack, table).tiles)


def _peer() -> Callable[[State], int] | None:
    try:
        from rummikub_solver import RuleSet, SolverMode
    except ImportError:
        return None
    ruleset = RuleSet()
    their_tiles = list(ruleset.tiles)

    def convert(tiles: list[Tile]) -> list[object]:
        return [their_tiles[-1] if t.is_joker else their_tiles[t.index] for t in tiles]

    def run(state: State) -> int:
        rack, table = state
        game = ruleset.new_game()
        if rack:
            game.add_rack(*convert(rack))
        flat = [t for s in table for t in s]
        if flat:
            game.add_table(*convert(flat))
        answer = ruleset.solve(game, SolverMode.TILE_COUNT)
        return 0 if answer is None else len(answer.tiles)

    return run


def _times(solver: Callable[[State], int], states: list[State]) -> tuple[list[float], list[int]]:
    times, placed = [], []
    for state in states:
        start = time.perf_counter()
        placed.append(solver(state))
        times.append(time.perf_counter() - start)
    return times, placed


def _import_time(module: str, repeats: int) -> float:
    """Median seconds to import ``module`` in a fresh interpreter, start-up subtracted."""

    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        return time.perf_counter() - start

    bare = statistics.median(run("pass") for _ in range(repeats))
    full = statistics.median(run(f"import {module}") for _ in range(repeats))
    return max(0.0, full - bare)


def bench(report: Report, args: argparse.Namespace) -> None:
    """Solve times per case (median, p90, max), import times, and the peer beside them."""
    repeats = max(5, getattr(args, "repeats", 5))
    peer = _peer()
    if peer is not None:
        peer(make_state(0, 0, 14))  # the peer builds its ILP on first use; not counted
    ratios: dict[str, float] = {}
    mismatches: list[str] = []
    for case, on_table, rack_size in (*CASES, FULL_TABLE):
        deal = make_full_state if case == FULL_TABLE[0] else make_state
        states = [deal(1000 * i + 7, on_table, rack_size) for i in range(STATES)]
        size = statistics.mean(sum(len(s) for s in table) for _, table in states)
        ours, ours_placed = _times(_ours, states)
        name = f"rummikub solve, {case} (table ~{size:.0f}, rack {rack_size})"
        for metric, value in (
            ("median", statistics.median(ours)),
            ("p90", percentile(ours, 0.9)),
            ("max", max(ours)),
        ):
            report.add(name, metric, value * 1000, "ms")
        if peer is None:
            continue
        theirs, their_placed = _times(peer, states)
        for metric, value in (
            ("median", statistics.median(theirs)),
            ("p90", percentile(theirs, 0.9)),
            ("max", max(theirs)),
        ):
            report.add_baseline("rummikub-solver", name, metric, value * 1000, "ms")
        ratio = statistics.median(theirs) / statistics.median(ours)
        ratios[case] = ratio
        differ = [
            i for i, (a, b) in enumerate(zip(ours_placed, their_placed, strict=True)) if a != b
        ]
        mismatches += [
            f"{case} state {i}: {ours_placed[i]} tiles here, {their_placed[i]} by the peer"
            for i in differ
        ]
        report.note(
            f"{case}: median {ratio:.1f}x rummikub-solver; same tile count on "
            f"{STATES - len(differ)}/{STATES} states"
        )
    report.add(
        "rummikub solver cold import",
        "seconds",
        _import_time("rules.rummikub.solver", repeats),
        "s",
    )
    if peer is None:
        report.note("rummikub-solver not importable: install it to measure the peer")
        return
    report.add_baseline(
        "rummikub-solver",
        "rummikub solver cold import",
        "seconds",
        _import_time("rummikub_solver", repeats),
        "s",
    )
    report.set_ratio("rummikub-solver", ratios["mid-game"])
    if mismatches:
        report.print_table()
        print("\n".join(mismatches), file=sys.stderr)
        raise SystemExit(f"rummikub: {len(mismatches)} states differ from rummikub-solver")
