"""Go-Stop's words, shared by its table, score sheet and hand: the names of cards, months,
kinds and 단 from the message catalogs (``gostop.*``), the game's terms explained once a
message (:class:`Glossary`), and sentences wrapped to a phone's 40 columns without breaking a
card's name."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n import DEFAULT, t
from bot.text.width import PHONE_COLUMNS, wrap, wrap_words
from rules.gostop.cards import DANS, HwatuCard, Kind
from rules.gostop.state import PileView

__all__ = [
    "KIND_KEYS",
    "Glossary",
    "card_name",
    "cards_text",
    "dan_names",
    "fit",
    "month_name",
    "phrase",
    "say",
    "short_name",
]

KIND_KEYS = {
    Kind.BRIGHT: "bright",
    Kind.ANIMAL: "animal",
    Kind.RIBBON: "ribbon",
    Kind.JUNK: "junk",
    Kind.DOUBLE: "double",
    Kind.BONUS: "bonus",
}
_ARROW = "->"  # before what a hand's card would take


class Glossary:
    """The game's terms already said in one message: English explains a term where the message
    first uses it (``pi-bak (loser: 1-7 junk)``) and says it plain after; Korean's glosses are
    the word alone (its terms are the real words)."""

    def __init__(self, locale: str = DEFAULT) -> None:
        self.locale = locale
        self.said: set[str] = set()

    def first(self, term: str) -> bool:
        """Whether ``term`` is used here for the first time (it counts as said from now)."""
        if term in self.said:
            return False
        self.said.add(term)
        return True

    def __call__(self, term: str, word: str) -> str:
        """``word`` (a phrase naming ``term``), glossed if the message has not said it yet."""
        if not self.first(term):
            return word
        return t(f"gostop.gloss.{term}", self.locale, word=word)


def card_name(card: HwatuCard, locale: str = DEFAULT) -> str:
    """A card as the language names it: ``1광``, ``5피`` / ``Jan bright``, ``May junk``."""
    return t(f"gostop.card.{card.code}", locale)


def cards_text(cards: Iterable[HwatuCard], locale: str = DEFAULT) -> str:
    """Card names joined for a sentence (``1광, 1피`` / ``Jan bright, Jan junk``)."""
    return t("gostop.list_separator", locale).join(card_name(c, locale) for c in cards)


def month_name(month: int, locale: str = DEFAULT) -> str:
    """``1월`` / ``Jan``."""
    return t(f"gostop.month.{month}", locale)


def short_name(card: HwatuCard, locale: str, as_double: bool = False) -> str:
    """A card in a list already grouped by kind: ``1광`` / ``Jan``, a double ``Nov(2)``;
    ``as_double``: the 국진 counted as 쌍피 (rule 21)."""
    key = "gostop.short.gukjin_double" if as_double else f"gostop.short.{card.code}"
    return t(key, locale)


def fit(words: Sequence[str], indent: str = "   ") -> list[str]:
    """``words`` (each kept whole) on lines of at most 40 columns."""
    return wrap_words(list(words), PHONE_COLUMNS, indent)


def say(sentence: str, indent: str = "   ") -> list[str]:
    """A sentence broken at its spaces into lines of at most 40 columns."""
    return wrap(sentence, PHONE_COLUMNS, indent)


def phrase(key: str, locale: str, **params: str) -> list[str]:
    """The message ``key`` as words to wrap, each filled-in name one word: ``-> takes the
    {card}`` with ``Nov double`` never breaks between ``Nov`` and ``double``."""
    words: list[str] = []
    for piece in t(key, locale).split(" "):
        word = piece.format_map(params)
        if words and words[-1] == _ARROW:  # an arrow stays with what it points to
            word = f"{words.pop()} {word}"
        words.append(word)
    return words


def dan_names(pile: PileView, locale: str, said: Glossary | None = None) -> list[str]:
    """The 단 the pile holds, by name (glossed the first time when ``said`` is given)."""
    held = {c.index for c in pile.ribbons}
    named = [
        (name, t(f"gostop.dan.{name}", locale)) for name, cards in DANS.items() if cards <= held
    ]
    return [said(name, word) if said else word for name, word in named]
