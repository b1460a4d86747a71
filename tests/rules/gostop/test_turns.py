"""Rules 2–16, 22, 25, 26: the deal and the turn machine, on arranged positions."""

import pytest

from rules.engine import GameOver, IllegalAction, Outcome
from rules.gostop import Bomb, ChongtongChoice, Go, Phase, Play, Stop, TakeFlip, new, restore
from rules.gostop.cards import CARDS, DECK, Kind, parse_hwatu
from rules.gostop.state import (
    CardPlayed,
    Flipped,
    GostopState,
    InstantPoints,
    Shook,
    Special,
    Stolen,
    Stopped,
    _deal,
)
from tests.rules.gostop.helpers import arrange, codes, floor_codes, ids, pile_codes

C = parse_hwatu
FILL0 = ("10열", "10띠")  # filler cards that keep a hand from being its last
FILL1 = ("11광", "11피a")


def specials(events: list[object]) -> list[str]:
    return [e.name for e in events if isinstance(e, Special)]


# ----------------------------------------------------------------------------- deal and start


def test_rule_3_deal_sizes_and_dealer_moves_first() -> None:
    for seed in range(20):
        state = new(2, seed=seed)
        view = state.view(None)
        assert view.hand_sizes == (10, 10)
        assert sum(len(cards) for _, cards, _ in view.floor) == 8
        assert view.pile_size == 20
        if state.phase == Phase.PLAY:
            assert state.current_seat == state.dealer
    dealers = {new(2, seed=seed).dealer for seed in range(20)}
    assert dealers == {0, 1}  # the first game's dealer is random
    assert new(2, seed=3, options={"dealer": 1}).dealer == 1


def test_rule_3_winner_deals_next_and_dealer_stays_after_nagari() -> None:
    state = arrange(
        (("1광",), ("5열",)),
        ["7띠"],
        ["8피a", "9피a"],
        seat=0,
    )
    state.apply(0, Play(C("1광")))
    state.apply(1, Play(C("5열")))
    assert state.win_reason == "nagari"
    assert state.next_options() == {"bonus_cards": 0, "dealer": 0, "nagari_carry": 1}


def test_rule_3_deal_is_seeded() -> None:
    assert new(2, seed=42).snapshot() == new(2, seed=42).snapshot()
    assert new(2, seed=42).snapshot() != new(2, seed=43).snapshot()


def _deal_order(hand0: list[str], hand1: list[str], floor: list[str]) -> list[int]:
    """A card list that ``_deal`` (dealer 0) turns into these hands and floor."""
    rest = [c.index for c in DECK if c.code not in {*hand0, *hand1, *floor}]
    order: list[int] = []
    h0, h1, fl = ids(hand0), ids(hand1), ids(floor)
    for i in range(10):
        order += [h0[i], h1[i]]
        if i < 8:
            order.append(fl[i])
    return rest + list(reversed(order))


HAND0 = ["1광", "1띠", "2열", "2띠", "3광", "3띠", "4열", "4띠", "5열", "5띠"]
HAND1 = ["6열", "6띠", "7열", "7띠", "8광", "8열", "9열", "9띠", "10열", "10띠"]


def test_rule_4_four_of_a_month_on_the_floor_is_a_nagari_deal() -> None:
    state = new(2, seed=1, options={"dealer": 0})
    floor = ["11광", "11피a", "11피b", "11쌍피", "12광", "12열", "12띠", "12쌍피"]
    assert not _deal(state, _deal_order(HAND0, HAND1, floor))


def test_rule_4_three_of_a_month_dealt_form_a_stack_taken_with_a_steal() -> None:
    state = new(2, seed=1, options={"dealer": 0})
    floor = ["11광", "11피a", "11피b", "12광", "6피a", "1피a", "2피a", "3피a"]
    hand0 = ["11쌍피", *HAND0[1:]]
    assert _deal(state, _deal_order(hand0, HAND1, floor))
    assert state.view(None).floor[-2][2] == -1  # month 11: a dealt stack
    data = state.snapshot()
    stolen = next(c for c in data["pile"] if CARDS[c].kind is Kind.JUNK)
    data["pile"].remove(stolen)
    data["captured"] = [[], [stolen]]
    state = restore(data)
    events = state.apply(0, Play(C("11쌍피")))
    assert {"11광", "11피a", "11피b", "11쌍피"} <= set(pile_codes(state, 0))
    assert [e.card.index for e in events if isinstance(e, Stolen)] == [stolen]


