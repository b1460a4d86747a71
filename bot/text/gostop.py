"""Go-Stop text: pure functions from engine views and events to strings, in either language.
This module draws the public table and the move log; the words they share are in
:mod:`bot.text.gostop_words`, the score sheet in :mod:`bot.text.gostop_sheet`, the private
hand in :mod:`bot.text.gostop_hand`, all importable from here.

The public table (:func:`table_body`) is a code block no line of which is wider than 40
columns: the floor grouped by month (a ppuk's stack marked with its owner), the pile's count,
each player's hand count and captured cards grouped by kind with what they score now, Go's,
shakes, bombs and the stakes a nagari carried; at the end the score sheet (:func:`sheet_lines`),
line by line as ``deckhand gostop score`` computes it. The move log (:func:`event_lines`) is
the game's own words (뻑, 쪽, 따닥, 싹쓸이, ...). Every word comes from the message catalogs
(``gostop.*``), card names too (``gostop.card.<code>``): Korean tables say ``1광``, English
ones ``Jan bright``, one name per card wherever it shows. English explains the game's own
terms (ppuk, pi-bak, godori, ...) where a message first uses them (:class:`Glossary`); Korean
says them as they are. Only :func:`hand_lines` shows a hand, and only to its owner; the console
(:mod:`bot.console.gostop`) reuses the card names, the log and the score sheet, with the
seed's ``×`` where a Discord table says ``x2`` (``plain``: a column lines up in every font).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n import DEFAULT, counted, t
from bot.text.gostop_hand import (
    go_stop_lines,
    hand_lines,
    legal_cards,
    numbered_hand,
    outcome_text,
    outcome_words,
)
from bot.text.gostop_sheet import end_lines, result_lines, sheet_lines
from bot.text.gostop_words import (
    KIND_KEYS,
    Glossary,
    card_name,
    cards_text,
    dan_names,
    fit,
    month_name,
    say,
    short_name,
)
from bot.text.names import TABLE_NAME_COLUMNS, block_names, escape_log
from bot.text.width import PHONE_COLUMNS, clip, columns
from rules.engine import Event, GameOver
from rules.gostop.cards import HwatuCard, Kind
from rules.gostop.events import (
    Bombed,
    Captured,
    CardPlayed,
    ChongtongWin,
    Flipped,
    Forfeited,
    GoCalled,
    InstantPoints,
    Shook,
    Special,
    Stolen,
    Stopped,
)
from rules.gostop.state import GostopView, Phase, PileView

__all__ = [
    "GROUP_SEPARATOR",
    "TABLE_NAME_COLUMNS",
    "Glossary",
    "bak_lines",
    "block_names",
    "card_name",
    "cards_text",
    "end_lines",
    "escape_log",
    "event_lines",
    "floor_lines",
    "go_stop_lines",
    "hand_lines",
    "in_floor_order",
    "legal_cards",
    "month_name",
    "numbered_hand",
    "outcome_text",
    "outcome_words",
    "pile_lines",
    "result_lines",
    "sheet_lines",
    "table_body",
]

GROUP_SEPARATOR = " | "  # between the months of the floor (ASCII: its width is never in doubt)
_OWNER_COLUMNS = 8  # a ppuk owner's name beside their stack


# -- the move log -----------------------------------------------------------------------------


def event_lines(events: Iterable[Event], names: Sequence[str], locale: str = DEFAULT) -> list[str]:
    """What happened, one line each, in the game's own words (뻑, 쪽, 따닥, 고, 스톱, ...)."""
    lines: list[str] = []
    for event in events:
        line = _event_line(event, names, locale)
        if line:
            lines.append(line)
    return lines


def _event_line(event: Event, names: Sequence[str], locale: str) -> str:
    match event:
        case CardPlayed(seat=seat, card=card):
            return t("gostop.log.played", locale, name=names[seat], card=card_name(card, locale))
        case Shook(seat=seat, cards=cards):
            return t("gostop.log.shook", locale, name=names[seat], cards=cards_text(cards, locale))
        case Bombed(seat=seat, cards=cards):
            return t("gostop.log.bombed", locale, name=names[seat], cards=cards_text(cards, locale))
        case Flipped(seat=seat, card=card):
            return t("gostop.log.flipped", locale, name=names[seat], card=card_name(card, locale))
        case Captured(seat=seat, cards=cards):
            return t("gostop.log.took", locale, name=names[seat], cards=cards_text(cards, locale))
        case Special(seat=seat, name=special, month=month):
            return t(
                f"gostop.log.{special}", locale, name=names[seat], month=month_name(month, locale)
            )
        case Stolen(seat=seat, card=card):
            return t("gostop.log.stole", locale, name=names[seat], card=card_name(card, locale))
        case InstantPoints(seat=seat, points=points, reason=reason):
            return t(
                "gostop.log.instant",
                locale,
                name=names[seat],
                points=points,
                reason=t(f"gostop.instant.{reason}", locale),
            )
        case GoCalled(seat=seat, count=count, score=score):
            return t("gostop.log.go", locale, name=names[seat], n=count, score=score)
        case Stopped(seat=seat, score=score, automatic=automatic):
            key = "gostop.log.stop_last" if automatic else "gostop.log.stop"
            return t(key, locale, name=names[seat], score=score)
        case ChongtongWin(seat=seat, month=month):
            return t(
                "gostop.log.chongtong", locale, name=names[seat], month=month_name(month, locale)
            )
        case Forfeited(seat=seat):
            return t("gostop.log.forfeited", locale, name=names[seat])
        case GameOver(result=result):
            if not result.winners:
                return t("gostop.log.nagari", locale)
            winner = result.winners[0]
            points = result.scores[winner]
            return counted("gostop.log.wins", points, locale, name=names[winner], points=points)
    return ""


