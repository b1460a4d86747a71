"""One Card text: pure functions from engine views and events to strings.

The seed's wording and card format (``[♠ 2]``, ten as ``[♠ 0]``, ``[JK B]``) are used both by
the Discord cog and by the seed-faithful console (``bot/console/onecard.py``), so the two
never drift apart. Nothing here imports discord, and nothing here ever shows a hand except
:func:`hand_text`, which is meant for that hand's owner only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rules.cards import Card, Rank
from rules.engine import Event, GameOver
from rules.onecard import (
    NAMES,
    Attack,
    AttackTaken,
    Bankrupt,
    CardPlayed,
    CardsTaken,
    DirectionChanged,
    EmptyDeck,
    Forfeited,
    Jump,
    OneCard,
    OneCardView,
    PlayAgain,
    ShortDeck,
    SuitChosen,
)

__all__ = [
    "MESSAGE_LIMIT",
    "arrow",
    "card_text",
    "escape_log",
    "event_lines",
    "hand_text",
    "open_line",
    "player",
    "seat_label",
    "status_line",
    "table_body",
    "table_text",
]

MESSAGE_LIMIT = 2000  # Discord's limit for a message's content
CARDS_PER_LINE = 6  # as in the seed's hand listing
_MARKDOWN = re.compile(r"([\\`*_~|>])")


def card_text(card: Card) -> str:
    """The seed's card format: ``[♠ 2]``, ``[♥ 0]`` for a ten, ``[JK B]`` / ``[JK C]``."""
    if card.is_joker:
        return f"[JK {card.suit.value}]"
    label = "0" if card.rank is Rank.TEN else card.rank.label
    return f"[{card.suit.value} {label}]"


def _name(seat: int, names: Sequence[str] | None) -> str:
    letter = NAMES[seat]
    if names and seat < len(names) and names[seat]:
        return f"{letter} ({names[seat]})"
    return letter


def _short(seat: int, names: Sequence[str] | None) -> str:
    letter = NAMES[seat]
    if names and seat < len(names) and names[seat]:
        return f"{letter} {names[seat]}"
    return letter


def player(seat: int, names: Sequence[str] | None = None) -> str:
    """``Player A``, or ``Player A (Alice)`` when display names are given."""
    return f"Player {_name(seat, names)}"


def arrow(direction: int) -> str:
    """``--->`` for A → B → C, ``<---`` after a Q."""
    return "--->" if direction == 1 else "<---"


def event_lines(events: Iterable[Event], names: Sequence[str] | None = None) -> list[str]:
    """The seed's messages for what happened, one line each."""
    lines: list[str] = []
    for event in events:
        line = _event_line(event, names)
        if line:
            lines.append(line)
    return lines


def _event_line(event: Event, names: Sequence[str] | None) -> str:
    match event:
        case CardPlayed(seat=seat, card=card):
            return f"{player(seat, names)} put the card {card_text(card)}"
        case SuitChosen(suit=suit):
            return f"The pattern is changed to {suit.value}"
        case Attack(target=target, before=before, added=added):
            return f"Attack {player(target, names)} with offense point {before}+{added}!!"
        case AttackTaken(seat=seat, offense=offense):
            return f"{player(seat, names)} couldn't defend the attack!! Takes {offense} cards"
        case CardsTaken(seat=seat):
            return f"{player(seat, names)} takes a card"
        case ShortDeck():
            return "There is no much cards... Return remaining cards only except first card"
        case EmptyDeck():
            return "Cannot take a card anymore... Play with the cards you have"
        case Jump(target=target):
            return f"Jump to player {_name(target, names)}"
        case DirectionChanged(target=target):
            return f"The direction is changed. next player is {_name(target, names)}"
        case PlayAgain(seat=seat):
            return f"{player(seat, names)} plays again"
        case OneCard(seat=seat):
            return f"{player(seat, names)} has one card left!"
        case Bankrupt(seat=seat, returned=returned):
            return f"{player(seat, names)} is bankrupt!! {returned} cards go back to the main deck"
        case Forfeited(seat=seat, returned=returned):
            return f"{player(seat, names)} left the game; {returned} cards go back to the main deck"
        case GameOver(result=result) if result.winners:
            return f"{player(result.winners[0], names)} wins!"
    return ""


