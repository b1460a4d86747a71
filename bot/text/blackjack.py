"""Blackjack text: pure functions from views and events to strings (no discord here).

Every hand is public at a Blackjack table (rule 15), so the table shows them all; the only
secret, the House's face-down card, is never in a view or an event before it is turned over,
so nothing here can leak it.

A casino table (``view.casino``) says so in its first line, tags a hand that doubled or is a
Blackjack, shows a seat that split as its two numbered hands (``>`` before the one in play),
and at the end each seat's bets won or lost beside its result. A seed table reads as it
always did.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.games import Control, Rendered
from bot.i18n import t
from bot.text.names import block_name, escape_log
from bot.text.width import wrap_words
from rules.blackjack.events import (
    CardDrawn,
    Dealt,
    Doubled,
    HouseBlackjack,
    HouseBusted,
    HouseDrew,
    HouseStood,
    HouseTurn,
    PairSplit,
    PlayerBlackjack,
    Stood,
)
from rules.blackjack.state import BLACKJACK, BlackjackView, PlayedHand
from rules.cards import Card
from rules.engine import Event, Outcome

__all__ = [
    "DOUBLE_CONTROL",
    "HAND_CONTROLS",
    "OVER_CONTROLS",
    "SPLIT_CONTROL",
    "TABLE_CONTROLS",
    "bets_text",
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
# A casino table's moves, offered only while the hand in play may make them.
DOUBLE_CONTROL = Control("double", "button.double")
SPLIT_CONTROL = Control("split", "button.split")
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


def bets_text(bets: float) -> str:
    """Bets won or lost, signed: ``+1.5``, ``-2``, ``0``."""
    if bets == 0:
        return "0"
    return f"{bets:+.1f}" if bets % 1 else f"{bets:+.0f}"


def event_lines(
    events: Iterable[Event], names: Sequence[str], locale: str, *, casino: bool = False
) -> list[str]:
    """The move log: one line per thing that happened worth telling (``casino``: the table
    plays the casino rules, where a House Blackjack does not beat a player's)."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, Dealt):
            lines.append(t("bj.log.dealt", locale, card=card_text(event.up_card)))
        elif isinstance(event, CardDrawn | Doubled):
            verb = "hit" if isinstance(event, CardDrawn) else "double"
            key = f"bj.log.{verb}{'_hand' if event.hand is not None else ''}"
            key += "_bust" if event.bust else ""
            name = safe_name(names[event.seat])
            card = card_text(event.card)
            lines.append(t(key, locale, name=name, card=card, total=event.total, n=_n(event.hand)))
        elif isinstance(event, Stood):
            name = safe_name(names[event.seat])
            key = "bj.log.stand" if event.hand is None else "bj.log.stand_hand"
            lines.append(t(key, locale, name=name, total=event.total, n=_n(event.hand)))
        elif isinstance(event, PairSplit):
            first = hand_text(event.first, event.totals[0], locale)
            second = hand_text(event.second, event.totals[1], locale)
            name = safe_name(names[event.seat])
            lines.append(t("bj.log.split", locale, name=name, first=first, second=second))
            if event.aces:
                lines.append(t("bj.log.split_aces", locale))
        elif isinstance(event, PlayerBlackjack):
            lines.append(t("bj.log.blackjack", locale, name=safe_name(names[event.seat])))
        elif isinstance(event, HouseBlackjack):
            key = "bj.log.house_blackjack_casino" if casino else "bj.log.house_blackjack"
            lines.append(t(key, locale, card=card_text(event.hole)))
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


def _n(hand: int | None) -> int:
    """A split hand's number as players count: 1 or 2."""
    return 0 if hand is None else hand + 1


def table_body(view: BlackjackView, names: Sequence[str], locale: str) -> str:
    """The table: the House, then every seat; results once the game is over. Names are
    clipped and long hands wrap, so no line is wider than a phone shows (40 columns)."""
    house = t("bj.house", locale)
    header = []
    if view.casino:
        soft17 = "bj.rules_casino_h17" if view.house_hits_soft17 else "bj.rules_casino"
        header = [t(soft17, locale)]
    if view.house_hidden:
        shown = [t("bj.hidden", locale), *(card_text(c) for c in view.house)]
        lines = [_hand_words(f"{house}:", shown, "")]
    else:
        lines = [_hand_words(f"{house}:", view.house, _total(view.house_total, locale))]
    if view.casino and view.seat_hands:
        rows = [(words, "    ") for words in lines] + _casino_seats(view, names, locale)
        wrapped = [part for words, indent in rows for part in wrap_words(words, indent=indent)]
        return "\n".join(header + wrapped)
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


_HAND_INDENT = "      "  # a split hand's wrapped cards go on under its own


def _casino_seats(
    view: BlackjackView, names: Sequence[str], locale: str
) -> list[tuple[list[str], str]]:
    """Every seat at a casino table, as words and the indent of their wrapped lines: a seat
    that split is a line of its own, then its hands numbered, ``>`` before the one in play;
    at the end ``[Win +1.5]``, the result and the bets won."""
    lines: list[tuple[list[str], str]] = []
    result = view.result
    over = result is not None
    for seat, hands in enumerate(view.seat_hands):
        name = block_name(names[seat])
        if result is not None:
            outcome = t(_OUTCOME_KEYS[result.outcomes[seat]], locale)
            bets = view.payouts[seat] if view.payouts is not None else 0.0
            head = f"[{outcome} {bets_text(bets)}] {name}:"
        else:
            head = f"{'> ' if seat == view.current else '  '}{name}:"
        if len(hands) == 1:
            tail = _casino_tail(hands[0], locale, over=over)
            lines.append((_hand_words(head, hands[0].cards, tail), "    "))
            continue
        lines.append(([head, t("bj.split", locale)], "    "))
        for part, played in enumerate(hands):
            number = t("bj.hand_n", locale, n=part + 1)
            if result is not None:
                paid = bets_text(played.payout or 0.0)
                label = f"    [{t(_OUTCOME_KEYS[_outcome(played)], locale)} {paid}] {number}:"
            else:
                marker = "> " if seat == view.current and part == view.playing else "  "
                label = f"  {marker}{number}:"
            tail = _casino_tail(played, locale, over=over)
            lines.append((_hand_words(label, played.cards, tail), _HAND_INDENT))
    return lines


def _outcome(played: PlayedHand) -> Outcome:
    """A split hand's own result, by what it won."""
    paid = played.payout or 0.0
    return Outcome.WIN if paid > 0 else Outcome.LOSE if paid < 0 else Outcome.DRAW


def _casino_tail(played: PlayedHand, locale: str, *, over: bool) -> str:
    """``(21) - Blackjack``, ``(19) - Double``, ``(18) - Stand`` (while the game is on):
    the total and what the hand did, as one word."""
    tail = _total(played.total, locale)
    if played.blackjack:
        return f"{tail} - {t('bj.blackjack', locale)}"
    if played.doubled:
        return f"{tail} - {t('bj.double', locale)}"
    if played.done and not played.busted and not over:
        return f"{tail} - {t('bj.stood', locale)}"
    return tail


def _total(total: int, locale: str) -> str:
    """``(15)``, or ``(24) - Bust !!`` over 21: one word, never broken across lines."""
    return f"({total}) - {t('bj.bust', locale)}" if total > BLACKJACK else f"({total})"


def _hand_words(head: str, cards: Sequence[Card | str], tail: str) -> list[str]:
    """A table line as words for :func:`~bot.text.width.wrap_words`: ``Alice: ♦9, ♦6 (15)``."""
    shown = [c if isinstance(c, str) else card_text(c) for c in cards]
    words = [f"{text}," for text in shown[:-1]] + shown[-1:]
    return [head, *words, *([tail] if tail else [])]


def _moves(view: BlackjackView) -> tuple[Control, ...]:
    """A casino table's Double and Split, each only while the hand in play may make it."""
    return (DOUBLE_CONTROL,) * view.may_double + (SPLIT_CONTROL,) * view.may_split


def table(
    view: BlackjackView, events: Sequence[Event], names: Sequence[str], locale: str
) -> Rendered:
    """The public table after ``events``, with Hand/Hit/Stand (and at a casino table Double
    and Split when the seat to act may make them), or Deal again once over."""
    controls = OVER_CONTROLS if view.is_over else TABLE_CONTROLS + _moves(view)
    return Rendered(
        tuple(escape_log(event_lines(events, names, locale, casino=view.casino))),
        table_body(view, names, locale),
        "",
        controls,
    )


def _own_lines(
    marker: str, key: str, cards: Sequence[Card], tail: str, locale: str, **params: int
) -> list[str]:
    """``Your hand: ♦9, ♦6 (15)`` (the catalog's ``key``) wrapped to a phone's width between
    cards, the total and its tag kept whole."""
    before, _, after = t(key, locale, hand="\0", **params).partition("\0")
    words = _hand_words(marker + before.rstrip(), cards, tail + after)
    return wrap_words(words, indent="      " if marker else "    ")


def hand(view: BlackjackView, names: Sequence[str], locale: str) -> Rendered:
    """One seat's own hand (both, numbered, after a split) and what the House shows, for an
    ephemeral answer; long hands wrap."""
    assert view.seat is not None
    seat = view.seat
    played = view.seat_hands[seat] if view.casino and view.seat_hands else ()
    lines: list[str] = []
    if len(played) > 1:
        for part, one in enumerate(played):
            marker = "> " if view.current == seat and part == view.playing else "  "
            tail = _casino_tail(one, locale, over=view.is_over)
            lines += _own_lines(marker, "bj.your_hand_n", one.cards, tail, locale, n=part + 1)
    elif played:
        tail = _casino_tail(played[0], locale, over=view.is_over)
        lines += _own_lines("", "bj.your_hand", played[0].cards, tail, locale)
    else:
        tail = _total(view.totals[seat], locale)
        lines += _own_lines("", "bj.your_hand", view.hands[seat], tail, locale)
    house = ", ".join(card_text(c) for c in view.house)
    body = "\n".join([*lines, t("bj.house_shows", locale, cards=house)])
    return Rendered((), body, "", HAND_CONTROLS + _moves(view) if view.current == seat else ())
