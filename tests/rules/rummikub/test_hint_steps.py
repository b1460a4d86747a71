"""Rule 16: the hint is the solver's play for your rack (a table option, off by default); it
gives one meld at a time, and staging each meld it gives (the whole staged table, as the
Arrange box takes it) leads to the best play."""

from __future__ import annotations

from collections import Counter

import pytest

import rules.rummikub as rk
from rules.rummikub.ai import NextMeld, choose_action, hint, next_meld
from tests.rules.rummikub.helpers import rig, ts


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


def test_rule_16_hint_is_the_solver_play_for_your_rack() -> None:
    state = rig(["R10 R11 R12 J K7", "B1"], "B5 O5 K5|R1 R2 R3")
    shown = hint(state.view(0))
    assert sorted(t.code for t in shown.tiles) == ["J", "R10", "R11", "R12"]  # the most tiles
    state.apply(0, rk.Meld(shown.table))
    assert state.racks[0] == list(ts("K7"))


def test_rule_16_hint_respects_the_initial_meld() -> None:
    state = rig(["R1 R2 R3 K9", "B1"], "B5 O5 K5", melded=[False, True])
    assert not hint(state.view(0)).found  # 6 points, and the table is not yet theirs
    state.racks[0] += list(ts("R4 R5 R6 R7 R8"))
    assert sorted(t.code for t in hint(state.view(0)).tiles) == [f"R{n}" for n in range(1, 9)]


def test_hints_are_a_table_option_off_by_default_and_kept_by_a_snapshot() -> None:
    assert rk.new(2, seed=1).hints is False
    assert rk.new(2, seed=1, options={}).view(0).hints is False
    on = rk.new(2, seed=1, options={"hints": True})
    assert on.view(None).hints is True and on.view(0).hints is True
    assert rk.restore(on.snapshot()).hints is True
    older = on.snapshot()
    del older["hints"]  # saved before hints were an option: off, as the table says
    assert rk.restore(older).hints is False
    with pytest.raises(ValueError, match="unknown Rummikub option 'hint'"):
        rk.new(2, seed=1, options={"hint": True})
    with pytest.raises(ValueError, match="true or false"):
        rk.new(2, seed=1, options={"hints": "yes"})
