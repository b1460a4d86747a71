"""The Rummikub turn machine (rules 2 and 7-14).

A turn is staged: the player edits a private copy of the table with small operations
(:class:`PutSet`, :class:`AddTiles`, :class:`MoveTiles`, :class:`SplitSet`), can :class:`Undo`
them, and commits with :class:`Done`; :class:`Meld` replaces the staged table at once (what
the computer player and the solver hint use). :class:`Draw` ends the turn instead (a pass
when the pool is empty); :class:`TimeOut` is what the bot applies when the turn clock runs out.
Set numbers in actions are 0-based positions in the staged table (the bot shows them from 1).

Decision (rule 14 leaves ties open): when the game ends blocked and several racks tie for the
lowest total, they all win and share what the others pay (each other player pays their total
minus the lowest) evenly; a point that does not divide goes to the first tied winners in seat
order, one each. So the scores always sum to zero: racks 10, 10 and 43 score 17, 16, -33.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from rules.engine import (
    Action,
    Event,
    GameOver,
    IllegalAction,
    Outcome,
    Result,
    SnapshotError,
    check_snapshot,
    result_data,
    result_from_data,
)
from rules.rng import GameRandom
from rules.rummikub.events import (
    AddTiles,
    Back,
    Done,
    Draw,
    Gather,
    Left,
    Meld,
    MoveTiles,
    Passed,
    PutSet,
    Sets,
    SplitSet,
    Stage,
    TableChanged,
    TilesDrawn,
    TimedOut,
    TimeOut,
    Undo,
)
from rules.rummikub.sets import check_set
from rules.rummikub.tiles import FULL_SET, Tile, parse_tile, tiles_text

__all__ = [
    "HAND_SIZE",
    "INITIAL_MELD",
    "TIMEOUT_PENALTY",
    "RummikubView",
    "State",
    "new",
    "rack_value",
    "restore",
]

GAME = "rummikub"
SCHEMA = 1
HAND_SIZE = 14
INITIAL_MELD = 30
TIMEOUT_PENALTY = 3  # tiles drawn when the clock runs out on staged changes (rule 12)
MIN_PLAYERS, MAX_PLAYERS = 2, 4

Staging = tuple[list[list[Tile]], list[bool], list[Tile]]


# ---------------------------------------------------------------- view


@dataclass(frozen=True, slots=True)
class RummikubView:
    """What ``seat`` may see. ``rack`` is empty for spectators and others' turns never show.

    ``staged`` is the seat's own staged table while it is their turn (else ``None``), with
    ``problems``: what is still wrong with it, one line per set. ``hints``: whether the table
    was dealt with hints on (rule 16), which every player may know.
    """

    seat: int | None
    players: int
    current_seat: int | None
    table: Sets
    rack: tuple[Tile, ...]
    rack_counts: tuple[int, ...]
    pool: int
    melded: tuple[bool, ...]
    staged: Sets | None
    staged_rack: tuple[Tile, ...] | None
    problems: tuple[str, ...]
    result: Result | None
    hints: bool = False


def rack_value(tiles: Iterable[Tile]) -> int:
    """What a rack costs at the end (rule 13: a joker counts 30)."""
    return sum(t.penalty for t in tiles)


def _remove(rack: list[Tile], tiles: Sequence[Tile], source: int | None) -> list[Tile]:
    """``rack`` (a set's tiles when ``source`` is its index) without ``tiles``; refuse naming
    every tile that is not there."""
    rest = list(rack)
    missing = []
    for tile in tiles:
        try:
            rest.remove(tile)
        except ValueError:
            missing.append(tile)
    if missing:
        named = tiles_text(sorted(missing))
        if source is None:
            raise IllegalAction(
                f"Your rack has no {named} to use.", code="tile_missing", tile=named
            )
        raise IllegalAction(
            f"Set {source + 1} has no {named} to use.",
            code="set_tile_missing",
            tile=named,
            set=source + 1,
        )
    return rest


def _require_tiles(tiles: Sequence[object]) -> None:
    """Refuse an operation that names no tiles (it would stage a change that is none)."""
    if not tiles:
        raise IllegalAction("Name the tiles to use.", code="no_tiles")


def _reading_order(tiles: Sequence[Tile]) -> list[Tile]:
    """A set as a player reads it (rule 15: splits go by what they see).

    A valid set: runs by number with jokers where they stand, groups by colour with the
    jokers last. A set still being built: by colour, then number, jokers last.
    """
    return list(check_set(tiles).tiles)


def _same_set(index: int, tiles: Sequence[Tile]) -> NoReturn:
    """Refuse moving ``tiles`` of set ``index`` into that same set, naming them."""
    named = tiles_text(tiles)
    raise IllegalAction(
        f"{named} is in set {index + 1} already: move tiles to another set.",
        code="same_set",
        tiles=named,
        set=index + 1,
    )


def _changed_before_meld(tiles: Sequence[Tile]) -> NoReturn:
    """Refuse a change to a set of the table before the seat's initial meld, naming it."""
    named = tiles_text(tiles)
    raise IllegalAction(
        f"Before your initial meld you may only put down new sets from your rack: {named} "
        "stays as it is.",
        code="initial_meld_table",
        tiles=named,
    )


def _describe(index: int, tiles: Sequence[Tile]) -> str:
    return f"set {index + 1} ({tiles_text(tiles)})"


class State:
    """A game of Rummikub."""

    __slots__ = (
        "_fresh",
        "_history",
        "_idle",
        "_log",
        "_result",
        "_rng",
        "_staged",
        "_staged_rack",
        "hints",
        "left_with",
        "melded",
        "out",
        "players",
        "pool",
        "racks",
        "table",
        "turn",
    )

    def __init__(self, players: int, rng: GameRandom, *, hints: bool = False) -> None:
        self.players = players
        self._rng = rng
        self.hints = hints  # rule 16's hint may be asked for (a table option, off by default)
        self.racks: list[list[Tile]] = [[] for _ in range(players)]
        self.pool: list[Tile] = []
        self.table: list[tuple[Tile, ...]] = []
        self.melded = [False] * players
        self.out = [False] * players  # seats that left the game (their racks went back)
        self.left_with = [0] * players  # what a seat's rack was worth when it left: its debt
        self.turn = 0
        self._idle = 0  # turns passed in a row with an empty pool (rule 14)
        self._staged: list[list[Tile]] | None = None
        self._fresh: list[bool] = []  # which staged sets were made this turn
        self._staged_rack: list[Tile] = []
        # The staging before each step of this turn, for Back (None: nothing was staged).
        self._history: list[Staging | None] = []
        self._result: Result | None = None
        self._log: list[list[Any]] = []

    # ------------------------------------------------------------ contract

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        return None if self._result is not None else self.turn

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._result is not None

    @property
    def result(self) -> Result | None:
        """The result once the game is over."""
        return self._result

    @property
    def staging(self) -> bool:
        """Whether the current player has staged changes."""
        return self._staged is not None

    def legal_actions(self, seat: int) -> list[Action]:
        """The turn-level choices of ``seat``: draw (or pass), and undo/commit when staged.

        Table edits are open-ended and not listed; :func:`rules.rummikub.ai.choose_action`
        finds the best :class:`Meld`.
        """
        if self._result is not None or seat != self.turn:
            return []
        actions: list[Action] = [Draw()]
        if self._staged is not None:
            actions.append(Undo())
            try:
                self._verify_commit(self._staged, self._fresh, self._staged_rack)
            except IllegalAction:
                pass
            else:
                actions.append(Done())
        return actions

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Verify, then apply; raise :class:`IllegalAction` and change nothing if refused."""
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if not 0 <= seat < self.players:
            raise IllegalAction("There is no such seat.", code="no_seat")
        if seat != self.turn:
            raise IllegalAction("It is not your turn.", code="not_your_turn")
        events = self._apply(seat, action)
        self._log.append([seat, _encode(action)])
        return events

    def view(self, seat: int | None) -> RummikubView:
        """What ``seat`` may see (``None``: a spectator)."""
        own = seat is not None and 0 <= seat < self.players
        mine = own and seat == self.turn and self._staged is not None and self._result is None
        staged = tuple(tuple(s) for s in self._staged) if mine and self._staged else None
        return RummikubView(
            seat=seat,
            players=self.players,
            current_seat=self.current_seat,
            table=tuple(self.table),
            rack=tuple(self.racks[seat]) if own and seat is not None else (),
            rack_counts=tuple(len(r) for r in self.racks),
            pool=len(self.pool),
            melded=tuple(self.melded),
            staged=staged,
            staged_rack=tuple(self._staged_rack) if mine else None,
            problems=self.problems() if mine else (),
            result=self._result,
            hints=self.hints,
        )

    def snapshot(self) -> dict[str, Any]:
        """A JSON-safe dict that :func:`restore` turns back into this state."""

        def codes(tiles: Iterable[Tile]) -> list[str]:
            return [t.code for t in tiles]

        return {
            "game": GAME,
            "schema": SCHEMA,
            "players": self.players,
            "hints": self.hints,
            "rng": self._rng.getstate(),
            "racks": [codes(r) for r in self.racks],
            "pool": codes(self.pool),
            "table": [codes(s) for s in self.table],
            "melded": list(self.melded),
            "out": list(self.out),
            "left_with": list(self.left_with),
            "turn": self.turn,
            "idle": self._idle,
            "staged": None if self._staged is None else [codes(s) for s in self._staged],
            "fresh": list(self._fresh),
            "staged_rack": codes(self._staged_rack),
            "history": [
                None
                if step is None
                else {
                    "staged": [codes(x) for x in step[0]],
                    "fresh": list(step[1]),
                    "rack": codes(step[2]),
                }
                for step in self._history
            ],
            "result": result_data(self._result),
            "log": [list(entry) for entry in self._log],
        }

    # ------------------------------------------------------------ staging

    def problems(self) -> tuple[str, ...]:
        """What keeps the staged table from being committed, one line each (rule 15)."""
        if self._staged is None:
            return ()
        try:
            self._verify_commit(self._staged, self._fresh, self._staged_rack)
        except IllegalAction as exc:
            return tuple(exc.reason.split("\n"))
        return ()

    def _begin(self, seat: int) -> tuple[list[list[Tile]], list[bool], list[Tile]]:
        """Copies of the staged table, its fresh flags and rack, to edit before committing."""
        if self._staged is None:
            return [list(s) for s in self.table], [False] * len(self.table), list(self.racks[seat])
        return [list(s) for s in self._staged], list(self._fresh), list(self._staged_rack)

    def _touch(self, sets: list[list[Tile]], fresh: list[bool], index: int, melded: bool) -> None:
        if not 0 <= index < len(sets):
            raise IllegalAction(f"There is no set {index + 1}.", code="no_set", set=index + 1)
        if not melded and not fresh[index]:
            _changed_before_meld(sets[index])

    def _saved(self) -> Staging | None:
        """The staging as it is now, for :class:`Back`."""
        if self._staged is None:
            return None
        return [list(s) for s in self._staged], list(self._fresh), list(self._staged_rack)

    def _gather(
        self, seat: int, action: Gather, sets: list[list[Tile]], fresh: list[bool], rack: list[Tile]
    ) -> list[Tile]:
        """:class:`Gather` on copies: the rack left; set numbers are those before the step."""
        melded = self.melded[seat]
        _require_tiles(action.tiles)
        if action.target is not None:
            self._touch(sets, fresh, action.target, melded)
        from_sets: dict[int, list[Tile]] = {}
        for source, tile in action.tiles:
            if source is not None:
                self._touch(sets, fresh, source, melded)
                if source == action.target:
                    _same_set(source, [t for s, t in action.tiles if s == source])
                from_sets.setdefault(source, []).append(tile)
        # Every tile that is not there is named at once, the rack's first.
        rack = _remove(rack, [tile for source, tile in action.tiles if source is None], None)
        for source, tiles in from_sets.items():
            sets[source] = _remove(sets[source], tiles, source)
            if action.target is not None:
                fresh[action.target] = fresh[action.target] or fresh[source]
        moved = [tile for _, tile in action.tiles]
        if action.target is None:
            sets.append(moved)
            fresh.append(True)
        else:
            sets[action.target].extend(moved)
        return rack

    def _apply(self, seat: int, action: Action) -> list[Event]:
        melded = self.melded[seat]
        if isinstance(action, Stage):
            before = self._saved()
            sets, fresh, rack = self._meld_plan(seat, action.table)
            self._staged = [_reading_order(s) for s in sets if s]
            self._fresh = [f for s, f in zip(sets, fresh, strict=True) if s]
            self._staged_rack = rack
            self._history.append(before)
            return []
        if isinstance(action, Back):
            if not self._history:
                raise IllegalAction("There is nothing to undo.", code="nothing_staged")
            step = self._history.pop()
            if step is None:
                self._clear_staging()
            else:
                self._staged, self._fresh, self._staged_rack = step
            return []
        if isinstance(action, PutSet | AddTiles | MoveTiles | SplitSet | Gather):
            before = self._saved()
            sets, fresh, rack = self._begin(seat)
            if isinstance(action, Gather):
                rack = self._gather(seat, action, sets, fresh, rack)
            elif isinstance(action, PutSet):
                _require_tiles(action.tiles)
                rack = _remove(rack, action.tiles, None)
                sets.append(list(action.tiles))
                fresh.append(True)
            elif isinstance(action, AddTiles):
                self._touch(sets, fresh, action.target, melded)
                _require_tiles(action.tiles)
                rack = _remove(rack, action.tiles, None)
                sets[action.target].extend(action.tiles)
            elif isinstance(action, MoveTiles):
                self._touch(sets, fresh, action.source, melded)
                if action.target is not None:
                    self._touch(sets, fresh, action.target, melded)
                    if action.target == action.source:
                        _same_set(action.source, action.tiles)
                _require_tiles(action.tiles)
                sets[action.source] = _remove(sets[action.source], action.tiles, action.source)
                if action.target is None:
                    sets.append(list(action.tiles))
                    fresh.append(True)
                else:
                    sets[action.target].extend(action.tiles)
                    fresh[action.target] = fresh[action.target] or fresh[action.source]
            else:
                self._touch(sets, fresh, action.target, melded)
                tiles = sets[action.target]
                if not 1 <= action.at < len(tiles):
                    named = tiles_text(tiles)
                    raise IllegalAction(
                        f"Set {action.target + 1} ({named}) can be split before tiles 2 to "
                        f"{len(tiles)}.",
                        code="bad_split",
                        set=action.target + 1,
                        tiles=named,
                    )
                sets[action.target : action.target + 1] = [tiles[: action.at], tiles[action.at :]]
                fresh.insert(action.target + 1, fresh[action.target])
            keep = [i for i, s in enumerate(sets) if s]
            self._staged = [_reading_order(sets[i]) for i in keep]
            self._fresh = [fresh[i] for i in keep]
            self._staged_rack = rack
            self._history.append(before)
            return []
        if isinstance(action, Undo):
            if self._staged is None:
                raise IllegalAction("There is nothing to undo.", code="nothing_staged")
            self._clear_staging()
            return []
        if isinstance(action, Done):
            if self._staged is None:
                raise IllegalAction(
                    "Change the table first, or draw a tile.", code="nothing_staged"
                )
            played = self._verify_commit(self._staged, self._fresh, self._staged_rack)
            return self._commit(seat, self._staged, self._staged_rack, played)
        if isinstance(action, Meld):
            sets, fresh, rack = self._meld_plan(seat, action.table)
            played = self._verify_commit(sets, fresh, rack)
            return self._commit(seat, sets, rack, played)
        if isinstance(action, Draw):
            self._clear_staging()
            return self._draw(seat, 1)
        if isinstance(action, TimeOut):
            count = TIMEOUT_PENALTY if self._staged is not None else 1
            self._clear_staging()
            drawn = min(count, len(self.pool))
            events: list[Event] = [TimedOut(seat, drawn)]
            events.extend(self._draw(seat, count, announce=False))
            return events
        raise IllegalAction("That is not a Rummikub move.", code="unknown_action")

    def _meld_plan(self, seat: int, table: Sets) -> tuple[list[list[Tile]], list[bool], list[Tile]]:
        """Check a whole new table against the committed one; staged form for the commit."""
        old = Counter(t for s in self.table for t in s)
        new_tiles = Counter(t for s in table for t in s)
        if old - new_tiles:
            missing = tiles_text(sorted((old - new_tiles).elements()))
            raise IllegalAction(
                f"Tiles on the table must stay there: {missing} would be gone.",
                code="table_tile_missing",
                tiles=missing,
            )
        rack = _remove(self.racks[seat], sorted((new_tiles - old).elements()), None)
        sets = [list(s) for s in table]
        if self.melded[seat]:
            return sets, [True] * len(sets), rack
        # Before the initial meld the old sets must stand exactly as they were.
        unmatched = Counter(tuple(sorted(s)) for s in self.table)
        fresh = []
        for s in sets:
            key = tuple(sorted(s))
            if unmatched[key]:
                unmatched[key] -= 1
                fresh.append(False)
            else:
                fresh.append(True)
        if +unmatched:
            changed = next(s for s in self.table if unmatched[tuple(sorted(s))])
            _changed_before_meld(changed)
        return sets, fresh, rack

    def _verify_commit(
        self, sets: Sequence[Sequence[Tile]], fresh: Sequence[bool], rack: Sequence[Tile]
    ) -> tuple[Tile, ...]:
        """Rules 8, 9 and 11: raise with every reason; the rack tiles played when all is well."""
        seat = self.turn
        reasons = []
        wrong = []
        for i, tiles in enumerate(sets):
            check = check_set(tiles)
            if not check.valid:
                reasons.append(f"{_describe(i, tiles)}: {check.reason}")
                wrong.append(str(i + 1))
        if reasons:
            raise IllegalAction(
                "\n".join(reasons),
                code="invalid_sets",
                count=len(reasons),
                sets=", ".join(wrong),
                first=wrong[0],
                why="\n".join(reasons),
            )
        played = Counter(self.racks[seat]) - Counter(rack)
        if not played:
            raise IllegalAction(
                "Add at least one tile from your rack, or draw.", code="no_rack_tile"
            )
        if not self.melded[seat]:
            value = sum(check_set(s).value for s, new in zip(sets, fresh, strict=True) if new)
            if value < INITIAL_MELD:
                named = tiles_text(sorted(played.elements()))
                raise IllegalAction(
                    f"The initial meld must be worth {INITIAL_MELD}; yours ({named}) is {value}.",
                    code="initial_meld_value",
                    value=value,
                    tiles=named,
                )
        return tuple(sorted(played.elements()))

    def _commit(
        self,
        seat: int,
        sets: Sequence[Sequence[Tile]],
        rack: Sequence[Tile],
        played: tuple[Tile, ...],
    ) -> list[Event]:
        before = sum(check_set(s).value for s in self.table)
        self.table = [tuple(_reading_order(s)) for s in sets]
        self.racks[seat] = list(rack)
        self.melded[seat] = True
        self._idle = 0
        self._clear_staging()
        after = sum(check_set(s).value for s in self.table)
        events: list[Event] = [TableChanged(seat, played, tuple(self.table), after - before)]
        if not rack:
            events.append(self._finish_out(seat))
        else:
            self._next()
        return events

    def _draw(self, seat: int, count: int, *, announce: bool = True) -> list[Event]:
        events: list[Event] = []
        if not self.pool:
            self._idle += 1
            if announce:
                events.append(Passed(seat))
            if self._idle >= self.players - sum(self.out):
                events.append(self._finish_blocked())
                return events
        else:
            drawn = self.pool[-count:]
            del self.pool[-count:]
            self.racks[seat].extend(reversed(drawn))
            if announce:
                events.append(TilesDrawn(seat, len(drawn)))
        self._next()
        return events

    def _next(self) -> None:
        for _ in range(self.players):
            self.turn = (self.turn + 1) % self.players
            if not self.out[self.turn]:
                return

    def forfeit(self, seat: int) -> list[Event]:
        """``seat`` leaves the game: its rack goes back into the pool (shuffled in), its turns
        are skipped, and it owes what that rack was worth at the end, as a rack left over
        does by rule 13; a seat that left always loses and ranks last. When one seat is
        left, it wins as if it went out (rule 13): the leavers' debts are its score."""
        if self._result is not None:
            raise IllegalAction("The game is over.", code="game_over")
        if not 0 <= seat < self.players or self.out[seat]:
            raise IllegalAction("There is no such seat.", code="no_seat")
        if seat == self.turn:
            self._clear_staging()
        self.left_with[seat] = rack_value(self.racks[seat])
        left: list[Event] = [Left(seat, len(self.racks[seat]))]
        if self.racks[seat]:
            self._idle = 0  # the pool has tiles again: rule 14's round of passes starts over
        self.pool.extend(self.racks[seat])
        self.racks[seat] = []
        self._rng.shuffle(self.pool)
        self.out[seat] = True
        self._log.append([seat, {"a": "Forfeit"}])
        staying = [s for s in range(self.players) if not self.out[s]]
        if len(staying) == 1:
            return [*left, self._finish_out(staying[0])]
        if seat == self.turn:
            self._next()
        return left

    def _clear_staging(self) -> None:
        self._staged = None
        self._fresh = []
        self._staged_rack = []
        self._history = []

    # ------------------------------------------------------------ end

    def _values(self) -> list[int]:
        """Each seat's rack value at the end; a seat that left owes its rack's value then."""
        return [
            self.left_with[s] if self.out[s] else rack_value(self.racks[s])
            for s in range(self.players)
        ]

    def _finish_out(self, winner: int) -> GameOver:
        """Rule 13: the others pay their rack values to the winner."""
        values = self._values()
        scores = [-v for v in values]
        scores[winner] = sum(values) - values[winner]
        return self._end(scores, values, {winner})

    def _finish_blocked(self) -> GameOver:
        """Rule 14: the lowest rack still playing wins; the others pay the difference (ties:
        see module), a seat that left its whole debt."""
        values = self._values()
        low = min(v for s, v in enumerate(values) if not self.out[s])
        winners = [s for s, v in enumerate(values) if v == low and not self.out[s]]
        debts = [v if self.out[s] else v - low for s, v in enumerate(values)]
        scores = [-debt for debt in debts]
        share, odd = divmod(sum(debts), len(winners))
        for place, s in enumerate(winners):
            scores[s] = share + (1 if place < odd else 0)
        return self._end(scores, values, set(winners))

    def _end(self, scores: list[int], values: list[int], winners: set[int]) -> GameOver:
        # Winners first, then the lower racks; seats that left last of all.
        ranking = tuple(
            sorted(
                range(self.players),
                key=lambda s: (s not in winners, self.out[s], values[s], s),
            )
        )
        outcomes = tuple(Outcome.WIN if s in winners else Outcome.LOSE for s in range(self.players))
        self._result = Result(outcomes, tuple(scores), ranking)
        return GameOver(self._result)


# ---------------------------------------------------------------- encoding


def _tiles(codes: Iterable[str]) -> tuple[Tile, ...]:
    return tuple(parse_tile(c) for c in codes)


def _encode(action: Action) -> dict[str, Any]:
    """An action as JSON, for the log."""
    name = type(action).__name__
    if isinstance(action, PutSet):
        return {"a": name, "tiles": [t.code for t in action.tiles]}
    if isinstance(action, AddTiles):
        return {"a": name, "target": action.target, "tiles": [t.code for t in action.tiles]}
    if isinstance(action, MoveTiles):
        return {
            "a": name,
            "source": action.source,
            "target": action.target,
            "tiles": [t.code for t in action.tiles],
        }
    if isinstance(action, SplitSet):
        return {"a": name, "target": action.target, "at": action.at}
    if isinstance(action, Meld | Stage):
        return {"a": name, "table": [[t.code for t in s] for s in action.table]}
    if isinstance(action, Gather):
        return {
            "a": name,
            "target": action.target,
            "tiles": [[source, tile.code] for source, tile in action.tiles],
        }
    return {"a": name}


def decode_action(data: dict[str, Any]) -> Action:
    """The action :func:`_encode` wrote."""
    name = data["a"]
    if name == "PutSet":
        return PutSet(_tiles(data["tiles"]))
    if name == "AddTiles":
        return AddTiles(int(data["target"]), _tiles(data["tiles"]))
    if name == "MoveTiles":
        target = data["target"]
        return MoveTiles(int(data["source"]), _tiles(data["tiles"]), target)
    if name == "SplitSet":
        return SplitSet(int(data["target"]), int(data["at"]))
    if name == "Meld":
        return Meld(tuple(_tiles(s) for s in data["table"]))
    if name == "Stage":
        return Stage(tuple(_tiles(s) for s in data["table"]))
    if name == "Gather":
        moved = tuple(
            (None if source is None else int(source), parse_tile(code))
            for source, code in data["tiles"]
        )
        return Gather(moved, data["target"])
    simple: dict[str, type[Action]] = {
        "Back": Back,
        "Undo": Undo,
        "Done": Done,
        "Draw": Draw,
        "TimeOut": TimeOut,
    }
    if name not in simple:
        raise SnapshotError(f"unknown rummikub action {name!r}")
    return simple[name]()


# ---------------------------------------------------------------- construction


OPTIONS = ("hints",)


def _options(options: object) -> dict[str, Any]:
    """The table's options: ``hints`` (rule 16, off unless asked for); anything else refused."""
    if options is None:
        return {"hints": False}
    if not isinstance(options, Mapping):
        raise ValueError("Rummikub's options are a mapping")
    unknown = sorted(str(key) for key in options if key not in OPTIONS)
    if unknown:
        raise ValueError(f"unknown Rummikub option {unknown[0]!r} (known: hints)")
    hints = options.get("hints", False)
    if not isinstance(hints, bool):
        raise ValueError("Rummikub's hints option is true or false")
    return {"hints": hints}


def new(players: int, *, seed: int | None = None, options: object = None) -> State:
    """Deal a game (rule 2): 14 tiles each, a random first player, the rest face down.
    ``options``: ``hints`` (whether rule 16's hint may be asked for; off by default)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(
            f"Rummikub is for between {MIN_PLAYERS} and {MAX_PLAYERS} players.",
            code="players",
        )
    chosen = _options(options)
    rng = GameRandom(seed)
    state = State(players, rng, hints=chosen["hints"])
    pool = list(FULL_SET)
    rng.shuffle(pool)
    for seat in range(players):
        state.racks[seat] = pool[:HAND_SIZE]
        del pool[:HAND_SIZE]
    state.pool = pool
    state.turn = rng.randbelow(players)
    return state


def restore(snapshot: dict[str, Any]) -> State:
    """The state a :meth:`State.snapshot` describes."""
    check_snapshot(snapshot, GAME, SCHEMA)
    try:
        state = State(
            int(snapshot["players"]),
            GameRandom.from_state(snapshot["rng"]),
            hints=bool(snapshot.get("hints", False)),  # saved before hints were an option
        )
        state.racks = [list(_tiles(r)) for r in snapshot["racks"]]
        state.pool = list(_tiles(snapshot["pool"]))
        state.table = [_tiles(s) for s in snapshot["table"]]
        state.melded = [bool(m) for m in snapshot["melded"]]
        state.out = [bool(o) for o in snapshot.get("out", [False] * state.players)]
        state.left_with = [int(v) for v in snapshot.get("left_with", [0] * state.players)]
        state.turn = int(snapshot["turn"])
        state._idle = int(snapshot["idle"])
        staged = snapshot["staged"]
        if staged is not None:
            state._staged = [list(_tiles(s)) for s in staged]
            state._fresh = [bool(f) for f in snapshot["fresh"]]
            state._staged_rack = list(_tiles(snapshot["staged_rack"]))
        state._history = [
            None
            if step is None
            else (
                [list(_tiles(x)) for x in step["staged"]],
                [bool(f) for f in step["fresh"]],
                list(_tiles(step["rack"])),
            )
            for step in snapshot.get("history", [])
        ]
        state._result = result_from_data(snapshot["result"])
        state._log = [list(entry) for entry in snapshot["log"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"damaged rummikub snapshot: {exc}") from exc
    if sum(len(r) for r in state.racks) + len(state.pool) + sum(len(s) for s in state.table) != len(
        FULL_SET
    ):
        raise SnapshotError("damaged rummikub snapshot: tiles are not all there")
    return state
