"""Uno text: pure functions from engine views and events to strings.

Cards are named from the catalogs (``Red +2`` / ``빨강 +2``) and painted for an ``ansi``
code block: red, yellow, green and blue cards in their colour, a wild on the discard pile
in the colour its player named. The public table holds counts only; :func:`hand_lines` is
for the hand's owner alone, and :func:`revealed_lines` for the challenger of a Wild Draw
Four alone (rule 8).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from bot.i18n import DEFAULT, catalog, counted, say_params_with, t
from bot.text.names import block_names as shared_block_names
from bot.text.names import escape_log
from bot.text.width import PHONE_COLUMNS, clip, columns, pad, wrap, wrap_words
from rules.engine import Event, GameOver, Outcome
from rules.uno import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    DirectionChanged,
    FirstCard,
    Forfeited,
    HandsRotated,
    HandsSwapped,
    Reshuffled,
    RuleBroken,
    Skipped,
    TurnPassed,
    UnoAnnounced,
    UnoCaught,
    UnoView,
)
from rules.uno.cards import RANK_NAMES

__all__ = [
    "COLOURS",
    "NAME_COLUMNS",
    "block_names",
    "card_name",
    "escape_log",
    "event_lines",
    "hand_lines",
    "numbered",
    "paint",
    "revealed_lines",
    "sort_key",
    "table_body",
]

COLOURS: Final = ("red", "yellow", "green", "blue")  # the order people name them
NAME_COLUMNS: Final = 14  # a name's room in a seat line, so the line fits a phone
HAND_CARDS_PER_LINE: Final = 2  # "12 Wild +4" twice fits 40 columns
NUMBERED_MOST: Final = 40  # a longer hand is listed by colour, to fit one message
_ANSI: Final = {"red": "31", "yellow": "33", "green": "32", "blue": "34", "none": "35"}
_RESET: Final = "\x1b[0m"
_COLOUR_ORDER: Final = {name: i for i, name in enumerate((*COLOURS, "none"))}
# The seat list's marks, ASCII: a suit, arrow or star is one column in most fonts and two in
# a CJK monospace one, and would shift the columns after it on some clients.
CURRENT_MARK: Final = ">"
ACTION_RANKS: Final = ("S", "R", "+2", "W", "W+4")
WINNER_MARK: Final = "*"


def _split(code: str) -> tuple[str, str]:
    colour, _, rank = code.partition("_")
    return colour, rank


def colour_name(colour: str, locale: str = DEFAULT) -> str:
    """``Red`` / ``빨강``."""
    return t(f"uno.colour.{colour}", locale)


def card_name(code: str, locale: str = DEFAULT) -> str:
    """``Red 5``, ``Blue +2``, ``Green Reverse``, ``Wild +4``; a wild that has a colour
    (on the discard pile: ``yellow_W+4``) says it: ``Wild +4 (Yellow)``."""
    colour, rank = _split(code)
    rank_name = t(f"uno.rank.{rank}", locale) if rank in ("R", "S", "W", "W+4") else rank
    if rank in ("W", "W+4"):
        if colour == "none":
            return rank_name
        return f"{rank_name} ({colour_name(colour, locale)})"
    return f"{colour_name(colour, locale)} {rank_name}"


def paint(text: str, code: str) -> str:
    """``text`` in the colour of card ``code`` (an unplayed wild in magenta)."""
    colour, _ = _split(code)
    return f"\x1b[{_ANSI[colour]}m{text}{_RESET}"


def sort_key(code: str) -> tuple[int, int]:
    """Hands sort by colour (red, yellow, green, blue, wilds), then rank."""
    colour, rank = _split(code)
    return _COLOUR_ORDER[colour], RANK_NAMES.index(rank)


def block_names(names: Sequence[str]) -> list[str]:
    """Display names as a code block shows them (:func:`bot.text.names.block_name`)."""
    return shared_block_names(names, NAME_COLUMNS)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else str(seat + 1)


# -- the move log -------------------------------------------------------------------------


def event_lines(events: Iterable[Event], names: Sequence[str], locale: str = DEFAULT) -> list[str]:
    """What happened, one sentence each (``bob played Red +2``); counts, never cards drawn."""
    lines = []
    for event in events:
        line = _event_line(event, names, locale)
        if line:
            lines.append(line)
    return lines


def _event_line(event: Event, names: Sequence[str], locale: str) -> str | None:
    if isinstance(event, FirstCard):
        return _first_card(event, names, locale)
    if isinstance(event, CardPlayed):
        colour, rank = _split(event.card)
        shown = f"{event.colour}_{rank}" if colour == "none" else event.card
        key = "uno.log.jumped_in" if event.jump_in else "uno.log.played"
        return t(key, locale, name=_name(names, event.seat), card=card_name(shown, locale))
    if isinstance(event, CardsDrawn):
        return counted("uno.log.drew", event.count, locale, name=_name(names, event.seat))
    if isinstance(event, Skipped):
        return t("uno.log.skipped", locale, name=_name(names, event.seat))
    if isinstance(event, DirectionChanged):
        return t("uno.log.reversed", locale)
    if isinstance(event, ColourChosen):
        colour = colour_name(event.colour, locale)
        return t("uno.log.colour", locale, name=_name(names, event.seat), colour=colour)
    if isinstance(event, TurnPassed):
        return t("uno.log.passed", locale, name=_name(names, event.seat))
    if isinstance(event, RuleBroken):
        return t("uno.log.penalty", locale, name=_name(names, event.seat))
    if isinstance(event, ChallengeResolved):
        key = "uno.log.bluff" if event.upheld else "uno.log.honest"
        return t(
            key,
            locale,
            name=_name(names, event.challenger),
            offender=_name(names, event.offender),
        )
    if isinstance(event, UnoAnnounced):
        return t("uno.log.uno", locale, name=_name(names, event.seat))
    if isinstance(event, UnoCaught):
        return t("uno.log.caught", locale, name=_name(names, event.seat), by=_name(names, event.by))
    if isinstance(event, HandsSwapped):
        return t(
            "uno.log.swapped",
            locale,
            name=_name(names, event.seat),
            target=_name(names, event.target),
        )
    if isinstance(event, HandsRotated):
        return t("uno.log.rotated", locale)
    if isinstance(event, Forfeited):
        return counted("uno.log.forfeited", event.count, locale, name=_name(names, event.seat))
    if isinstance(event, Reshuffled):
        return counted("uno.log.reshuffled", event.count, locale)
    if isinstance(event, GameOver):
        winners = [s for s, o in enumerate(event.result.outcomes) if o is Outcome.WIN]
        if not winners:
            return t("uno.log.blocked_draw", locale)
        seat = winners[0]
        points = event.result.scores[seat]
        key = "uno.log.wins.one" if points == 1 else "uno.log.wins"
        return t(key, locale, name=_name(names, seat), points=points)
    return None


def _first_card(event: FirstCard, names: Sequence[str], locale: str) -> str | None:
    """An action card or wild the deal turned first: what it does to the first player
    follows as its own lines (official rule 4), but for a wild's colour, which that player
    names before playing; under the seed's rules it does nothing, which is said too. A
    number card needs no word: the table shows it."""
    card = card_name(event.card, locale)
    rank = _split(event.card)[1]
    if rank not in ACTION_RANKS:
        return None
    if not event.effect:
        return t("uno.log.first_no_effect", locale, card=card)
    if rank == "W":
        return t("uno.log.first_wild", locale, card=card, name=_name(names, event.seat))
    return t("uno.log.first", locale, card=card)


# -- the public table -----------------------------------------------------------------------


def _header(view: UnoView, locale: str) -> list[str]:
    """The ruleset and the house rules in play (every table says them)."""
    lines = [t(f"uno.table.ruleset.{view.ruleset}", locale)]
    if view.house:
        rules = [t(f"uno.house.{rule}", locale) for rule in view.house]
        label = t("uno.table.house", locale)
        lines += wrap_words([label, *(f"{r}," for r in rules[:-1]), rules[-1]], PHONE_COLUMNS)
    return lines


def _top_line(view: UnoView, locale: str) -> str:
    top = paint(card_name(view.top, locale), view.top)
    if view.colour == "none":  # seed rule 14: a wild first card, any card matches
        return t("uno.table.top_any", locale, card=top)
    return t("uno.table.top", locale, card=top)


def _play_order(view: UnoView) -> list[int]:
    n = len(view.hand_counts)
    return [(view.direction * i) % n for i in range(n)]


def table_body(view: UnoView, names: Sequence[str], locale: str = DEFAULT) -> str:
    """The public table: rules, the top card and colour, direction, draw pile, pending
    draws, then every seat in play order with its card count; on the final table each
    hand's points (rule 10). Counts only: no card of any hand."""
    shown = block_names(names)
    lines = _header(view, locale)
    lines.append(_top_line(view, locale))
    arrow = t("uno.table.clockwise" if view.direction > 0 else "uno.table.counter", locale)
    lines.append(t("uno.table.direction", locale, arrow=arrow, n=view.draw_pile))
    if view.pending:
        lines.append(t("uno.table.pending", locale, n=view.pending))
    lines.append("")
    over = view.result is not None
    digits = len(str(len(view.hand_counts)))
    for seat in _play_order(view):
        count = view.hand_counts[seat]
        mark = CURRENT_MARK if seat == view.current_seat else " "
        note = ""
        if over and view.result is not None:
            if view.result.outcomes[seat] is Outcome.WIN:
                mark = WINNER_MARK
                note = t("uno.table.score", locale, n=view.result.scores[seat])
            elif seat in view.out:
                note = t("uno.table.left", locale)
            elif view.points is not None:
                note = t("uno.table.hand_points", locale, n=view.points[seat])
        elif seat in view.out:
            note = t("uno.table.left", locale)
        elif count == 1:
            key = "uno.table.uno_open" if view.uno_exposed == seat else "uno.table.uno"
            note = t(key, locale)
        # Seat numbers right-aligned: at ten seats " 9 ivy" and "10 jo" start their names
        # in one column.
        label = pad(f"{mark}{seat + 1:>{digits}} {_name(shown, seat)}", NAME_COLUMNS + 4)
        lines.append(f"{label}{count:>3} {note}".rstrip())
    if over:
        lines.append("")
        lines.append(t("uno.table.over", locale))
    return "\n".join(line for part in lines for line in wrap(part, PHONE_COLUMNS))