def _chongtong_deal(dealer: int) -> GostopState:
    """Seat 0 dealt all four cards of January; seat ``dealer`` deals."""
    hand0 = ["1광", "1띠", "1피a", "1피b", *HAND0[4:]]
    floor = ["11광", "11피a", "11피b", "12광", "12열", "6피a", "2피a", "3피a"]
    hand0 = [c for c in hand0 if c not in floor]
    hand0 += ["7피a", "7피b", "8피a", "8피b"][: 10 - len(hand0)]
    state = new(2, seed=1, options={"dealer": dealer})
    hands = (hand0, HAND1) if dealer == 0 else (HAND1, hand0)
    assert _deal(state, _deal_order(*hands, floor))
    return state


def _whole_turn(state: GostopState, seat: int, action: Play) -> None:
    """Play ``action``, taking the first choice if the flip asks for one."""
    state.apply(seat, action)
    while state.phase == Phase.FLIP_CHOICE:
        state.apply(seat, state.legal_actions(seat)[0])


def test_rule_5_chongtong_ends_with_10_points_or_plays_on() -> None:
    state = _chongtong_deal(dealer=0)
    assert state.phase == Phase.CHONGTONG and state.current_seat == 0
    assert state.legal_actions(0) == [ChongtongChoice(False), ChongtongChoice(True)]
    snap = state.snapshot()
    events = state.apply(0, ChongtongChoice(end=True))
    assert isinstance(events[-1], GameOver)
    assert state.result is not None and state.result.scores == (10, 0)
    assert state.win_reason == "chongtong"
    state = restore(snap)
    assert state.apply(0, ChongtongChoice(end=False)) == []
    assert state.phase == Phase.PLAY and state.current_seat == 0
    _whole_turn(state, 0, Play(C("1광")))
    assert state.current_seat == 1
    _whole_turn(state, 1, Play(C("6열")))
    assert state.phase == Phase.PLAY and state.current_seat == 0  # played on: not asked again


def test_rule_5_a_non_dealer_is_asked_at_the_start_of_their_first_turn() -> None:
    # Asked before the dealer moved, the dealer would see who holds a chongtong.
    state = _chongtong_deal(dealer=1)
    assert state.phase == Phase.PLAY and state.current_seat == 1
    _whole_turn(state, 1, Play(C("6열")))
    assert state.phase == Phase.CHONGTONG and state.current_seat == 0
    state.apply(0, ChongtongChoice(end=True))
    assert state.result is not None and state.result.winners == (0,)


@pytest.mark.parametrize("dealer", [0, 1])
def test_rule_5_the_chongtong_choice_is_hidden_from_the_opponent(dealer: int) -> None:
    state = _chongtong_deal(dealer)
    if dealer == 1:
        _whole_turn(state, 1, Play(C("6열")))
    assert state.view(0).phase == Phase.CHONGTONG
    for seat in (1, None):
        # An ordinary turn start of seat 0's, as it would be without the chongtong.
        view = state.view(seat)
        assert (view.phase, view.current_seat, view.legal) == (Phase.PLAY, 0, ())
    # Playing on changes nothing the others see.
    before = (state.view(1), state.view(None))
    state.apply(0, ChongtongChoice(end=False))
    assert (state.view(1), state.view(None)) == before


