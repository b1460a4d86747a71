"""What only a Go-Stop seat sees: its hand, numbered and grouped by month with what each card
would take from the floor now, the cards it may play, and the Go/Stop question with what each
answer pays or risks. Never in a public message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.i18n import DEFAULT, counted, t
from bot.text.gostop_words import KIND_KEYS, Glossary, card_name, fit, month_name, phrase
from bot.text.width import PHONE_COLUMNS, columns
from rules.engine import Action
from rules.gostop.cards import HwatuCard, Kind
from rules.gostop.events import Bomb, Play
from rules.gostop.scoring import WINNING_SCORE, go_terms
from rules.gostop.state import GostopView

__all__ = [
    "go_stop_lines",
    "hand_lines",
    "legal_cards",
    "numbered_hand",
    "outcome_text",
    "outcome_words",
]


def outcome_words(
    view: GostopView, card: HwatuCard, locale: str = DEFAULT, *, within_month: bool = False
) -> list[str]:
    """What ``card`` would take from the floor now (rule 6), as words to wrap, each card name
    one word: one card, a choice of two, a stack, nothing; a bonus card is taken at once
    (rule 2). ``within_month``: the floor cards by kind alone (``띠``, ``ribbon``), where the
    month is already said."""
    if card.kind is Kind.BONUS:
        return phrase("gostop.hand.bonus", locale)
    same = next((cards for month, cards, _ in view.floor if month == card.month), ())

    def name(floor_card: HwatuCard) -> str:
        if within_month:
            return t(f"gostop.kind.{KIND_KEYS[floor_card.kind]}", locale)
        return card_name(floor_card, locale)

    if not same:
        return phrase("gostop.hand.stays", locale)
    if len(same) == 2 and same[0].kind is not same[1].kind:
        return phrase("gostop.hand.choose", locale, first=name(same[0]), second=name(same[1]))
    if len(same) == 3:
        names = t("gostop.list_separator", locale).join(name(c) for c in same)
        return phrase("gostop.hand.stack", locale, cards=names)
    return phrase("gostop.hand.takes", locale, card=name(same[0]))


def outcome_text(
    view: GostopView, card: HwatuCard, locale: str = DEFAULT, *, within_month: bool = False
) -> str:
    """:func:`outcome_words` as one phrase (a menu's label)."""
    return " ".join(outcome_words(view, card, locale, within_month=within_month))


def numbered_hand(view: GostopView) -> list[HwatuCard]:
    """The seat's cards in the order :func:`hand_lines` numbers them (by month, each month
    where its first card is in the hand): the number a member reads is the card."""
    months: dict[int, list[HwatuCard]] = {}
    for card in view.hand or ():
        months.setdefault(card.month, []).append(card)
    return [card for cards in months.values() for card in cards]


def hand_lines(view: GostopView, locale: str = DEFAULT) -> list[str]:
    """The seat's own hand, numbered and grouped by month, each month with what its cards take
    from the floor now and whether they may shake or bomb. Private: only for that seat. Lines
    break between cards and words, never inside a card's name."""
    hand = view.hand or ()
    lines = [counted("gostop.hand.count", len(hand), locale, n=len(hand))]
    shakes = {a.card.month for a in view.legal if isinstance(a, Play) and a.shake}
    bombs = {a.month for a in view.legal if isinstance(a, Bomb)}
    number = 0
    months: dict[int, list[HwatuCard]] = {}
    for card in numbered_hand(view):
        months.setdefault(card.month, []).append(card)
    for month, cards in months.items():
        words = [t("gostop.hand.month", locale, month=month_name(month, locale) if month else "")]
        if not month:
            words = [t("gostop.hand.bonus_month", locale)]
        for card in cards:
            number += 1
            kind = t(f"gostop.kind.{KIND_KEYS[card.kind]}", locale) if month else ""
            shown = kind or card_name(card, locale)
            words.append(t("gostop.hand.card", locale, n=number, card=shown))
        words += _whole(outcome_words(view, cards[0], locale, within_month=True))
        if month in shakes:
            words += _whole(phrase("gostop.hand.may_shake", locale))
        if month in bombs:
            words += _whole(phrase("gostop.hand.may_bomb", locale))
        lines += fit(words, _HAND_INDENT)
    return lines


_HAND_INDENT: Final = "    "


def _whole(words: list[str]) -> list[str]:
    """A phrase kept on one line where a line can hold it (``-> stays on the floor`` never
    ends a line at ``the``); a longer one still breaks between its words."""
    phrase = " ".join(words)
    return [phrase] if columns(phrase) <= PHONE_COLUMNS - len(_HAND_INDENT) else words


def go_stop_lines(view: GostopView, names: Sequence[str], locale: str = DEFAULT) -> list[str]:
    """The Go/Stop question for the seat that must answer (rule 22): their score, what Stop
    pays now (its multipliers explained), and what Go adds and risks (go-bak, rule 24)."""
    seat = view.seat
    assert seat is not None
    other = 1 - seat
    score = view.piles[seat].score
    goes = view.goes[seat] + 1
    bonus, times = go_terms(goes)
    theirs = view.piles[other].score
    lines = [
        t("gostop.go_stop.score", locale, score=score, other=names[other], theirs=theirs),
        t("gostop.go_stop.stop", locale, points=view.potential[seat] + view.instant[seat]),
    ]
    said = Glossary(locale)
    if view.multipliers[seat]:
        named = ", ".join(_multiplier_name(m, locale, said) for m in view.multipliers[seat])
        lines.append(t("gostop.go_stop.multipliers", locale, names=named))
    go = t("gostop.go_stop.go", locale, n=goes, bonus=bonus)
    if times > 1:
        go += " " + t("gostop.go_stop.go_times", locale, times=times)
    lines += [go, t("gostop.go_stop.risk", locale, other=names[other], need=WINNING_SCORE)]
    return lines


_MULTIPLIER_TERMS = {"shake": "shake", "bomb": "bomb", "nagari": "nagari"}


def _multiplier_name(name: str, locale: str, said: Glossary) -> str:
    """The engine's multiplier names (``shake×1``, ``pi-bak``, ``nagari×2``) in words, each
    term explained the first time."""
    word, _, times = name.partition("×")
    if times:
        text = t(f"gostop.multiplier.{word}", locale, n=times)
        return said(_MULTIPLIER_TERMS[word], text) if word in _MULTIPLIER_TERMS else text
    return said(word, t(f"gostop.bak.{word}", locale))


def legal_cards(legal: Sequence[Action]) -> list[HwatuCard]:
    """The cards the seat may play now, each once, in hand order."""
    seen: dict[int, HwatuCard] = {}
    for action in legal:
        if isinstance(action, Play):
            seen.setdefault(action.card.index, action.card)
    return list(seen.values())