def bak_lines(view: GostopView, names: Sequence[str], locale: str = DEFAULT) -> list[str]:
    """Once a game is won on a score sheet, the baks that double what the loser pays (rule
    24: 피박, 광박, 멍따, 고박), said in the log; none otherwise."""
    sheet, result = view.settlement, view.result
    if sheet is None or result is None or not sheet.baks or not result.winners:
        return []
    said = Glossary(locale)
    named = t("gostop.list_separator", locale).join(
        said(b, t(f"gostop.bak.{b}", locale)) for b in sheet.baks
    )
    return [t("gostop.log.baks", locale, name=names[1 - result.winners[0]], baks=named)]


# -- the public table -------------------------------------------------------------------------


def table_body(view: GostopView, names: Sequence[str], locale: str = DEFAULT) -> str:
    """The inside of the public table's code block, every line within 40 columns.

    Drawn from the spectator's view: hands are counts, the pile a count, never a card. One
    message: each term is explained where the table first uses it.
    """
    shown = block_names(names)
    said = Glossary(locale)
    lines = _header(view, locale, said)
    lines.append(t("gostop.table.floor", locale, pile=view.pile_size))
    lines += floor_lines(view, shown, locale, in_floor_order(view.flip_choices), said=said)
    if view.flipped is not None:
        lines += say(t("gostop.table.flipped", locale, card=card_name(view.flipped, locale)))
        lines += say(t("gostop.table.flip_choice", locale))
    taken = _taken_now(view)
    if taken:
        lines += say(t("gostop.table.in_play", locale, cards=cards_text(taken, locale)))
    for seat in _seat_order(view):
        lines.append("")
        lines += _player_lines(view, seat, shown, locale, said)
    lines.append("")
    if view.result is None:
        lines += say(_turn_line(view, shown, locale))
    else:
        lines += end_lines(view, shown, locale, said=said)
    return "\n".join(lines)


def _header(view: GostopView, locale: str, said: Glossary) -> list[str]:
    parts = [t("gostop.table.title", locale)]
    if view.bonus_cards:
        parts.append(t("gostop.table.bonus", locale, n=view.bonus_cards))
    lines = [GROUP_SEPARATOR.join(parts)]
    if view.nagari_carry:
        said.first("nagari")  # the stakes line says what a nagari is
        n = view.nagari_carry
        stakes = counted("gostop.table.stakes", n, locale, times=1 << n, n=n)
        if view.redeals:
            stakes += " " + t("gostop.table.redealt", locale, n=view.redeals)
        lines += say(stakes)
    return lines


def floor_lines(
    view: GostopView,
    names: Sequence[str],
    locale: str,
    marks: Sequence[HwatuCard] = (),
    *,
    said: Glossary | None = None,
) -> list[str]:
    """The floor grouped by month, groups packed into lines of 40 columns; a ppuk's stack says
    whose it is (and, the first time, what a ppuk is). ``marks``: cards to number ``[1]``,
    ``[2]`` (a choice being asked)."""
    said = said or Glossary(locale)
    groups = []
    for month, cards, stack in view.floor:
        kinds = " ".join(
            _marked(t(f"gostop.kind.{KIND_KEYS[c.kind]}", locale), c, marks) for c in cards
        )
        group = t("gostop.table.group", locale, month=month_name(month, locale), kinds=kinds)
        if stack is not None and stack >= 0:
            owner = clip(names[stack], _OWNER_COLUMNS)
            key = (
                "gostop.table.ppuk_stack_first" if said.first("ppuk") else "gostop.table.ppuk_stack"
            )
            group += t(key, locale, name=owner)
        elif stack is not None:
            group += t("gostop.table.dealt_stack", locale)
        groups.append(group)
    if not groups:
        return [" " + t("gostop.table.empty_floor", locale)]
    return _pack(groups)


def in_floor_order(cards: Iterable[HwatuCard]) -> tuple[HwatuCard, ...]:
    """Cards in the order the floor shows them, so a choice's ``[1]`` comes before its ``[2]``."""
    return tuple(sorted(cards, key=lambda card: card.index))


def _marked(text: str, card: HwatuCard, marks: Sequence[HwatuCard]) -> str:
    return f"[{marks.index(card) + 1}]{text}" if card in marks else text


