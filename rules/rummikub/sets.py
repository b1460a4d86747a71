"""Set checking (rules 3-6): groups, runs, what each joker stands for, values and reasons.

A set is a multiset of tiles; its reading (and so where its jokers go) is worked out here. When
a set can be read more than one way (``R5 R6 J`` is 4-5-6 or 5-6-7; ``R4 J J`` a run or a
group), it takes the reading worth the most, which is also the one the solver counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.rummikub.tiles import COLOURS, JOKER, Tile

__all__ = ["SetCheck", "check_set", "set_value", "table_value"]

MIN_SET = 3
MAX_GROUP = 4
TOP = 13


@dataclass(frozen=True, slots=True)
class SetCheck:
    """The verdict on one set.

    ``kind`` is ``"group"`` or ``"run"`` when valid. ``tiles`` is the set laid out in reading
    order (runs by number, groups by colour, jokers where they stand); ``stands_for`` gives the
    tile each joker represents, in that order. ``reason`` says what is wrong when invalid.
    """

    valid: bool
    kind: str | None
    value: int
    tiles: tuple[Tile, ...]
    stands_for: tuple[Tile, ...] = ()
    reason: str | None = None


def _invalid(tiles: Sequence[Tile], reason: str) -> SetCheck:
    return SetCheck(False, None, 0, tuple(sorted(tiles)), (), reason)


def _group(reals: list[Tile], jokers: int) -> SetCheck | str:
    number = reals[0].number
    seen: set[object] = set()
    for tile in reals:
        if tile.colour in seen:
            assert tile.colour is not None
            return f"group has two {tile.colour.word} {number}s"
        seen.add(tile.colour)
    size = len(reals) + jokers
    if size > MAX_GROUP:
        return "a group has at most 4 tiles (one of each colour)"
    missing = [Tile.of(c, number) for c in COLOURS if c not in seen][:jokers]
    ordered = tuple(sorted(reals)) + (JOKER,) * jokers
    return SetCheck(True, "group", number * size, ordered, tuple(missing))


def _run(reals: list[Tile], jokers: int) -> SetCheck | str:
    reals = sorted(reals, key=lambda t: t.number)
    for a, b in itertools.pairwise(reals):
        if a.number == b.number:
            return f"run has two {a.code}s"
    size = len(reals) + jokers
    if size > TOP:
        return "a run has at most 13 tiles"
    low, high = reals[0].number, reals[-1].number
    if high - low + 1 > size:
        if _wraps([t.number for t in reals], size):
            return "a run cannot wrap from 13 to 1"
        spare = jokers
        for a, b in itertools.pairwise(reals):
            spare -= b.number - a.number - 1
            if spare < 0:
                return f"run breaks between {a.code} and {b.code}"
    # Spare jokers go above the run (worth more) unless that would pass 13.
    top = min(TOP, low + size - 1)
    start = top - size + 1
    colour = reals[0].colour
    assert colour is not None
    present = {t.number for t in reals}
    ordered: list[Tile] = []
    stands: list[Tile] = []
    for number in range(start, top + 1):
        tile = Tile.of(colour, number)
        if number in present:
            ordered.append(tile)
        else:
            ordered.append(JOKER)
            stands.append(tile)
    value = (start + top) * size // 2
    return SetCheck(True, "run", value, tuple(ordered), tuple(stands))


def _wraps(numbers: list[int], size: int) -> bool:
    """Whether the numbers would make a run if 13 were followed by 1."""
    for shift in range(1, TOP):
        moved = sorted((n - 1 + shift) % TOP for n in numbers)
        if moved[-1] - moved[0] + 1 <= size:
            return True
    return False


def check_set(tiles: Iterable[Tile]) -> SetCheck:
    """Check one set: valid or not, its value (jokers as what they stand for), and why not."""
    tiles = list(tiles)
    reals = [t for t in tiles if not t.is_joker]
    jokers = len(tiles) - len(reals)
    if len(tiles) < MIN_SET:
        return _invalid(tiles, f"a set needs at least 3 tiles, this one has {len(tiles)}")
    if not reals:
        return _invalid(tiles, "a set needs at least one numbered tile")
    same_number = all(t.number == reals[0].number for t in reals)
    same_colour = all(t.colour is reals[0].colour for t in reals)
    readings: list[SetCheck | str] = []
    if same_number:
        readings.append(_group(reals, jokers))
    if same_colour:
        readings.append(_run(reals, jokers))
    valid = [r for r in readings if isinstance(r, SetCheck)]
    if valid:
        return max(valid, key=lambda r: r.value)
    if readings:
        # A lone numbered tile with jokers always reads as something, so the first failure
        # (group when the numbers agree) is the one the player meant.
        reason = readings[0]
        assert isinstance(reason, str)
        return _invalid(tiles, reason)
    return _invalid(tiles, "neither a group (the numbers differ) nor a run (the colours differ)")


def set_value(tiles: Iterable[Tile]) -> int:
    """The value of a valid set; 0 for an invalid one."""
    return check_set(tiles).value


def table_value(sets: Iterable[Iterable[Tile]]) -> int:
    """The sum of the sets' values."""
    return sum(check_set(s).value for s in sets)
