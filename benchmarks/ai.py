"""Computer-player strength at each level: every level against random, each other and outside
baselines, with 95% confidence intervals.

    python benchmarks/ai.py [GAME ...] [--games N] [--seed S] [--jobs J] [--json OUT.json]

GAME is any of the games (``bot.games.GameCatalog``; default: all). Each game's section
lives in ``benchmarks/ai_<game>.py``; a game without one is skipped with a note. Without
``--games`` each section plays its own ordinary size (its ``GAMES``): a match of Uno is
thousands of quick games, a Rummikub one sixty deals, Blackjack's a hundred thousand hands.
``--jobs`` runs that many sections at once, each in a process of its own: the figures are
the same (every match is seeded; decision times are CPU time of the section's process),
the run takes about half as long on two cores.

Contract of every ``benchmarks/ai_<game>.py``:

- ``GAMES: int``: the size of its ordinary match, played when ``--games`` is not given.
- ``def run(report: Report, games: int, seed: int) -> None`` adds rows with
  ``report.add(case, metric, value, unit)`` (``Report`` from ``benchmarks/harness.py``).
  ``games`` is the size of an ordinary match (a section may play fewer games where each
  costs far more, e.g. the hard player's, and says so); ``seed`` makes the run repeatable.
- For each match, the share (or mean points) AND its 95% interval as separate rows:
  metric ``"win share"``, ``"win share 95% low"``, ``"win share 95% high"`` (unit
  ``"share"``) or ``"mean points"``, ``"mean points 95% low"``, ``"mean points 95% high"``;
  intervals from ``benchmarks/ai_stats.py`` (``wilson_interval``, ``mean_interval``).
  Case names start with the game: ``"uno hard vs normal"``.
- The hard player's decision time p99 as metric ``"decision p99"``, unit ``"ms"``.
- ``report.note(...)`` for every target of the levels (docs/design.md §8), met or not:
  hard beats normal (win share >= 55% heads-up), easy loses to normal, hard decides within
  200 ms (p99); Uno: normal beats ``uno-rule-v1`` (>= 52%).
- Seats alternate between the games of a match (each deal played with the seats swapped,
  or seats rotated) so that the seat to start does not bias the share.
- Import the shared pieces as ``benchmarks.harness`` and ``benchmarks.ai_stats`` (the
  sections are imported as ``benchmarks.ai_<game>``, by the driver and by the tests).
- Optional peers (RLCard) are imported lazily; when missing, that case is skipped with a
  note, never an error.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import multiprocessing
import os
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

# Run as a script, the repository root is needed for ``benchmarks.*``, ``rules.*`` and
# ``bot.*``, and first: ``benchmarks/``, where the script runs from, would let
# benchmarks/bot.py shadow the bot package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Report
from bot.games import GameCatalog

GAMES = tuple(GameCatalog.discover().names())


def run_games(
    report: Report, games: tuple[str, ...], count: int | None, seed: int, *, jobs: int = 1
) -> None:
    """Run each game's section that exists (``jobs`` at a time, each in its own process
    when more than one) and add its figures in the order given; note the ones that do not
    exist."""
    present = []
    for game in games:
        if importlib.util.find_spec(f"benchmarks.ai_{game}") is None:
            report.note(f"{game}: skipped, there is no benchmarks/ai_{game}.py")
        else:
            present.append(game)
    if jobs <= 1:
        sections = [run_section(game, count, seed) for game in present]
    else:
        # Forked where the platform can: a section's process starts from this one as it is
        # (the tests shrink the search budgets this way), and without re-importing it.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            futures: list[Future[Report]] = [
                pool.submit(run_section, game, count, seed) for game in present
            ]
            sections = [future.result() for future in futures]
    for section in sections:
        report.results += section.results
        report.baselines += section.baselines
        report.ratios.update(section.ratios)
        report.notes += section.notes


def run_section(game: str, count: int | None, seed: int) -> Report:
    """One game's section on its own report: ``count`` games a match, or its own size."""
    module = importlib.import_module(f"benchmarks.ai_{game}")
    section = Report(benchmark="ai")
    games = module.GAMES if count is None else count
    start = time.perf_counter()
    module.run(section, games, seed)
    section.note(f"{game}: {games} a match, section took {time.perf_counter() - start:.0f} s")
    return section


def main() -> int:
    """Run the chosen games' sections, print one table and optionally write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(GAMES)}")
    parser.add_argument(
        "--games", dest="count", type=int, help="games a match (default: each section's own)"
    )
    parser.add_argument("--seed", type=int, default=18, help="seed of every deal")
    parser.add_argument("--jobs", type=int, default=1, help="sections run at once")
    parser.add_argument("--json", metavar="OUT.json", help="also write the report as JSON")
    args = parser.parse_args()
    unknown = sorted(set(args.games) - set(GAMES))
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}: choose from {', '.join(GAMES)}")
    chosen = tuple(args.games) or GAMES
    report = Report(benchmark="ai")
    run_games(report, chosen, args.count, args.seed, jobs=args.jobs)
    report.note(f"machine load (1 min) at the end: {os.getloadavg()[0]:.2f}, {os.cpu_count()} cpus")
    report.print_table()
    if args.json:
        report.write_json(args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
