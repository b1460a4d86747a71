"""The 108 Uno cards as small ints, their text codes and a forgiving parser.

A card is an int in ``range(108)``; tables give its colour, rank, code and points, so the
engine never builds card objects. Codes are the seed's ``COLOR_num``: ``red_5``, ``blue_+2``,
``green_R``, ``yellow_S``, ``none_W``, ``none_W+4``. A wild on the discard pile is shown in
the colour its player named (``yellow_W+4``) by :func:`top_code`.
"""

from __future__ import annotations

import re
from enum import IntEnum, unique

__all__ = [
    "CARD_CODES",
    "CARD_COLOUR",
    "CARD_POINTS",
    "CARD_RANK",
    "COLOUR_NAMES",
    "DECK_SIZE",
    "DRAW_TWO",
    "NONE",
    "RANK_NAMES",
    "REVERSE",
    "SKIP",
    "WILD",
    "WILD_DRAW_FOUR",
    "CardParseError",
    "Colour",
    "cards_of_code",
    "parse_card",
    "parse_colour",
    "parse_play",
    "top_code",
]


@unique
class Colour(IntEnum):
    """The four colours; ``NONE`` is the colour of an unplayed wild."""

    RED = 0
    GREEN = 1
    BLUE = 2
    YELLOW = 3
    NONE = 4


NONE = 4
COLOUR_NAMES: tuple[str, ...] = ("red", "green", "blue", "yellow", "none")

# Ranks 0-9 are the numbers; the symbols follow.
DRAW_TWO = 10
REVERSE = 11
SKIP = 12
WILD = 13
WILD_DRAW_FOUR = 14
RANK_NAMES: tuple[str, ...] = (*map(str, range(10)), "+2", "R", "S", "W", "W+4")
_RANK_POINTS: tuple[int, ...] = (*range(10), 20, 20, 20, 50, 50)


def _build_deck() -> tuple[tuple[int, ...], tuple[int, ...]]:
    colours: list[int] = []
    ranks: list[int] = []
    for colour in range(4):
        for rank in range(13):
            copies = 1 if rank == 0 else 2
            colours += [colour] * copies
            ranks += [rank] * copies
    for rank in (WILD, WILD_DRAW_FOUR):
        colours += [NONE] * 4
        ranks += [rank] * 4
    return tuple(colours), tuple(ranks)


CARD_COLOUR, CARD_RANK = _build_deck()
DECK_SIZE = len(CARD_COLOUR)
CARD_CODES: tuple[str, ...] = tuple(
    f"{COLOUR_NAMES[c]}_{RANK_NAMES[r]}" for c, r in zip(CARD_COLOUR, CARD_RANK, strict=True)
)
CARD_POINTS: tuple[int, ...] = tuple(_RANK_POINTS[r] for r in CARD_RANK)
assert DECK_SIZE == 108


class CardParseError(ValueError):
    """Text that names no Uno card; the message says what to type."""


def top_code(card: int, colour: int) -> str:
    """The code of a discard-pile card: a wild shows the colour its player named."""
    if CARD_RANK[card] >= WILD:
        return f"{COLOUR_NAMES[colour]}_{RANK_NAMES[CARD_RANK[card]]}"
    return CARD_CODES[card]


def cards_of_code(code: str) -> list[int]:
    """Every card of the deck with this canonical code (two of most, one zero, four wilds)."""
    return [card for card, c in enumerate(CARD_CODES) if c == code]


