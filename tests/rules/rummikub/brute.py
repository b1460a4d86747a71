"""A brute-force Rummikub search, slow but obviously right, to check the solver against."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from rules.rummikub.sets import check_set
from rules.rummikub.tiles import Tile


def _sets_with(first: Tile, kinds: Sequence[Tile], left: Counter[Tile]) -> Iterator[list[Tile]]:
    """Every valid set holding ``first`` and other tiles from ``left`` (kinds in order)."""

    def extend(i: int, chosen: list[Tile]) -> Iterator[list[Tile]]:
        if len(chosen) >= 3 and check_set(chosen).valid:
            yield list(chosen)
        if len(chosen) == 13:
            return
        for j in range(i, len(kinds)):
            kind = kinds[j]
            if left[kind] > chosen.count(kind):
                chosen.append(kind)
                yield from extend(j, chosen)
                chosen.pop()

    yield from extend(0, [first])


def brute_force(
    rack: Sequence[Tile],
    table: Sequence[Tile],
    *,
    initial: bool = False,
    objective: str = "tiles",
) -> tuple[int, int] | None:
    """(rack tiles played, table value after) of the best play, or None if no layout exists.

    Most tiles first, then highest value (``objective="value"``: the other way round);
    ``initial``: sets from the rack only, worth >= 30. A result of ``(0, value)`` means the
    table can be laid out but nothing can be added.
    """
    must = Counter() if initial else Counter(table)
    pool = Counter(rack) + must
    best: tuple[int, int] | None = None

    def rank(score: tuple[int, int]) -> tuple[int, int]:
        return score if objective == "tiles" else (score[1], score[0])

    def search(left: Counter[Tile], used: Counter[Tile], value: int) -> None:
        nonlocal best
        kinds = sorted(t for t in left if left[t] > 0)
        if not kinds:
            if any(used[t] < n for t, n in must.items()):
                return
            played = sum(used.values()) - sum(must.values())
            if initial and played and value < 30:
                return
            score = (played, value if played or not initial else 0)
            if best is None or rank(score) > rank(best):
                best = score
            return
        first = kinds[0]
        left[first] -= 1
        search(left, used, value)  # leave this copy on the rack
        for tiles in _sets_with(first, kinds, left + Counter({first: 1})):
            rest = Counter(tiles)
            rest[first] -= 1
            left.subtract(rest)
            used.update(tiles)
            search(left, used, value + check_set(tiles).value)
            used.subtract(tiles)
            left.update(rest)
        left[first] += 1

    search(Counter(pool), Counter(), 0)
    return best
