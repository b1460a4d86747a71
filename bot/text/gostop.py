"""Go-Stop text: pure functions from engine views and events to strings, in either language.

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
from typing import Final

from bot.i18n import DEFAULT, counted, t
from bot.text.names import TABLE_NAME_COLUMNS, block_names, escape_log
from bot.text.width import PHONE_COLUMNS, clip, columns, wrap, wrap_words
from rules.engine import Action, Event, GameOver
from rules.gostop.cards import DANS, HwatuCard, Kind
from rules.gostop.scoring import WINNING_SCORE, Settlement, go_terms
from rules.gostop.state import (
    Bomb,
    Bombed,
    Captured,
    CardPlayed,
    ChongtongWin,
    Flipped,
    Forfeited,
    GoCalled,
    GostopView,
    InstantPoints,
    Phase,
    PileView,
    Play,
    Shook,
    Special,
    Stolen,
    Stopped,
)

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
    "outcome_text",
    "outcome_words",
    "pile_lines",
    "result_lines",
    "sheet_lines",
    "table_body",
]

GROUP_SEPARATOR = " | "  # between the months of the floor (ASCII: its width is never in doubt)
_OWNER_COLUMNS = 8  # a ppuk owner's name beside their stack
_SHEET_COLUMNS = 30  # where a score sheet's numbers end
_KIND_KEYS = {
    Kind.BRIGHT: "bright",
    Kind.ANIMAL: "animal",
    Kind.RIBBON: "ribbon",
    Kind.JUNK: "junk",
    Kind.DOUBLE: "double",
    Kind.BONUS: "bonus",
}
_ARROW = "->"  # before what a hand's card would take
_BREAKDOWN = ("bright", "animal", "ribbon", "pi", "godori", "dan")


# -- names ------------------------------------------------------------------------------------


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


def _token(card: HwatuCard, locale: str, as_double: bool = False) -> str:
    """A card in a list already grouped by kind: ``1광`` / ``Jan``, a double ``Nov(2)``;
    ``as_double``: the 국진 counted as 쌍피 (rule 21)."""
    key = "gostop.short.gukjin_double" if as_double else f"gostop.short.{card.code}"
    return t(key, locale)


def _fit(words: Sequence[str], indent: str = "   ") -> list[str]:
    """``words`` (each kept whole) on lines of at most 40 columns."""
    return wrap_words(list(words), PHONE_COLUMNS, indent)


def _say(sentence: str, indent: str = "   ") -> list[str]:
    """A sentence broken at its spaces into lines of at most 40 columns."""
    return wrap(sentence, PHONE_COLUMNS, indent)


def _phrase(key: str, locale: str, **params: str) -> list[str]:
    """The message ``key`` as words to wrap, each filled-in name one word: ``-> takes the
    {card}`` with ``Nov double`` never breaks between ``Nov`` and ``double``."""
    words: list[str] = []
    for piece in t(key, locale).split(" "):
        word = piece.format_map(params)
        if words and words[-1] == _ARROW:  # an arrow stays with what it points to
            word = f"{words.pop()} {word}"
        words.append(word)
    return words


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
        lines += _say(t("gostop.table.flipped", locale, card=card_name(view.flipped, locale)))
        lines += _say(t("gostop.table.flip_choice", locale))
    taken = _taken_now(view)
    if taken:
        lines += _say(t("gostop.table.in_play", locale, cards=cards_text(taken, locale)))
    for seat in _seat_order(view):
        lines.append("")
        lines += _player_lines(view, seat, shown, locale, said)
    lines.append("")
    if view.result is None:
        lines += _say(_turn_line(view, shown, locale))
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
        lines += _say(stakes)
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
            _marked(t(f"gostop.kind.{_KIND_KEYS[c.kind]}", locale), c, marks) for c in cards
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
            *done, candidate = _fit([f" {first}", *rest], "   ")
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
    lines = _say(status)
    if extras:
        separator = t("gostop.list_separator", locale).rstrip()
        words = [f"{extra}{separator}" for extra in extras[:-1]] + extras[-1:]
        lines += _fit([" " + words[0], *words[1:]])
    return lines + pile_lines(pile, locale, said=said)


def pile_lines(pile: PileView, locale: str, *, said: Glossary | None = None) -> list[str]:
    """A capture pile grouped by kind (광, 열, 띠, 피 with its value), each kind with the points
    it makes now (고도리 and 단 named with theirs, explained where first said)."""
    said = said or Glossary(locale)
    b = pile.breakdown
    rows: list[tuple[str, tuple[HwatuCard, ...], int, list[str]]] = [
        ("gostop.pile.bright", pile.brights, b.bright, []),
        ("gostop.pile.animal", pile.animals, b.animal + b.godori, _godori(b.godori, locale, said)),
        ("gostop.pile.ribbon", pile.ribbons, b.ribbon + b.dan, _dans(pile, locale, said)),
    ]
    lines: list[str] = []
    for key, cards, points, named in rows:
        if cards:
            words = [t(key, locale), *(_token(c, locale) for c in cards)]
            lines += _fit([" " + words[0], *words[1:], *_points(points, named, locale)], "    ")
    if pile.pi:
        words = [t("gostop.pile.pi", locale, value=pile.pi_value)]
        words += [_token(c, locale, as_double=c.kind is Kind.ANIMAL) for c in pile.pi]
        lines += _fit([" " + words[0], *words[1:], *_points(b.pi, [], locale)], "    ")
    if not lines:
        lines.append(" " + t("gostop.pile.none", locale))
    return lines


def _godori(points: int, locale: str, said: Glossary | None = None) -> list[str]:
    word = t("gostop.sheet.godori", locale)
    return [said("godori", word) if said else word] if points else []


def _dans(pile: PileView, locale: str, said: Glossary | None = None) -> list[str]:
    """The 단 the pile holds, by name (glossed the first time when ``said`` is given)."""
    held = {c.index for c in pile.ribbons}
    named = [
        (name, t(f"gostop.dan.{name}", locale)) for name, cards in DANS.items() if cards <= held
    ]
    return [said(name, word) if said else word for name, word in named]


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


# -- the end ----------------------------------------------------------------------------------


def end_lines(
    view: GostopView, names: Sequence[str], locale: str = DEFAULT, *, said: Glossary | None = None
) -> list[str]:
    """How the game ended, said on the final table: the winner and their score sheet (signs
    that line up on every client), a chongtong or three ppuks, or the nagari that doubles the
    next game."""
    result = view.result
    assert result is not None
    said = said or Glossary(locale)
    if not result.winners:
        lines = _say(t("gostop.end.nagari", locale))
    else:
        winner = result.winners[0]
        reason = view.win_reason
        head = "gostop.end.stop" if reason == "stop" else f"gostop.end.{reason}"
        text = t(head, locale, name=names[winner], loser=names[1 - winner])
        if reason in _SPECIAL_TERMS:
            text = said(_SPECIAL_TERMS[reason], text)
        lines = _say(text)
    lines += result_lines(view, locale, plain=True, said=said)
    # Instant points stay paid whatever happens later (rule 16): the winner's are on the
    # sheet, anyone else's are said here.
    kept = [
        t("gostop.end.instant_entry", locale, name=names[seat], points=view.instant[seat])
        for seat in (0, 1)
        if view.instant[seat] and seat not in result.winners
    ]
    if kept:
        joined = t("gostop.list_separator", locale).join(kept)
        lines += _say(t("gostop.end.instant_kept", locale, points=joined))
    return lines


_SPECIAL_TERMS = {"chongtong": "chongtong", "three-ppuk": "ppuk"}  # a win's reason: its term


def result_lines(
    view: GostopView,
    locale: str = DEFAULT,
    *,
    plain: bool = False,
    said: Glossary | None = None,
) -> list[str]:
    """The end in numbers: the winner's score sheet (after a Stop or a forfeit), a chongtong's
    or three ppuks' points, or what a nagari makes the next game. ``plain``: the signs of a
    Discord table (``x2``), else the seed's ``×2`` (the console)."""
    result = view.result
    assert result is not None
    said = said or Glossary(locale)
    if not result.winners:
        return _say(t("gostop.end.next_times", locale, times=2 << view.nagari_carry))
    winner = result.winners[0]
    if view.settlement is None:
        base = result.scores[winner] - view.instant[winner]
        term = _SPECIAL_TERMS[view.win_reason]
        label = said(term, t(f"gostop.sheet.{view.win_reason}", locale))
        return _special_sheet(
            label, base, view.nagari_carry, view.instant[winner], locale, plain=plain, said=said
        )
    return sheet_lines(
        view.settlement,
        locale,
        goes=view.goes[winner],
        shakes=view.shakes[winner],
        bombs=view.bombs[winner],
        nagari_carry=view.nagari_carry,
        instant=view.instant[winner],
        dans=_dans(view.piles[winner], locale, said),
        plain=plain,
        said=said,
    )


