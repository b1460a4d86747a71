"""French playing cards with two jokers, their canonical codes and a forgiving parser.

Canonical codes: suit symbol then rank (``♠A``, ``♥10``, ``♣K``) and ``JKB`` / ``JKC`` for the
black-and-white and the colour joker. Every card is a shared immutable instance, so cards
compare and hash cheaply and ``Card.parse`` always hands back the same object.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum, unique
from typing import ClassVar

__all__ = [
    "FULL_DECK",
    "JOKERS",
    "STANDARD_DECK",
    "SUITS",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "parse_card",
    "whole_number",
]


@unique
class Suit(Enum):
    """The four suits, and the two joker colours (which are not suits for matching)."""

    SPADES = "♠"
    HEARTS = "♥"
    DIAMONDS = "♦"
    CLUBS = "♣"
    BLACK = "B"  # JK B, the black-and-white joker
    COLOUR = "C"  # JK C, the colour joker

    @property
    def is_red(self) -> bool:
        """Hearts, diamonds and the colour joker are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS, Suit.COLOUR)


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@unique
class Rank(IntEnum):
    """Card ranks; ``JOKER`` is the rank of both jokers."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        """``A``, ``2``–``10``, ``J``, ``Q``, ``K`` (``JK`` for jokers)."""
        return _RANK_LABELS[self]


_RANK_LABELS = {
    Rank.JOKER: "JK",
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    **{Rank(n): str(n) for n in range(2, 11)},
}


class CardParseError(ValueError):
    """Text that names no card; the message says what was typed and what would work."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. Use the shared instances (``Card.of``, ``parse_card``, the deck tuples)."""

    suit: Suit
    rank: Rank
    index: int  # 0..53, stable: 13 * suit position + rank - 1, jokers 52 and 53

    _ALL: ClassVar[tuple[Card, ...]]

    @staticmethod
    def of(suit: Suit, rank: Rank | int) -> Card:
        """The card of this suit and rank (``Card.of(Suit.BLACK, Rank.JOKER)`` for JK B)."""
        if suit is Suit.BLACK:
            return Card._ALL[52]
        if suit is Suit.COLOUR:
            return Card._ALL[53]
        if not 1 <= rank <= 13:
            raise ValueError(f"a {suit.value} card needs a rank from 1 to 13, not {rank}")
        return Card._ALL[SUITS.index(suit) * 13 + int(rank) - 1]

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this stable index (0..53)."""
        return Card._ALL[index]

    @property
    def is_joker(self) -> bool:
        """Whether this is JK B or JK C."""
        return self.rank is Rank.JOKER

    @property
    def code(self) -> str:
        """Canonical text: ``♠A``, ``♥10``, ``JKB``, ``JKC``."""
        if self.is_joker:
            return "JK" + self.suit.value
        return self.suit.value + self.rank.label

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Copies and pickles keep the one-instance-per-card guarantee.
        return (Card.from_index, (self.index,))


Card._ALL = tuple(
    [Card(suit, Rank(r), i * 13 + r - 1) for i, suit in enumerate(SUITS) for r in range(1, 14)]
    + [Card(Suit.BLACK, Rank.JOKER, 52), Card(Suit.COLOUR, Rank.JOKER, 53)]
)

STANDARD_DECK: tuple[Card, ...] = Card._ALL[:52]
JOKERS: tuple[Card, Card] = (Card._ALL[52], Card._ALL[53])
FULL_DECK: tuple[Card, ...] = Card._ALL

_SUIT_WORDS: dict[str, Suit] = {}
for _suit, _words in {
    Suit.SPADES: ("♠", "♤", "s", "spade", "spades", "스페이드", "스페"),
    Suit.HEARTS: ("♥", "♡", "h", "heart", "hearts", "하트"),
    Suit.DIAMONDS: ("♦", "◆", "◇", "♢", "d", "diamond", "diamonds", "다이아몬드", "다이아"),
    Suit.CLUBS: ("♣", "♧", "c", "club", "clubs", "clover", "클로버", "클럽"),
}.items():
    for _word in _words:
        _SUIT_WORDS[_word] = _suit

_RANK_WORDS: dict[str, Rank] = {
    "a": Rank.ACE, "ace": Rank.ACE, "1": Rank.ACE, "에이스": Rank.ACE,
    "j": Rank.JACK, "jack": Rank.JACK, "잭": Rank.JACK,
    "q": Rank.QUEEN, "queen": Rank.QUEEN, "퀸": Rank.QUEEN,
    "k": Rank.KING, "king": Rank.KING, "킹": Rank.KING,
    "t": Rank.TEN, "0": Rank.TEN, "ten": Rank.TEN,
    **{str(n): Rank(n) for n in range(2, 11)},
}  # fmt: skip

_JOKER_WORDS: dict[str, Suit] = {
    "b": Suit.BLACK, "black": Suit.BLACK, "bw": Suit.BLACK, "흑백": Suit.BLACK, "블랙": Suit.BLACK,
    "c": Suit.COLOUR, "colour": Suit.COLOUR, "color": Suit.COLOUR, "컬러": Suit.COLOUR,
    "칼라": Suit.COLOUR,
}  # fmt: skip

_JOKER_RE = re.compile(r"^(?:jk|joker|조커)\s*(.*)$|^(.*?)\s*(?:jk|joker|조커)$")
_SUIT_ALTERNATION = "|".join(sorted(map(re.escape, _SUIT_WORDS), key=len, reverse=True))
_RANK_ALTERNATION = "|".join(sorted(map(re.escape, _RANK_WORDS), key=len, reverse=True))
_SUIT_FIRST = re.compile(rf"^({_SUIT_ALTERNATION})\s*({_RANK_ALTERNATION})$")
_RANK_FIRST = re.compile(rf"^({_RANK_ALTERNATION})\s*(?:of\s+)?({_SUIT_ALTERNATION})$")


def parse_card(text: str) -> Card:
    """Read a card the way people type it.

    Accepts the canonical code (``♠A``, ``JKB``), the seed's ``[♠ 0]``, suit-first or
    rank-first letters (``sa``, ``AS``, ``a♠``, ``10h``, ``h10``), words (``spade 10``,
    ``ace of spades``), Korean (``스페이드 A``, ``하트 10``) and jokers (``jk b``, ``joker c``,
    ``흑백 조커``). Case and spaces do not matter. Raises :class:`CardParseError`.
    """
    cleaned = " ".join(text.strip().strip("[]").lower().split())
    if not cleaned:
        raise CardParseError("No card given: type one like ♠A, 10h or JKB")
    joker = _JOKER_RE.match(cleaned)
    if joker:
        colour = (joker.group(1) if joker.group(1) is not None else joker.group(2)).strip()
        if colour in _JOKER_WORDS:
            return Card.of(_JOKER_WORDS[colour], Rank.JOKER)
        raise CardParseError(f"Unknown joker {text.strip()!r}: type JKB or JKC")
    for pattern, suit_group, rank_group in ((_SUIT_FIRST, 1, 2), (_RANK_FIRST, 2, 1)):
        match = pattern.match(cleaned)
        if match:
            return Card.of(
                _SUIT_WORDS[match.group(suit_group)], _RANK_WORDS[match.group(rank_group)]
            )
    raise CardParseError(f"Unknown card {text.strip()!r}: type one like ♠A, 10h or JKB")


def whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits, else ``None``.

    ``str.isdigit`` alone lets through superscripts and other scripts' digits (``²``,
    ``١``) that ``int`` refuses or reads unexpectedly: what a member types is checked here."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None
