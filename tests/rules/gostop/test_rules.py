"""One test (or a few) per numbered rule of docs/rules/gostop.md: rules 6-16, the turn machine,
on arranged positions (a card's match, flips, ppuk, jjok, ttadak, sweeps, the last card, bombs,
shakes, steals, instant points); then refusals, views and snapshots. The cards and scoring
(rules 1-2, 17-24) are in test_cards_and_scoring.py, the deal (rules 2-5) in test_deal.py, Go
and Stop (rules 22-26) in test_go_stop.py."""

import pytest

from rules.engine import GameOver, IllegalAction, Outcome
from rules.gostop import Bomb, ChongtongChoice, Go, Phase, Play, Stop, TakeFlip, new, restore
from rules.gostop.cards import CARDS, parse_hwatu
from rules.gostop.events import CardPlayed, Flipped, InstantPoints, Shook, Stolen
from tests.rules.gostop.helpers import (
    FILL0,
    FILL1,
    arrange,
    chongtong_deal,
    floor_codes,
    near_seven,
    pile_codes,
    specials,
)

C = parse_hwatu


# ----------------------------------------------------------------------------- a turn


def test_rule_6_played_card_takes_its_match_or_stays() -> None:
    state = arrange((("1광", *FILL0), FILL1), ["1피a", "7띠"], ["9피a", "5피a"])
    state.apply(0, Play(C("1광")))
    assert pile_codes(state, 0) == ["1광", "1피a"]
    assert floor_codes(state) == ["7띠", "9피a"]
    state = arrange((("3광", *FILL0), FILL1), ["7띠"], ["9피a", "5피a"])
    state.apply(0, Play(C("3광")))
    assert floor_codes(state) == ["3광", "7띠", "9피a"]


def test_rule_6_two_floor_cards_of_different_kinds_ask_which() -> None:
    state = arrange((("2띠", *FILL0), FILL1), ["2열", "2피a"], ["9피a", "5피a"])
    assert Play(C("2띠"), C("2열")) in state.legal_actions(0)
    assert Play(C("2띠")) not in state.legal_actions(0)
    with pytest.raises(IllegalAction) as info:
        state.apply(0, Play(C("2띠")))
    assert info.value.code == "choose_target"
    state.apply(0, Play(C("2띠"), C("2열")))
    assert pile_codes(state, 0) == sorted(["2열", "2띠"])
    assert "2피a" in floor_codes(state)


def test_rule_6_two_floor_cards_of_the_same_kind_need_no_choice() -> None:
    state = arrange((("3광", *FILL0), FILL1), ["3피a", "3피b"], ["9피a", "5피a"])
    assert [a for a in state.legal_actions(0) if a.card.code == "3광"] == [Play(C("3광"))]
    with pytest.raises(IllegalAction):
        state.apply(0, Play(C("3광"), C("3피a")))
    state.apply(0, Play(C("3광")))
    assert len([c for c in pile_codes(state, 0) if c.startswith("3")]) == 2


def test_rule_6_a_stack_of_three_is_taken_whole() -> None:
    state = arrange(
        (("4피b", *FILL0), FILL1),
        ["4열", "4띠", "4피a"],
        ["9피a", "5피a"],
        stacks={4: 1},
        captured=((), ("1피a",)),
    )
    state.apply(0, Play(C("4피b")))
    assert {"4열", "4띠", "4피a", "4피b", "1피a"} == set(pile_codes(state, 0))


def test_rule_7_flip_matches_and_asks_when_two_differ() -> None:
    state = arrange((("8광", *FILL0), FILL1), ["6열"], ["6피a", "5피a"])
    state.apply(0, Play(C("8광")))
    assert pile_codes(state, 0) == ["6열", "6피a"]
    state = arrange((("8광", *FILL0), FILL1), ["12열", "12띠"], ["12쌍피", "5피a"])
    state.apply(0, Play(C("8광")))
    assert state.phase == Phase.FLIP_CHOICE and state.current_seat == 0
    view = state.view(0)
    assert view.flipped is C("12쌍피")
    assert state.legal_actions(0) == [TakeFlip(C("12열")), TakeFlip(C("12띠"))]
    with pytest.raises(IllegalAction):
        state.apply(0, TakeFlip(C("1광")))
    state.apply(0, TakeFlip(C("12띠")))
    assert pile_codes(state, 0) == ["12띠", "12쌍피"]
    assert state.current_seat == 1


