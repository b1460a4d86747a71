"""The house rules of docs/rules/uno.md (rules 15-18), one test or more per rule and ruleset,
on tables dealt by hand: stacking, drawing until playable, jumping in, sevens and zeros."""

from __future__ import annotations

import pytest

from rules.engine import IllegalAction
from rules.uno import (
    CardPlayed,
    CatchUno,
    Challenge,
    Draw,
    HandsRotated,
    HandsSwapped,
    Play,
    UnoAnnounced,
)
from tests.rules.uno.conftest import Rig
from tests.rules.uno.helpers import BLUE, GREEN, hand, top


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_rule_15_stacking_passes_the_sum_on(rig: Rig, ruleset: str) -> None:
    state = rig(
        [["red_+2", "red_1"], ["blue_+2", "blue_3"], ["green_1", "green_2"]],
        "red_5",
        ruleset=ruleset,
        stacking=True,
    )
    state.apply(0, Play(0))
    assert state.turn == 1
    assert state.pending == 2
    assert Play(0) in state.legal_actions(1)
    state.apply(1, Play(0))
    assert state.pending == 4
    assert state.turn == 2
    state.apply(2, Draw())
    penalty = 1 if ruleset == "seed" else 0  # seed rule 11: an empty input is a penalty card
    assert len(state.hands[2]) == 2 + 4 + penalty
    assert state.turn == 0
    assert state.pending == 0


def test_rule_15_stacking_wild_draw_four_on_wild_draw_four(rig: Rig) -> None:
    state = rig(
        [["none_W+4", "blue_1"], ["none_W+4", "blue_3"], ["green_1"]],
        "red_5",
        stacking=True,
    )
    state.apply(0, Play(0, BLUE))
    state.apply(1, Play(0, GREEN))
    assert state.pending == 8
    assert Challenge() not in state.legal_actions(2)
    state.apply(2, Draw())
    assert len(state.hands[2]) == 9


def test_rule_15_without_stacking_no_answer(rig: Rig) -> None:
    state = rig([["red_+2", "red_1"], ["blue_+2", "blue_3"], ["green_1"]], "red_5")
    state.apply(0, Play(0))
    assert len(state.hands[1]) == 4
    assert state.turn == 2


def test_rule_15_seed_stacks_wild_draw_four_on_wild_draw_four(rig: Rig) -> None:
    state = rig(
        [["none_W+4", "blue_1"], ["none_W+4", "red_3"], ["green_1"]],
        "red_5",
        ruleset="seed",
        stacking=True,
    )
    state.apply(0, Play(0, BLUE))
    assert state.pending == 4
    assert Play(0, GREEN) in state.legal_actions(1)
    state.apply(1, Play(0, GREEN))  # holding red_3 (not the colour in play): no bluff in seed
    assert state.pending == 8
    assert Challenge() not in state.legal_actions(2)  # no challenge under the seed rules
    state.apply(2, Draw())
    assert len(state.hands[2]) == 1 + 8 + 1  # rule 11: an empty input adds a penalty card
    assert (state.turn, state.pending, top(state)) == (0, 0, "green_W+4")


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_rule_16_draw_until_playable(rig: Rig, ruleset: str) -> None:
    state = rig(
        [["blue_1"], ["red_2"]],
        "red_5",
        pile=["green_1", "yellow_2", "red_9"],
        ruleset=ruleset,
        draw_until_playable=True,
    )
    state.apply(0, Draw())
    assert hand(state, 0) == ["blue_1", "green_1", "yellow_2", "red_9"]
    if ruleset == "official":
        assert state.turn == 0
        state.apply(0, Play(3))
    assert state.turn == 1


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_rule_17_jump_in_with_an_identical_card(rig: Rig, ruleset: str) -> None:
    state = rig(
        [["blue_1", "blue_2"], ["green_4", "green_5"], ["red_5", "red_1"], ["red_6"]],
        "red_5",
        ruleset=ruleset,
        jump_in=True,
    )
    assert Play(0) in state.legal_actions(2)
    assert state.legal_actions(1) == []  # no identical card
    events = state.apply(2, Play(0))
    assert CardPlayed(2, "red_5", "red", True) in events
    assert state.turn == 3  # play goes on from the jumper
    with pytest.raises(IllegalAction):
        state.apply(0, Play(0))
    plain = rig([["blue_1"], ["red_5", "red_1"]], "red_5", ruleset=ruleset)
    with pytest.raises(IllegalAction, match="not your turn"):
        plain.apply(1, Play(0))


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_rule_18_seven_swaps_and_zero_rotates(rig: Rig, ruleset: str) -> None:
    state = rig(
        [["red_7", "red_1"], ["blue_2"], ["green_3", "green_4", "green_8"]],
        "red_5",
        ruleset=ruleset,
        seven_zero=True,
    )
    targets = {a.target for a in state.legal_actions(0) if isinstance(a, Play) and a.index == 0}
    assert targets == ({1, 2, None} if ruleset == "seed" else {1, 2})  # seed: None is the next
    events = state.apply(0, Play(0, None, 2))
    assert HandsSwapped(0, 2) in events
    assert hand(state, 0) == ["green_3", "green_4", "green_8"]
    assert hand(state, 2) == ["red_1"]
    zero = rig(
        [["red_0", "red_1"], ["blue_2"], ["green_3", "green_4"]],
        "red_5",
        ruleset=ruleset,
        seven_zero=True,
    )
    events = zero.apply(0, Play(0))
    assert HandsRotated(1) in events
    assert [hand(zero, i) for i in range(3)] == [["green_3", "green_4"], ["red_1"], ["blue_2"]]


