"""One Card text: pure functions from engine views and events to strings.

Two sets of words. The seed's (``[♠ 2]``, ten as ``[♠ 0]``, ``Phase``, ``Table<46>``,
``offense point``, ``The pattern is changed to ♠``) are the seed-faithful console's
(``bot/console/onecard.py``), which keeps the seed program's screen: :func:`card_text`,
:func:`event_lines`, :func:`seat_label`, :func:`open_line`, :func:`status_line`,
:func:`hand_text`, :func:`refusal_text`. Discord speaks plain words in the reader's language,
from the message catalogs (``onecard.*``): ``♠10``, ``Deck: 46 cards``, ``Attack: draw 5
unless you block`` (:func:`card_name`, :func:`log_lines`, :func:`table_body`,
:func:`hand_body`, :func:`turn_line`). Nothing here talks to Discord, and nothing here ever
shows a hand except :func:`hand_text` and :func:`hand_body`, meant for that hand's owner only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from bot.i18n import DEFAULT, counted, refusal, t
from bot.text.names import TABLE_NAME_COLUMNS, block_names, escape_log
from bot.text.width import PHONE_COLUMNS, columns, pad, wrap, wrap_words
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
    "CARDS_PER_LINE",
    "CURRENT_MARK",
    "arrow",
    "card_name",
    "card_text",
    "escape_log",
    "event_lines",
    "hand_body",
    "hand_text",
    "log_lines",
    "open_line",
    "player",
    "refusal_text",
    "seat_label",
    "status_line",
    "table_body",
    "table_names",
    "turn_line",
]

CARDS_PER_LINE: Final = 6  # as in the seed's hand listing
# The current seat's mark, ASCII: an arrow or a triangle is one column in most fonts and two
# in a CJK monospace one, and would shift the counts after it on some clients.
CURRENT_MARK: Final = ">"

# -- the seed's words (the console) -------------------------------------------------------

_SEED_PROGRAM_LOG: Final = {
    "played": "Player {name} put the card {card}",
    "suit": "The pattern is changed to {suit}",
    "attack": "Attack Player {name} with offense point {before}+{added}!!",
    "attack_taken": "Player {name} couldn't defend the attack!! Takes {n} cards",
    "taken": "Player {name} takes a card",
    "short_deck": "There is no much cards... Return remaining cards only except first card",
    "empty_deck": "Cannot take a card anymore... Play with the cards you have",
    "jump": "Jump to player {name}",
    "direction": "The direction is changed. next player is {name}",
    "again": "Player {name} plays again",
    "one_card": "Player {name} has one card left!",
    "bankrupt": "Player {name} is bankrupt!! {n} cards go back to the main deck",
    "forfeited": "Player {name} left the game; {n} cards go back to the main deck",
    "wins": "Player {name} wins!",
}


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
    """What happened, one line each, in the seed's own messages (the console)."""
    lines = []
    for event in events:
        found = _event_words(event)
        if found is not None:
            key, seat, params = found
            name = _name(seat, names) if seat is not None else ""
            lines.append(_SEED_PROGRAM_LOG[key].format(name=name, **_seed_program_params(params)))
    return lines


def _seed_program_params(params: dict[str, object]) -> dict[str, object]:
    return {k: card_text(v) if isinstance(v, Card) else v for k, v in params.items()}


def refusal_text(error: IllegalAction, locale: str = DEFAULT) -> str:
    """An engine refusal in ``locale``'s language with its cards in the seed's form (``[♠ 4]``)."""
    params = dict(error.params)
    for key in _CARD_PARAMS:
        if isinstance(params.get(key), str):
            params[key] = card_text(parse_card(str(params[key])))
    refused = IllegalAction(error.reason, code=error.code, **params)
    return refusal(refused, locale, "onecard", markdown=False)  # the console: plain text


_CARD_PARAMS = ("card", "ace", "joker")


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


