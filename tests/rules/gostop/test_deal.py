"""Rules 2-5 of docs/rules/gostop.md: the deal, who deals, a nagari deal, chongtong, and the
bonus cards, on arranged positions."""

import pytest

from rules.engine import GameOver
from rules.gostop import ChongtongChoice, Phase, Play, new, restore
from rules.gostop.cards import CARDS, Kind, parse_hwatu
from rules.gostop.events import Stolen
from rules.gostop.state import State, _deal
from tests.rules.gostop.helpers import (
    FILL0,
    FILL1,
    HAND0,
    HAND1,
    arrange,
    chongtong_deal,
    codes,
    deal_order,
    pile_codes,
)

C = parse_hwatu


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


def test_rule_4_four_of_a_month_on_the_floor_is_a_nagari_deal() -> None:
    state = new(2, seed=1, options={"dealer": 0})
    floor = ["11광", "11피a", "11피b", "11쌍피", "12광", "12열", "12띠", "12쌍피"]
    assert not _deal(state, deal_order(HAND0, HAND1, floor))


def test_rule_4_three_of_a_month_dealt_form_a_stack_taken_with_a_steal() -> None:
    state = new(2, seed=1, options={"dealer": 0})
    floor = ["11광", "11피a", "11피b", "12광", "6피a", "1피a", "2피a", "3피a"]
    hand0 = ["11쌍피", *HAND0[1:]]
    assert _deal(state, deal_order(hand0, HAND1, floor))
    assert state.view(None).floor[-2][2] == -1  # month 11: a dealt stack
    data = state.snapshot()
    stolen = next(c for c in data["pile"] if CARDS[c].kind is Kind.JUNK)
    data["pile"].remove(stolen)
    data["captured"] = [[], [stolen]]
    state = restore(data)
    events = state.apply(0, Play(C("11쌍피")))
    assert {"11광", "11피a", "11피b", "11쌍피"} <= set(pile_codes(state, 0))
    assert [e.card.index for e in events if isinstance(e, Stolen)] == [stolen]


def _whole_turn(state: State, seat: int, action: Play) -> None:
    """Play ``action``, taking the first choice if the flip asks for one."""
    state.apply(seat, action)
    while state.phase == Phase.FLIP_CHOICE:
        state.apply(seat, state.legal_actions(seat)[0])


def test_rule_5_chongtong_ends_with_10_points_or_plays_on() -> None:
    state = chongtong_deal(dealer=0)
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
    state = chongtong_deal(dealer=1)
    assert state.phase == Phase.PLAY and state.current_seat == 1
    _whole_turn(state, 1, Play(C("6열")))
    assert state.phase == Phase.CHONGTONG and state.current_seat == 0
    state.apply(0, ChongtongChoice(end=True))
    assert state.result is not None and state.result.winners == (0,)


@pytest.mark.parametrize("dealer", [0, 1])
def test_rule_5_the_chongtong_choice_is_hidden_from_the_opponent(dealer: int) -> None:
    state = chongtong_deal(dealer)
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
    assert not _deal(state, deal_order(hand0, hand1, floor))


def test_rule_4_and_5_nagari_deals_are_redealt_with_the_carry_doubled() -> None:
    redealt = [s for s in range(600) if new(2, seed=s).nagari_carry == 1]
    assert redealt  # some seeds deal a nagari first
    assert all(new(2, seed=s, options={"nagari_carry": 2}).nagari_carry == 3 for s in redealt)


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
    cards = deal_order(HAND0, HAND1, floor)
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