def test_rule_5_chongtong_in_both_hands_is_a_nagari_deal() -> None:
    hand0 = ["1광", "1띠", "1피a", "1피b", "2열", "2띠", "2피a", "2피b", "3광", "3띠"]
    hand1 = ["4열", "4띠", "4피a", "4피b", "5열", "5띠", "5피a", "5피b", "6열", "6띠"]
    floor = ["11광", "11피a", "11피b", "12광", "12열", "7피a", "8피a", "9피a"]
    state = new(2, seed=1, options={"dealer": 0})
    assert not _deal(state, _deal_order(hand0, hand1, floor))


def test_rule_4_and_5_nagari_deals_are_redealt_with_the_carry_doubled() -> None:
    redealt = [s for s in range(600) if new(2, seed=s).nagari_carry == 1]
    assert redealt  # some seeds deal a nagari first
    assert all(new(2, seed=s, options={"nagari_carry": 2}).nagari_carry == 3 for s in redealt)


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
    state = _chongtong_deal(dealer=0)
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


# ----------------------------------------------------------------------------- go and stop

# Plain pi of months 3–9: worth 14, five points; one more pair makes seven.
FIVE_POINTS = [f"{m}피{x}" for m in range(3, 10) for x in "ab"]


def _near_seven(hand0: tuple[str, ...], pile: list[str], **fields: object) -> GostopState:
    return arrange(
        (hand0, FILL1),
        ["1피a", "8광"],
        pile,
        captured=(FIVE_POINTS, ()),
        **fields,
    )


def test_rule_22_reaching_7_asks_go_or_stop() -> None:
    state = _near_seven(("1피b", *FILL0), ["12광", "3광"])
    state.apply(0, Play(C("1피b")))
    assert state.phase == Phase.GO_STOP and state.current_seat == 0
    assert state.legal_actions(0) == [Stop(), Go()]
    with pytest.raises(IllegalAction):
        state.apply(0, Play(C("10열")))
    events = state.apply(0, Stop())
    assert isinstance(events[-1], GameOver)
    assert state.settlement is not None and state.settlement.base == 7
    assert state.result is not None and state.result.scores == (7, 0)


def test_rule_22_re_go_needs_a_higher_score() -> None:
    state = arrange(
        (("1피b", "2피b", "5띠", *FILL0), ("11광", "11피a", "12열")),
        ["1피a", "2피a", "5열", "8광"],
        ["12광", "3광", "12띠", "4띠", "3띠", "10피a"],
        captured=(FIVE_POINTS, ()),
    )
    state.apply(0, Play(C("1피b")))
    state.apply(0, Go())
    assert state.view(None).goes == (1, 0) and state.view(None).go_scores == (7, 0)
    state.apply(1, Play(C("11광")))
    state.apply(0, Play(C("5띠")))  # takes a ribbon and an animal: still 7 → not asked
    assert state.phase == Phase.PLAY and state.current_seat == 1
    state.apply(1, Play(C("11피a")))
    state.apply(0, Play(C("2피b")))  # pi 17 → 8 > 7: asked again
    assert state.phase == Phase.GO_STOP and state.current_seat == 0


def test_rule_22_reaching_7_on_the_last_card_stops_by_itself() -> None:
    state = _near_seven(("1피b",), ["12광", "3광", "10피b"])
    events = state.apply(0, Play(C("1피b")))
    stopped = [e for e in events if isinstance(e, Stopped)]
    assert stopped and stopped[0].automatic
    assert state.is_over and state.win_reason == "stop"


def test_rule_25_pile_running_out_is_nagari_even_after_a_go() -> None:
    state = arrange(
        (("3광",), ("5열",)),
        ["7띠"],
        ["10피a", "11피b"],
        captured=([*FIVE_POINTS, "1피b", "1피a"], ()),
        goes=[1, 0],
        go_score=[7, 0],
    )
    state.apply(0, Play(C("3광")))
    events = state.apply(1, Play(C("5열")))
    assert isinstance(events[-1], GameOver)
    assert state.win_reason == "nagari"
    assert state.result is not None
    assert state.result.outcomes == (Outcome.DRAW, Outcome.DRAW)
    assert state.next_options()["nagari_carry"] == 1