def test_rule_8_ppuk_leaves_a_stack_owned_by_the_player() -> None:
    state = arrange((("5열", *FILL0), FILL1), ["5띠"], ["5피a", "9피a"])
    events = state.apply(0, Play(C("5열")))
    assert "ppuk" in specials(events)
    month5 = next(entry for entry in state.view(None).floor if entry[0] == 5)
    assert len(month5[1]) == 3 and month5[2] == 0
    assert pile_codes(state, 0) == []


@pytest.mark.parametrize(("owner", "stolen"), [(1, 1), (0, 2)])
def test_rule_8_taking_a_ppuk_stack_steals_one_or_two_if_own(owner: int, stolen: int) -> None:
    state = arrange(
        (("5피b", *FILL0), FILL1),
        ["5열", "5띠", "5피a"],
        ["9피a", "1피b"],
        stacks={5: owner},
        captured=((), ("1피a", "2피a", "3피a")),
    )
    events = state.apply(0, Play(C("5피b")))
    assert len([e for e in events if isinstance(e, Stolen)]) == stolen


def test_rule_9_jjok_steals_one() -> None:
    state = arrange(
        (("6열", *FILL0), FILL1), ["7띠"], ["6피a", "9피a"], captured=((), ("1피a", "2피a"))
    )
    events = state.apply(0, Play(C("6열")))
    assert specials(events) == ["jjok"]
    assert set(pile_codes(state, 0)) == {"6열", "6피a", "1피a"}


def test_rule_10_ttadak_takes_four_and_steals_one() -> None:
    state = arrange(
        (("7열", *FILL0), FILL1),
        ["7띠", "7피a", "1광"],
        ["7피b", "9피a"],
        captured=((), ("1피a",)),
    )
    events = state.apply(0, Play(C("7열"), C("7띠")))
    assert specials(events) == ["ttadak"]
    assert set(pile_codes(state, 0)) == {"7열", "7띠", "7피a", "7피b", "1피a"}


def test_rule_10_two_different_pairs_are_not_ttadak() -> None:
    state = arrange(
        (("7열", *FILL0), FILL1),
        ["7띠", "8피a", "1광"],
        ["8피b", "9피a"],
        captured=((), ("1피a",)),
    )
    events = state.apply(0, Play(C("7열")))
    assert specials(events) == []
    assert not any(isinstance(e, Stolen) for e in events)
    assert set(pile_codes(state, 0)) == {"7열", "7띠", "8피a", "8피b"}


def test_rule_11_sweep_steals_one_and_steals_add_up() -> None:
    state = arrange(
        (("1광", *FILL0), FILL1), ["1피a"], ["9피a", "5피a"], captured=((), ("2피a", "3피a"))
    )
    # The flip (9피a) stays, so no sweep here.
    assert "sweep" not in specials(state.apply(0, Play(C("1광"))))
    state = arrange(
        (("1광", *FILL0), FILL1), ["1피a", "9피b"], ["9피a", "5피a"], captured=((), ("2피a",))
    )
    events = state.apply(0, Play(C("1광")))
    assert specials(events) == ["sweep"]
    # jjok + sweep = 2 on an empty floor.
    state = arrange(
        (("6열", *FILL0), FILL1), [], ["6피a", "5피a"], captured=((), ("2피a", "3피a", "4피a"))
    )
    events = state.apply(0, Play(C("6열")))
    assert specials(events) == ["jjok", "sweep"]
    assert len([e for e in events if isinstance(e, Stolen)]) == 2


def test_rule_12_last_card_ppuk_takes_all_three_and_nothing_is_stolen() -> None:
    state = arrange((("5열",), FILL1), ["5띠"], ["5피a", "9피a", "8피a"], captured=((), ("1피a",)))
    events = state.apply(0, Play(C("5열")))
    assert "ppuk" not in specials(events)
    assert pile_codes(state, 0) == sorted(["5열", "5띠", "5피a"])
    assert not any(isinstance(e, Stolen) for e in events)


