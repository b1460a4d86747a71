"""The chaos soak: the real bot process, the fake Discord, a real store, and
everything going wrong at once for ``--minutes``.

    python -m benchmarks.soak --minutes 1 [--channels N] --seed 7 [--database-url URL] --json OUT

The harness is the ``soak`` package (what a run does and what each count means: its
docstring); this prints a run's figures as a benchmark's table, writes them as JSON, and
exits with 1 if a count that must be 0 is not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

# Run as a file, this folder comes first on the path, where this file would stand in for
# the soak package: the repository's root goes before it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Report
from soak.members import GAMES
from soak.report import COUNTS, failed
from soak.run import Options, run_soak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument(
        "--channels", type=int, default=len(GAMES), help="default: one table of each game"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="PostgreSQL instead of SQLite")
    parser.add_argument("--json", default=None, help="write the report here")
    parser.add_argument(
        "--no-rate-limits",
        dest="rate_limits",
        action="store_false",
        help="turn off Discord's rate limits in the fake (on by default)",
    )
    args = parser.parse_args()
    options = Options(
        minutes=args.minutes,
        channels=args.channels,
        seed=args.seed,
        database_url=args.database_url,
        rate_limits=args.rate_limits,
    )
    summary = asyncio.run(run_soak(options))
    report = Report(benchmark="soak")
    case = f"{summary['store']}, {args.channels} channels, seed {args.seed}"
    report.add(case, "interactions sent", summary["interactions sent"], "interactions")
    report.add(case, "moves acknowledged", summary["acknowledged in public"], "interactions")
    report.add(case, "public tables", summary["public tables"], "messages")
    report.add(case, "kills", summary["kills"], "kills")
    for kind, count in summary["faults"].items():
        report.add(case, f"fault {kind}", count, "faults")
    for name, count in summary["requests"].items():
        unit = "429s" if "429" in name else "requests"
        report.add(case, name, count, unit)
    for name in COUNTS:
        report.add(case, name, summary[name], "count (must be 0)")
    report.note("no peer runs a soak: ratios are empty")
    report.note(f"bot log: {summary['log']}")
    for name, details in summary["details"].items():
        for line in details[:5]:
            report.note(f"{name}: {line}")
    report.print_table()
    if args.json:
        data = report.to_json()
        data["summary"] = summary
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    if failures := failed(summary):
        print(f"soak FAILED: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
