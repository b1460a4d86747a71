"""The hwatu deck for Go-Stop: 48 cards (4 per month) plus optional bonus cards (rules 1–2).

Canonical codes are month + kind (``1광``, ``2열``, ``2띠``, ``5피a``, ``11쌍피``), bonus cards
``B2a``, ``B2b``, ``B3``. English aliases read ``jan-bright``, ``feb-animal``, ``may-junk-a``,
``nov-double-junk``, ``bonus-2a``. Every card is a shared immutable instance with a stable
``index`` (``4 * (month - 1) + slot`` for the 48, then 48–50 for bonus cards); the engine keeps
indices, so everything derived from a card is looked up in the module-level tables below.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, unique
from typing import ClassVar

__all__ = [
    "BIRDS",
    "BONUS_SETS",
    "BRIGHTS",
    "CARDS",
    "DANS",
    "DECK",
    "GUKJIN",
    "RAIN_BRIGHT",
    "HwatuCard",
    "HwatuParseError",
    "Kind",
    "parse_hwatu",
]


@unique
class Kind(Enum):
    """What a card counts as: bright, animal (열끗), ribbon (띠), junk (피), double junk, bonus."""

    BRIGHT = "광"
    ANIMAL = "열"
    RIBBON = "띠"
    JUNK = "피"
    DOUBLE = "쌍피"
    BONUS = "보너스"


class HwatuParseError(ValueError):
    """Text that names no hwatu card."""


_MONTHS_EN = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_KIND_EN = {
    Kind.BRIGHT: "bright",
    Kind.ANIMAL: "animal",
    Kind.RIBBON: "ribbon",
    Kind.JUNK: "junk",
    Kind.DOUBLE: "double-junk",
}

# The table of rule 1: per month the kinds in slot order.
_LAYOUT: tuple[tuple[Kind, ...], ...] = (
    (Kind.BRIGHT, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 1
    (Kind.ANIMAL, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 2
    (Kind.BRIGHT, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 3
    (Kind.ANIMAL, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 4
    (Kind.ANIMAL, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 5
    (Kind.ANIMAL, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 6
    (Kind.ANIMAL, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 7
    (Kind.BRIGHT, Kind.ANIMAL, Kind.JUNK, Kind.JUNK),  # 8
    (Kind.ANIMAL, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 9
    (Kind.ANIMAL, Kind.RIBBON, Kind.JUNK, Kind.JUNK),  # 10
    (Kind.BRIGHT, Kind.JUNK, Kind.JUNK, Kind.DOUBLE),  # 11
    (Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.DOUBLE),  # 12
)


@dataclass(frozen=True, slots=True, eq=False)
class HwatuCard:
    """One card. Use the shared instances (``CARDS``, ``parse_hwatu``)."""

    index: int
    month: int  # 1..12; 0 for bonus cards, which match no month
    kind: Kind
    code: str
    alias: str
    pi_value: int  # what it adds to the pi total as junk: 1, 2 (쌍피, 국진 as 쌍피, B2), 3 (B3)

    _ALL: ClassVar[tuple[HwatuCard, ...]]

    @staticmethod
    def from_index(index: int) -> HwatuCard:
        """The card with this stable index (0..50)."""
        return HwatuCard._ALL[index]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"HwatuCard({self.code})"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (HwatuCard.from_index, (self.index,))


def _build() -> tuple[HwatuCard, ...]:
    cards: list[HwatuCard] = []
    for m, kinds in enumerate(_LAYOUT, start=1):
        junk_letter = iter("ab")
        for slot, kind in enumerate(kinds):
            suffix = next(junk_letter) if kind is Kind.JUNK else ""
            code = f"{m}{kind.value}{suffix}"
            alias = f"{_MONTHS_EN[m - 1]}-{_KIND_EN[kind]}" + (f"-{suffix}" if suffix else "")
            pi = 1 if kind is Kind.JUNK else 2 if kind is Kind.DOUBLE else 0
            cards.append(HwatuCard(4 * (m - 1) + slot, m, kind, code, alias, pi))
    for index, (code, value) in enumerate((("B2a", 2), ("B2b", 2), ("B3", 3)), start=48):
        alias = f"bonus-{code[1:]}"
        cards.append(HwatuCard(index, 0, Kind.BONUS, code, alias, value))
    return tuple(cards)


HwatuCard._ALL = _build()
CARDS: tuple[HwatuCard, ...] = HwatuCard._ALL
DECK: tuple[HwatuCard, ...] = CARDS[:48]
# Option ``bonus_cards``: 2 → two 2-pi cards; 3 → those and one 3-pi card.
BONUS_SETS: dict[int, tuple[HwatuCard, ...]] = {0: (), 2: CARDS[48:50], 3: CARDS[48:51]}

BRIGHTS = frozenset(c.index for c in DECK if c.kind is Kind.BRIGHT)
RAIN_BRIGHT = 44  # 12광, 비광
GUKJIN = 32  # 9열, the September animal that may count as 쌍피
BIRDS = frozenset((4, 12, 29))  # 2열, 4열, 8열: godori
DANS: dict[str, frozenset[int]] = {
    "홍단": frozenset((1, 5, 9)),  # 1, 2, 3
    "청단": frozenset((21, 33, 37)),  # 6, 9, 10
    "초단": frozenset((13, 17, 25)),  # 4, 5, 7
}


def _twins() -> tuple[int, ...]:
    """Each card's identical twin (the other plain junk of its month, the other 2-pi bonus
    card), or -1: twins score, capture and steal alike, so naming either means the one held."""
    twin = [-1] * len(CARDS)
    pairs = [(c.index, c.index + 1) for c in DECK if c.code.endswith("피a")]
    for a, b in [*pairs, (48, 49)]:
        twin[a], twin[b] = b, a
    return tuple(twin)


TWIN: tuple[int, ...] = _twins()

_LOOKUP: dict[str, HwatuCard] = {}
for _card in CARDS:
    _LOOKUP[_card.code.lower()] = _card
    _LOOKUP[_card.alias] = _card
    _LOOKUP[_card.alias.replace("-", " ")] = _card
    _LOOKUP[_card.alias.replace("-", "")] = _card
    if _card.month and _card.kind is not Kind.JUNK:
        _LOOKUP[f"{_card.month}{_card.kind.value}".lower()] = _card
for _m, _name in ((1, "송학"), (12, "비")):
    _LOOKUP[f"{_name}광"] = CARDS[4 * (_m - 1)]
_LOOKUP["비광"] = CARDS[RAIN_BRIGHT]
_LOOKUP["국진"] = CARDS[GUKJIN]
for _extra, _card_index in (("보너스2a", 48), ("보너스2b", 49), ("보너스3", 50)):
    _LOOKUP[_extra] = CARDS[_card_index]
# A twin's shared name, as the tables show it (``1피``, ``jan junk``, ``보너스쌍피``), reads as
# its ``a`` card; the engine plays whichever of the two is held (``TWIN``).
for _card in CARDS:
    if TWIN[_card.index] > _card.index:
        shared = _card.alias[:-1].rstrip("-")  # jan-junk-a -> jan-junk, bonus-2a -> bonus-2
        for name in (_card.code.lower()[:-1], shared, shared.replace("-", " ")):
            _LOOKUP.setdefault(name, _card)
            _LOOKUP.setdefault(name.replace("-", "").replace(" ", ""), _card)
_SHOWN_BONUS = (("보너스쌍피", 48), ("bonus(2)", 48), ("보너스쓰리피", 50), ("bonus(3)", 50))
for _name, _card_index in _SHOWN_BONUS:
    _LOOKUP.setdefault(_name, CARDS[_card_index])


def parse_hwatu(text: str) -> HwatuCard:
    """Read a card by code or alias; case, spaces and ``[ ]`` do not matter.

    Raises :class:`HwatuParseError` naming what was typed.
    """
    cleaned = "".join(text.strip().strip("[]").lower().split())
    card = _LOOKUP.get(cleaned)
    if card is None:
        spaced = " ".join(text.strip().lower().split())
        card = _LOOKUP.get(spaced)
    if card is None:
        raise HwatuParseError(
            f"Unknown card {text.strip()!r}: type one like 1광, 5피a or jan-bright"
        )
    return card