def test_rule_12_last_card_jjok_and_sweep_steal_nothing() -> None:
    state = arrange((("6열",), FILL1), [], ["6피a", "5피a", "8피a"], captured=((), ("2피a",)))
    events = state.apply(0, Play(C("6열")))
    assert specials(events) == []
    assert pile_codes(state, 0) == ["6열", "6피a"]


def test_rule_12_last_card_ttadak_steals_nothing() -> None:
    state = arrange(
        (("7열",), FILL1), ["7띠", "7피a"], ["7피b", "5피a", "8피a"], captured=((), ("2피a",))
    )
    events = state.apply(0, Play(C("7열"), C("7띠")))
    assert not any(isinstance(e, Stolen) for e in events)
    assert len(pile_codes(state, 0)) == 4


def test_rule_4_a_flip_takes_a_dealt_stack_with_a_steal() -> None:
    state = arrange(
        (("3광", *FILL0), ("4열", "4띠")),
        ["11광", "11피a", "11피b", "1광"],
        ["11쌍피", "5피a"],
        stacks={11: -1},
        captured=((), ("1피a", "2피a")),
    )
    events = state.apply(0, Play(C("3광")))
    assert specials(events) == ["stack"]
    assert set(pile_codes(state, 0)) == {"11광", "11피a", "11피b", "11쌍피", "1피a"}
    assert pile_codes(state, 1) == ["2피a"]
    assert all(month != 11 for month, _, _ in state.view(None).floor)


@pytest.mark.parametrize("owner", [-1, 0, 1])
def test_rule_12_last_card_onto_a_stack_steals_nothing(owner: int) -> None:
    # A dealt stack (rule 4) or a ppuk stack (rule 8): taken whole, nothing stolen.
    state = arrange(
        (("11쌍피",), ("4열", "4띠")),
        ["11광", "11피a", "11피b"],
        ["5피a", "9피a", "8피a"],
        stacks={11: owner},
        captured=((), ("1피a", "2피a")),
    )
    events = state.apply(0, Play(C("11쌍피")))
    assert "stack" in specials(events)
    assert not any(isinstance(e, Stolen) for e in events)
    assert pile_codes(state, 1) == ["1피a", "2피a"]


def test_rule_12_flip_onto_a_dealt_stack_with_the_pile_last_card_steals_nothing() -> None:
    state = arrange(
        (("3광", *FILL0), ("4열", "4띠")),
        ["11광", "11피a", "11피b"],
        ["11쌍피"],
        stacks={11: -1},
        captured=((), ("1피a",)),
    )
    events = state.apply(0, Play(C("3광")))
    assert {"11광", "11피a", "11피b", "11쌍피"} <= set(pile_codes(state, 0))
    assert not any(isinstance(e, Stolen) for e in events)


def test_rule_12_a_bomb_that_flips_the_pile_last_card_steals_nothing() -> None:
    state = arrange(
        (("8광", "8열", "8피a", *FILL0), FILL1),
        ["8피b", "1광"],
        ["9피a"],
        captured=((), ("2피a", "2피b")),
    )
    events = state.apply(0, Bomb(8))
    assert {"8광", "8열", "8피a", "8피b"} <= set(pile_codes(state, 0))
    assert not any(isinstance(e, Stolen) for e in events)
    assert pile_codes(state, 1) == ["2피a", "2피b"]


def test_rule_13_bomb_takes_four_steals_doubles_and_owes_two_flip_turns() -> None:
    state = arrange(
        (("8광", "8열", "8피a", *FILL0), ("11광", "11피a", "11피b")),
        ["8피b", "1광"],
        ["9피a", "3피a", "4피a", "5피a", "6피a"],
        captured=((), ("2피a", "2피b")),
    )
    assert Bomb(8) in state.legal_actions(0)
    assert Play(C("8광")) in state.legal_actions(0)  # or a single card
    state.apply(0, Bomb(8))
    assert {"8광", "8열", "8피a", "8피b", "2피a"} <= set(pile_codes(state, 0))
    view = state.view(0)
    assert view.bombs == (1, 0) and view.flip_turns == (2, 0)
    assert "bomb×1" in view.multipliers[0]
    # Seat 1 plays; seat 0's next turn is a flip only, run by itself.
    hand_before = view.hand_sizes[0]
    state.apply(1, Play(C("11광")))
    assert state.view(0).hand_sizes[0] == hand_before
    assert state.view(0).flip_turns[0] == 1
    assert state.current_seat == 1