def _rows(rows: Sequence[tuple[str, str]]) -> list[str]:
    """Score-sheet lines: each label, then its value ending at one column for all, the 30th
    or further right when a label needs it (never past a phone's 40)."""
    width = max([_SHEET_COLUMNS, *(columns(label) + 1 + columns(value) for label, value in rows)])
    width = min(width, PHONE_COLUMNS - 1)
    return [
        f" {label}{' ' * max(1, width - columns(label) - columns(value))}{value}"
        for label, value in rows
    ]


def _times(times: int, locale: str, plain: bool) -> str:
    """A multiplier's value: ``x2`` (``2배``) where a table must line up everywhere, the
    seed's ``×2`` in the console."""
    return t("gostop.sheet.times", locale, n=times) if plain else f"×{times}"


def _product(points: str, times: int, locale: str, plain: bool) -> str:
    if plain:
        return t("gostop.sheet.product", locale, points=points, times=times)
    return f"{points} × {times}"


def sheet_lines(
    sheet: Settlement,
    locale: str = DEFAULT,
    *,
    goes: int = 0,
    shakes: int = 0,
    bombs: int = 0,
    nagari_carry: int = 0,
    instant: int = 0,
    dans: Sequence[str] = (),
    plain: bool = False,
    said: Glossary | None = None,
) -> list[str]:
    """The winner's score sheet, line by line as ``deckhand gostop score`` computes it (rules
    17-26): points by kind (``dans``: the 단 made, by name), the base, the Go bonus, each
    multiplier and bak by name, the product, instant points and the total. ``plain``: ``x2``
    and ``7 x 16`` (a Discord table), else the seed's ``×``; ``said``: the terms the message
    has explained already (the rest are, in English, where the sheet first names them)."""
    said = said or Glossary(locale)
    pts = "gostop.sheet.pts"
    breakdown = sheet.breakdown.as_dict()
    named = ", ".join(dans)
    rows = []
    for kind in _BREAKDOWN:
        if breakdown[kind]:
            label = t(f"gostop.sheet.{kind}", locale, names=named)
            if kind == "godori":
                label = said("godori", label)
            rows.append((label, t(pts, locale, n=breakdown[kind])))
    rows.append((t("gostop.sheet.base", locale), t(pts, locale, n=sheet.base)))
    if sheet.go_bonus:
        label = t("gostop.sheet.go_bonus", locale, n=goes)
        rows.append((label, "+" + t(pts, locale, n=sheet.go_bonus)))
    _, go_times = go_terms(goes)
    factors: list[tuple[str, int]] = []
    if go_times > 1:
        factors.append((t("gostop.sheet.go_times", locale, n=goes), go_times))
    if shakes:
        factors.append((said("shake", t("gostop.sheet.shakes", locale, n=shakes)), 1 << shakes))
    if bombs:
        factors.append((said("bomb", t("gostop.sheet.bombs", locale, n=bombs)), 1 << bombs))
    factors += [(said(bak, t(f"gostop.bak.{bak}", locale)), 2) for bak in sheet.baks]
    if nagari_carry:
        label = said("nagari", t("gostop.sheet.nagari", locale, n=nagari_carry))
        factors.append((label, 1 << nagari_carry))
    rows += [(label, _times(times, locale, plain)) for label, times in factors]
    if sheet.multiplier > 1:
        points = f"({sheet.base} + {sheet.go_bonus})" if sheet.go_bonus else str(sheet.base)
        product = _product(points, sheet.multiplier, locale, plain)
        rows.append((product, "= " + t(pts, locale, n=sheet.total)))
    if instant:
        rows.append((t("gostop.sheet.instant", locale), "+" + t(pts, locale, n=instant)))
    rows.append((t("gostop.sheet.total", locale), t(pts, locale, n=sheet.total + instant)))
    return _rows(rows)