# -- private text ---------------------------------------------------------------------------


def numbered(view: UnoView) -> list[str]:
    """The seat's own cards in the order :func:`hand_lines` numbers them from 1 (none when
    the hand is too long to number): what a number typed for a card means."""
    hand = sorted(view.hand or (), key=sort_key)
    return hand if len(hand) <= NUMBERED_MOST else []


def hand_lines(view: UnoView, locale: str = DEFAULT) -> list[str]:
    """The seat's own hand, sorted by colour then rank, numbered, two cards a line, under
    the top card: for that seat's member only."""
    hand = sorted(view.hand or (), key=sort_key)
    lines = [_top_line(view, locale)]
    if view.pending:
        lines.append(t("uno.table.pending", locale, n=view.pending))
    lines.append(counted("uno.hand.count", len(hand), locale))
    return lines + _listing(hand, locale)


def _listing(cards: Sequence[str], locale: str) -> list[str]:
    """Sorted cards, numbered; a hand too long for that, by colour."""
    return _numbered(cards, locale) if len(cards) <= NUMBERED_MOST else _by_colour(cards, locale)


def _by_colour(cards: Sequence[str], locale: str) -> list[str]:
    """A hand too long to number in one message (``draw_until_playable`` can deal half the
    deck): one coloured run of ranks per colour, ``Red: 1 3 +2 R``, wrapped at 40."""
    lines = []
    for colour in (*COLOURS, "none"):
        ranks = [_split(code)[1] for code in cards if _split(code)[0] == colour]
        if not ranks:
            continue
        if colour == "none":
            words = [t(f"uno.rank.{rank}", locale).replace(" ", "") for rank in ranks]
        else:
            words = [colour_name(colour, locale) + ":", *(_short_rank(r, locale) for r in ranks)]
        lines += [paint(line, f"{colour}_0") for line in wrap_words(words, PHONE_COLUMNS, "  ")]
    return lines


