"""``deckhand gostop score FILE.json``: the score sheet of a finished Go-Stop game (rule 27).

Input (a file, or ``-`` for standard input)::

    {"winner": {"captured": ["1광", ...], "go": 0, "shakes": 0, "bombs": 0},
     "loser": {"captured": [...], "go": 0}, "nagari_carry": 0}

Both ``captured`` lists are required; the counts default to 0. The text is UTF-8 (a byte-order
mark is allowed). Output: ``{"base", "go_bonus", "multiplier", "total", "breakdown": {...},
"baks": [...]}`` as JSON on standard output. Input that is no finished game won by a Stop (a
winner below 7, more Go's than turns, a card twice ...) or is not such JSON at all is one line
on standard error and exit code 2, whatever the bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rules.gostop.cards import HwatuParseError, parse_hwatu
from rules.gostop.scoring import WINNING_SCORE, settle

__all__ = ["ScoreInputError", "add_arguments", "run", "score_sheet"]

USAGE_ERROR = 2
# A player has at most 10 turns (10 cards; a bomb's flip-only turns replace the two cards it
# used) and is never asked on the last one, which stops by itself (rule 22): at most 9 Go's.
MAX_GO = 9
MAX_SHOWN = 3  # ten cards hold at most three months of three: shakes + bombs ≤ 3
MAX_NAGARI_CARRY = 20  # draws in a row; any more is not a real run of games


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
    captured = side.get("captured")
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
    if isinstance(carry, bool) or not isinstance(carry, int) or not 0 <= carry <= MAX_NAGARI_CARRY:
        raise ScoreInputError(f"nagari_carry must be a whole number from 0 to {MAX_NAGARI_CARRY}")
    sheet = settle(
        won,
        lost,
        winner_go=_count(winner, "go", "winner", MAX_GO),
        shakes=shakes,
        bombs=bombs,
        loser_go=_count(loser, "go", "loser", MAX_GO),
        nagari_carry=carry,
    )
    # Only a Stop has a score sheet, and a Stop needs 7 (rule 22). Rule 22's "more than at the
    # last Go" is not checked: the sheet does not record the score of each Go.
    if sheet.base < WINNING_SCORE:
        raise ScoreInputError(
            f"the winner's cards score {sheet.base} points, but a game is won by stopping at "
            f"{WINNING_SCORE} or more (chongtong and three-ppuk wins have no score sheet)"
        )
    return sheet.as_dict()


def _fail(message: str) -> int:
    one_line = " ".join(message.splitlines())  # any line break, \u2028 included
    print(f"deckhand gostop score: {one_line}", file=sys.stderr)
    return USAGE_ERROR


def _read(name: str) -> str:
    """The input's text: UTF-8, with or without a byte-order mark."""
    if name == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        raw: bytes | str = sys.stdin.read() if buffer is None else buffer.read()
    else:
        with open(name, "rb") as handle:
            raw = handle.read()
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    return text.removeprefix("\ufeff")


def run(args: argparse.Namespace) -> int:
    """Read the game, print its score sheet; exit code 2 on bad input."""
    try:
        text = _read(args.file)
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        where = "standard input" if args.file == "-" else args.file
        return _fail(f"{where} is not UTF-8 text (byte {exc.start})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
    except ValueError:  # an integer longer than Python converts (4,300 digits)
        return _fail("not JSON this tool reads: a number is far too long")
    except RecursionError:
        return _fail("not JSON this tool reads: arrays or objects nested too deeply")
    try:
        sheet = score_sheet(data)
    except ScoreInputError as exc:
        return _fail(str(exc))
    print(json.dumps(sheet, ensure_ascii=False))
    return 0