def test_rule_13_both_flip_only_turns_run_then_the_bomber_plays_again() -> None:
    state = arrange(
        (("8광", "8열", "8피a", "10열", "10띠"), ("11광", "12광", "12열", "4열")),
        ["8피b", "1광"],
        ["9피a", "3피a", "4피a", "5피a", "6피a", "7피a", "2피a", "3피b"],
    )
    state.apply(0, Bomb(8))
    for flips_left, played, held in ((1, "11광", 3), (0, "12광", 2)):
        events = state.apply(1, Play(C(played)))
        flips = [e for e in events if isinstance(e, Flipped)]
        # Seat 1's flip, then seat 0's flip-only turn with nothing played from hand.
        assert [e.seat for e in flips] == [1, 0]
        assert not any(isinstance(e, CardPlayed) and e.seat == 0 for e in events)
        view = state.view(0)
        assert view.flip_turns == (flips_left, 0) and view.hand_sizes == (2, held)
        assert state.current_seat == 1
    events = state.apply(1, Play(C("12열")))
    assert [e.seat for e in events if isinstance(e, Flipped)] == [1]
    assert state.current_seat == 0 and state.phase == Phase.PLAY
    assert state.legal_actions(0) == [Play(C("10열")), Play(C("10띠"))]


def test_rule_13_bomb_needs_the_fourth_on_the_floor() -> None:
    state = arrange((("8광", "8열", "8피a", *FILL0), FILL1), ["1광"], ["9피a", "3피a"])
    assert Bomb(8) not in state.legal_actions(0)
    with pytest.raises(IllegalAction):
        state.apply(0, Bomb(8))


def test_rule_14_shake_shows_three_and_doubles() -> None:
    state = arrange((("8광", "8열", "8피a", *FILL0), FILL1), ["1광"], ["9피a", "3피a"])
    assert Play(C("8광"), shake=True) in state.legal_actions(0)
    events = state.apply(0, Play(C("8광"), shake=True))
    shook = [e for e in events if isinstance(e, Shook)]
    assert shook and len(shook[0].cards) == 3
    assert state.view(None).shakes == (1, 0)
    state = arrange((("8광", "8열", *FILL0), FILL1), ["1광"], ["9피a", "3피a"])
    with pytest.raises(IllegalAction):
        state.apply(0, Play(C("8광"), shake=True))


def test_rule_15_steals_take_the_lowest_value_pi_and_nothing_without_pi() -> None:
    state = arrange(
        (("6열", *FILL0), FILL1),
        ["7띠"],
        ["6피a", "9피a"],
        captured=((), ("11쌍피", "3피a", "B2a")),
    )
    events = state.apply(0, Play(C("6열")))
    assert [e.card.code for e in events if isinstance(e, Stolen)] == ["3피a"]
    state = arrange(
        (("6열", *FILL0), FILL1), ["7띠"], ["6피a", "9피a"], captured=((), ("9열", "1광"))
    )
    events = state.apply(0, Play(C("6열")))
    assert not any(isinstance(e, Stolen) for e in events)
    assert set(pile_codes(state, 1)) == {"9열", "1광"}


def test_rule_16_first_turn_ppuk_pays_7_and_in_a_row_14() -> None:
    state = arrange(
        (("5열", *FILL0), ("6열", "6띠", *FILL1)),
        ["5띠", "6피a"],
        ["5피a", "9피a", "6피b", "3피a"],
        turns=[0, 0],
    )
    events = state.apply(0, Play(C("5열")))
    paid = [e for e in events if isinstance(e, InstantPoints)]
    assert paid and paid[0].points == 7 and paid[0].total == 7
    state.apply(1, Play(C("11광")))
    state = arrange(
        (("6열", *FILL0), FILL1),
        ["6피a"],
        ["6피b", "9피a"],
        turns=[1, 1],
        opening=[1, 0],
        instant=[7, 0],
        ppuks=[1, 0],
    )
    events = state.apply(0, Play(C("6열")))
    assert state.view(None).instant == (14, 0)


