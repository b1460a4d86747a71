"""The computer player: keeps wilds, plays its strongest colour, attacks the player about to win."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.uno import Colour, Draw, Pass, Play, State, new
from rules.uno.ai import choose_action
from rules.uno.cards import CARD_CODES
from rules.uno.state import HOUSE_RULES

Rig = Callable[..., State]


def chosen_card(state: State) -> tuple[str, Play]:
    action = choose_action(state.view(state.turn))
    assert isinstance(action, Play)
    return CARD_CODES[state.hands[state.turn][action.index]], action


def test_keeps_wilds_while_another_card_plays(rig: Rig) -> None:
    state = rig(
        [["none_W", "none_W+4", "red_3", "blue_9"], ["green_1", "blue_1", "blue_2"]], "red_5"
    )
    card, _ = chosen_card(state)
    assert card == "red_3"


def test_plays_a_wild_when_needed_naming_its_strongest_colour(rig: Rig) -> None:
    state = rig(
        [["none_W", "blue_1", "blue_2", "green_3"], ["yellow_1", "yellow_2", "yellow_4"]],
        "red_5",
    )
    card, action = chosen_card(state)
    assert card == "none_W"
    assert action.colour == 2  # blue, held twice


def test_prefers_the_colour_it_holds_most(rig: Rig) -> None:
    state = rig(
        [["red_5", "blue_5", "blue_1", "blue_7"], ["yellow_1", "yellow_2", "yellow_4"]], "green_5"
    )
    card, _ = chosen_card(state)
    assert card == "blue_5"


def test_attacks_the_player_about_to_win(rig: Rig) -> None:
    calm = rig([["red_+2", "red_4", "red_1"], ["yellow_1", "yellow_2", "yellow_4"]], "red_5")
    assert chosen_card(calm)[0] != "red_+2"  # saved for later
    threat = rig([["red_+2", "red_4", "red_1"], ["yellow_1"]], "red_5")
    assert chosen_card(threat)[0] == "red_+2"
    four = rig([["none_W+4", "none_W", "blue_1"], ["yellow_1"]], "red_5")
    assert chosen_card(four)[0] == "none_W+4"


def test_never_bluffs_a_wild_draw_four_while_holding_the_colour(rig: Rig) -> None:
    # The next player is on one card, yet holding red the W+4 would break rule 5.
    state = rig([["none_W+4", "red_1", "blue_2"], ["yellow_1"]], "red_5")
    assert chosen_card(state)[0] == "red_1"
    drawn = rig([["red_1", "blue_2"], ["yellow_1"]], "red_5", pile=["none_W+4"])
    drawn.apply(0, Draw())
    assert choose_action(drawn.view(0)) == Pass()
    stacked = rig(
        [["none_W+4", "blue_1"], ["none_W+4", "green_2"], ["yellow_1"]],
        "red_5",
        stacking=True,
    )
    stacked.apply(0, Play(0, Colour.GREEN))
    assert choose_action(stacked.view(1)) == Draw()  # no W+4 stacked while holding green
    seed = rig([["none_W+4", "red_1", "blue_2"], ["yellow_1"]], "red_5", ruleset="seed")
    assert chosen_card(seed)[0] == "none_W+4"  # seed rule 12: wilds any time, no bluff


def test_draws_when_nothing_plays_and_keeps_a_drawn_wild(rig: Rig) -> None:
    state = rig([["blue_1"], ["yellow_1", "yellow_2", "yellow_4"]], "red_5", pile=["none_W"])
    assert choose_action(state.view(0)) == Draw()
    state.apply(0, Draw())
    assert choose_action(state.view(0)) == Pass()


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_computer_players_finish_games(ruleset: str) -> None:
    finished = 0
    for seed in range(60):
        house = {rule: bool(seed >> i & 1) for i, rule in enumerate(HOUSE_RULES)}
        state = new(2 + seed % 9, seed=seed, options={"ruleset": ruleset, **house})
        for _ in range(5000):
            if state.is_over:
                finished += 1
                break
            state.apply(state.turn, choose_action(state.view(state.turn)))
    assert finished == 60