def _special_sheet(
    label: str,
    base: int,
    nagari_carry: int,
    instant: int,
    locale: str,
    *,
    plain: bool,
    said: Glossary,
) -> list[str]:
    """A chongtong's 10 or three ppuks' 7 (``label``): no in-game multiplier, but a carried
    nagari doubles them."""
    pts = "gostop.sheet.pts"
    points = base >> nagari_carry
    rows = [(label, t(pts, locale, n=points))]
    if nagari_carry:
        nagari = said("nagari", t("gostop.sheet.nagari", locale, n=nagari_carry))
        rows.append((nagari, _times(1 << nagari_carry, locale, plain)))
    if instant:
        rows.append((t("gostop.sheet.instant", locale), "+" + t(pts, locale, n=instant)))
    rows.append((t("gostop.sheet.total", locale), t(pts, locale, n=base + instant)))
    return _rows(rows)


# -- the private hand -------------------------------------------------------------------------


def outcome_words(
    view: GostopView, card: HwatuCard, locale: str = DEFAULT, *, within_month: bool = False
) -> list[str]:
    """What ``card`` would take from the floor now (rule 6), as words to wrap, each card name
    one word: one card, a choice of two, a stack, nothing; a bonus card is taken at once
    (rule 2). ``within_month``: the floor cards by kind alone (``띠``, ``ribbon``), where the
    month is already said."""
    if card.kind is Kind.BONUS:
        return _phrase("gostop.hand.bonus", locale)
    same = next((cards for month, cards, _ in view.floor if month == card.month), ())

    def name(floor_card: HwatuCard) -> str:
        if within_month:
            return t(f"gostop.kind.{_KIND_KEYS[floor_card.kind]}", locale)
        return card_name(floor_card, locale)

    if not same:
        return _phrase("gostop.hand.stays", locale)
    if len(same) == 2 and same[0].kind is not same[1].kind:
        return _phrase("gostop.hand.choose", locale, first=name(same[0]), second=name(same[1]))
    if len(same) == 3:
        names = t("gostop.list_separator", locale).join(name(c) for c in same)
        return _phrase("gostop.hand.stack", locale, cards=names)
    return _phrase("gostop.hand.takes", locale, card=name(same[0]))


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
            kind = t(f"gostop.kind.{_KIND_KEYS[card.kind]}", locale) if month else ""
            shown = kind or card_name(card, locale)
            words.append(t("gostop.hand.card", locale, n=number, card=shown))
        words += _whole(outcome_words(view, cards[0], locale, within_month=True))
        if month in shakes:
            words += _whole(_phrase("gostop.hand.may_shake", locale))
        if month in bombs:
            words += _whole(_phrase("gostop.hand.may_bomb", locale))
        lines += _fit(words, _HAND_INDENT)
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
