"""``deckhand verify GAME SEED SALT [--players N]``: check a fair deal after the game.

Prints the commitment of the revealed seed and salt (compare it with the one the game's
first table showed) and the deal made again from that seed. Input that names no deal is
one line on standard error and exit code 2.
"""

from __future__ import annotations

import argparse
import sys

from bot.verify import VerifyError, parse_options, parse_seed, replay

__all__ = ["add_arguments", "run"]

USAGE_ERROR = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME SEED SALT [--players N] [--options JSON]``."""
    parser.add_argument("game", help="blackjack, onecard, uno, gostop or rummikub")
    parser.add_argument("seed", help="the seed the final table revealed")
    parser.add_argument("salt", help="the salt the final table revealed")
    parser.add_argument("--players", type=int, default=None, metavar="N", help="seats dealt")
    parser.add_argument(
        "--options", default=None, metavar="JSON", help="the table's options, as revealed"
    )


def run(args: argparse.Namespace) -> int:
    """Print the commitment and the deal; exit 2 on input that names no deal."""
    try:
        options = parse_options(args.options)
        seed = parse_seed(args.seed)
        shown, lines = replay(args.game, seed, args.salt, args.players, options=options)
    except VerifyError as error:
        sys.stderr.write(f"deckhand verify: {error}\n".replace("\n", " ").rstrip() + "\n")
        return USAGE_ERROR
    sys.stdout.write(f"commitment: {shown}\n\n" + "\n".join(lines) + "\n")
    return 0