def hand_text(view: OneCardView, take: str = "Take", per_line: int = CARDS_PER_LINE) -> str:
    """The seat's own hand as the seed lists it, numbered, six to a line, ``Take`` as the
    last number. Private."""
    hand = view.hand or ()
    items = [f"{i}:{card_text(card)}" for i, card in enumerate(hand, 1)]
    items.append(f"{len(hand) + 1}: {take}")
    rows = [" ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "\n".join([f"Total {len(hand)} cards", *rows])


# -- what happened, as events say it (both sets of words) --------------------------------


def _event_words(event: Event) -> tuple[str, int | None, dict[str, object]] | None:
    """An event as its message key, the seat it names and the rest of its words."""
    match event:
        case CardPlayed(seat=seat, card=card):
            return "played", seat, {"card": card}
        case SuitChosen(seat=seat, suit=suit):
            return "suit", seat, {"suit": suit.value}
        case Attack(target=target, before=before, added=added):
            return "attack", target, {"before": before, "added": added, "n": before + added}
        case AttackTaken(seat=seat, offense=offense):
            return "attack_taken", seat, {"n": offense}
        case CardsTaken(seat=seat):
            return "taken", seat, {}
        case ShortDeck(seat=seat, received=received):
            return "short_deck", seat, {"n": received}
        case EmptyDeck(seat=seat):
            return "empty_deck", seat, {}
        case Jump(target=target, skipped=skipped):
            return "jump", target, {"skipped": skipped}
        case DirectionChanged(target=target):
            return "direction", target, {}
        case PlayAgain(seat=seat):
            return "again", seat, {}
        case OneCard(seat=seat):
            return "one_card", seat, {}
        case Bankrupt(seat=seat, returned=returned):
            return "bankrupt", seat, {"n": returned}
        case Forfeited(seat=seat, returned=returned):
            return "forfeited", seat, {"n": returned}
        case GameOver(result=result) if result.winners:
            return "wins", result.winners[0], {}
    return None


# -- Discord's words ----------------------------------------------------------------------


def card_name(card: Card, locale: str = DEFAULT) -> str:
    """A card as Discord shows it: ``♠A``, ``♥10``, and the jokers by name in ``locale``'s
    language (``Black joker``, ``컬러 조커``), each of which ``/onecard play`` reads back."""
    return t(f"onecard.card.{card.code}", locale) if card.is_joker else card.code


def _who(seat: int, names: Sequence[str] | None) -> str:
    """A seat in a sentence: ``Alice (A)``; the letter alone without a name."""
    letter = NAMES[seat]
    if names and seat < len(names) and names[seat]:
        return f"{names[seat]} ({letter})"
    return letter


def log_lines(
    events: Iterable[Event], names: Sequence[str] | None = None, locale: str = DEFAULT
) -> list[str]:
    """What happened, one plain sentence each, in ``locale``'s language (Discord's log)."""
    lines = []
    for event in events:
        found = _event_words(event)
        if found is None:
            continue
        key, seat, params = found
        words = {k: card_name(v, locale) if isinstance(v, Card) else v for k, v in params.items()}
        skipped = params.get("skipped")
        if isinstance(skipped, int):
            words["skipped"] = _who(skipped, names)
        name = _who(seat, names) if seat is not None else ""
        n = words.pop("n", None)
        if isinstance(n, int):
            lines.append(counted(f"onecard.log.{key}", n, locale, name=name, **words))
        else:
            lines.append(t(f"onecard.log.{key}", locale, name=name, **words))
    return lines


def table_names(names: Sequence[str] | None) -> list[str] | None:
    """Display names as a code block shows them: on one line, no backquote, 12 columns."""
    if not names:
        return None
    return block_names(names)


def _to_play(view: OneCardView, locale: str) -> str:
    """What the player to move must do: block an attack or take its cards, or match."""
    if view.offense:
        return counted("onecard.table.attack", view.offense, locale)
    suits = [s.value for s in view.suits]
    if view.open_card.is_joker:  # rule 10: the joker's colours (or the other joker)
        return t("onecard.table.match_joker", locale, first=suits[0], second=suits[-1])
    return t("onecard.table.match", locale, suit=suits[0], rank=view.open_card.rank.label)


def _open_lines(view: OneCardView, locale: str) -> list[str]:
    card = card_name(view.open_card, locale)
    return [t("onecard.table.open", locale, card=card), _to_play(view, locale)]


def _header(view: OneCardView, locale: str) -> str:
    deck = counted("onecard.table.deck", view.deck_count, locale)
    return f"{t('onecard.table.turn', locale, n=view.phase)} · {deck}"


def _seat_line(
    prefix: str, seat: int, view: OneCardView, shown: Sequence[str] | None, locale: str
) -> str:
    """``> B Bob            5 cards``: the prefix, the seat, its count (never its cards),
    and what became of it. ASCII before the count, so it lines up on every client."""
    label = pad(f"{prefix} {_short(seat, shown)}", columns(prefix) + 3 + TABLE_NAME_COLUMNS)
    if not view.playing[seat]:
        key = "onecard.table.bankrupt" if view.bankrupt[seat] else "onecard.table.left"
        return f"{label}  {t(key, locale)}"
    count = view.counts[seat]
    key = "onecard.table.count.one" if count == 1 else "onecard.table.count"
    line = f"{label} {t(key, locale, n=f'{count:>2}')}"
    if count == 1 and view.current is not None:
        line += f"  {t('onecard.table.one_card', locale)}"
    return line


def _order(view: OneCardView) -> str:
    """The seats still playing in the direction of play, from A (``A → C → B`` after a Q)."""
    seats = [s for s in range(view.players) if view.playing[s]]
    if view.direction < 0:
        seats = seats[:1] + seats[:0:-1]
    return " → ".join(NAMES[s] for s in seats)


def table_body(view: OneCardView, names: Sequence[str] | None = None, locale: str = DEFAULT) -> str:
    """The inside of the public table's code block (rule 26): counts, never cards in a hand.

    The turn and the deck, the open card and what the player to move must do, then every
    seat with its count (``>`` marks whose turn it is) and who plays next. The final table
    ranks every seat (rule 24: the winner, then by fewest cards, then those out) with the
    cards it has left. Names are clipped so no line is wider than 40 columns.
    """
    shown = table_names(names)
    lines = [
        _header(view, locale),
        t("onecard.table.open", locale, card=card_name(view.open_card, locale)),
    ]
    if view.result is not None:
        lines.append("")
        for place, seat in enumerate(view.result.ranking, 1):
            lines.append(
                _seat_line(t(f"onecard.table.place.{place}", locale), seat, view, shown, locale)
            )
        lines += ["", *wrap(t("onecard.table.over", locale))]
        return "\n".join(lines)
    lines += [_to_play(view, locale), ""]
    for seat in range(view.players):
        mark = CURRENT_MARK if seat == view.current else " "
        lines.append(_seat_line(mark, seat, view, shown, locale))
    if view.next_seat is not None:
        following = _short(view.next_seat, shown)
        lines += ["", *wrap(t("onecard.table.next", locale, name=following, order=_order(view)))]
    return "\n".join(lines)


def turn_line(view: OneCardView, take: str, locale: str = DEFAULT) -> str:
    """The hand's first words on its turn: how many cards may be played, or what to do
    when none may (take one card, or the attack's cards)."""
    n = len(view.playable)
    if view.offense:
        if not n:
            return t("onecard.your_turn.cannot_block", locale, offense=view.offense, take=take)
        return counted("onecard.your_turn.block", n, locale, offense=view.offense)
    if not n:
        return t("onecard.your_turn.none", locale, take=take)
    return counted("onecard.your_turn", n, locale)


def hand_body(
    view: OneCardView, take: str, names: Sequence[str] | None = None, locale: str = DEFAULT
) -> str:
    """One seat's own hand for Discord: the open card and what to play, whose turn it is
    when not theirs, and the cards numbered from 1 with ``take`` as the last number (the
    numbers ``/onecard play`` reads). Private."""
    lines = _open_lines(view, locale)
    seat = view.seat
    if view.current is not None and view.current != seat:
        lines.append(t("onecard.hand.now", locale, name=_short(view.current, table_names(names))))
    if seat is not None and not view.playing[seat]:
        return "\n".join(lines)
    hand = view.hand or ()
    items = [f"{i}:{card_name(card, locale)}" for i, card in enumerate(hand, 1)]
    items.append(f"{len(hand) + 1}:{take}")
    lines += ["", counted("onecard.hand.count", len(hand), locale)]
    return "\n".join(lines + wrap_words(items, PHONE_COLUMNS, ""))