def seat_label(seat: int, count: int, names: Sequence[str] | None = None) -> str:
    """``B(5) - // // // // //``: a seat and its card count, never its cards."""
    return f"{_short(seat, names)}({count}) - {' '.join(['//'] * count)}".rstrip()


def open_line(view: OneCardView) -> str:
    """The open card and the suit(s) to match next: ``[♣ 2] ♣`` or ``[JK B] ♠ ♣``."""
    return f"{card_text(view.open_card)} {' '.join(s.value for s in view.suits)}"


def status_line(view: OneCardView, names: Sequence[str] | None = None) -> str:
    """``current: A  next: B  direction: --->  offense point: 0``."""
    current = "-" if view.current is None else _short(view.current, names)
    following = "-" if view.next_seat is None else _short(view.next_seat, names)
    return (
        f"current: {current}  next: {following}  direction: {arrow(view.direction)}  "
        f"offense point: {view.offense}"
    )


def hand_text(view: OneCardView, take: str = "Take") -> str:
    """The seat's own hand, numbered as in the seed, with ``take`` as the last number. Private.

    The seed prints plain ``Take`` even under attack; Discord passes its own label.
    """
    hand = view.hand or ()
    items = [f"{i}:{card_text(card)}" for i, card in enumerate(hand, 1)]
    items.append(f"{len(hand) + 1}: {take}")
    rows = [" ".join(items[i : i + CARDS_PER_LINE]) for i in range(0, len(items), CARDS_PER_LINE)]
    return "\n".join([f"Total {len(hand)} cards", *rows])


def _block_safe(text: str) -> str:
    return text.replace("`", "'")


def table_body(view: OneCardView, names: Sequence[str] | None = None) -> str:
    """The inside of the public table's code block (rule 26): counts, never cards in a hand.

    Other players are listed in turn order after the current one.
    """
    block_names = [_block_safe(n) for n in names] if names else None
    lines = [f"Phase {view.phase}", f"Table<{view.table}>", ""]
    current = view.current
    if current is not None:
        for seat in view.order[1:]:
            lines.append(seat_label(seat, view.counts[seat], block_names))
        lines += ["", open_line(view), "", seat_label(current, view.counts[current], block_names)]
    else:
        lines += [open_line(view)]
    gone = [
        f"{_short(s, block_names)} {'bankrupt' if view.bankrupt[s] else 'left'}"
        for s in range(view.players)
        if not view.playing[s]
    ]
    if gone:
        lines += ["", "Out: " + ", ".join(gone)]
    lines += ["", status_line(view, block_names)]
    if view.result is not None and view.result.winners:
        lines.append(f"{player(view.result.winners[0], block_names)} wins!")
    return "\n".join(lines)


def escape_log(lines: Iterable[str]) -> list[str]:
    """Move-log lines with Discord markdown escaped (display names may hold ``*`` or ``_``)."""
    return [_MARKDOWN.sub(r"\\\1", line) for line in lines]


def table_text(
    view: OneCardView, names: Sequence[str] | None = None, log: Sequence[str] = ()
) -> str:
    """The public table: the move log, then the table as a code block (rule 26). No hand.

    The oldest log lines give way first when the message would pass Discord's 2000 characters.
    """
    block = "```\n" + table_body(view, names) + "\n```"
    safe_log = escape_log(log)
    while safe_log and len("\n".join([*safe_log, block])) > MESSAGE_LIMIT:
        safe_log = ["…", *safe_log[2:]] if len(safe_log) > 1 else []
    text = "\n".join([*safe_log, block])
    return text[: MESSAGE_LIMIT - 4] + "\n```" if len(text) > MESSAGE_LIMIT else text
