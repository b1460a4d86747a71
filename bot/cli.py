"""The ``deckhand`` command: run the bot, play a seed's console game, or use an engine tool.

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; this file only wires them together, importing a module when its
subcommand is chosen so ``deckhand run`` never pays for the solvers.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Protocol

from bot.games import GameCatalog, Program

__all__ = ["USAGE_ERROR", "main"]

USAGE_ERROR = 2

# The tools of no one game; each game's console and tools are its adapter's (bot.games).
TOOLS: dict[str, Program] = {
    "verify": Program(
        "bot.tools.verify", "check a fair deal: GAME SEED SALT, as the final table showed"
    ),
}


class Subcommand(Protocol):
    """What a subcommand module provides."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare the subcommand's arguments (and its own subcommands) on ``parser``."""

    def run(self, args: argparse.Namespace) -> int:
        """Do the work for the parsed ``args``; return the exit code."""


# Where the innermost (sub)command parser that read the arguments leaves itself.
_PARSED_BY = "_deckhand_parser"


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on stderr and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse wraps the usage to the terminal's width ($COLUMNS): fold it back, and keep
        # a line break the user typed inside an argument from starting a second line.
        usage = " ".join(self.format_usage().split()).removeprefix("usage: ")
        message = message.replace("\r", "\\r").replace("\n", "\\n")
        self.exit(USAGE_ERROR, f"{' '.join(self.prog.split())}: {message} (usage: {usage})\n")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        # A subcommand's parser returns before its parents do, so the first to mark the
        # namespace is the innermost: the one whose usage fits a leftover argument.
        if not hasattr(parsed, _PARSED_BY):
            setattr(parsed, _PARSED_BY, self)
        return parsed, extras


def _load(module_name: str) -> Subcommand:
    module: Subcommand = importlib.import_module(module_name)
    return module


def _build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    parser = _Parser(prog="deckhand", description="Deckhand: card games in Discord channels.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = commands.add_parser("run", help="start the Discord bot (reads .env)")
    run.set_defaults(module="bot.app")

    play = commands.add_parser("play", help="play a seed's console game")
    games = play.add_subparsers(dest="game", required=True, parser_class=_Parser)
    wanted = list(argv)
    sandbox = commands.add_parser(
        "sandbox", help="try the bot without Discord: a local Discord in your browser"
    )
    sandbox.set_defaults(module="bot.sandbox.run")
    if wanted[:1] == ["sandbox"]:
        _load("bot.sandbox.run").add_arguments(sandbox)
    catalog = GameCatalog.discover()
    for game in catalog:
        if game.console is not None:
            sub = games.add_parser(game.name, help=game.console.help)
            sub.set_defaults(module=game.console.module)
            if wanted[:2] == ["play", game.name]:
                _load(game.console.module).add_arguments(sub)
    tools = {**{g.name: g.tools for g in catalog if g.tools is not None}, **TOOLS}
    for name, program in tools.items():
        sub = commands.add_parser(name, help=program.help)
        sub.set_defaults(module=program.module)
        if wanted[:1] == [name]:
            _load(program.module).add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``deckhand`` and ``python -m bot``."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    args, extras = _build_parser(args_list).parse_known_args(args_list)
    parser: _Parser = vars(args).pop(_PARSED_BY)
    if extras:
        parser.error(f"unrecognized arguments: {' '.join(extras)}")
    try:
        return _load(args.module).run(args)
    except KeyboardInterrupt:
        return 130
