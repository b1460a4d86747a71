"""Rule 16 of docs/rules/rummikub.md: the computer plays from the hint's solver
(test_hint_steps.py), spending a joker only where it buys enough."""

from __future__ import annotations

import rules.rummikub as rk
from rules.levels import Level
from rules.rummikub.ai import best_play, choose_action
from rules.rummikub.tiles import JOKER
from tests.rules.rummikub.helpers import rig, ts


def test_computer_keeps_a_joker_that_buys_little() -> None:
    state = rig(["R10 R11 R12 J K7", "B1"], "B5 O5 K5|R1 R2 R3")
    play = best_play(state.view(0))
    assert sorted(t.code for t in play.tiles) == ["R10", "R11", "R12"]  # keeps the joker
    action = choose_action(state.view(0))
    assert isinstance(action, rk.Meld)
    state.apply(0, action)
    assert state.racks[0] == list(ts("J K7"))


def test_computer_spends_a_joker_on_its_initial_meld() -> None:
    # Without the joker there is no meld at all; with it, 36 points open the table.
    state = rig(["R12 R13 J B1 K4", "B2"], melded=[False, False])
    action = choose_action(state.view(0))
    assert isinstance(action, rk.Meld)
    state.apply(0, action)
    assert state.melded[0] and sorted(state.racks[0]) == sorted(ts("B1 K4"))


def test_computer_draws_rather_than_give_a_joker_for_one_tile() -> None:
    state = rig(["R12 R13 J B1", "B2"], "O3 O4 O5", melded=[True, True])
    assert choose_action(state.view(0)) == rk.Draw()


def test_rule_16_computer_plays_the_joker_when_it_matters() -> None:
    state = rig(["R10 R11 J", "B1"], "B5 O5 K5")
    action = choose_action(state.view(0))
    assert isinstance(action, rk.Meld)
    state.apply(0, action)
    assert state.is_over


def test_hard_keeps_a_joker_until_it_finishes_the_rack() -> None:
    # The joker buys three more real tiles: normal spends it, hard lays off R5 and keeps it.
    state = rig(["R1 R2 J R4 R5 O9 K11", "B1"], "B5 O5 K5")
    normal = choose_action(state.view(0))
    assert isinstance(normal, rk.Meld) and any(JOKER in s for s in normal.table)
    hard = choose_action(state.view(0), Level.HARD)
    assert isinstance(hard, rk.Meld)
    state.apply(0, hard)
    assert sorted(state.racks[0]) == sorted(ts("R1 R2 J R4 O9 K11"))
    # With only the joker's play left it draws, as long as the pool has tiles ...
    state = rig(["R12 R13 J B1", "B2"], "O3 O4 O5", melded=[True, True])
    assert choose_action(state.view(0), Level.HARD) == rk.Draw()
    # ... and spends the joker when it empties the rack.
    state = rig(["R10 R11 J", "B1"], "B5 O5 K5")
    action = choose_action(state.view(0), Level.HARD)
    assert isinstance(action, rk.Meld)
    state.apply(0, action)
    assert state.is_over


def test_hard_opens_without_its_joker_unless_it_needs_it() -> None:
    state = rig(["R10 R11 R12 J B13 K1", "B2"], melded=[False, False])
    action = choose_action(state.view(0), Level.HARD)
    assert isinstance(action, rk.Meld)
    state.apply(0, action)
    assert state.melded[0] and sorted(state.racks[0]) == sorted(ts("J B13 K1"))
    state = rig(["R12 R13 J B1 K4", "B2"], melded=[False, False])
    action = choose_action(state.view(0), Level.HARD)
    assert isinstance(action, rk.Meld)
    state.apply(0, action)
    assert state.melded[0] and sorted(state.racks[0]) == sorted(ts("B1 K4"))


def test_rule_16_computer_draws_without_a_play() -> None:
    state = rig(["R1 B9", "B1"], "", melded=[False, False])
    assert choose_action(state.view(0)) == rk.Draw()
