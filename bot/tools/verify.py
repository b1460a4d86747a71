"""``deckhand verify GAME SEED SALT [--players N] [--commitment HEX]``: check a fair deal.

Prints the commitment of the revealed seed and salt and the deal made again from that seed.
Given the commitment the game's first table showed, it says in words whether they match and
exits 1 when they do not. Input that names no deal is one line on standard error and exit
code 2.
"""

from __future__ import annotations

import argparse
import sys

from bot.games import GameCatalog
from bot.verify import VerifyError, matches, parse_options, parse_seed, replay

__all__ = ["add_arguments", "run"]

NO_MATCH = 1
USAGE_ERROR = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME SEED SALT [--players N] [--options CODE]``."""
    games = ", ".join(GameCatalog.discover().names())
    parser.add_argument("game", help=f"one of {games}")
    parser.add_argument("seed", help="the seed the final table revealed")
    parser.add_argument("salt", help="the salt the final table revealed")
    parser.add_argument("--players", type=int, default=None, metavar="N", help="seats dealt")
    parser.add_argument(
        "--options",
        default=None,
        metavar="CODE",
        help="the table's options as the final table showed them (e.g. stacking,ruleset=seed)",
    )
    parser.add_argument(
        "--commitment",
        default=None,
        metavar="HEX",
        help="the commitment the first table showed: says whether it matches (exit 1 if not)",
    )


def run(args: argparse.Namespace) -> int:
    """Print the commitment and the deal; exit 1 when it does not match the commitment
    given, 2 on input that names no deal."""
    try:
        options = parse_options(args.options)
        seed = parse_seed(args.seed)
        shown, lines = replay(args.game, seed, args.salt, args.players, options=options)
    except VerifyError as error:
        sys.stderr.write(f"deckhand verify: {error}\n".replace("\n", " ").rstrip() + "\n")
        return USAGE_ERROR
    sys.stdout.write(f"commitment: {shown}\n\n" + "\n".join(lines) + "\n")
    matched = matches(shown, args.commitment)
    if matched is None:
        return 0
    if matched:
        sys.stdout.write("\nmatch: this is the deal the table committed to\n")
        return 0
    sys.stdout.write(
        f"\nNO MATCH: the first table showed {args.commitment.strip()}, this seed and salt"
        f" make {shown}\n"
    )
    return NO_MATCH