def test_rule_16_a_ppuk_after_a_plain_first_turn_pays_nothing() -> None:
    state = arrange(
        (("6열", *FILL0), FILL1), ["6피a"], ["6피b", "9피a"], turns=[1, 1], opening=[0, 0]
    )
    state.apply(0, Play(C("6열")))
    assert state.view(None).instant == (0, 0)


def test_rule_16_first_turn_ttadak_pays_7() -> None:
    state = arrange((("7열", *FILL0), FILL1), ["7띠", "7피a"], ["7피b", "9피a"], turns=[0, 0])
    state.apply(0, Play(C("7열"), C("7띠")))
    assert state.view(None).instant == (7, 0)


def test_rule_16_three_ppuks_win_with_7_plus_instant_points() -> None:
    state = arrange(
        (("6열", *FILL0), FILL1),
        ["6피a"],
        ["6피b", "9피a"],
        turns=[2, 2],
        opening=[2, 0],
        instant=[14, 3],
        ppuks=[2, 0],
        goes=[0, 1],
    )
    events = state.apply(0, Play(C("6열")))
    assert isinstance(events[-1], GameOver)
    assert state.win_reason == "three-ppuk"
    assert state.result is not None
    assert state.result.outcomes == (Outcome.WIN, Outcome.LOSE)
    assert state.result.scores == (7 + 21, 3)  # no in-game multipliers; go-bak ignored


@pytest.mark.parametrize("carry", [1, 2])
def test_rule_24_a_carried_nagari_doubles_chongtong_and_three_ppuk(carry: int) -> None:
    state = chongtong_deal(dealer=0)
    state = restore({**state.snapshot(), "carry": carry})
    state.apply(0, ChongtongChoice(end=True))
    assert state.result is not None and state.result.scores == (10 << carry, 0)
    state = arrange(
        (("6열", *FILL0), FILL1),
        ["6피a"],
        ["6피b", "9피a"],
        ppuks=[2, 0],
        carry=carry,
    )
    state.apply(0, Play(C("6열")))
    assert state.win_reason == "three-ppuk"
    assert state.result is not None and state.result.scores == (7 << carry, 0)


# ------------------------------------------------------------------ refusals, views and snapshots


def test_illegal_actions_change_nothing() -> None:
    state = arrange((("3광", *FILL0), FILL1), ["9피b"], ["B3", "9피a", "4피a"])
    before = state.snapshot()
    for seat, action in [
        (1, Play(C("11광"))),
        (0, Play(C("1광"))),
        (0, Go()),
        (0, TakeFlip(C("9피b"))),
        (0, Bomb(3)),
    ]:
        with pytest.raises(IllegalAction):
            state.apply(seat, action)
    assert state.snapshot() == before


def test_cards_are_not_revealed_in_views() -> None:
    state = new(2, seed=9)
    view = state.view(0)
    assert view.hand is not None and len(view.hand) == 10
    assert new(2, seed=9).view(None).hand is None
    assert not hasattr(view, "pile")
    assert CARDS[0].code == "1광"


def test_snapshots_of_other_games_or_damaged_ones_are_refused() -> None:
    from rules.engine import SnapshotError

    good = new(2, seed=4).snapshot()
    for damage in (
        {"game": "uno"},
        {"schema": 99},
        {"hands": "x"},
        {"floor": [0, 0]},
        {"pile": [99]},
    ):
        with pytest.raises(SnapshotError):
            restore({**good, **damage})
    finished = near_seven(("1피b", *FILL0), ["12광", "3광"])
    finished.apply(0, Play(C("1피b")))
    finished.apply(0, Stop())
    again = restore(finished.snapshot())
    assert again.result == finished.result
    assert again.settlement == finished.settlement
    assert again.snapshot()["log"] == [["play", C("1피b").index, -1, False], ["stop"]]


def test_a_snapshot_saved_with_the_old_two_steal_counts_still_restores() -> None:
    old = new(2, seed=4).snapshot()
    del old["steals"]
    old.update(steal_firm=1, steal_exempt=2)
    assert restore(old).snapshot()["steals"] == 3