def test_rule_26_final_points_add_instant_points_and_loser_keeps_theirs() -> None:
    state = _near_seven(("1피b", *FILL0), ["12광", "3광"], instant=[7, 14], goes=[0, 1])
    state.apply(0, Play(C("1피b")))
    state.apply(0, Stop())
    assert state.settlement is not None
    assert state.settlement.baks == ("go-bak",)
    assert state.result is not None
    assert state.result.scores == (7 * 2 + 7, 14)


def test_rule_24_nagari_carry_doubles_the_winner() -> None:
    state = _near_seven(("1피b", *FILL0), ["12광", "3광"], carry=1)
    state.apply(0, Play(C("1피b")))
    state.apply(0, Stop())
    assert state.result is not None and state.result.scores == (14, 0)


# ----------------------------------------------------------------------------- bonus cards


def test_rule_2_bonus_from_hand_is_taken_steals_and_draws_a_replacement() -> None:
    state = arrange(
        (("B2a", *FILL0), FILL1), ["7띠"], ["3광", "9피a", "4피a"], captured=((), ("1피a",))
    )
    events = state.apply(0, Play(C("B2a")))
    assert [e.card.code for e in events if isinstance(e, Stolen)] == ["1피a"]
    assert state.current_seat == 0 and state.phase == Phase.PLAY
    view = state.view(0)
    assert view.hand is not None and C("3광") in view.hand  # the replacement
    assert view.hand_sizes[0] == 3


def test_rule_2_flipped_bonus_is_taken_and_another_card_flipped() -> None:
    state = arrange((("3광", *FILL0), FILL1), ["9피b"], ["B3", "9피a", "4피a"])
    state.apply(0, Play(C("3광")))
    assert set(pile_codes(state, 0)) == {"B3", "9피a", "9피b"}


@pytest.mark.parametrize("dealer", [0, 1])
def test_rule_2_a_bonus_dealt_to_the_floor_goes_to_the_dealer(dealer: int) -> None:
    state = new(2, seed=1, options={"dealer": dealer, "bonus_cards": 2})
    floor = ["B2a", "11피a", "11피b", "12광", "6피a", "1피a", "2피a", "3피a"]
    cards = _deal_order(HAND0, HAND1, floor)
    total = len(cards)
    replacement = cards[-29]  # the pile's top once 28 cards are dealt
    assert _deal(state, cards)
    view = state.view(None)
    assert codes(view.piles[dealer].pi) == ["B2a"] and view.piles[1 - dealer].pi == ()
    on_floor = {c.index for _, cs, _ in view.floor for c in cs}
    assert len(on_floor) == 8 and replacement in on_floor and C("B2a").index not in on_floor
    assert view.pile_size == total - 29


def test_rule_2_bonus_option_adds_cards_to_the_deal() -> None:
    for bonus, total in ((0, 48), (2, 50), (3, 51)):
        view = new(2, seed=5, options={"bonus_cards": bonus}).view(None)
        counted = (
            sum(view.hand_sizes)
            + view.pile_size
            + sum(len(cards) for _, cards, _ in view.floor)
            + sum(len(p.pi) + len(p.brights) for p in view.piles)
        )
        assert counted == total


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


def test_rule_14_a_shake_doubles_the_winner_in_play() -> None:
    state = _near_seven(("1피b", *FILL0), ["12광", "3광"], shakes=[1, 0])
    state.apply(0, Play(C("1피b")))
    state.apply(0, Stop())
    assert state.result is not None and state.result.scores == (14, 0)
    # The winner deals the next game.
    assert state.next_options() == {"bonus_cards": 0, "dealer": 0, "nagari_carry": 0}


def test_rule_13_a_bomb_doubles_the_winner_in_play() -> None:
    state = _near_seven(("1피b", *FILL0), ["12광", "3광"], bombs=[1, 0])
    state.apply(0, Play(C("1피b")))
    state.apply(0, Stop())
    assert state.settlement is not None and state.settlement.multiplier == 2
    assert state.result is not None and state.result.scores == (14, 0)


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
    finished = _near_seven(("1피b", *FILL0), ["12광", "3광"])
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
