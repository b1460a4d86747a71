"""Rummikub's invariants over seeded random games with computer players (docs/design.md
§2): 106 tiles, every set on the table valid, a refused table edit changes nothing, scores
that sum to zero. The contract every game keeps (only the seat to act moves, GameOver last,
restore plays on alike) the conformance suite checks (tests/conformance/)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.rummikub as rk
from rules.engine import Action, IllegalAction
from rules.rummikub.ai import choose_action
from rules.rummikub.sets import check_set
from rules.rummikub.tiles import FULL_SET

MAX_TURNS = 2_000


def every_tile(state: rk.State) -> Counter[object]:
    return (
        Counter(t for r in state.racks for t in r)
        + Counter(state.pool)
        + Counter(t for s in state.table for t in s)
    )


def random_edit(state: rk.State, pick: random.Random) -> Action:
    """A random table edit, often one the rules refuse."""
    seat = state.turn
    rack = state.racks[seat]
    sets = len(state.table) + 1
    tiles = tuple(pick.sample(rack, min(len(rack), pick.randint(1, 3))))
    table_tiles = [t for s in state.table for t in s]
    kind = pick.randrange(5)
    if kind == 0:
        return rk.PutSet(tiles)
    if kind == 1:
        return rk.AddTiles(pick.randrange(sets), tiles)
    if kind == 2 and table_tiles:
        return rk.MoveTiles(pick.randrange(sets), (pick.choice(table_tiles),), None)
    if kind == 3:
        return rk.SplitSet(pick.randrange(sets), pick.randint(0, 4))
    return rk.Done()


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**40))
def test_games_end_conserve_106_tiles_and_keep_valid_sets(players: int, seed: int) -> None:
    state = rk.new(players, seed=seed)
    pick = random.Random(seed)
    for _ in range(MAX_TURNS):
        if state.is_over:
            break
        seat = state.current_seat
        assert seat is not None
        if pick.random() < 0.3:
            before = state.snapshot()
            try:
                state.apply(seat, random_edit(state, pick))
            except IllegalAction:
                assert state.snapshot() == before  # a refused action changes nothing
        if state.is_over:
            break
        if pick.random() < 0.05:
            action: Action = rk.TimeOut()
        else:
            action = choose_action(state.view(seat))
        state.apply(seat, action)
        assert every_tile(state) == Counter(FULL_SET)
        assert all(check_set(s).valid for s in state.table)
    assert state.is_over
    result = state.result
    assert result is not None
    assert sum(result.scores) == 0
    assert result.winners
