"""Rule 15 of docs/rules/rummikub.md: a turn is staged privately (put, add, move, split,
gather, the Arrange box), steps are taken back one at a time, and only Done commits it."""

from __future__ import annotations

import pytest

import rules.rummikub as rk
from rules.engine import IllegalAction
from tests.rules.rummikub.helpers import codes, rig, ts


def test_rule_15_staged_table_is_private_until_committed() -> None:
    state = rig(["R4 K9", "B1 B2"], "R1 R2 R3")
    state.apply(0, rk.AddTiles(0, ts("R4")))
    mine = state.view(0)
    assert mine.staged == (ts("R1 R2 R3 R4"),)
    assert mine.staged_rack == ts("K9") and mine.problems == ()
    for other in (1, None):
        seen = state.view(other)
        assert seen.staged is None and seen.staged_rack is None
        assert seen.table == (ts("R1 R2 R3"),)
        assert seen.rack_counts == (2, 2)
    assert state.view(None).rack == () and state.view(1).rack == ts("B1 B2")
    assert rk.Done() in state.legal_actions(0) and rk.Undo() in state.legal_actions(0)


def test_rule_15_split_refuses_a_bad_position() -> None:
    state = rig(["K9", "B1"], "R1 R2 R3")
    with pytest.raises(IllegalAction, match="split before tiles 2 to 3"):
        state.apply(0, rk.SplitSet(0, 3))


def test_rule_15_split_goes_by_reading_order_not_by_what_came_first() -> None:
    state = rig(["R4 R8 K9", "B1"], "R5 R6 R7")
    state.apply(0, rk.AddTiles(0, ts("R4")))
    state.apply(0, rk.AddTiles(0, ts("R8")))
    assert state.view(0).staged == (ts("R4 R5 R6 R7 R8"),)
    state.apply(0, rk.SplitSet(0, 3))
    assert state.view(0).staged == (ts("R4 R5 R6"), ts("R7 R8"))


def test_rule_15_sets_keep_jokers_in_their_place_and_groups_in_colour_order() -> None:
    state = rig(["R8 O5 K6", "B1"], "R5 J R7|B5 K5 R5")
    state.apply(0, rk.AddTiles(0, ts("R8")))
    state.apply(0, rk.AddTiles(1, ts("O5")))
    assert state.view(0).staged == (ts("R5 J R7 R8"), ts("R5 B5 O5 K5"))
    # An invalid set still reads in a fixed order: colour, then number, jokers last.
    state.apply(0, rk.AddTiles(1, ts("K6")))
    assert state.view(0).staged == (ts("R5 J R7 R8"), ts("R5 B5 O5 K5 K6"))


def test_rule_15_operations_without_tiles_are_refused() -> None:
    state = rig(["R4 K9", "B1"], "R1 R2 R3")
    before = state.snapshot()
    for action in (rk.AddTiles(0, ()), rk.MoveTiles(0, (), None), rk.PutSet(())):
        with pytest.raises(IllegalAction, match="Name the tiles to use"):
            state.apply(0, action)
    assert state.snapshot() == before and not state.staging
    state.apply(0, rk.TimeOut())
    assert len(state.racks[0]) == 3  # nothing was staged: one tile, not three


def test_snapshot_restores_a_staged_turn() -> None:
    state = rig(["R4 K9", "B1 B2"], "R1 R2 R3")
    state.apply(0, rk.AddTiles(0, ts("R4")))
    copy = rk.restore(state.snapshot())
    assert copy.snapshot() == state.snapshot()
    copy.apply(0, rk.Done())
    state.apply(0, rk.Done())
    assert copy.snapshot() == state.snapshot()


def test_rule_15_gather_brings_rack_and_table_tiles_to_one_set_in_one_step() -> None:
    state = rig(["R9 O9 K1 K2 B5", "R1"], "R3 R4 R5 R6 R7 R8|K9 B9 J")
    state.apply(0, rk.Gather(((1, ts("J")[0]), (None, ts("K1")[0]), (None, ts("K2")[0]))))
    view = state.view(0)
    assert view.staged is not None and codes(view.staged)[-1] == ["K1", "K2", "J"]
    state.apply(0, rk.Gather(((None, ts("O9")[0]),), 1))
    assert state.problems() == ()
    # One Back takes back the last step only; the first stays.
    state.apply(0, rk.Back())
    assert len(state.problems()) == 1 and "set 2" in state.problems()[0]
    state.apply(0, rk.Back())
    assert state.view(0).staged is None
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, rk.Back())
    assert refused.value.code == "nothing_staged"


def test_rule_15_gather_refuses_a_tile_that_is_not_there_and_changes_nothing() -> None:
    state = rig(["R9", "R1"], "R3 R4 R5|K9 B9 J")
    before = state.snapshot()
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, rk.Gather(((1, ts("R3")[0]),), None))
    assert refused.value.code == "set_tile_missing"
    assert refused.value.params == {"tile": "R3", "set": 2}
    with pytest.raises(IllegalAction):
        state.apply(0, rk.Gather(((0, ts("R3")[0]),), 0))
    assert state.snapshot()["staged"] == before["staged"] is None


def test_rule_15_stage_replaces_the_staged_table_without_committing() -> None:
    state = rig(["R9 O9 K1 K2 B5", "R1"], "R3 R4 R5 R6 R7 R8|K9 B9 J")
    table = (ts("R3 R4 R5"), ts("R6 R7 R8 R9"), ts("B9 O9 K9"), ts("K1 K2 J"))
    assert state.apply(0, rk.Stage(table)) == []
    assert state.turn == 0 and state.problems() == ()
    assert codes(state.table) == [["R3", "R4", "R5", "R6", "R7", "R8"], ["K9", "B9", "J"]]
    restored = rk.restore(state.snapshot())  # a restart keeps the staged turn and its steps
    assert restored.view(0).staged == state.view(0).staged
    restored.apply(0, rk.Back())
    assert restored.view(0).staged is None
    events = state.apply(0, rk.Done())
    assert isinstance(events[0], rk.TableChanged) and events[0].tiles == ts("R9 O9 K1 K2")
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, rk.Stage((ts("R3 R4 R5"),)))
    assert refused.value.code == "table_tile_missing"


def test_rule_11_a_refused_done_names_its_wrong_sets() -> None:
    state = rig(["R10 K1", "R1"], "R3 R4 R5|B9 O9 K9")
    state.apply(0, rk.Stage((ts("R3 R4 R5 K1"), ts("B9 O9 K9 R10"))))
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, rk.Done())
    assert refused.value.params["sets"] == "1, 2"
