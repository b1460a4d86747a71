"""``deckhand rummikub check|solve``: set checking and the exact solver (rule 18).

``check "R1 R2 R3" "B5 O5 K5 J"`` prints one JSON object per set, a line each:
``{"set": [...], "valid": true, "kind": "run", "value": 6, "jokers": [], "reason": null}``.
``solve --rack "R10 R11 R12 J K7" --table "B5 O5 K5|R1 R2 R3" [--initial] [--value]`` prints
``{"tiles": [...], "value": n, "table": [[...], ...]}``: the rack tiles played, what they add,
the whole table after (``tiles`` empty when there is no play). Bad tile codes (``R01`` and
non-ASCII digits too), a third copy of a tile, a third joker, a set with no tiles or a table
set that is not valid are one line on standard error and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from rules.rummikub.sets import check_set
from rules.rummikub.solver import solve
from rules.rummikub.tiles import Tile, TileError, check_counts, parse_tiles, tiles_text

__all__ = ["add_arguments", "run"]

USAGE_ERROR = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``deckhand rummikub check SET...`` and ``deckhand rummikub solve --rack ...``."""
    tools = parser.add_subparsers(dest="tool", required=True, parser_class=type(parser))
    check = tools.add_parser("check", help="check sets: validity, value, what jokers stand for")
    check.add_argument("sets", nargs="+", metavar="SET", help='tiles of one set, e.g. "R1 R2 R3"')
    solve_parser = tools.add_parser("solve", help="the play that puts down the most tiles")
    solve_parser.add_argument("--rack", required=True, help='rack tiles, e.g. "R10 R11 J"')
    solve_parser.add_argument(
        "--table", default="", help='sets on the table separated by |, e.g. "B5 O5 K5|R1 R2 R3"'
    )
    solve_parser.add_argument(
        "--initial", action="store_true", help="an initial meld: 30 points from the rack only"
    )
    solve_parser.add_argument(
        "--value", action="store_true", help="highest value first, then most tiles"
    )


def _codes(tiles: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [t.code for t in tiles]


class UsageError(ValueError):
    """Input the tools refuse that is not about tile codes (an empty set, an invalid table)."""


def _check(texts: list[str]) -> int:
    sets = [parse_tiles(text) for text in texts]
    for number, tiles in enumerate(sets, 1):
        if not tiles:
            raise UsageError(f"set {number} has no tiles")
    check_counts(t for s in sets for t in s)
    for tiles in sets:
        verdict = check_set(tiles)
        print(
            json.dumps(
                {
                    "set": _codes(list(verdict.tiles)),
                    "valid": verdict.valid,
                    "kind": verdict.kind,
                    "value": verdict.value,
                    "jokers": _codes(list(verdict.stands_for)),
                    "reason": verdict.reason,
                },
                ensure_ascii=False,
            )
        )
    return 0


def _solve(args: argparse.Namespace) -> int:
    rack = parse_tiles(args.rack)
    table = [parse_tiles(part) for part in args.table.split("|") if part.strip()]
    check_counts([*rack, *(t for s in table for t in s)])
    for number, tiles in enumerate(table, 1):
        verdict = check_set(tiles)
        if not verdict.valid:
            # Solving would lay these tiles out anew with rack tiles and hide the mistake.
            raise UsageError(
                f"table set {number} ({tiles_text(tiles)}) is not valid: {verdict.reason}"
            )
    answer = solve(rack, table, initial=args.initial, objective="value" if args.value else "tiles")
    out = {
        "tiles": _codes(answer.tiles),
        "value": answer.value,
        "table": [_codes(list(s)) for s in answer.table],
    }
    print(json.dumps(out, ensure_ascii=False))
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the chosen tool; exit code 2 with one line on stderr for bad input."""
    try:
        if args.tool == "check":
            return _check(args.sets)
        return _solve(args)
    except (TileError, UsageError) as exc:
        print(f"deckhand rummikub {args.tool}: {exc}", file=sys.stderr)
        return USAGE_ERROR
