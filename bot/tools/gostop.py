"""``deckhand gostop score FILE.json``: the score sheet of a finished Go-Stop game (gostop.md 27).

Input (a file, or ``-`` for standard input)::

    {"winner": {"captured": ["1광", ...], "go": 0, "shakes": 0, "bombs": 0},
     "loser": {"captured": [...], "go": 0}, "nagari_carry": 0}

Output: ``{"base", "go_bonus", "multiplier", "total", "breakdown": {...}, "baks": [...]}`` as
JSON on standard output. Bad input is one line on standard error and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rules.gostop.cards import HwatuParseError, parse_hwatu
from rules.gostop.scoring import settle

__all__ = ["ScoreInputError", "add_arguments", "run", "score_sheet"]

USAGE_ERROR = 2
MAX_GO = 20  # more Go's than turns in a game is not a real game
MAX_SHOWN = 3  # ten cards hold at most three months of three: shakes + bombs ≤ 3


class ScoreInputError(ValueError):
    """Input that describes no possible finished game."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``deckhand gostop score FILE``."""
    tools = parser.add_subparsers(dest="tool", required=True, parser_class=type(parser))
    score = tools.add_parser("score", help="print the score sheet of a finished game (JSON in/out)")
    score.add_argument("file", metavar="FILE.json", help="the game as JSON, or - for stdin")


def _count(side: dict[str, Any], key: str, where: str, limit: int) -> int:
    value = side.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise ScoreInputError(f"{where}.{key} must be a whole number from 0 to {limit}")
    return value


def _side(data: dict[str, Any], where: str, seen: dict[int, str]) -> list[int]:
    side = data.get(where)
    if not isinstance(side, dict):
        raise ScoreInputError(f'"{where}" must be an object with "captured"')
    allowed = {"captured", "go", "shakes", "bombs"}
    unknown = sorted(set(side) - allowed)
    if unknown:
        raise ScoreInputError(f"{where} has unknown field(s): {', '.join(unknown)}")
    captured = side.get("captured", [])
    if not isinstance(captured, list):
        raise ScoreInputError(f"{where}.captured must be a list of cards")
    cards: list[int] = []
    for text in captured:
        if not isinstance(text, str):
            raise ScoreInputError(f"{where}.captured holds {text!r}, not a card code")
        try:
            card = parse_hwatu(text)
        except HwatuParseError as exc:
            raise ScoreInputError(f"{where}.captured: {exc}") from exc
        if card.index in seen:
            places = where if seen[card.index] == where else f"{seen[card.index]} and {where}"
            raise ScoreInputError(f"{card.code} is listed twice ({places})")
        seen[card.index] = where
        cards.append(card.index)
    return cards


def score_sheet(data: object) -> dict[str, object]:
    """The rule-27 output for a parsed JSON input; raises :class:`ScoreInputError`."""
    if not isinstance(data, dict):
        raise ScoreInputError('the input must be a JSON object with "winner" and "loser"')
    unknown = sorted(set(data) - {"winner", "loser", "nagari_carry"})
    if unknown:
        raise ScoreInputError(f"unknown field(s): {', '.join(unknown)}")
    seen: dict[int, str] = {}
    won = _side(data, "winner", seen)
    lost = _side(data, "loser", seen)
    winner, loser = data["winner"], data["loser"]
    shakes = _count(winner, "shakes", "winner", MAX_SHOWN)
    bombs = _count(winner, "bombs", "winner", MAX_SHOWN)
    if shakes + bombs > MAX_SHOWN:
        raise ScoreInputError(f"winner.shakes + winner.bombs cannot exceed {MAX_SHOWN}")
    for key in ("shakes", "bombs"):
        if key in loser:
            _count(loser, key, "loser", MAX_SHOWN)  # checked, but a loser's do not count
    carry = data.get("nagari_carry", 0)
    if isinstance(carry, bool) or not isinstance(carry, int) or not 0 <= carry <= MAX_GO:
        raise ScoreInputError(f"nagari_carry must be a whole number from 0 to {MAX_GO}")
    sheet = settle(
        won,
        lost,
        winner_go=_count(winner, "go", "winner", MAX_GO),
        shakes=shakes,
        bombs=bombs,
        loser_go=_count(loser, "go", "loser", MAX_GO),
        nagari_carry=carry,
    )
    return sheet.as_dict()


def _fail(message: str) -> int:
    print(f"deckhand gostop score: {message}", file=sys.stderr)
    return USAGE_ERROR


def run(args: argparse.Namespace) -> int:
    """Read the game, print its score sheet; exit code 2 on bad input."""
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
    try:
        sheet = score_sheet(data)
    except ScoreInputError as exc:
        return _fail(str(exc).replace("\n", " "))
    print(json.dumps(sheet, ensure_ascii=False))
    return 0
