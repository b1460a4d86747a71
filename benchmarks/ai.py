"""Computer-player strength (issue 18): every level against random, each other and outside
baselines, with 95% confidence intervals.

    python benchmarks/ai.py [GAME ...] [--games N] [--seed S] [--json OUT.json]

GAME is any of uno, onecard, gostop, rummikub, blackjack (default: all). Each game's section
lives in ``benchmarks/ai_<game>.py``; a game without one is skipped with a note.

Contract of every ``benchmarks/ai_<game>.py``:

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
- ``report.note(...)`` for every target of the issue, saying met / not met with the figures:
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
import sys
import time
from pathlib import Path

# Run as a script, the repository root is needed for ``benchmarks.*``, ``rules.*``. Only
# the root: putting ``benchmarks/`` first would let benchmarks/bot.py shadow the bot package
# for whoever imports this module (the tests do).
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Report

GAMES = ("uno", "onecard", "gostop", "rummikub", "blackjack")


def run_games(report: Report, games: tuple[str, ...], count: int, seed: int) -> None:
    """Run each game's section that exists; note the ones that do not."""
    for game in games:
        name = f"benchmarks.ai_{game}"
        if importlib.util.find_spec(name) is None:
            report.note(f"{game}: skipped, there is no benchmarks/ai_{game}.py")
            continue
        start = time.perf_counter()
        importlib.import_module(name).run(report, count, seed)
        report.note(f"{game}: section took {time.perf_counter() - start:.0f} s")


def main() -> int:
    """Run the chosen games' sections, print one table and optionally write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"any of {', '.join(GAMES)}")
    parser.add_argument("--games", dest="count", type=int, default=2000, help="games a match")
    parser.add_argument("--seed", type=int, default=18, help="seed of every deal")
    parser.add_argument("--json", metavar="OUT.json", help="also write the report as JSON")
    args = parser.parse_args()
    unknown = sorted(set(args.games) - set(GAMES))
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}: choose from {', '.join(GAMES)}")
    chosen = tuple(args.games) or GAMES
    report = Report(benchmark="ai")
    run_games(report, chosen, args.count, args.seed)
    report.print_table()
    if args.json:
        report.write_json(args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
