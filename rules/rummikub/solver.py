"""The exact Rummikub solver (rule 17): the play that puts down the most tiles.

Method: a dynamic programme over the numbers 1 -> 13 in the manner of van Rijn, Takes and Vis
("The complexity of Rummikub problems", 2015), stepping one (number, colour) cell at a time.
A state packs into one int:

* per colour, the multiset of the lengths of its open runs, each capped at 3 ("3 or more",
  which may close). Two copies of a tile allow two runs; a joker may stand for a third or
  fourth copy, so up to four runs are kept and no layout with jokers is out of reach;
* how many jokers are placed so far (a joker is just one more tile of whatever cell needs it);
* for the number in progress, how many real tiles wait to form groups and the most of any one
  colour among them (they split into groups of 3-4 distinct colours at the end of the number,
  with jokers filling up);
* for an initial meld, the points still missing to reach 30.

Paths that reach the same state continue identically, so each state keeps only its best score
(rack tiles first, then value, or the other way round). Every table tile must be used, rack
tiles are optional. A run shorter than 3 that cannot get its missing tiles from the next
numbers is cut at once, a joker never stands where a rack tile of the same cell stays
unused, and a tile never closes a run of 3 or more only to start a new run (continuing it
can do all that and more; see ``_options``). The best final state is walked back and the
sets laid out.

Jokers multiply the states: each may fill a gap or an end anywhere, in any colour. So the
programme runs as a branch and bound (``_search``): a path whose score plus the most the
remaining cells could add (every rack tile that could be in some set at all, each joker
left as a 13) cannot reach a floor is dropped. The first floor is the best conceivable play,
which on a crowded table is usually the answer; when nothing reaches a floor the next is
the best the dropped paths could have reached. Dropping only what cannot win keeps it exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Literal

from rules.rummikub.sets import table_value
from rules.rummikub.tiles import COLOURS, JOKER, JOKER_COUNT, Tile

__all__ = ["INITIAL_MELD", "Solution", "solve"]

INITIAL_MELD = 30
MAX_RUNS = 4  # two copies plus two jokers standing for more copies of one tile

# Multisets of open-run lengths (1, 2, 3 = "3 or more"), at most MAX_RUNS of them.
_MULTISETS: list[tuple[int, ...]] = [
    m for size in range(MAX_RUNS + 1) for m in combinations_with_replacement((1, 2, 3), size)
]
_MS_INDEX = {m: i for i, m in enumerate(_MULTISETS)}
_CLOSED = frozenset(i for i, m in enumerate(_MULTISETS) if all(x == 3 for x in m))

# Bit layout of a state: 6 bits per colour, then jokers, group waiting, meld points missing.
_BITS = 6
_X_SHIFT = 24
_WAIT_SHIFT = 26  # real tiles waiting for groups at this number (4 bits)
_MOST_SHIFT = 30  # most tiles of one colour among them (2 bits)
_NEED_SHIFT = 32
_LOW_MASK = (1 << _WAIT_SHIFT) - 1  # colours and jokers

# An option for one cell: (new multiset, reals to groups, rack tiles used, jokers into runs,
# cells filled, long runs continued, runs started). A number's close: (waiting, jokers).
_Option = tuple[int, int, int, int, int, int, int]
_Step = tuple[int, ...]
_option_cache: dict[tuple[int, ...], tuple[_Option, ...]] = {}


def _groups_ok(waiting: int, most: int, jokers: int) -> bool:
    """Whether ``waiting`` real tiles (at most ``most`` of a colour) plus jokers make groups."""
    total = waiting + jokers
    return waiting > 0 and any(3 * k <= total <= 4 * k for k in range(max(most, 1), total // 3 + 1))


_GROUPS_OK = {(w, m, j): _groups_ok(w, m, j) for w in range(9) for m in range(3) for j in range(3)}


def _options(  # noqa: PLR0917 - positional for speed in the inner loop
    ms: int,
    table: int,
    rack: int,
    jokers: int,
    groups: bool,
    ahead1: int,
    ahead2: int,
) -> tuple[_Option, ...]:
    """Every way one colour can use its cell at one number.

    ``table``/``rack``: real tiles available; ``jokers``: jokers still free; ``groups``:
    whether a group can form at this number at all; ``ahead1``/``ahead2``: tiles available
    one and two numbers up (-1 past 13).

    A joker never stands in this cell while a rack tile of it stays unused: put the tile
    there instead and the joker is free. It stays on the rack (as good a play) or, when it
    must stay on the table, goes to an end of the same run, worth more (a run of all 13
    splits into 1-6 + joker and 7-13). So no better play is lost.
    """
    key = (ms, table, rack, jokers, groups, ahead1, ahead2)
    cached = _option_cache.get(key)
    if cached is not None:
        return cached
    runs = _MULTISETS[ms]
    short = [x + 1 for x in runs if x < 3]
    longs = len(runs) - len(short)
    seen: set[tuple[int, int, int, int]] = set()
    result: list[_Option] = []
    for used in range(table, table + rack + 1):
        for jok in range(jokers + 1 if used == table + rack else 1):
            for to_groups in range(used + 1 if groups else 1):
                cells = used - to_groups + jok
                extra = cells - len(short)
                if extra < 0:
                    continue
                for cont in range(min(longs, extra) + 1):
                    started = extra - cont
                    if started and cont < longs:
                        continue  # continuing a long run beats closing it to start one
                    if len(short) + cont + started > MAX_RUNS:
                        continue
                    lengths = tuple(
                        sorted([*(min(x, 3) for x in short), *[3] * cont, *[1] * started])
                    )
                    if not _can_continue(lengths, ahead1, ahead2, jokers - jok):
                        continue
                    new_ms = _MS_INDEX[lengths]
                    signature = (new_ms, to_groups, used - table, jok)
                    if signature in seen:
                        continue
                    seen.add(signature)
                    result.append((new_ms, to_groups, used - table, jok, used + jok, cont, started))
    options = tuple(result)
    _option_cache[key] = options
    return options


def _can_continue(lengths: tuple[int, ...], ahead1: int, ahead2: int, jokers: int) -> bool:
    """Whether the runs shorter than 3 can still get their missing tiles."""
    need1 = sum(1 for x in lengths if x < 3)
    if not need1:
        return True
    if ahead1 < 0:
        return False
    need2 = sum(1 for x in lengths if x == 1)
    if need2 and ahead2 < 0:
        return False
    return max(0, need1 - ahead1) + max(0, need2 - max(ahead2, 0)) <= jokers


@dataclass(frozen=True, slots=True)
class Solution:
    """A play: the rack ``tiles`` put down, the ``value`` it adds, the whole ``table`` after."""

    tiles: tuple[Tile, ...]
    value: int
    table: tuple[tuple[Tile, ...], ...]

    @property
    def found(self) -> bool:
        """Whether there is a play at all."""
        return bool(self.tiles)


def solve(
    rack: Iterable[Tile],
    table: Iterable[Iterable[Tile]] = (),
    *,
    initial: bool = False,
    objective: Literal["tiles", "value"] = "tiles",
) -> Solution:
    """The best play for ``rack`` on ``table`` (a list of sets).

    ``objective="tiles"``: most rack tiles, then highest value; ``"value"``: highest value,
    then most tiles. ``initial=True`` (rule 8): new sets from the rack only, worth at least
    30, the table untouched. Exact: no better play exists. When there is no play (or the
    table itself cannot be laid out), ``tiles`` is empty and the table comes back unchanged.
    ``value`` is what the table is worth after the play minus before.
    """
    rack_tiles = list(rack)
    old_sets = tuple(tuple(s) for s in table)
    none = Solution((), 0, old_sets)
    if initial:
        new_sets = _search(Counter(), Counter(rack_tiles), INITIAL_MELD, objective)
        if not new_sets:
            return none
        played = tuple(sorted(t for s in new_sets for t in s))
        return Solution(played, table_value(new_sets), old_sets + tuple(new_sets))
    on_table = Counter(t for s in old_sets for t in s)
    sets = _search(on_table, Counter(rack_tiles), 0, objective)
    if sets is None:
        return none
    played_counts = Counter(t for s in sets for t in s) - on_table
    if not played_counts:
        return none
    value = table_value(sets) - table_value(old_sets)
    return Solution(tuple(sorted(played_counts.elements())), value, tuple(sets))


@dataclass(frozen=True, slots=True)
class _Problem:
    """One search: tiles per (colour, number) cell, jokers, weights and the bounds on gains."""

    avail_t: list[list[int]]  # table tiles per colour and number (numbers 1..13, then 0 pads)
    avail_r: list[list[int]]  # rack tiles that may join them
    reach: list[list[int]]  # both together, -1 past 13
    jokers: int
    table_jokers: int
    need: int
    tile_weight: int
    value_weight: int
    # bound[i]: the most the cells after step i can still add (each close of a number is a
    # step too), jokers aside; points[i]: likewise in meld points.
    bound: list[int]
    points: list[int]

    @property
    def joker_gain(self) -> int:
        """The most one joker can add: a tile standing for a 13."""
        return self.tile_weight + 13 * self.value_weight


def _search(
    table: Counter[Tile], rack: Counter[Tile], need: int, objective: str
) -> list[tuple[Tile, ...]] | None:
    """Run the programme; the best table as sets, or None when no layout uses the table.

    Branch and bound: a path is dropped when its score plus the most the rest of the cells
    could add stays below ``floor``. The first floor is the best conceivable score; when no
    path reaches it, the next floor is the best bound among the paths dropped, a few times,
    and then there is no floor at all. Dense tables usually reach the first or second floor,
    which keeps the paths where jokers stand for low numbers from ever spreading.
    """
    problem = _problem(table, rack, need, objective)
    floor: int | None = problem.bound[0] + problem.jokers * problem.joker_gain
    for _ in range(_FLOORS):
        found, next_floor = _programme(problem, floor)
        if found is not None:
            return found
        if next_floor is None:
            return None  # nothing was dropped: there is no layout at all
        floor = next_floor
    found, _ = _programme(problem, None)
    return found


_FLOORS = 3  # floors tried before the search runs without one


def _problem(table: Counter[Tile], rack: Counter[Tile], need: int, objective: str) -> _Problem:
    avail_t = [[0] * 16 for _ in range(4)]
    avail_r = [[0] * 16 for _ in range(4)]
    for tile, count in table.items():
        if not tile.is_joker:
            avail_t[tile.index // 13][tile.number] = count
    for tile, count in rack.items():
        if not tile.is_joker:
            c, n = tile.index // 13, tile.number
            avail_r[c][n] = max(0, min(count, 2 - avail_t[c][n]))
    table_jokers = table[JOKER]
    jokers = min(JOKER_COUNT, table_jokers + rack[JOKER])
    tile_weight, value_weight = (1024, 1) if objective == "tiles" else (1, 128)
    reach = [
        [avail_t[c][n] + avail_r[c][n] if n <= 13 else -1 for n in range(16)] for c in range(4)
    ]
    # Steps run (number 1, colours 0-3, close), (number 2, ...): 65 in all.
    gains = []
    points = []
    for number in range(1, 14):
        for c in range(4):
            rack_here = avail_r[c][number] if _placeable(reach, c, number, jokers) else 0
            gains.append(
                rack_here * tile_weight + (avail_t[c][number] + rack_here) * number * value_weight
            )
            points.append((avail_t[c][number] + rack_here) * number)
        gains.append(0)
        points.append(0)
    bound = [0] * (len(gains) + 1)
    point_bound = [0] * (len(gains) + 1)
    for i in range(len(gains) - 1, -1, -1):
        bound[i] = bound[i + 1] + gains[i]
        point_bound[i] = point_bound[i + 1] + points[i]
    return _Problem(
        avail_t,
        avail_r,
        reach,
        jokers,
        table_jokers,
        need,
        tile_weight,
        value_weight,
        bound,
        point_bound,
    )


def _placeable(reach: list[list[int]], c: int, number: int, jokers: int) -> bool:
    """Whether a tile could be in any set at all: a run window or a group around it."""
    colours = sum(1 for other in range(4) if reach[other][number] > 0)
    if colours + jokers >= 3:
        return True
    for low in range(max(1, number - 2), min(number, 11) + 1):
        gaps = sum(1 for n in range(low, low + 3) if n != number and reach[c][n] <= 0)
        if gaps <= jokers:
            return True
    return False


def _programme(
    problem: _Problem, floor: int | None
) -> tuple[list[tuple[Tile, ...]] | None, int | None]:
    """One pass of the programme; (the best table, None) or (None, the next floor to try).

    With a ``floor``, paths that cannot reach it are dropped; the best table found then is
    the best of all. Without one nothing is dropped.
    """
    avail_t, avail_r, reach = problem.avail_t, problem.avail_r, problem.reach
    total_jokers = problem.jokers
    tile_weight, value_weight = problem.tile_weight, problem.value_weight
    joker_gain = problem.joker_gain
    bound, points = problem.bound, problem.points
    dropped = -1  # the best bound among the dropped paths

    layer: dict[int, int] = {problem.need << _NEED_SHIFT: 0}
    history: list[dict[int, tuple[int, _Step]]] = []
    step = 0
    for number in range(1, 14):
        reals_here = sum(reach[c][number] for c in range(4))
        groups = reals_here > 0 and reals_here + total_jokers >= 3
        for c in range(4):
            step += 1
            # With ``placed`` jokers down a path can still add headroom[placed]; it is
            # dropped when its score is below limit[placed] (with no floor, never).
            headroom = [bound[step] + (total_jokers - placed) * joker_gain for placed in range(3)]
            limit = [-1 if floor is None else floor - room for room in headroom]
            meld_left = [points[step] + (total_jokers - placed) * 13 for placed in range(3)]
            t, r = avail_t[c][number], avail_r[c][number]
            a1, a2 = reach[c][number + 1], reach[c][number + 2]
            shift = _BITS * c
            clear = ~(63 << shift)
            nxt: dict[int, int] = {}
            back: dict[int, tuple[int, _Step]] = {}
            get = nxt.get
            # Options depend only on this colour's runs and the jokers placed: work each
            # out once per cell as (key delta, score delta, to groups, points, placed, option).
            moves: dict[int, list[tuple[int, int, int, int, int, _Option]]] = {}
            for key, score in layer.items():
                placed = (key >> _X_SHIFT) & 3
                local = (key >> shift) & 63 | placed << 6
                steps = moves.get(local)
                if steps is None:
                    steps = moves[local] = [
                        (
                            (opt[0] << shift) + (opt[3] << _X_SHIFT) + (opt[1] << _WAIT_SHIFT),
                            (opt[2] + opt[3]) * tile_weight + opt[4] * number * value_weight,
                            opt[1],
                            opt[4] * number,
                            placed + opt[3],
                            opt,
                        )
                        for opt in _options(local & 63, t, r, total_jokers - placed, groups, a1, a2)
                    ]
                base = key & clear
                most = (key >> _MOST_SHIFT) & 3
                missing = key >> _NEED_SHIFT
                for delta, gain, to_groups, got, now_placed, opt in steps:
                    new_score = score + gain
                    if new_score < limit[now_placed]:
                        dropped = max(dropped, new_score + headroom[now_placed])
                        continue
                    new_key = base + delta
                    if to_groups > most:
                        new_key += (to_groups - most) << _MOST_SHIFT
                    if missing:
                        left = missing - got
                        if left > meld_left[now_placed]:
                            continue  # the meld can no longer reach 30
                        new_key -= (missing if left < 0 else got) << _NEED_SHIFT
                    if new_score > get(new_key, -1):
                        nxt[new_key] = new_score
                        back[new_key] = (key, opt)
            layer = nxt
            history.append(back)
        # Close the number: the waiting tiles (plus jokers) must split into groups.
        step += 1
        nxt = {}
        back = {}
        for key, score in layer.items():
            waiting = (key >> _WAIT_SHIFT) & 15
            placed = (key >> _X_SHIFT) & 3
            low = key & _LOW_MASK & ~(3 << _X_SHIFT)
            missing = key >> _NEED_SHIFT
            if not waiting:
                new_key = low | (placed << _X_SHIFT) | (missing << _NEED_SHIFT)
                if score > nxt.get(new_key, -1):
                    nxt[new_key] = score
                    back[new_key] = (key, (0, 0))
                continue
            most = (key >> _MOST_SHIFT) & 3
            for extra in range(total_jokers - placed + 1):
                if not _GROUPS_OK[waiting, most, extra]:
                    continue
                gain = extra * number
                new_score = score + extra * (tile_weight + number * value_weight)
                if floor is not None:
                    reach_score = (
                        new_score + bound[step] + (total_jokers - placed - extra) * joker_gain
                    )
                    if reach_score < floor:
                        dropped = max(dropped, reach_score)
                        continue
                new_key = low | ((placed + extra) << _X_SHIFT)
                if missing > gain:
                    new_key |= (missing - gain) << _NEED_SHIFT
                if new_score > nxt.get(new_key, -1):
                    nxt[new_key] = new_score
                    back[new_key] = (key, (waiting, extra))
        layer = nxt
        history.append(back)

    best_key, best_score = -1, -1
    for key, score in layer.items():
        if key >> _NEED_SHIFT or (key >> _X_SHIFT) & 3 < problem.table_jokers:
            continue
        if any((key >> (_BITS * c)) & 63 not in _CLOSED for c in range(4)):
            continue
        if score > best_score:
            best_score, best_key = score, key
    if best_key >= 0 and best_score >= dropped:
        return _replay(history, best_key), None  # nothing dropped could have done better
    # The bound lets a joker still to place add a tile up to the end, so a path may keep
    # above the floor and finish below it; that score is the next floor at the lowest.
    next_floor = max(dropped, best_score)
    return None, next_floor if next_floor >= 0 else None


def _replay(history: list[dict[int, tuple[int, _Step]]], key: int) -> list[tuple[Tile, ...]]:
    """Walk the chosen path back, then lay the sets out forward."""
    steps: list[_Step] = []
    for back in reversed(history):
        key, step = back[key]
        steps.append(step)
    steps.reverse()

    sets: list[tuple[Tile, ...]] = []
    runs: list[list[list[Tile]]] = [[] for _ in range(4)]
    index = 0
    for number in range(1, 14):
        waiting: list[list[Tile]] = []
        for c, colour in enumerate(COLOURS):
            _, to_groups, _, jok, _, cont, started = steps[index]
            index += 1
            tile = Tile.of(colour, number)
            going: list[list[Tile]] = []
            for run in sorted(runs[c], key=len):
                if len(run) < 3:
                    going.append(run)
                elif cont:
                    going.append(run)
                    cont -= 1
                else:
                    sets.append(tuple(run))
            going.extend([] for _ in range(started))
            for i, run in enumerate(going):
                run.append(JOKER if i < jok else tile)
            runs[c] = going
            waiting.append([tile] * to_groups)
        _, extra = steps[index]
        index += 1
        if any(waiting):
            sets.extend(_make_groups(waiting, extra))
    for colour_runs in runs:
        sets.extend(tuple(run) for run in colour_runs)
    return sets


def _make_groups(waiting: Sequence[list[Tile]], jokers: int) -> list[tuple[Tile, ...]]:
    """Split one number's waiting tiles (one per colour per group) and jokers into groups."""
    tiles = [t for per_colour in sorted(waiting, key=len, reverse=True) for t in per_colour]
    total = len(tiles) + jokers
    most = max(len(w) for w in waiting)
    count = next(k for k in range(max(most, 1), total // 3 + 1) if 3 * k <= total <= 4 * k)
    groups: list[list[Tile]] = [[] for _ in range(count)]
    for i, tile in enumerate(tiles):
        groups[i % count].append(tile)
    for _ in range(jokers):
        min(groups, key=len).append(JOKER)
    return [tuple(g) for g in groups]