def _pack(groups: Sequence[str]) -> list[str]:
    """Month groups side by side, as many as fit a line; a group never breaks unless it alone
    is wider than a line."""
    lines: list[str] = []
    current = ""
    for group in groups:
        candidate = f"{current}{GROUP_SEPARATOR}{group}" if current else f" {group}"
        if current and columns(candidate) > PHONE_COLUMNS:
            lines.append(current)
            candidate = f" {group}"
        if columns(candidate) > PHONE_COLUMNS:
            first, *rest = candidate[1:].split(" ")
            *done, candidate = fit([f" {first}", *rest], "   ")
            lines += done
        current = candidate
    lines.append(current)
    return lines


def _taken_now(view: GostopView) -> tuple[HwatuCard, ...]:
    """The cards this turn has taken so far (the flipped card, still to be placed, aside)."""
    return tuple(c for c in view.in_play if c is not view.flipped)


def _seat_order(view: GostopView) -> tuple[int, int]:
    """The player to move last, nearest the turn line; the dealer first before anyone moves."""
    mover = view.current_seat
    if mover is None:
        mover = view.result.ranking[0] if view.result is not None else view.dealer
    return (1 - mover, mover)


# What a player's counts are called, and the term each one explains the first time.
_EXTRAS = (
    ("shakes", "shake"),
    ("bombs", "bomb"),
    ("ppuks", "ppuk"),
    ("flips", ""),
    ("instant", ""),
)


def _player_lines(
    view: GostopView, seat: int, names: Sequence[str], locale: str, said: Glossary
) -> list[str]:
    pile = view.piles[seat]
    status = counted(
        "gostop.table.player",
        pile.score,
        locale,
        name=names[seat],
        score=pile.score,
        hand=view.hand_sizes[seat],
    )
    if seat == view.dealer:
        status += t("gostop.table.dealer", locale)
    extras = []
    if view.goes[seat]:
        extras.append(t("gostop.table.goes", locale, n=view.goes[seat]))
    counts = (view.shakes, view.bombs, view.ppuks, view.flip_turns, view.instant)
    for (key, term), count in zip(_EXTRAS, counts, strict=True):
        if count[seat]:
            extra = t(f"gostop.table.{key}", locale, n=count[seat])
            extras.append(said(term, extra) if term else extra)
    lines = say(status)
    if extras:
        separator = t("gostop.list_separator", locale).rstrip()
        words = [f"{extra}{separator}" for extra in extras[:-1]] + extras[-1:]
        lines += fit([" " + words[0], *words[1:]])
    return lines + pile_lines(pile, locale, said=said)


def pile_lines(pile: PileView, locale: str, *, said: Glossary | None = None) -> list[str]:
    """A capture pile grouped by kind (광, 열, 띠, 피 with its value), each kind with the points
    it makes now (고도리 and 단 named with theirs, explained where first said)."""
    said = said or Glossary(locale)
    b = pile.breakdown
    rows: list[tuple[str, tuple[HwatuCard, ...], int, list[str]]] = [
        ("gostop.pile.bright", pile.brights, b.bright, []),
        ("gostop.pile.animal", pile.animals, b.animal + b.godori, _godori(b.godori, locale, said)),
        ("gostop.pile.ribbon", pile.ribbons, b.ribbon + b.dan, dan_names(pile, locale, said)),
    ]
    lines: list[str] = []
    for key, cards, points, named in rows:
        if cards:
            words = [t(key, locale), *(short_name(c, locale) for c in cards)]
            lines += fit([" " + words[0], *words[1:], *_points(points, named, locale)], "    ")
    if pile.pi:
        words = [t("gostop.pile.pi", locale, value=pile.pi_value)]
        words += [short_name(c, locale, as_double=c.kind is Kind.ANIMAL) for c in pile.pi]
        lines += fit([" " + words[0], *words[1:], *_points(b.pi, [], locale)], "    ")
    if not lines:
        lines.append(" " + t("gostop.pile.none", locale))
    return lines


def _godori(points: int, locale: str, said: Glossary | None = None) -> list[str]:
    word = t("gostop.sheet.godori", locale)
    return [said("godori", word) if said else word] if points else []


def _points(points: int, named: list[str], locale: str) -> list[str]:
    """``= 4 with red dan`` as words to wrap: the whole when it fits a line, else the points
    and each name apart (a name's gloss stays with it)."""
    if not points:
        return []
    if not named:
        return [t("gostop.pile.points", locale, points=points)]
    more = [t("gostop.pile.named_more", locale, item=item) for item in named[:-1]]
    words = [t("gostop.pile.points_named", locale, points=points), *more, named[-1]]
    whole = " ".join(words)
    return [whole] if columns(whole) <= PHONE_COLUMNS - 4 else words


def _turn_line(view: GostopView, names: Sequence[str], locale: str) -> str:
    seat = view.current_seat
    assert seat is not None
    key = {
        Phase.FLIP_CHOICE: "gostop.table.turn_flip",
        Phase.GO_STOP: "gostop.table.turn_go_stop",
    }.get(view.phase, "gostop.table.turn")
    return t(key, locale, name=names[seat])
