"""Rule 16: the hint gives one meld at a time, and staging each meld it
gives (the whole staged table, as the Arrange box takes it) leads to the best play."""

from __future__ import annotations

from collections import Counter

import pytest

import rules.rummikub as rk
from rules.rummikub.ai import NextMeld, choose_action, hint, next_meld


def follow_hint(state: rk.State, seat: int) -> int:
    """Stage the hint's melds one by one until it says done; the melds staged."""
    play = hint(state.view(seat))
    steps = 0
    while True:
        step = next_meld(state.view(seat), play)
        if step == "done":
            return steps
        assert isinstance(step, NextMeld), step
        assert step.table[-1] == step.meld and step.left >= 0
        state.apply(seat, rk.Stage(step.table))
        steps += 1
        assert steps <= len(play.table), "the hint goes round in circles"


@pytest.mark.parametrize("seed", range(12))
def test_following_the_hint_meld_by_meld_stages_the_best_play(seed: int) -> None:
    state = rk.new(2, seed=seed, options={"hints": True})
    for _ in range(40):
        seat = state.current_seat
        if seat is None:
            return
        play = hint(state.view(seat))
        if seat == 0 and play.found:
            before = state.table
            steps = follow_hint(state, seat)
            made = Counter(tuple(sorted(s)) for s in play.table)
            made -= Counter(tuple(sorted(s)) for s in before)
            # One meld a hint, never the whole turn at once (what is left of a set a meld
            # took tiles from may be a set of the play by itself: no step of its own).
            assert 1 <= steps <= sum(made.values())
            events = state.apply(seat, rk.Done())
            changed = events[0]
            assert isinstance(changed, rk.TableChanged)
            assert Counter(changed.tiles) == Counter(play.tiles)
        else:
            state.apply(seat, choose_action(state.view(seat)))


def test_a_staged_table_off_the_play_is_told_to_reset() -> None:
    state = rk.new(2, seed=3)
    seat = state.turn
    rack = state.racks[seat]
    play = hint(state.view(seat))
    kept = Counter(rack) - Counter(play.tiles)
    if not kept:
        pytest.skip("the play takes the whole rack")
    tile = next(iter(kept))
    state.apply(seat, rk.PutSet((tile,)))
    assert next_meld(state.view(seat), play) == "reset"
