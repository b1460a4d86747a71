"""Rigged Rummikub positions: racks, table and pool set by hand (every other tile in the pool,
so 106 tiles are always in play), and the tiles a position holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import rules.rummikub as rk
from rules.rng import GameRandom
from rules.rummikub.tiles import FULL_SET, Tile, parse_tiles


def ts(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


def rig(
    racks: Sequence[str],
    table: str = "",
    *,
    pool: str | None = None,
    turn: int = 0,
    melded: Sequence[bool] | None = None,
) -> rk.State:
    """A game with these racks and table; ``pool`` lists the tiles drawn next, in order.

    Without ``pool`` the pool holds every other tile, so 106 tiles are always in play.
    """
    state = rk.State(len(racks), GameRandom(1))
    state.racks = [list(ts(r)) for r in racks]
    state.table = [ts(s) for s in table.split("|") if s.strip()]
    used = Counter(t for r in state.racks for t in r) + Counter(t for s in state.table for t in s)
    if pool is None:
        state.pool = list((Counter(FULL_SET) - used).elements())
    else:
        state.pool = list(reversed(ts(pool)))  # drawn from the end
    state.turn = turn
    state.melded = list(melded) if melded is not None else [bool(state.table)] * len(racks)
    return state


def all_tiles(state: rk.State) -> Counter[Tile]:
    return (
        Counter(t for r in state.racks for t in r)
        + Counter(state.pool)
        + Counter(t for s in state.table for t in s)
    )


def codes(sets: Sequence[Sequence[Tile]]) -> list[list[str]]:
    return [[t.code for t in s] for s in sets]
