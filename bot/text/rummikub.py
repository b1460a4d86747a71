"""Rummikub's text: the public table in colour, the private turn view (the staged table with
each set's exact problem), the move log and the refusal reasons, in every catalog language.

Pure functions of views and events. Tiles are shown by their codes (``R5``, ``K13``, ``J``)
in both languages; in the ``ansi`` code block each colour is drawn in its own colour (black
as white/grey, jokers in magenta). A colour code is written only where the colour changes
and reset at the end of the line, so a table of 100 tiles stays far below 2000 characters;
sets are wrapped to 40 columns (colour codes take none).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from bot.i18n import counted, say_params_with, t
from bot.text.fit import fit_list
from bot.text.names import block_name
from bot.text.width import PHONE_COLUMNS, clip, columns
from rules.engine import Event, GameOver
from rules.rummikub import Left, Passed, RummikubView, TableChanged, TilesDrawn, TimedOut
from rules.rummikub.ai import NextMeld, next_meld
from rules.rummikub.sets import check_set
from rules.rummikub.solver import Solution
from rules.rummikub.tiles import Colour, Tile

__all__ = [
    "LOG_LINE",
    "event_lines",
    "hand_lines",
    "hint_text",
    "problem_lines",
    "rack_text",
    "reason_text",
    "result_lines",
    "sets_lines",
    "sorted_rack",
    "staged_text",
    "table_body",
    "tiles_plain",
]

_RESET: Final = "\x1b[0m"
_COLOUR_CODES: Final = {
    Colour.RED: "\x1b[31m",
    Colour.BLUE: "\x1b[34m",
    Colour.ORANGE: "\x1b[33m",
    Colour.BLACK: "\x1b[37m",
    None: "\x1b[35m",  # the joker
}
_NAME_COLUMNS: Final = 12
_SET_LINE: Final = 7  # tiles on one line of a set: 4 + 7 x 5 - 1 = 38 columns
_RACK_LINE: Final = 8  # tiles on one line of a rack: 8 x 5 - 1 = 39 columns

# The engine's reasons (rules/rummikub/sets.py and state.py), read back into catalog keys so
# every language says them; the engine stays free of any catalog.
_REASONS: Final = (
    (re.compile(r"group has two (\w+) (\d+)s"), "rummikub.reason.group_twice"),
    (re.compile(r"a group has at most 4 tiles"), "rummikub.reason.group_size"),
    (re.compile(r"run has two (\w+)s"), "rummikub.reason.run_twice"),
    (re.compile(r"a run has at most 13 tiles"), "rummikub.reason.run_size"),
    (re.compile(r"a run cannot wrap"), "rummikub.reason.wrap"),
    (re.compile(r"run breaks between (\w+) and (\w+)"), "rummikub.reason.gap"),
    (re.compile(r"a set needs at least 3 tiles, this one has (\d+)"), "rummikub.reason.short"),
    (re.compile(r"a set needs at least one numbered tile"), "rummikub.reason.jokers_only"),
    (re.compile(r"neither a group"), "rummikub.reason.neither"),
)
_PARAMS: Final = {
    "rummikub.reason.group_twice": ("colour", "number"),
    "rummikub.reason.run_twice": ("tile",),
    "rummikub.reason.gap": ("low", "high"),
    "rummikub.reason.short": ("count",),
}


def tiles_plain(tiles: Iterable[Tile]) -> str:
    """Tiles by code, space separated: ``R5 R6 J``."""
    return " ".join(tile.code for tile in tiles)


def _coloured(
    tiles: Sequence[Tile], marked: Counter[Tile] | None = None, *, plain: bool = False
) -> list[str]:
    """Each tile as a word with its colour code where the colour changes (``plain``: none);
    ``marked`` tiles (from the rack, in a staged set) carry a ``+``."""
    words = []
    current: Colour | str | None = "none"
    left = Counter() if marked is None else Counter(marked)
    for tile in tiles:
        prefix = ""
        if tile.colour != current and not plain:
            prefix = _COLOUR_CODES[tile.colour]
            current = tile.colour
        mark = ""
        if left[tile] > 0:
            left[tile] -= 1
            mark = "+"
        words.append(f"{prefix}{mark}{tile.code}")
    return words


def _set_lines(
    number: int, tiles: Sequence[Tile], marked: Counter[Tile] | None, *, plain: bool = False
) -> list[str]:
    """``3: R5 R6 R7``, at most 7 tiles a line (each at most 4 columns: ``+K13``), so a line
    never passes 40 columns; every line sets its own colours and resets them at its end
    (``plain``: no colour codes). A set's further lines start with spaces, no number: the
    Arrange box reads them as the same set (:func:`bot.games.rummikub.parse_table`)."""
    left = Counter() if marked is None else Counter(marked)
    lines = []
    for start in range(0, max(len(tiles), 1), _SET_LINE):
        chunk = tiles[start : start + _SET_LINE]
        here = Counter({t: min(c, left[t]) for t, c in Counter(chunk).items()})
        left -= here
        head = f"{number:>2}:" if start == 0 else "   "
        lines.append(" ".join([head, *_coloured(chunk, here, plain=plain)]) + _end(plain))
    return lines


def _end(plain: bool) -> str:
    return "" if plain else _RESET


def sets_lines(
    sets: Sequence[Sequence[Tile]],
    marked: Counter[Tile] | None = None,
    *,
    checked: bool = False,
    plain: bool = False,
) -> list[str]:
    """The sets numbered from 1 in reading order, one (wrapped) line each; ``checked``: each
    ends with ✓ when it is a valid set, ✗ when not (the turn view says why below);
    ``plain``: without colour codes (a hint's lines, pasted into the Arrange box)."""
    lines: list[str] = []
    left = Counter() if marked is None else Counter(marked)
    for number, tiles in enumerate(sets, 1):
        here = Counter(t for t in tiles if left[t] > 0)
        here = Counter({t: min(c, left[t]) for t, c in here.items()})
        left -= here
        found = _set_lines(number, tiles, here, plain=plain)
        if checked:
            mark = "✓" if check_set(tiles).valid else "✗"
            if columns(found[-1]) + 2 <= PHONE_COLUMNS:
                found[-1] += f" {mark}"
            else:
                found.append(f"    {mark}")
        lines += found
    return lines


def sorted_rack(rack: Iterable[Tile]) -> list[Tile]:
    """A rack by colour, then number in colour; jokers last."""
    return sorted(rack, key=lambda tile: tile.index)


def rack_text(rack: Iterable[Tile]) -> list[str]:
    """The rack, sorted, in colour, wrapped to 40 columns."""
    tiles = sorted_rack(rack)
    return [
        " ".join(_coloured(tiles[start : start + _RACK_LINE])) + _RESET
        for start in range(0, len(tiles), _RACK_LINE)
    ]


def _name(names: Sequence[str], seat: int) -> str:
    return block_name(names[seat], _NAME_COLUMNS)


def table_body(view: RummikubView, names: Sequence[str], locale: str) -> str:
    """The inside of the public ``ansi`` block: the pool, whether hints are on, the sets,
    then each seat's rack count and initial meld, the turn marked ``>``. From the
    spectator's view: no rack tile."""
    lines = [t("rummikub.table.title", locale, sets=len(view.table), pool=view.pool)]
    if view.hints:
        lines.append(t("rummikub.table.hints", locale))
    if view.table:
        lines += sets_lines(view.table)
    else:
        lines.append(t("rummikub.table.empty", locale))
    lines.append("")
    for seat, count in enumerate(view.rack_counts):
        # ASCII: an ambiguous-width arrow takes two columns in a CJK font and shifts the name.
        turn = "> " if seat == view.current_seat else "  "
        meld = t("rummikub.table.melded", locale) if view.melded[seat] else ""
        lines.append(
            clip(
                f"{turn}{_name(names, seat)} "
                + t("rummikub.table.rack", locale, count=count)
                + (f" {meld}" if meld else ""),
                PHONE_COLUMNS,
            )
        )
    return "\n".join(lines)


def reason_text(reason: str, locale: str) -> str:
    """One of the engine's set reasons in ``locale``."""
    for pattern, key in _REASONS:
        found = pattern.search(reason)
        if found is not None:
            params = dict(zip(_PARAMS.get(key, ()), found.groups(), strict=False))
            if "colour" in params:  # the tile by its code, as the hand shows it (rule 11)
                colour = Colour[params.pop("colour").upper()]
                params["tile"] = f"{colour.value}{params.pop('number')}"
            return t(key, locale, **params)
    return t("rummikub.reason.other", locale)


def problem_lines(view: RummikubView, locale: str) -> list[str]:
    """What keeps the staged table from Done, every problem in ``locale``: each wrong set
    with its reason, no rack tile played, an initial meld short of 30."""
    staged = view.staged or ()
    lines = []
    for number, tiles in enumerate(staged, 1):
        check = check_set(tiles)
        if not check.valid and check.reason is not None:
            lines.append(
                t(
                    "rummikub.problem.set",
                    locale,
                    set=number,
                    tiles=tiles_plain(tiles),
                    reason=reason_text(check.reason, locale),
                )
            )
    if lines:
        return lines
    for problem in view.problems:
        value = re.search(r"yours (?:\([^)]*\) )?is (\d+)", problem)
        if value is not None:
            lines.append(t("rummikub.problem.meld", locale, value=value.group(1), need=30))
        elif "rack" in problem:
            lines.append(t("rummikub.problem.no_rack_tile", locale))
    return lines


def staged_text(view: RummikubView, locale: str) -> list[str]:
    """The staged table: sets numbered, rack tiles marked ``+``, each marked valid or not."""
    staged = view.staged if view.staged is not None else view.table
    played: Counter[Tile] = Counter()
    if view.staged_rack is not None:
        played = Counter(view.rack) - Counter(view.staged_rack)
    if not staged:
        return [t("rummikub.table.empty", locale)]
    return sets_lines(staged, played, checked=True)


STAGED_ROOM = 1200  # characters of the turn view's table, so the rack and the words fit too


def hand_lines(view: RummikubView, locale: str) -> list[str]:
    """The inside of the private block: the (staged) table, then the rack sorted. A table
    longer than :data:`STAGED_ROOM` shows its first sets and counts the rest; the rack is
    always shown whole."""
    rack = view.staged_rack if view.staged_rack is not None else view.rack
    lines = [t("rummikub.hand.table", locale)]
    lines += fit_list(staged_text(view, locale), STAGED_ROOM, lambda n: t("fit.more", locale, n=n))
    lines += ["", t("rummikub.hand.rack", locale, count=len(rack))]
    lines += rack_text(rack)
    return lines


LOG_LINE: Final = 100  # characters a move-log line grows to before the next meld starts a line


def _played(
    name: str, tiles: Sequence[Tile], table: Sequence[Sequence[Tile]], locale: str
) -> list[str]:
    """``bob put R5 R6 R7 and added K13 to set 3``: each set the rack tiles went to, by the
    number the new public table shows. A long turn is broken between melds into lines of
    about :data:`LOG_LINE` characters (``bob also added …``), never one wall of text."""
    left = Counter(tiles)
    parts = []
    for number, found in enumerate(table, 1):
        mine = []
        for tile in found:
            if left[tile] > 0:
                left[tile] -= 1
                mine.append(tile)
        if not mine:
            continue
        if len(mine) == len(found):
            parts.append(t("rummikub.log.put", locale, tiles=tiles_plain(mine)))
        else:
            parts.append(t("rummikub.log.added", locale, tiles=tiles_plain(mine), set=number))
    joiner = t("rummikub.and", locale)
    lines: list[str] = []
    chunk: list[str] = []

    def said(moves: list[str]) -> str:
        key = "rummikub.log.played_more" if lines else "rummikub.log.played"
        return t(key, locale, name=name, moves=joiner.join(moves))

    for part in parts:
        if chunk and len(said([*chunk, part])) > LOG_LINE:
            lines.append(said(chunk))
            chunk = []
        chunk.append(part)
    lines.append(said(chunk))
    return lines


def event_lines(events: Iterable[Event], names: Sequence[str], locale: str) -> list[str]:
    """The move in words, one event a line (a long turn's melds over several):
    ``bob put R5 R6 R7``, ``carol drew a tile``, a timeout, the end."""
    lines = []
    for event in events:
        match event:
            case TableChanged(seat=seat, tiles=tiles, table=table):
                lines += _played(names[seat], tiles, table, locale)
            case TilesDrawn(seat=seat, count=count):
                lines.append(t("rummikub.log.drew", locale, name=names[seat], count=count))
            case Passed(seat=seat):
                lines.append(t("rummikub.log.passed", locale, name=names[seat]))
            case TimedOut(seat=seat, drawn=drawn):
                lines.append(t("rummikub.log.timed_out", locale, name=names[seat], count=drawn))
            case Left(seat=seat, returned=returned):
                lines.append(
                    counted("rummikub.log.left", returned, locale, name=names[seat], count=returned)
                )
            case GameOver(result=result) if len(result.winners) == 1:
                lines.append(t("rummikub.log.won", locale, name=names[result.winners[0]]))
            case GameOver(result=result) if result.winners:
                together = ", ".join(names[seat] for seat in result.winners)
                lines.append(t("rummikub.log.drawn", locale, names=together))
    return lines


def result_lines(view: RummikubView, names: Sequence[str], locale: str) -> list[str]:
    """Rules 13 and 14: each seat's rack left and score, winners first."""
    result = view.result
    if result is None:
        return []
    lines = [t("rummikub.result.title", locale)]
    for seat in result.ranking:
        lines.append(
            clip(
                counted(
                    "rummikub.result.line",
                    view.rack_counts[seat],
                    locale,
                    name=_name(names, seat),
                    left=view.rack_counts[seat],
                    score=f"{result.scores[seat]:+d}",
                ),
                PHONE_COLUMNS,
            )
        )
    return lines


def hint_text(view: RummikubView, play: Solution | None, locale: str, seconds: float) -> str:
    """The hint (rule 16), one meld at a time: the next meld of the best play from where the
    member's staged table stands, and the staged table with it made as lines the Arrange
    box takes exactly as shown (plain, numbered, rack tiles marked ``+``). Or: no play, the
    staged table is the play, it left the play, the solver ran out of ``seconds``."""
    if play is None:
        return t("rummikub.hint.timeout", locale, seconds=seconds)
    if not play.found:
        return t("rummikub.hint.none", locale)
    step = next_meld(view, play)
    if step == "done":
        return t("rummikub.hint.done", locale)
    if step == "reset":
        return t("rummikub.hint.reset", locale)
    return _hint_step(view, step, locale)


def _hint_step(view: RummikubView, step: NextMeld, locale: str) -> str:
    number = len(step.table)
    if step.rack:
        head = t(
            "rummikub.hint.meld",
            locale,
            meld=tiles_plain(step.meld),
            set=number,
            tiles=tiles_plain(step.rack),
        )
    else:
        head = t("rummikub.hint.meld_table", locale, meld=tiles_plain(step.meld), set=number)
    more = (
        t("rummikub.hint.left", locale, left=step.left)
        if step.left
        else t("rummikub.hint.last", locale)
    )
    staged = view.staged_rack if view.staged_rack is not None else view.rack
    played = Counter(view.rack) - Counter(staged) + Counter(step.rack)
    # Never cut: a line left out would be a set missing from the box. 106 tiles make at most
    # about 800 characters of lines, so the whole answer stays far below 2,000.
    lines = "\n".join(sets_lines(step.table, played, plain=True))
    return f"{head}\n{more}\n{t('rummikub.hint.paste', locale)}\n```\n{lines}\n```"


_SET_REASON = re.compile(r"set (\d+) \(([^)]*)\): (.+)")


def _refusal_words(value: str, locale: str) -> str | None:
    """A refused Done's reasons (the engine's ``set 3 (B9 O9 B10): <reason>`` lines) as the
    turn view says them, in ``locale``, the first :data:`MAX_PROBLEMS` and how many more;
    ``None`` for any other parameter."""
    lines = value.splitlines()
    found = [_SET_REASON.fullmatch(line) for line in lines]
    if not lines or not all(found):
        return None
    said = [
        t("rummikub.problem.set", locale, set=m[1], tiles=m[2], reason=reason_text(m[3], locale))
        for m in found
        if m is not None
    ]
    return "\n".join(first_problems(said, locale))


MAX_PROBLEMS = 6  # wrong sets named in a refusal or a turn view; the rest are counted


def first_problems(lines: Sequence[str], locale: str) -> list[str]:
    """The first :data:`MAX_PROBLEMS` of ``lines``, then a line counting the rest: a table
    of a hundred wrong sets is still one short message."""
    if len(lines) <= MAX_PROBLEMS:
        return list(lines)
    rest = len(lines) - MAX_PROBLEMS + 1
    return [*lines[: MAX_PROBLEMS - 1], t("fit.more", locale, n=rest)]


say_params_with("rummikub", _refusal_words)