@pytest.mark.parametrize("uno_call", [False, True])
def test_rule_18_uno_goes_to_whoever_holds_one_card_after_a_swap(rig: Rig, uno_call: bool) -> None:
    state = rig(
        [["red_7", "red_1"], ["blue_2", "blue_3", "blue_4"], ["green_3", "green_4"]],
        "red_5",
        seven_zero=True,
        uno_call=uno_call,
    )
    events = state.apply(0, Play(0, None, 1))
    assert hand(state, 1) == ["red_1"]
    announced = [e.seat for e in events if isinstance(e, UnoAnnounced)]
    assert announced == [1]  # not seat 0, who now holds three cards
    assert not any(isinstance(a, CatchUno) for s in range(3) for a in state.legal_actions(s))


@pytest.mark.parametrize("uno_call", [False, True])
def test_rule_18_a_zero_announces_every_hand_rotated_down_to_one(rig: Rig, uno_call: bool) -> None:
    state = rig(
        [["red_0", "red_1"], ["blue_2", "blue_3"], ["green_3"]],
        "red_5",
        seven_zero=True,
        uno_call=uno_call,
    )
    events = state.apply(0, Play(0))
    assert [len(state.hands[s]) for s in range(3)] == [1, 1, 2]
    assert sorted(e.seat for e in events if isinstance(e, UnoAnnounced)) == [0, 1]
    # Seat 2, who played nothing, now holds two cards: nobody can be caught.
    assert not any(isinstance(a, CatchUno) for s in range(3) for a in state.legal_actions(s))


@pytest.mark.parametrize("direction", [1, -1])
def test_rule_18_seed_seven_without_a_target_swaps_with_the_next_player(
    rig: Rig, direction: int
) -> None:
    state = rig(
        [["red_7", "red_1"], ["blue_2"], ["green_3", "green_4"]],
        "red_5",
        ruleset="seed",
        seven_zero=True,
    )
    state.direction = direction
    following = 1 if direction == 1 else 2
    events = state.apply(0, Play(0))
    assert HandsSwapped(0, following) in events
    assert hand(state, following) == ["red_1"]
    assert state.turn == following


def test_rule_18_official_seven_needs_a_target(rig: Rig) -> None:
    state = rig([["red_7", "red_1"], ["blue_2"]], "red_5", seven_zero=True)
    with pytest.raises(IllegalAction, match="swap"):
        state.apply(0, Play(0))
