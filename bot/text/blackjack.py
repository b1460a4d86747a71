"""Blackjack text: pure functions from views and events to strings (no discord here).

Every hand is public at a Blackjack table (rule 15), so the table shows them all; the only
secret, the House's face-down card, is never in a view or an event before it is turned over,
so nothing here can leak it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.games import Control, Table
from bot.i18n import t
from bot.text.names import block_name, escape_log
from bot.text.width import wrap_words
from rules.blackjack.events import (
    CardDrawn,
    Dealt,
    HouseBlackjack,
    HouseBusted,
    HouseDrew,
    HouseStood,
    HouseTurn,
    Stood,
)
from rules.blackjack.state import BLACKJACK, BlackjackView
from rules.cards import Card
from rules.engine import Event, Outcome

__all__ = [
    "HAND_CONTROLS",
    "OVER_CONTROLS",
    "TABLE_CONTROLS",
    "card_text",
    "event_lines",
    "hand",
    "hand_text",
    "safe_name",
    "table",
    "table_body",
]

NAME_LIMIT = 32
TABLE_CONTROLS = (
    Control("hand", "button.hand"),
    Control("hit", "button.hit", "primary"),
    Control("stand", "button.stand"),
)
HAND_CONTROLS = TABLE_CONTROLS[1:]
OVER_CONTROLS = (Control("again", "button.again", "success"),)
_OUTCOME_KEYS = {Outcome.WIN: "bj.win", Outcome.LOSE: "bj.lose", Outcome.DRAW: "bj.draw"}
# Every card's text once: a table writes a dozen cards on each move.
_CODES = tuple(Card.from_index(index).code for index in range(54))


def card_text(card: Card) -> str:
    """A card as Deckhand writes it everywhere: ``♠A``, ``♥10``."""
    return _CODES[card.index]


def safe_name(name: str) -> str:
    """A display name for the move log: one line, no backquote, at most 32 columns."""
    return block_name(name, NAME_LIMIT)


def hand_text(cards: Iterable[Card], total: int, locale: str) -> str:
    """``♦9, ♦6 (15)``, with the seed's ``- Bust !!`` over 21."""
    text = f"{', '.join(card_text(c) for c in cards)} ({total})"
    return f"{text} - {t('bj.bust', locale)}" if total > BLACKJACK else text


def event_lines(events: Iterable[Event], names: Sequence[str], locale: str) -> list[str]:
    """The move log: one line per thing that happened worth telling."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, Dealt):
            lines.append(t("bj.log.dealt", locale, card=card_text(event.up_card)))
        elif isinstance(event, CardDrawn):
            key = "bj.log.hit_bust" if event.bust else "bj.log.hit"
            name = safe_name(names[event.seat])
            lines.append(t(key, locale, name=name, card=card_text(event.card), total=event.total))
        elif isinstance(event, Stood):
            name = safe_name(names[event.seat])
            lines.append(t("bj.log.stand", locale, name=name, total=event.total))
        elif isinstance(event, HouseBlackjack):
            lines.append(t("bj.log.house_blackjack", locale, card=card_text(event.hole)))
        elif isinstance(event, HouseTurn):
            lines.append(
                t("bj.log.house_turn", locale, card=card_text(event.hole), total=event.total)
            )
        elif isinstance(event, HouseDrew):
            lines.append(
                t("bj.log.house_drew", locale, card=card_text(event.card), total=event.total)
            )
        elif isinstance(event, HouseStood):
            lines.append(t("bj.log.house_stood", locale, total=event.total))
        elif isinstance(event, HouseBusted):
            lines.append(t("bj.log.house_busted", locale, total=event.total))
        # TurnStarted shows as the table's marker; hand-overs and GameOver are told by the
        # session's notice and the results below the table.
    return lines


def table_body(view: BlackjackView, names: Sequence[str], locale: str) -> str:
    """The table: the House, then every seat; results once the game is over. Names are
    clipped and long hands wrap, so no line is wider than a phone shows (40 columns)."""
    house = t("bj.house", locale)
    if view.house_hidden:
        shown = [t("bj.hidden", locale), *(card_text(c) for c in view.house)]
        lines = [_hand_words(f"{house}:", shown, "")]
    else:
        lines = [_hand_words(f"{house}:", view.house, _total(view.house_total, locale))]
    result = view.result
    for seat in range(view.players):
        name = block_name(names[seat])
        total = _total(view.totals[seat], locale)
        if result is not None:
            outcome = t(_OUTCOME_KEYS[result.outcomes[seat]], locale)
            lines.append(_hand_words(f"[{outcome}] {name}:", view.hands[seat], total))
            continue
        marker = "> " if seat == view.current else "  "
        stood = view.finished[seat] and view.totals[seat] <= BLACKJACK
        suffix = f" - {t('bj.stood', locale)}" if stood else ""
        lines.append(_hand_words(f"{marker}{name}:", view.hands[seat], total + suffix))
    return "\n".join(part for words in lines for part in wrap_words(words))


def _total(total: int, locale: str) -> str:
    """``(15)``, or ``(24) - Bust !!`` over 21: one word, never broken across lines."""
    return f"({total}) - {t('bj.bust', locale)}" if total > BLACKJACK else f"({total})"


def _hand_words(head: str, cards: Sequence[Card | str], tail: str) -> list[str]:
    """A table line as words for :func:`~bot.text.width.wrap_words`: ``Alice: ♦9, ♦6 (15)``."""
    shown = [c if isinstance(c, str) else card_text(c) for c in cards]
    words = [f"{text}," for text in shown[:-1]] + shown[-1:]
    return [head, *words, *([tail] if tail else [])]


def table(view: BlackjackView, events: Sequence[Event], names: Sequence[str], locale: str) -> Table:
    """The public table after ``events``, with Hand/Hit/Stand, or Deal again once over."""
    controls = OVER_CONTROLS if view.is_over else TABLE_CONTROLS
    return Table(
        tuple(escape_log(event_lines(events, names, locale))),
        table_body(view, names, locale),
        "",
        controls,
    )


def hand(view: BlackjackView, names: Sequence[str], locale: str) -> Table:
    """One seat's own hand and what the House shows, for an ephemeral answer."""
    assert view.seat is not None
    seat = view.seat
    mine = hand_text(view.hands[seat], view.totals[seat], locale)
    house = ", ".join(card_text(c) for c in view.house)
    body = "\n".join(
        [t("bj.your_hand", locale, hand=mine), t("bj.house_shows", locale, cards=house)]
    )
    return Table((), body, "", HAND_CONTROLS if view.current == seat else ())
