"""Crazy Eights text: pure functions from engine views and events to strings, in the reader's
language (``crazyeights.*`` in the message catalogs).

A card is said by its code (``♠A``, ``♥10``), which ``/crazyeights play`` reads back in any
language. The public table (:func:`table_body`) shows the top card, the suit to follow and
how many cards each hand and the stock hold, never a card of a hand (rule 7); only
:func:`hand_body`, meant for that hand's owner, lists one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from bot.i18n import DEFAULT, counted, t
from bot.text.names import TABLE_NAME_COLUMNS, block_names
from bot.text.width import PHONE_COLUMNS, pad, wrap, wrap_words
from rules.cards import Card, Rank
from rules.crazyeights import (
    CardDrawn,
    CardPlayed,
    CrazyEightsView,
    Forfeited,
    GameOver,
    Passed,
    Reshuffled,
    SuitChosen,
)
from rules.engine import Event

__all__ = [
    "CURRENT_MARK",
    "card_name",
    "hand_body",
    "log_lines",
    "sorted_hand",
    "table_body",
    "turn_line",
]

# ASCII, like every mark before an aligned column: an arrow is two columns in a CJK font.
CURRENT_MARK: Final = ">"


def card_name(card: Card) -> str:
    """A card as every language shows it: its code (``♣8``, ``♥10``)."""
    return card.code


def _name(seat: int, names: Sequence[str] | None) -> str:
    """A seat in a sentence: its member's name (the session always gives them), else its
    number."""
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return str(seat + 1)


def _shown(view: CrazyEightsView, names: Sequence[str] | None) -> list[str]:
    """The seats' names as a code block shows them: one line, no backquote, 12 columns."""
    return block_names([_name(seat, names) for seat in range(view.players)])


# -- the move log ----------------------------------------------------------------------------


def log_lines(
    events: Iterable[Event], names: Sequence[str] | None = None, locale: str = DEFAULT
) -> list[str]:
    """What happened, one sentence per event in ``locale``'s language; a seat's draws in a
    row are one line (``Bob drew 3 cards``), and never say which cards (rule 7)."""
    lines: list[str] = []
    drawing: tuple[int, int] | None = None  # (seat, cards) of the draws being counted

    def drawn() -> None:
        if drawing is not None:
            seat, n = drawing
            lines.append(counted("crazyeights.log.drew", n, locale, name=_name(seat, names)))

    for event in events:
        if isinstance(event, CardDrawn):
            if drawing is not None and drawing[0] == event.seat:
                drawing = (event.seat, drawing[1] + 1)
            else:
                drawn()
                drawing = (event.seat, 1)
            continue
        line = _line(event, names, locale)
        if line is not None:
            drawn()
            drawing = None
            lines.append(line)
    drawn()
    return lines


def _line(event: Event, names: Sequence[str] | None, locale: str) -> str | None:
    match event:
        case CardPlayed(seat=seat, card=card):
            return t(
                "crazyeights.log.played", locale, name=_name(seat, names), card=card_name(card)
            )
        case SuitChosen(seat=seat, suit=suit):
            return t("crazyeights.log.suit", locale, name=_name(seat, names), suit=suit.value)
        case Reshuffled(cards=cards):
            return counted("crazyeights.log.reshuffled", cards, locale)
        case Passed(seat=seat):
            return t("crazyeights.log.passed", locale, name=_name(seat, names))
        case Forfeited(seat=seat, returned=returned):
            return counted("crazyeights.log.forfeited", returned, locale, name=_name(seat, names))
        case GameOver(result=result) if result.winners:
            winner = result.winners[0]
            return counted(
                "crazyeights.log.wins", result.scores[winner], locale, name=_name(winner, names)
            )
    return None


# -- the table and the hand ------------------------------------------------------------------


def _to_play(view: CrazyEightsView, locale: str) -> str:
    """What fits the top card (rules 9-10): its suit, its rank or an 8; after an 8, the
    suit its player named or another 8."""
    if view.top.rank is Rank.EIGHT:
        return t("crazyeights.table.follow_eight", locale, suit=view.suit.value)
    return t("crazyeights.table.follow", locale, suit=view.suit.value, rank=view.top.rank.label)


def _top_lines(view: CrazyEightsView, locale: str) -> list[str]:
    lines = [t("crazyeights.table.top", locale, card=card_name(view.top))]
    if not view.is_over:
        lines.append(_to_play(view, locale))
    return lines


