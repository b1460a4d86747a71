"""Rummikub tiles: 4 colours x 13 numbers x 2 copies, plus 2 jokers (rule 1).

Every tile is a shared immutable instance (``Tile.of``, ``parse_tile``), so tiles compare and
hash cheaply. ``Tile.index`` is 0..51 for numbered tiles (colour-major) and 52 for the joker.
Canonical codes: ``R10``, ``B5``, ``O7``, ``K13`` and ``J``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, unique

from rules.cards import whole_number

__all__ = [
    "ALL_TILES",
    "COLOURS",
    "COPIES",
    "FULL_SET",
    "JOKER",
    "JOKER_COUNT",
    "JOKER_PENALTY",
    "NUMBERS",
    "Colour",
    "Tile",
    "TileError",
    "check_counts",
    "parse_tile",
    "parse_tiles",
    "tiles_text",
]

NUMBERS = range(1, 14)
COPIES = 2
JOKER_COUNT = 2
JOKER_PENALTY = 30  # a joker left on a rack counts 30 (rule 13)
JOKER_INDEX = 52


@unique
class Colour(Enum):
    """The four tile colours, in index order."""

    RED = "R"
    BLUE = "B"
    ORANGE = "O"
    BLACK = "K"

    @property
    def word(self) -> str:
        """The colour's English name, as used in reasons ("two blue 7s")."""
        return self.name.lower()

    @property
    def order(self) -> int:
        """0..3, the colour's place in tile indexes."""
        return _COLOUR_ORDER[self]


COLOURS: tuple[Colour, ...] = tuple(Colour)
_COLOUR_ORDER = {colour: i for i, colour in enumerate(COLOURS)}


@dataclass(frozen=True, slots=True, eq=False)
class Tile:
    """One tile. ``colour`` and ``number`` are ``None`` and ``0`` for the joker."""

    colour: Colour | None
    number: int
    index: int
    code: str

    @staticmethod
    def of(colour: Colour, number: int) -> Tile:
        """The shared numbered tile of ``colour`` and ``number``."""
        return ALL_TILES[colour.order * 13 + number - 1]

    @staticmethod
    def at(index: int) -> Tile:
        """The tile with ``index`` (0..52)."""
        return ALL_TILES[index]

    @property
    def is_joker(self) -> bool:
        """Whether this is the joker."""
        return self.colour is None

    @property
    def penalty(self) -> int:
        """What the tile costs when left on a rack (rule 13)."""
        return JOKER_PENALTY if self.colour is None else self.number

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __repr__(self) -> str:
        return self.code

    def __str__(self) -> str:
        return self.code


ALL_TILES: tuple[Tile, ...] = (
    *(
        Tile(colour, number, ci * 13 + number - 1, f"{colour.value}{number}")
        for ci, colour in enumerate(COLOURS)
        for number in NUMBERS
    ),
    Tile(None, 0, JOKER_INDEX, "J"),
)
JOKER = ALL_TILES[JOKER_INDEX]
FULL_SET: tuple[Tile, ...] = tuple(
    tile for tile in ALL_TILES for _ in range(JOKER_COUNT if tile.is_joker else COPIES)
)


class TileError(ValueError):
    """Text that is not a tile, or more copies of a tile than the game has."""


_COLOUR_WORDS = {
    "r": Colour.RED,
    "red": Colour.RED,
    "빨": Colour.RED,
    "빨강": Colour.RED,
    "b": Colour.BLUE,
    "blue": Colour.BLUE,
    "파": Colour.BLUE,
    "파랑": Colour.BLUE,
    "o": Colour.ORANGE,
    "y": Colour.ORANGE,
    "orange": Colour.ORANGE,
    "yellow": Colour.ORANGE,
    "노": Colour.ORANGE,
    "노랑": Colour.ORANGE,
    "k": Colour.BLACK,
    "black": Colour.BLACK,
    "검": Colour.BLACK,
    "검정": Colour.BLACK,
}
_JOKER_WORDS = {"j", "*", "joker", "jk", "조커"}
# A number is ASCII 1-13 without a leading zero (``R01`` or a full-width ``R１`` is a typo or
# a look-alike, not another spelling); the colour word is anything else but digits or spaces.
_TILE_RE = re.compile(r"^\s*([^\d\s]+)\s*(1[0-3]|[1-9])\s*$")
_HELP = "a colour (R, B, O or Y, K; 빨/파/노/검) and a number 1-13, or J for a joker"


def parse_tile(text: str) -> Tile:
    """Read one tile as people type it: ``R10``, ``r10``, ``Y5``, ``*``, ``빨10``, ``조커``."""
    word = text.strip().lower()
    if word in _JOKER_WORDS:
        return JOKER
    match = _TILE_RE.match(word)
    if match:
        colour = _COLOUR_WORDS.get(match.group(1))
        number = int(match.group(2))
        if colour is not None and 1 <= number <= 13:
            return Tile.of(colour, number)
    raise TileError(f"{text.strip()!r} is not a tile ({_HELP})")


def parse_tiles(text: str) -> list[Tile]:
    """Read tiles separated by spaces or commas; a colour word may stand apart (``r 10``)."""
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    tiles: list[Tile] = []
    i = 0
    while i < len(words):
        word = words[i]
        if (
            word.lower() in _COLOUR_WORDS
            and i + 1 < len(words)
            and whole_number(words[i + 1]) is not None
        ):
            word += words[i + 1]
            i += 1
        tiles.append(parse_tile(word))
        i += 1
    return tiles


def check_counts(tiles: Iterable[Tile]) -> None:
    """Refuse more copies of a tile (or more jokers) than the 106-tile game holds."""
    for tile, count in Counter(tiles).items():
        if tile.is_joker and count > JOKER_COUNT:
            raise TileError(f"there are only {JOKER_COUNT} jokers, not {count}")
        if not tile.is_joker and count > COPIES:
            raise TileError(f"there are only {COPIES} copies of {tile}, not {count}")


def tiles_text(tiles: Iterable[Tile]) -> str:
    """Tiles as space-separated codes."""
    return " ".join(tile.code for tile in tiles)
