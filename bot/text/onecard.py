"""One Card text: pure functions from engine views and events to strings.

The seed's wording and card format (``[♠ 2]``, ten as ``[♠ 0]``, ``[JK B]``) are used both by
the Discord cog and by the seed-faithful console (``bot/console/onecard.py``), so the two
never drift apart. The move log's sentences and the table's and hand's words live in the
message catalogs (``onecard.log.*``, ``onecard.table.*``): English is the seed's, and a
Korean table reads them in Korean. Nothing here talks to Discord,
and nothing here ever shows a hand except :func:`hand_text`, which is meant for that hand's
owner only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n import DEFAULT, refusal, t
from bot.text.names import block_names, escape_log
from bot.text.width import PHONE_COLUMNS, columns, wrap
from rules.cards import Card, Rank, parse_card
from rules.engine import Event, GameOver, IllegalAction
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
    "arrow",
    "card_text",
    "escape_log",
    "event_lines",
    "hand_text",
    "open_line",
    "player",
    "refusal_text",
    "seat_label",
    "status_line",
    "status_lines",
    "table_body",
    "table_names",
]

CARDS_PER_LINE = 6  # as in the seed's hand listing


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


def event_lines(
    events: Iterable[Event], names: Sequence[str] | None = None, locale: str = DEFAULT
) -> list[str]:
    """What happened, one line each, in ``locale``'s language (English: the seed's messages)."""
    lines: list[str] = []
    for event in events:
        line = _event_line(event, names, locale)
        if line:
            lines.append(line)
    return lines


def _event_line(event: Event, names: Sequence[str] | None, locale: str) -> str:
    match event:
        case CardPlayed(seat=seat, card=card):
            return t("onecard.log.played", locale, name=_name(seat, names), card=card_text(card))
        case SuitChosen(suit=suit):
            return t("onecard.log.suit", locale, suit=suit.value)
        case Attack(target=target, before=before, added=added):
            name = _name(target, names)
            return t("onecard.log.attack", locale, name=name, before=before, added=added)
        case AttackTaken(seat=seat, offense=offense):
            return t("onecard.log.attack_taken", locale, name=_name(seat, names), n=offense)
        case CardsTaken(seat=seat):
            return t("onecard.log.taken", locale, name=_name(seat, names))
        case ShortDeck():
            return t("onecard.log.short_deck", locale)
        case EmptyDeck():
            return t("onecard.log.empty_deck", locale)
        case Jump(target=target):
            return t("onecard.log.jump", locale, name=_name(target, names))
        case DirectionChanged(target=target):
            return t("onecard.log.direction", locale, name=_name(target, names))
        case PlayAgain(seat=seat):
            return t("onecard.log.again", locale, name=_name(seat, names))
        case OneCard(seat=seat):
            return t("onecard.log.one_card", locale, name=_name(seat, names))
        case Bankrupt(seat=seat, returned=returned):
            return t("onecard.log.bankrupt", locale, name=_name(seat, names), n=returned)
        case Forfeited(seat=seat, returned=returned):
            return t("onecard.log.forfeited", locale, name=_name(seat, names), n=returned)
        case GameOver(result=result) if result.winners:
            return t("onecard.log.wins", locale, name=_name(result.winners[0], names))
    return ""


_CARD_PARAMS = ("card", "ace", "joker")


def refusal_text(error: IllegalAction, locale: str = DEFAULT) -> str:
    """An engine refusal in ``locale``'s language with its cards in the seed's form (``[♠ 4]``)."""
    params = dict(error.params)
    for key in _CARD_PARAMS:
        if isinstance(params.get(key), str):
            params[key] = card_text(parse_card(str(params[key])))
    refused = IllegalAction(error.reason, code=error.code, **params)
    return refusal(refused, locale, "onecard", markdown=False)  # the console: plain text


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


def hand_text(
    view: OneCardView,
    take: str = "Take",
    per_line: int = CARDS_PER_LINE,
    locale: str = DEFAULT,
) -> str:
    """The seat's own hand, numbered as in the seed, with ``take`` as the last number. Private.

    The seed prints plain ``Take`` even under attack, six to a line; Discord passes its
    own label, fewer to a line for a phone, and the member's ``locale``.
    """
    hand = view.hand or ()
    items = [f"{i}:{card_text(card)}" for i, card in enumerate(hand, 1)]
    items.append(f"{len(hand) + 1}: {take}")
    rows = [" ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "\n".join([t("onecard.hand.total", locale, n=len(hand)), *rows])


def table_body(view: OneCardView, names: Sequence[str] | None = None, locale: str = DEFAULT) -> str:
    """The inside of the public table's code block (rule 26): counts, never cards in a hand.

    The seed's table, laid out for a phone: other players in turn order after the current
    one, names clipped, a long hand's count as ``//×15``, the status on three lines, so no
    line is wider than 40 columns. Who is out and who won are said in ``locale``'s language.
    """
    shown = table_names(names)
    lines = [
        t("onecard.table.phase", locale, n=view.phase),
        t("onecard.table.deck", locale, n=view.table),
        "",
    ]
    current = view.current
    if current is not None:
        for seat in view.order[1:]:
            lines.append(_phone_seat_label(seat, view.counts[seat], shown))
        lines += [
            "",
            open_line(view),
            "",
            _phone_seat_label(current, view.counts[current], shown),
        ]
    else:
        lines += [open_line(view)]
    gone = [
        t(
            "onecard.table.bankrupt" if view.bankrupt[s] else "onecard.table.left",
            locale,
            name=_short(s, shown),
        )
        for s in range(view.players)
        if not view.playing[s]
    ]
    if gone:
        lines += ["", *wrap(t("onecard.table.out", locale, seats=", ".join(gone)))]
    lines += ["", *status_lines(view, shown, locale)]
    if view.result is not None and view.result.winners:
        lines.append(t("onecard.log.wins", locale, name=_name(view.result.winners[0], shown)))
    return "\n".join(lines)


def status_lines(
    view: OneCardView, names: Sequence[str] | None = None, locale: str = DEFAULT
) -> list[str]:
    """:func:`status_line` on three lines for a phone, in ``locale``'s language."""
    current = "-" if view.current is None else _short(view.current, names)
    following = "-" if view.next_seat is None else _short(view.next_seat, names)
    return [
        t("onecard.table.current", locale, name=current),
        t("onecard.table.next", locale, name=following, arrow=arrow(view.direction)),
        t("onecard.table.offense", locale, n=view.offense),
    ]


def table_names(names: Sequence[str] | None) -> list[str] | None:
    """Display names as a code block shows them: on one line, no backquote, 12 columns."""
    if not names:
        return None
    return block_names(names)


def _phone_seat_label(seat: int, count: int, names: Sequence[str] | None) -> str:
    """:func:`seat_label`, with the count as ``//×15`` when the slashes would not fit."""
    label = seat_label(seat, count, names)
    if columns(label) <= PHONE_COLUMNS:
        return label
    return f"{_short(seat, names)}({count}) - //×{count}"