_COLOUR_WORDS: dict[str, int] = {
    "r": 0, "red": 0, "빨강": 0, "빨간": 0, "빨간색": 0, "레드": 0, "红": 0, "红色": 0,
    "g": 1, "green": 1, "초록": 1, "초록색": 1, "녹색": 1, "그린": 1, "绿": 1, "绿色": 1,
    "b": 2, "blue": 2, "파랑": 2, "파란": 2, "파란색": 2, "블루": 2, "蓝": 2, "蓝色": 2,
    "y": 3, "yellow": 3, "노랑": 3, "노란": 3, "노란색": 3, "옐로": 3, "黄": 3, "黄色": 3,
    "none": NONE, "n": NONE,
}  # fmt: skip
_RANK_WORDS: dict[str, int] = {
    **{str(n): n for n in range(10)},
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9,
    "+2": DRAW_TWO, "d2": DRAW_TWO, "draw2": DRAW_TWO, "drawtwo": DRAW_TWO, "dt": DRAW_TWO,
    "r": REVERSE, "rev": REVERSE, "reverse": REVERSE, "리버스": REVERSE, "반전": REVERSE,
    "s": SKIP, "skip": SKIP, "스킵": SKIP, "점프": SKIP,
    "w": WILD, "wild": WILD, "와일드": WILD, "변색": WILD,
    "w+4": WILD_DRAW_FOUR, "+4": WILD_DRAW_FOUR, "wd4": WILD_DRAW_FOUR,
    "wild+4": WILD_DRAW_FOUR, "wilddraw4": WILD_DRAW_FOUR, "wilddrawfour": WILD_DRAW_FOUR,
    "와일드+4": WILD_DRAW_FOUR, "w4": WILD_DRAW_FOUR,
}  # fmt: skip
_COLOUR_ALT = "|".join(sorted(map(re.escape, _COLOUR_WORDS), key=len, reverse=True))
_RANK_ALT = "|".join(sorted(map(re.escape, _RANK_WORDS), key=len, reverse=True))
_COLOUR_FIRST = re.compile(rf"^({_COLOUR_ALT})({_RANK_ALT})$")
_RANK_FIRST = re.compile(rf"^({_RANK_ALT})({_COLOUR_ALT})$")
_HINT = "type a card like red_5, r5, blue +2, green R, yellow skip, wild or +4"


def parse_colour(text: str) -> Colour:
    """A colour name (``red``, ``r``, ``빨강``); raises :class:`CardParseError`."""
    word = text.strip().lower()
    if word in _COLOUR_WORDS and _COLOUR_WORDS[word] != NONE:
        return Colour(_COLOUR_WORDS[word])
    raise CardParseError(f"Unknown colour {text.strip()!r}: type red, green, blue or yellow")


def _split(text: str) -> str:
    # "red_+2", "red +2", "red draw two", "Wild Draw Four" all collapse to one token.
    return "".join(text.strip().strip("[]").lower().replace("_", " ").split())


def parse_card(text: str) -> str:
    """Read a card the way people type it and return its canonical code.

    Accepts codes (``red_5``, ``none_W+4``), letters (``r5``, ``gR``, ``y s``), words
    (``red 5``, ``blue draw2``, ``green reverse``, ``wild``, ``+4``) and Korean colour names
    (``빨강 5``, ``노랑 스킵``). A wild written with a colour (``yellow_W+4``) is the wild.
    """
    code, _ = parse_play(text)
    return code


def parse_play(text: str) -> tuple[str, Colour | None]:
    """Like :func:`parse_card`, also returning the colour named with a wild (``wild red``)."""
    joined = _split(text)
    if not joined:
        raise CardParseError(f"No card given: {_HINT}")
    if joined in _RANK_WORDS and _RANK_WORDS[joined] >= WILD:
        return f"none_{RANK_NAMES[_RANK_WORDS[joined]]}", None
    for pattern, colour_group, rank_group in ((_COLOUR_FIRST, 1, 2), (_RANK_FIRST, 2, 1)):
        match = pattern.match(joined)
        if match:
            colour = _COLOUR_WORDS[match.group(colour_group)]
            rank = _RANK_WORDS[match.group(rank_group)]
            if rank >= WILD:
                named = None if colour == NONE else Colour(colour)
                return f"none_{RANK_NAMES[rank]}", named
            if colour == NONE:
                break
            return f"{COLOUR_NAMES[colour]}_{RANK_NAMES[rank]}", None
    raise CardParseError(f"Unknown card {text.strip()!r}: {_HINT}")
