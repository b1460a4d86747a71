"""The seed ruleset of docs/rules/uno.md (rules 11-14), one test or more per rule, on tables
dealt by hand: an illegal card or empty input draws a penalty, wilds any time, no winning on
an action card, the first card as it comes."""

from __future__ import annotations

import pytest

from rules.engine import GameOver
from rules.uno import (
    CardPlayed,
    Draw,
    Pass,
    Play,
    RuleBroken,
    Skipped,
)
from rules.uno.cards import CARD_COLOUR
from tests.rules.uno.conftest import Rig
from tests.rules.uno.helpers import BLUE, hand, top


@pytest.mark.parametrize(
    ("action", "reason"),
    [(Play(0), "not_playable"), (Play(9), "no_such_card"), (Play(-1), "no_such_card")],
)
def test_rule_11_illegal_play_draws_a_penalty_and_passes(
    rig: Rig, action: Play, reason: str
) -> None:
    state = rig([["blue_1", "green_2"], ["red_2"]], "red_5", ruleset="seed", pile=["red_7"])
    events = state.apply(0, action)
    assert RuleBroken(0, reason) in events
    assert hand(state, 0) == ["blue_1", "green_2", "red_7"]
    assert state.turn == 1
    assert top(state) == "red_5"


def test_rule_11_empty_input_draws_and_never_plays_the_drawn_card(rig: Rig) -> None:
    state = rig([["blue_1"], ["red_2"]], "red_5", ruleset="seed", pile=["red_7"])
    assert Pass() not in state.legal_actions(0)
    state.apply(0, Draw())
    assert hand(state, 0) == ["blue_1", "red_7"]
    assert state.turn == 1


@pytest.mark.parametrize("answer", [Draw(), Play(0)])
def test_rule_11_under_stacking_empty_input_and_illegal_card_both_add_the_penalty_card(
    rig: Rig, answer: Draw | Play
) -> None:
    # Facing a stacked +2, an empty input (Draw) is rule 11's penalty just as an illegal
    # card is: the pending two and one penalty card.
    state = rig(
        [["red_+2", "red_1"], ["blue_3", "green_4"], ["yellow_1"]],
        "red_5",
        ruleset="seed",
        stacking=True,
    )
    state.apply(0, Play(0))
    assert state.pending == 2
    state.apply(1, answer)
    assert len(state.hands[1]) == 2 + 2 + 1
    assert state.pending == 0
    assert state.turn == 2


def test_rule_12_wilds_any_time_and_random_missing_colour(rig: Rig) -> None:
    state = rig([["none_W+4", "red_1"], ["blue_2"], ["red_3"]], "red_5", ruleset="seed")
    state.apply(0, Play(0))  # holding red: still allowed, and no colour given
    assert CARD_COLOUR[state.top] == 4
    assert state.colour in (0, 1, 2, 3)
    assert len(state.hands[1]) == 5  # next player draws four and is skipped
    assert state.turn == 2
    colours = set()
    for seed in range(30):
        game = rig([["none_W", "red_1"], ["blue_2"]], "red_5", ruleset="seed", seed=seed)
        game.apply(0, Play(0))
        colours.add(game.colour)
    assert colours == {0, 1, 2, 3}


def test_rule_13_no_winning_on_an_action_card(rig: Rig) -> None:
    state = rig([["red_S"], ["blue_2"], ["red_3"]], "red_5", ruleset="seed", pile=["green_9"])
    events = state.apply(0, Play(0))
    assert not state.is_over
    assert Skipped(1) in events
    assert hand(state, 0) == ["green_9"]
    assert state.turn == 2
    winner = rig([["red_4"], ["blue_2"]], "red_5", ruleset="seed")
    events = winner.apply(0, Play(0))
    assert isinstance(events[-1], GameOver)
    assert winner.result is not None
    assert winner.result.winners == (0,)


@pytest.mark.parametrize(
    ("last", "colour", "after"),  # after: seat 1's card count, the next turn, the direction
    [
        ("red_+2", None, (1 + 2, 2, 1)),  # seat 1 draws two and is skipped
        ("red_R", None, (1, 2, -1)),  # reversed: seat 2 is next the other way
        ("none_W", BLUE, (1, 1, 1)),
        ("none_W+4", BLUE, (1 + 4, 2, 1)),  # seat 1 draws four and is skipped
    ],
)
def test_rule_13_a_last_action_card_acts_then_its_player_draws(
    rig: Rig, last: str, colour: int | None, after: tuple[int, int, int]
) -> None:
    victim_draws = ["yellow_1", "yellow_2", "yellow_3", "yellow_4"][: after[0] - 1]
    state = rig(
        [[last], ["blue_2"], ["red_3"]], "red_5", ruleset="seed", pile=[*victim_draws, "green_9"]
    )
    events = state.apply(0, Play(0, colour))
    assert not state.is_over
    assert not any(isinstance(e, GameOver) for e in events)
    assert CardPlayed(0, last, top(state).partition("_")[0]) in events
    assert hand(state, 0) == ["green_9"]  # the card drawn after the effect
    assert (len(state.hands[1]), state.turn, state.direction) == after
    if colour is not None:
        assert state.colour == colour


def test_rule_14_seed_first_card_as_it_comes(rig: Rig) -> None:
    skip = rig([["red_1"], ["red_2"]], first="red_S", ruleset="seed", turn=0)
    assert skip.turn == 0
    draw = rig([["red_1"], ["red_2"]], first="red_+2", ruleset="seed", turn=0)
    assert len(draw.hands[0]) == 1
    wild = rig([["blue_1", "red_1"], ["red_2"]], first="none_W+4", ruleset="seed", turn=0)
    assert top(wild) == "none_W+4"
    assert Play(0) in wild.legal_actions(0)
    assert Play(1) in wild.legal_actions(0)
    wild.apply(0, Play(0))
    assert top(wild) == "blue_1"