def table_body(
    view: CrazyEightsView, names: Sequence[str] | None = None, locale: str = DEFAULT
) -> str:
    """The inside of the public table's code block: counts, never a card of a hand.

    The turn and the stock, the top card and what fits it, every seat with its count (``>``
    marks whose turn it is) and who plays next; on the first turn, how many 8s turned up
    were buried (rule 6). The final table ranks every seat (rules 17 and 19): the winner
    with the points it scores, the others with the points left in their hands, those who
    left last. No line is wider than 40 columns.
    """
    shown = _shown(view, names)
    header = f"{t('crazyeights.table.turn', locale, n=view.turn)} · "
    header += counted("crazyeights.table.stock", view.stock, locale)
    lines = [header, *_top_lines(view, locale)]
    if view.buried and view.turn == 1 and not view.is_over:
        lines += wrap(counted("crazyeights.table.buried", view.buried, locale))
    lines.append("")
    if view.result is not None:
        lines += _ranking(view, shown, locale)
        lines += ["", *wrap(t("crazyeights.table.over", locale))]
        return "\n".join(lines)
    for seat in range(view.players):
        mark = CURRENT_MARK if seat == view.current else " "
        label = pad(f"{mark} {shown[seat]}", 3 + TABLE_NAME_COLUMNS)
        if not view.playing[seat]:
            lines.append(f"{label}  {t('crazyeights.table.left', locale)}")
        else:
            lines.append(f"{label} {_count(view.counts[seat], locale)}")
    if view.next_seat is not None:
        lines += ["", *wrap(t("crazyeights.table.next", locale, name=shown[view.next_seat]))]
    return "\n".join(lines)


def _count(n: int, locale: str) -> str:
    """``5 cards``, `` 1 card``: right-aligned, so the counts line up."""
    return counted("crazyeights.table.count", n, locale, n=f"{n:>2}")


def _ranking(view: CrazyEightsView, shown: Sequence[str], locale: str) -> list[str]:
    """``1st Alice        scores 43 points``, ``2nd Bob          12 points in hand``: every
    seat in its place, with what ranked it (rule 17), those who left last (rule 19)."""
    assert view.result is not None
    result = view.result
    points = view.points or (0,) * view.players
    rows = []
    for place, seat in enumerate(result.ranking, 1):
        place_name = t(f"crazyeights.table.place.{place}", locale)
        label = pad(f"{place_name} {shown[seat]}", 4 + TABLE_NAME_COLUMNS)
        if not view.playing[seat]:
            said = t("crazyeights.table.left", locale)
        elif seat in result.winners:
            said = t("crazyeights.table.scores", locale, n=result.scores[seat])
        else:
            said = t("crazyeights.table.in_hand", locale, n=points[seat])
        rows.append(f"{label} {said}")
    return rows


def sorted_hand(view: CrazyEightsView) -> list[Card]:
    """The seat's own cards by suit (♠ ♥ ♦ ♣), then from A to K: as its hand lists them."""
    return sorted(view.hand or (), key=lambda card: card.index)


def turn_line(view: CrazyEightsView, locale: str = DEFAULT) -> str:
    """The hand's first words on its turn: how many cards may be played, or that a card
    must be drawn, or that the seat passes (rules 11-13)."""
    n = len(view.playable)
    if not n:
        key = "crazyeights.your_turn.none" if view.can_draw else "crazyeights.your_turn.pass"
        return t(key, locale)
    key = "crazyeights.your_turn" if view.can_draw else "crazyeights.your_turn.must"
    return counted(key, n, locale)


def hand_body(
    view: CrazyEightsView, names: Sequence[str] | None = None, locale: str = DEFAULT
) -> str:
    """One seat's own hand: the top card and what fits it, whose turn it is when not
    theirs, and the cards by suit, wrapped at 40 columns. Private."""
    lines = _top_lines(view, locale)
    if view.current is not None and view.current != view.seat:
        shown = _shown(view, names)
        lines.append(t("crazyeights.hand.now", locale, name=shown[view.current]))
    if view.seat is not None and not view.playing[view.seat]:
        return "\n".join(lines)
    hand = sorted_hand(view)
    lines += ["", counted("crazyeights.hand.count", len(hand), locale)]
    if hand:
        lines += wrap_words([card_name(card) for card in hand], PHONE_COLUMNS, "")
    return "\n".join(lines)
