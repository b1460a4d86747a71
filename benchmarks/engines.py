"""Engine speed, side by side with the named peers when they are importable.

    python benchmarks/engines.py GAME|all [--repeats N] [--json OUT.json]

Each game's cases live in ``benchmarks/engine_<game>.py`` as ``bench(report, args)``; a game
without one is not offered.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from pathlib import Path

# The repository first: benchmarks/bot.py must not stand in for the bot package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from harness import Report

from bot.games import GameCatalog

# Every game that has a benchmarks/engine_<game>.py, in the games' order.
GAMES = tuple(
    game for game in GameCatalog.discover().names() if importlib.util.find_spec(f"engine_{game}")
)


def main() -> int:
    """Run the chosen games' benchmarks, print one table and optionally write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=(*GAMES, "all"))
    parser.add_argument("--repeats", type=int, default=5, help="runs per case; the median is kept")
    parser.add_argument("--json", metavar="OUT.json", help="also write the report as JSON")
    args = parser.parse_args()
    games = GAMES if args.game == "all" else (args.game,)
    report = Report(benchmark="engines" if args.game == "all" else f"engines.{args.game}")
    for game in games:
        importlib.import_module(f"engine_{game}").bench(report, args)
    report.print_table()
    if args.json:
        report.write_json(args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
