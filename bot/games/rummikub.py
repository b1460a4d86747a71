"""Rummikub's :class:`~bot.games.GameAdapter`: 2 to 4 seats and the staged turn of rule 15.

Moves reach the engine as ``(verb, arg)`` pairs from commands, buttons and the Arrange box:

- ``("put", "R5 R6 R7")``: a new set from the rack;
- ``("add", "3 R8 2:K9")``: tiles to set 3, from the rack (``R8``) or from another set
  (``2:K9``); ``("move", "new 3:K9 2:J")`` (or ``"4 3:K9"``): tiles of sets to a set;
- ``("split", "3 4")``: set 3 split before its 4th tile;
- ``("undo", None)`` the last step, ``("reset", None)`` all of them, ``("done", None)``,
  ``("draw", None)``;
- ``("arrange", text)``: the whole staged table, one set per line (the Arrange box).

Set numbers are those the member sees (from 1). Tiles are read in every form of rule 1
(``R5``, ``r5``, ``Y5``, ``J``, ``*``, ``빨5``, ``조커``), spaces or commas between them.

Staging is private: a staging step changes no public table (:meth:`RummikubAdapter.private_step`),
and the member is answered with the preview (:meth:`RummikubAdapter.private`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.games import (
    AUTOCOMPLETE,
    HARD_SECONDS,
    NONSENSE,
    BaseAdapter,
    Control,
    Option,
    Program,
    Rendered,
    Scores,
    SoakStrategy,
    soak_seats,
)
from bot.i18n import LANGUAGES, catalog, t
from bot.text import rummikub as render
from bot.text.names import escape_log
from rules import rummikub
from rules.engine import Action, Event, GameOver, IllegalAction
from rules.levels import Level
from rules.rummikub import (
    Back,
    Done,
    Draw,
    Gather,
    PutSet,
    RummikubView,
    SplitSet,
    Stage,
    State,
    TimeOut,
    Undo,
)
from rules.rummikub.ai import choose_action
from rules.rummikub.sets import check_set
from rules.rummikub.solver import solve
from rules.rummikub.tiles import JOKER, Tile, TileError, parse_tiles

__all__ = ["ADAPTER", "ARRANGE", "RummikubAdapter", "parse_gather", "parse_table"]

ARRANGE: Final = "arrange"
NEW: Final = "new"
# "new" as a member may type it in any language (``rummikub.word.new``: 새).
_NEW_WORDS: Final = frozenset(
    {NEW, *(catalog(lang)["rummikub.word.new"].casefold() for lang in LANGUAGES)}
)
_ECHO: Final = 40
_SOURCE: Final = re.compile(r"(\d+)\s*:\s*")
_TURN_CONTROLS: Final = (
    Control("done", "button.rummikub.done", "success"),
    Control("undo", "button.rummikub.undo"),
    Control("reset", "button.rummikub.reset"),
    Control(ARRANGE, "button.rummikub.arrange", "primary"),
    Control("draw", "button.rummikub.draw", "danger"),
)


def _tiles(text: str) -> list[Tile]:
    """Tiles as typed; refused with what was typed (clipped) when one is no tile."""
    try:
        return parse_tiles(text)
    except TileError:
        typed = text.strip()[:_ECHO]
        raise IllegalAction(f"Not a tile in '{typed}'.", code="bad_tile", text=typed) from None


def _number(text: str, code: str = "no_set") -> int:
    """A set number as shown (from 1), 0-based; refused if it is no number."""
    cleaned = text.strip()
    if not cleaned.isdecimal() or not 1 <= int(cleaned) <= 200:
        raise IllegalAction("Name a set by its number.", code=code, set=cleaned[:_ECHO])
    return int(cleaned) - 1


def parse_gather(text: str) -> tuple[tuple[int | None, Tile], ...]:
    """``R8 2:K9, 3:J``: each tile with the set it comes from (``None``: the rack)."""
    words = _SOURCE.sub(lambda m: f"{m.group(1)}:", text.replace(",", " ")).split()
    found: list[tuple[int | None, Tile]] = []
    plain: list[str] = []

    def flush() -> None:
        found.extend((None, tile) for tile in _tiles(" ".join(plain)))
        plain.clear()

    for word in words:
        if ":" in word:
            flush()
            source, _, tile = word.partition(":")
            for one in _tiles(tile):
                found.append((_number(source), one))
        else:
            plain.append(word)
    flush()
    if not found:
        raise IllegalAction("Name the tiles to use.", code="no_tiles")
    return tuple(found)


_NUMBERED: Final = re.compile(r"^\s*\d+\s*:")
_MARKS: Final = str.maketrans("+✓✗", "   ")  # a rack tile's mark, a set's check: not tiles
_FENCE: Final = re.compile(r"^\s*```\w*\s*$")
_COLOUR: Final = re.compile(r"\x1b?\[[0-9;]*m")  # a colour code copied from the turn view
_CONTINUED: Final = "   "  # a set's further lines in the turn view and the hint start so


def parse_table(text: str) -> tuple[tuple[Tile, ...], ...]:
    """The Arrange box: one set per line. It takes the sets as every Rummikub view shows
    them: a leading ``3:`` (the number shown) is ignored, and so are ``+`` (a rack tile's
    mark), ``✓``/``✗`` (a set's check), colour codes and a code block's fence; a line
    that starts with three spaces and no number goes on with the set above (a long set
    wrapped, as the turn view and the hint show it)."""
    sets: list[list[Tile]] = []
    for line in (_COLOUR.sub("", line) for line in text.splitlines()):
        if _FENCE.match(line):
            continue
        continued = bool(sets) and line.startswith(_CONTINUED) and not _NUMBERED.match(line)
        cleaned = _NUMBERED.sub("", line).translate(_MARKS)
        if not cleaned.strip():
            continue
        if continued:
            sets[-1] += _tiles(cleaned)
        else:
            sets.append(_tiles(cleaned))
    return tuple(tuple(tiles) for tiles in sets)


def arrange_text(view: RummikubView) -> str:
    """What the Arrange box is prefilled with: the staged table, one set per line."""
    sets = view.staged if view.staged is not None else view.table
    return "\n".join(render.tiles_plain(tiles) for tiles in sets)


def _soak_start(rng: random.Random) -> dict[str, Any]:
    """Two or three players, hints on half the time (off, ``/rummikub hint`` is refused)."""
    chosen = soak_seats(2, 3)(rng)
    chosen["hints"] = rng.choice(("on", "off"))
    return chosen


class RummikubAdapter(BaseAdapter):
    """Rummikub for the session code: 2-4 seats, rule 12 on timeouts, the solver's computer
    player, and leaving as a forfeit (the rack goes back to the pool)."""

    name = "rummikub"
    min_seats = 2
    max_seats = 4
    verbs = ("put", "add", "move", "split", ARRANGE, "done", "draw", "undo", "reset")
    order = 5
    scores = Scores.POINTS  # the racks' values
    tools = Program("bot.tools.rummikub", "Rummikub tools (check, solve)")
    soak = SoakStrategy(
        start=_soak_start,
        moves=(
            ("put", {"tiles": AUTOCOMPLETE}),
            ("put", {"tiles": NONSENSE}),
            ("done", {}),
            ("undo", {}),
            ("reset", {}),
            ("draw", {}),
            ("hint", {}),
            ("hand", {}),
        ),
        practice={"players": 2, "bots": 1, "hints": "on"},
    )

    def new(
        self,
        seats: int,
        seed: int | None,
        options: Mapping[str, Any],
        computers: Sequence[int],
        *,
        secret: bool = False,
        level: Level = Level.NORMAL,
    ) -> tuple[State, tuple[Event, ...]]:
        """Deal (rule 2): every seed deals a fair shuffle, the bot's secret one too; the
        options say whether hints are on (off unless the host asked)."""
        return rummikub.new(seats, seed=seed, options=dict(options)), ()

    def restore(self, snapshot: dict[str, Any]) -> State:
        """Continue a saved game, its staged turn included."""
        return rummikub.restore(snapshot)

    def timeout_action(self, state: State, seat: int) -> Action:
        """Rule 12: staged changes undone, 3 tiles drawn if there were any, else 1."""
        return TimeOut()

    def choose(self, view: RummikubView, level: Level, rng: random.Random | None) -> Action:
        """The solver's play (``rules/rummikub/ai.py``); a draw when there is none."""
        return choose_action(view, level, rng)

    def computer_seconds(self, level: Level) -> float | None:
        """At every level the solver runs off the event loop, at most this long."""
        return HARD_SECONDS

    def private_step(self, events: Sequence[Event]) -> bool:
        """A staging step (no event): saved, answered privately, never announced."""
        return not events

    def edit_text(self, view: RummikubView, locale: str) -> str | None:
        """The Arrange box's text: the staged table, one set per line."""
        return arrange_text(view)

    def parse(self, verb: str, arg: str | None) -> Action:
        """The move a command, button or the Arrange box names."""
        text = (arg or "").strip()
        if verb == "put" and text:
            return PutSet(tuple(_tiles(text)))
        if verb in ("add", "move") and text:
            where, _, tiles = text.partition(" ")
            target = None if where.strip().casefold() in _NEW_WORDS else _number(where)
            return Gather(parse_gather(tiles), target)
        if verb == "split" and text:
            where, _, at = text.partition(" ")
            return SplitSet(_number(where), _number(at, "no_place"))
        if verb == ARRANGE and arg is not None:
            return Stage(parse_table(arg))
        if not text:
            simple: dict[str, Action] = {
                "undo": Back(),
                "reset": Undo(),
                "done": Done(),
                "draw": Draw(),
            }
            if verb in simple:
                return simple[verb]
        raise IllegalAction("That is not a Rummikub move.", code="not_a_rummikub_move")

    def table(
        self, view: RummikubView, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Rendered:
        """The public table: the move in words above the coloured sets, rack counts, who has
        melded, the pool and the turn; Hand while the game runs, Deal again at the end."""
        log = render.event_lines(events, names, locale)
        body = render.table_body(view, names, locale)
        controls: tuple[Control, ...] = (Control("hand", "button.hand", "primary"),)
        if view.result is not None or any(isinstance(e, GameOver) for e in events):
            body += "\n\n" + "\n".join(render.result_lines(view, names, locale))
            controls = (Control("again", "button.again", "success"),)
        return Rendered(tuple(escape_log(log)), body, "ansi", controls)

    def hand(self, view: RummikubView, names: Sequence[str], locale: str) -> Rendered:
        """The turn view: the staged table (rack tiles marked ``+``), what is still wrong for
        Done, the rack sorted; Done, Undo, Reset, Arrange and Draw on the member's turn."""
        lines = [t("hand.title", locale)]
        controls: tuple[Control, ...] = ()
        mover = view.current_seat
        if mover is None:
            lines.append(t("rummikub.hand.over", locale))
        elif mover != view.seat:
            lines.append(t("rummikub.hand.waiting", locale, name=names[mover]))
        else:
            lines.append(t("rummikub.hand.your_turn", locale))
            problems = render.problem_lines(view, locale)
            if view.staged is None:
                lines.append(t("rummikub.hand.nothing_staged", locale))
            elif problems:
                lines.append(t("rummikub.hand.not_yet", locale))
                lines += [f"- {p}" for p in render.first_problems(problems, locale)]
            else:
                lines.append(t("rummikub.hand.ready", locale))
            controls = _TURN_CONTROLS
        return Rendered(
            tuple(escape_log(lines)),
            "\n".join(render.hand_lines(view, locale)),
            "ansi",
            controls,
        )

    def private(
        self, view: RummikubView, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Rendered | None:
        """After a staging step, the preview; after a commit or a draw, nothing."""
        if events or view.current_seat != view.seat:
            return None
        return self.hand(view, names, locale)

    def picked(
        self,
        view: RummikubView,
        step: str | None,
        value: str,
        locale: str,
        names: Sequence[str] = (),
    ) -> Any:
        """No menus: a pick is passed on as a set to put down."""
        return ("put", value)

    def suggest(self, view: RummikubView, option: str, typed: str, locale: str) -> list[Option]:
        """``/rummikub put tiles``: valid sets from the rack (best first: most tiles, then
        value), those starting with what was typed first."""
        if view.current_seat != view.seat or view.seat is None:
            return []
        rack = view.staged_rack if view.staged_rack is not None else view.rack
        found = _rack_sets(rack)
        prefix = typed.strip().upper()
        found.sort(
            key=lambda s: (
                not render.tiles_plain(s).startswith(prefix),
                -len(s),
                -check_set(s).value,
            )
        )
        return [
            Option(
                t(
                    "rummikub.suggest",
                    locale,
                    tiles=render.tiles_plain(s),
                    value=check_set(s).value,
                ),
                render.tiles_plain(s),
            )
            for s in found[:25]
        ]


def _rack_sets(rack: Sequence[Tile]) -> list[tuple[Tile, ...]]:
    """Every distinct valid set made of rack tiles only (runs and groups, jokers included)."""
    sets: set[tuple[Tile, ...]] = set()
    best = solve(rack, (), objective="tiles")
    for found in best.table:
        sets.add(tuple(found))
    reals = sorted({t for t in rack if not t.is_joker})
    jokers = sum(1 for t in rack if t.is_joker)
    by_colour: dict[Any, list[Tile]] = {}
    for tile in reals:
        by_colour.setdefault(tile.colour, []).append(tile)
    for colour in by_colour.values():
        for start in range(len(colour)):
            for end in range(start + 1, len(colour) + 1):
                candidate = tuple(colour[start:end])
                for extra in range(min(jokers, 2) + 1):
                    full = candidate + (JOKER,) * extra
                    if len(full) >= 3 and check_set(full).valid:
                        sets.add(tuple(check_set(full).tiles))
    by_number: dict[int, list[Tile]] = {}
    for tile in reals:
        by_number.setdefault(tile.number, []).append(tile)
    for same in by_number.values():
        for extra in range(min(jokers, 2) + 1):
            full = tuple(same) + (JOKER,) * extra
            if 3 <= len(full) <= 4 and check_set(full).valid:
                sets.add(tuple(check_set(full).tiles))
            if len(same) == 4 and extra == 0:
                for skip in range(4):
                    three = tuple(tile for i, tile in enumerate(same) if i != skip)
                    sets.add(three)
    return list(sets)


ADAPTER = RummikubAdapter()