def _short_rank(rank: str, locale: str) -> str:
    return t(f"uno.rank.{rank}", locale) if rank in ("R", "S") else rank


def _numbered(cards: Sequence[str], locale: str) -> list[str]:
    cells = [f"{i:>2} {card_name(code, locale)}" for i, code in enumerate(cards, 1)]
    width = PHONE_COLUMNS // HAND_CARDS_PER_LINE
    lines = []
    for start in range(0, len(cells), HAND_CARDS_PER_LINE):
        row = cells[start : start + HAND_CARDS_PER_LINE]
        codes = cards[start : start + HAND_CARDS_PER_LINE]
        parts = [paint(clip(cell, width - 1), code) for cell, code in zip(row, codes, strict=True)]
        # Pad outside the colour so the columns line up and no line ends in spaces.
        padded = [part + " " * (width - 1 - columns(part)) for part in parts[:-1]]
        lines.append(" ".join([*padded, parts[-1]]))
    return lines


def revealed_lines(
    offender: int, cards: Sequence[str], names: Sequence[str], locale: str = DEFAULT
) -> list[str]:
    """Rule 8: the hand a challenge revealed, for the challenger alone."""
    lines = [t("uno.revealed", locale, name=_name(block_names(names), offender))]
    return lines + _listing(sorted(cards, key=sort_key), locale)


def _refused_card(code: str, locale: str) -> str | None:
    """A card code in a refusal (``red_5``) said as the tables say it; ``None``: not one."""
    colour, rank = _split(code)
    if f"uno.colour.{colour}" not in catalog(locale) or not rank:
        return None
    return card_name(code, locale)


say_params_with("uno", _refused_card)
