"""One test (or a few) per numbered rule of docs/rules/rummikub.md: the deal and the turn model.

Staging a turn (rule 15) is in test_staging.py, hints (rule 16) in test_hint_steps.py and the
computer's play in test_ai.py; rigged positions come from helpers.py."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules.rummikub as rk
from rules.engine import GameOver, IllegalAction, Outcome
from rules.rummikub.tiles import FULL_SET
from tests.rules.rummikub.helpers import all_tiles, codes, rig, ts

# ---------------------------------------------------------------- rule 2: the deal


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_2_fourteen_each_rest_in_the_pool(players: int) -> None:
    state = rk.new(players, seed=11)
    assert [len(r) for r in state.racks] == [14] * players
    assert len(state.pool) == 106 - 14 * players
    assert all_tiles(state) == Counter(FULL_SET)
    assert state.table == []


@pytest.mark.parametrize("players", [0, 1, 5])
def test_rule_2_two_to_four_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="between 2 and 4"):
        rk.new(players, seed=1)


def test_rule_2_a_random_player_starts_and_play_passes_in_order() -> None:
    starters = {rk.new(4, seed=seed).current_seat for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    state = rk.new(3, seed=5)
    first = state.current_seat
    assert first is not None
    state.apply(first, rk.Draw())
    assert state.current_seat == (first + 1) % 3


def test_rule_2_same_seed_same_deal() -> None:
    a, b = rk.new(4, seed=99), rk.new(4, seed=99)
    assert a.racks == b.racks and a.pool == b.pool and a.turn == b.turn


# ---------------------------------------------------------------- rule 7: play or draw


def test_rule_7_draw_takes_one_tile_and_ends_the_turn() -> None:
    state = rig(["R1", "B1"], pool="K9 K10")
    events = state.apply(0, rk.Draw())
    assert events == [rk.TilesDrawn(0, 1)]
    assert ts("K9")[0] in state.racks[0] and len(state.racks[0]) == 2
    assert state.current_seat == 1


def test_rule_7_empty_pool_means_the_turn_passes() -> None:
    state = rig(["R1", "B1", "O1"], pool="")
    assert state.apply(0, rk.Draw()) == [rk.Passed(0)]
    assert state.racks[0] == list(ts("R1"))
    assert state.current_seat == 1


def test_rule_7_only_the_current_seat_acts() -> None:
    state = rig(["R1", "B1"])
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, rk.Draw())
    assert state.legal_actions(1) == []
    assert rk.Draw() in state.legal_actions(0)


# ---------------------------------------------------------------- rule 8: initial meld


def test_rule_8_initial_meld_of_thirty_from_the_rack() -> None:
    state = rig(["R10 R11 R12 K1", "B1"], melded=[False, False])
    state.apply(0, rk.PutSet(ts("R10 R11 R12")))
    events = state.apply(0, rk.Done())
    assert isinstance(events[0], rk.TableChanged) and events[0].value == 33
    assert state.melded[0] and codes(state.table) == [["R10", "R11", "R12"]]
    assert state.racks[0] == list(ts("K1"))


def test_rule_8_initial_meld_below_thirty_is_refused_with_its_value() -> None:
    state = rig(["R7 R8 R9 K1", "B1"], melded=[False, False])
    state.apply(0, rk.PutSet(ts("R7 R8 R9")))
    with pytest.raises(IllegalAction, match=r"must be worth 30; yours \(R7 R8 R9\) is 24") as info:
        state.apply(0, rk.Done())
    assert info.value.code == "initial_meld_value"
    assert info.value.params == {"value": 24, "tiles": "R7 R8 R9"}
    assert state.current_seat == 0 and not state.table  # nothing committed


def test_rule_8_initial_meld_may_not_touch_the_table() -> None:
    state = rig(["R4 B10 O10 K10", "B1"], "R1 R2 R3", melded=[False, True])
    with pytest.raises(IllegalAction, match="initial meld"):
        state.apply(0, rk.AddTiles(0, ts("R4")))
    with pytest.raises(IllegalAction, match="initial meld"):
        state.apply(0, rk.MoveTiles(0, ts("R3")))
    with pytest.raises(IllegalAction, match="initial meld"):
        state.apply(0, rk.SplitSet(0, 1))
    # A Meld that extends the old run is refused too; new sets from the rack are fine.
    with pytest.raises(IllegalAction, match="initial meld"):
        state.apply(0, rk.Meld((ts("R1 R2 R3 R4"), ts("B10 O10 K10"))))
    state.apply(0, rk.Meld((ts("R1 R2 R3"), ts("B10 O10 K10"))))
    assert state.melded[0] and state.racks[0] == list(ts("R4"))


def test_rule_8_new_sets_may_be_edited_before_the_meld() -> None:
    state = rig(["R10 R11 R12 R13", "B1"], melded=[False, False])
    state.apply(0, rk.PutSet(ts("R10 R11")))
    state.apply(0, rk.AddTiles(0, ts("R12 R13")))
    state.apply(0, rk.Done())
    assert state.is_over  # the rack is empty: rule 13


# ---------------------------------------------------------------- rule 9: rearranging


def test_rule_9_split_move_and_add_make_a_valid_table() -> None:
    state = rig(["B4 O4 K9", "B1"], "R1 R2 R3 R4 R5 R6 R7")
    state.apply(0, rk.SplitSet(0, 3))  # R1 R2 R3 | R4 R5 R6 R7
    state.apply(0, rk.MoveTiles(1, ts("R4"), 0))  # R1 R2 R3 R4 | R5 R6 R7
    assert state.problems() == ("Add at least one tile from your rack, or draw.",)
    state.apply(0, rk.MoveTiles(0, ts("R4")))  # to a new set of its own
    assert state.problems() == ("set 3 (R4): a set needs at least 3 tiles, this one has 1",)
    state.apply(0, rk.AddTiles(2, ts("B4 O4")))
    assert state.problems() == ()
    state.apply(0, rk.Done())
    assert codes(state.table) == [["R1", "R2", "R3"], ["R5", "R6", "R7"], ["R4", "B4", "O4"]]
    assert state.racks[0] == list(ts("K9")) and state.current_seat == 1


def test_rule_9_every_set_valid_and_a_rack_tile_added() -> None:
    state = rig(["B4 O4 K9", "B1"], "R1 R2 R3 R4")
    state.apply(0, rk.MoveTiles(0, ts("R4")))
    state.apply(0, rk.AddTiles(1, ts("B4 O4")))
    events = state.apply(0, rk.Done())
    assert events[0] == rk.TableChanged(0, ts("B4 O4"), (ts("R1 R2 R3"), ts("R4 B4 O4")), 8)
    assert state.racks[0] == list(ts("K9"))


def test_rule_9_rearranging_without_a_rack_tile_is_refused() -> None:
    state = rig(["K9", "B1"], "R1 R2 R3 R4 R5 R6")
    state.apply(0, rk.SplitSet(0, 3))
    with pytest.raises(IllegalAction, match="at least one tile from your rack"):
        state.apply(0, rk.Done())
    assert len(state.table) == 1


def test_rule_9_table_tiles_must_stay_on_the_table() -> None:
    state = rig(["R4 K9", "B1"], "R1 R2 R3|B5 O5 K5 R5")
    with pytest.raises(IllegalAction, match="must stay there: R5"):
        state.apply(0, rk.Meld((ts("R1 R2 R3 R4"), ts("B5 O5 K5"))))
    assert state.racks[0] == list(ts("R4 K9"))  # nothing changed


def test_rule_9_tiles_not_in_the_rack_are_refused() -> None:
    state = rig(["R4", "B1"], "R1 R2 R3")
    with pytest.raises(IllegalAction, match="Your rack has no R5"):
        state.apply(0, rk.AddTiles(0, ts("R5")))
    with pytest.raises(IllegalAction, match="Set 1 has no B2"):
        state.apply(0, rk.MoveTiles(0, ts("B2")))
    with pytest.raises(IllegalAction, match="no set 4"):
        state.apply(0, rk.AddTiles(3, ts("R4")))
    assert not state.staging


# ---------------------------------------------------------------- rule 10: jokers move too


def test_rule_10_joker_retrieval_by_moving_it() -> None:
    # R6 replaces the joker in R5 J R7; the joker goes with K1 K2 into a new run.
    state = rig(["R6 K1 K2", "B1"], "R5 J R7")
    state.apply(0, rk.MoveTiles(0, ts("J")))
    state.apply(0, rk.AddTiles(0, ts("R6")))
    state.apply(0, rk.AddTiles(1, ts("K1 K2")))
    state.apply(0, rk.Done())
    assert state.is_over
    assert sorted(sorted(t.code for t in s) for s in state.table) == [
        ["J", "K1", "K2"],
        ["R5", "R6", "R7"],
    ]


def test_rule_10_a_joker_may_not_go_back_to_the_rack() -> None:
    state = rig(["R6", "B1"], "R5 J R7")
    with pytest.raises(IllegalAction, match="must stay there: J"):
        state.apply(0, rk.Meld((ts("R5 R6 R7"),)))


# ---------------------------------------------------------------- rule 11: refused with reason


def test_rule_11_invalid_table_is_refused_with_each_set_and_why() -> None:
    state = rig(["R7 B7 K1", "B1"], "R5 R6 R7 R8|B7 O7 K7")
    state.apply(0, rk.SplitSet(0, 2))  # R5 R6 | R7 R8
    state.apply(0, rk.AddTiles(2, ts("B7")))  # B7 B7 O7 K7
    with pytest.raises(IllegalAction) as info:
        state.apply(0, rk.Done())
    assert info.value.code == "invalid_sets"
    assert info.value.reason.split("\n") == [
        "set 1 (R5 R6): a set needs at least 3 tiles, this one has 2",
        "set 2 (R7 R8): a set needs at least 3 tiles, this one has 2",
        "set 3 (B7 B7 O7 K7): group has two blue 7s",  # in reading order
    ]
    # The player keeps working: the staged table is still there, then undone.
    assert state.staging and state.current_seat == 0
    state.apply(0, rk.Undo())
    assert not state.staging and codes(state.table)[0] == ["R5", "R6", "R7", "R8"]
    state.apply(0, rk.Draw())
    assert state.current_seat == 1


def test_rule_11_run_that_breaks_names_the_gap() -> None:
    state = rig(["R7 K1", "B1"], "R3 R4 R5")
    state.apply(0, rk.AddTiles(0, ts("R7")))
    with pytest.raises(IllegalAction, match=r"set 1 \(R3 R4 R5 R7\): run breaks between R5 and R7"):
        state.apply(0, rk.Done())


# ---------------------------------------------------------------- rule 12: time-out


def test_rule_12_timeout_with_staged_changes_draws_three() -> None:
    state = rig(["R4 K9", "B1"], "R1 R2 R3", pool="O1 O2 O3 O4")
    state.apply(0, rk.AddTiles(0, ts("R4")))
    events = state.apply(0, rk.TimeOut())
    assert events == [rk.TimedOut(0, 3)]
    assert codes(state.table) == [["R1", "R2", "R3"]]
    assert sorted(t.code for t in state.racks[0]) == ["K9", "O1", "O2", "O3", "R4"]
    assert state.current_seat == 1


def test_rule_12_timeout_without_changes_draws_one() -> None:
    state = rig(["K9", "B1"], pool="O1 O2")
    assert state.apply(0, rk.TimeOut()) == [rk.TimedOut(0, 1)]
    assert len(state.racks[0]) == 2


# ---------------------------------------------------------------- rules 13-14: the end


def test_rule_13_empty_rack_wins_and_others_pay_their_racks() -> None:
    state = rig(["R4", "B1 J", "K13 O2"], "R1 R2 R3")
    events = state.apply(0, rk.AddTiles(0, ts("R4"))) + state.apply(0, rk.Done())
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.result.scores == (31 + 15, -31, -15)  # the joker on a rack counts 30
    assert over.result.outcomes == (Outcome.WIN, Outcome.LOSE, Outcome.LOSE)
    assert over.result.ranking == (0, 2, 1)
    assert state.is_over and state.current_seat is None
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, rk.Draw())


def test_rule_14_empty_pool_and_a_silent_round_ends_the_game() -> None:
    state = rig(["R9 R1", "B3", "K13 J"], pool="")
    state.apply(0, rk.Draw())
    state.apply(1, rk.Draw())
    assert not state.is_over
    events = state.apply(2, rk.Draw())
    over = events[-1]
    assert isinstance(over, GameOver)
    # Totals 10, 3, 43: B3 wins; the others pay the difference.
    assert over.result.winners == (1,)
    assert over.result.scores == (-7, 47, -40)


def test_rule_14_tied_lowest_racks_share_the_win() -> None:
    state = rig(["R9 R1", "B3 B7", "K13 J"], pool="")
    for seat in range(3):
        events = state.apply(seat, rk.Draw())
    over = events[-1]
    assert isinstance(over, GameOver)
    # Totals 10, 10, 43: the 33 paid is shared, the odd point to the first in seat order.
    assert over.result.winners == (0, 1)
    assert over.result.scores == (17, 16, -33)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(1, 13), min_size=1, max_size=6), min_size=2, max_size=4),
    st.booleans(),
    st.booleans(),
)
def test_rule_14_blocked_endings_are_zero_sum(
    numbers: list[list[int]], tie: bool, joker: bool
) -> None:
    if tie:
        numbers[1] = numbers[0]  # same numbers, another colour: the same total
    # Each seat its own colour, so no tile is dealt more than twice.
    racks = [" ".join(f"{'RBOK'[seat]}{n}" for n in rack) for seat, rack in enumerate(numbers)]
    counts = [Counter(rack) for rack in numbers]
    if any(c[n] > 2 for c in counts for n in c):
        return
    if joker:
        racks[-1] += " J"
    state = rig(racks, pool="")
    events: list[object] = []
    for seat in range(len(racks)):
        events = state.apply(seat, rk.Draw())
    over = events[-1]
    assert isinstance(over, GameOver)
    totals = [rk.rack_value(r) for r in state.racks]
    low = min(totals)
    assert set(over.result.winners) == {s for s, v in enumerate(totals) if v == low}
    assert sum(over.result.scores) == 0
    pot = sum(v - low for v in totals)
    for seat, total in enumerate(totals):
        if total > low:
            assert over.result.scores[seat] == low - total
        else:
            share = over.result.scores[seat]
            assert pot // len(over.result.winners) <= share <= -(-pot // len(over.result.winners))


def test_rule_14_a_play_restarts_the_round() -> None:
    state = rig(["R9", "R4 B8", "K13"], "R1 R2 R3", pool="")
    state.apply(0, rk.Draw())
    state.apply(1, rk.AddTiles(0, ts("R4")))
    state.apply(1, rk.Done())
    state.apply(2, rk.Draw())
    state.apply(0, rk.Draw())
    assert not state.is_over
    state.apply(1, rk.Draw())
    assert state.is_over


# ---------------------------------------------------------------- leaving


def test_leaving_puts_the_rack_back_in_the_pool_and_skips_the_seat() -> None:
    state = rig(["R9 K1", "R1 R2", "B5"], "R3 R4 R5", turn=0)
    pool = len(state.pool)
    state.apply(0, rk.Gather(((None, ts("R9")[0]),), None))
    assert state.forfeit(0) == [rk.Left(0, 2)]
    assert state.racks[0] == [] and len(state.pool) == pool + 2 and state.turn == 1
    assert state.view(1).staged is None
    state.apply(1, rk.Draw())
    assert state.turn == 2
    state.apply(2, rk.Draw())
    assert state.turn == 1  # seat 0 is skipped
    assert sum(all_tiles(state).values()) == 106
    events = state.forfeit(2)
    assert events[0] == rk.Left(2, 2) and isinstance(events[-1], GameOver)
    assert events[-1].result.outcomes[1] == Outcome.WIN
    assert rk.restore(state.snapshot()).out == [True, False, True]


def test_rule_13_the_last_seat_left_wins_what_the_leavers_owed() -> None:
    # A seat that leaves owes its rack's value, as a rack left over does; the last seat left
    # wins that, not its own rack (30 for a joker).
    state = rig(["R9 K1", "B5 J", "O13 O12"], "R3 R4 R5", turn=0)
    state.forfeit(0)  # owes 10
    events = state.forfeit(1)  # owes 5 + 30
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.result.winners == (2,)
    assert over.result.scores == (-10, -35, 45)
    assert over.result.ranking == (2, 0, 1)  # the winner, then the leavers by debt
    again = rk.restore(state.snapshot())
    assert again.left_with == [10, 35, 0] and again.result == over.result


def test_rule_14_a_seat_that_left_never_wins_a_blocked_game_and_pays_its_debt() -> None:
    state = rig(["R9 R1", "B3 B7", "K13 J", "O2"], pool="")
    state.forfeit(3)  # owes 2, the lowest rack of all: leaving must not make it the winner
    assert state.pool  # its tile went back: the pool is not empty any more
    state.pool = []
    for seat in range(3):
        events = state.apply(seat, rk.Draw())
    over = events[-1]
    assert isinstance(over, GameOver)
    # Totals 10, 10, 43 and the leaver's 2: the 33 and the 2 paid are shared by the two 10s.
    assert over.result.winners == (0, 1)
    assert over.result.scores == (18, 17, -33, -2)
    assert over.result.ranking[-1] == 3 and over.result.outcomes[3] is Outcome.LOSE


def test_rule_14_tiles_a_leaver_returns_start_the_round_of_passes_over() -> None:
    state = rig(["R9 R1", "B3", "K13 J", "O2 O3"], pool="")
    state.apply(0, rk.Draw())
    state.apply(1, rk.Draw())  # two passes of the round of four
    state.forfeit(3)  # its two tiles go back into the pool
    state.apply(2, rk.Draw())  # draws one
    state.apply(0, rk.Draw())  # draws the other: the pool is empty again
    state.apply(1, rk.Draw())  # the first pass of a new round, not the third of the old
    assert not state.is_over


# ---------------------------------------------------------------- rule 11: refusals name tiles


def refused(state: rk.State, action: rk.Action) -> IllegalAction:
    """The refusal of ``action`` for seat 0; nothing may have changed."""
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply(0, action)
    assert state.snapshot() == before
    return info.value


def test_every_refusal_about_tiles_names_them() -> None:
    state = rig(["R4 K9", "B1"], "R1 R2 R3|B5 O5 K5 R5")
    missing = refused(state, rk.AddTiles(0, ts("R5 R4 B7")))  # two are not on the rack
    assert (missing.code, missing.params) == ("tile_missing", {"tile": "R5 B7"})
    assert "Your rack has no R5 B7" in missing.reason
    gone = refused(state, rk.Gather(((None, ts("K9")[0]), (1, ts("B2")[0])), None))
    assert (gone.code, gone.params) == ("set_tile_missing", {"tile": "B2", "set": 2})
    same = refused(state, rk.Gather(((1, ts("R5")[0]),), 1))
    assert (same.code, same.params) == ("same_set", {"tiles": "R5", "set": 2})
    moved = refused(state, rk.MoveTiles(0, ts("R1"), 0))
    assert moved.params == {"tiles": "R1", "set": 1}
    split = refused(state, rk.SplitSet(0, 3))
    assert (split.code, split.params) == ("bad_split", {"set": 1, "tiles": "R1 R2 R3"})
    kept = refused(state, rk.Meld((ts("R1 R2 R3 R4"), ts("B5 O5 K5"))))
    assert (kept.code, kept.params) == ("table_tile_missing", {"tiles": "R5"})


def test_before_the_initial_meld_the_refusal_names_the_set_to_leave_alone() -> None:
    state = rig(["R4 K9 K10 K11", "B1"], "R1 R2 R3|B5 O5 K5", melded=[False, False])
    touched = refused(state, rk.AddTiles(0, ts("R4")))
    assert (touched.code, touched.params) == ("initial_meld_table", {"tiles": "R1 R2 R3"})
    # The Arrange box: the table's run broken up to take R4 is named the same way.
    arranged = refused(state, rk.Stage((ts("R1 R2"), ts("R3 R4"), ts("B5 O5 K5"))))
    assert (arranged.code, arranged.params) == ("initial_meld_table", {"tiles": "R1 R2 R3"})
