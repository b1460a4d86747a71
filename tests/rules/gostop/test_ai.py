"""The computer player: legal, stronger than random play, and its rules of thumb."""

import random

import pytest

from rules.gostop import Go, Phase, Play, Stop, new
from rules.gostop.ai import choose_action
from rules.gostop.cards import parse_hwatu
from rules.gostop.events import ChongtongChoice, TakeFlip
from rules.gostop.state import State
from tests.rules.gostop.helpers import arrange

C = parse_hwatu
FILL1 = ("11광", "11피a")
FIVE_POINTS = [f"{m}피{x}" for m in range(3, 10) for x in "ab"]


def test_ai_only_plays_legal_actions_and_beats_random_play() -> None:
    wins = losses = 0
    for seed in range(120):
        state = new(2, seed=seed)
        policy = random.Random(seed)
        ai_seat = seed % 2
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            legal = state.legal_actions(seat)
            if seat == ai_seat:
                action = choose_action(state.view(seat))
                assert action in legal
            else:
                action = legal[policy.randrange(len(legal))]
            state.apply(seat, action)
        assert state.result is not None
        wins += state.result.winners == (ai_seat,)
        losses += state.result.winners == (1 - ai_seat,)
    assert wins > 2 * losses


def test_ai_takes_a_bright_rather_than_junk() -> None:
    state = arrange((("1피b", "8피b", "10열"), FILL1), ["1피a", "8광"], ["9피a", "5피a", "4피a"])
    assert choose_action(state.view(0)) == Play(C("8피b"))


def test_ai_takes_the_bird_the_opponent_needs_for_godori() -> None:
    state = arrange(
        (("8피b", "6피b", "10열"), FILL1),
        ["8열", "6피a"],
        ["9피a", "5피a", "4피a"],
        captured=((), ("2열", "4열")),
    )
    assert choose_action(state.view(0)) == Play(C("8피b"))


def test_ai_does_not_leave_a_dan_card_to_the_opponent() -> None:
    # Nothing matches; the opponent holds 홍단 1 and 2, so the 3띠 stays in hand.
    state = arrange(
        (("3띠", "6피b", "10열"), FILL1),
        ["7피a", "12열"],
        ["9피a", "5피a", "4피a"],
        captured=((), ("1띠", "2띠")),
    )
    assert choose_action(state.view(0)) != Play(C("3띠"))


def test_ai_chooses_the_better_floor_card_for_a_flip() -> None:
    state = arrange((("8피b", "10열", "10띠"), FILL1), ["12열", "12띠"], ["12쌍피", "5피a"])
    state.apply(0, Play(C("8피b")))
    assert state.phase == Phase.FLIP_CHOICE
    assert choose_action(state.view(0)) == TakeFlip(C("12열"))


def _at_go(captured1: tuple[str, ...], hand0: tuple[str, ...]) -> State:
    state = arrange(
        (("1피b", *hand0), ("11광", "11피a", "11피b", "12열")),
        ["1피a", "8광"],
        ["12광", "3광", "10피a", "10피b", "4띠", "3띠", "12띠", "2띠"],
        captured=(FIVE_POINTS, captured1),
    )
    state.apply(0, Play(C("1피b")))
    assert state.phase == Phase.GO_STOP
    return state


def test_ai_goes_when_ahead_and_the_opponent_is_far_from_7() -> None:
    state = _at_go((), ("10열", "10띠", "2열", "4열"))
    assert choose_action(state.view(0)) == Go()


def test_ai_stops_when_the_opponent_is_close_to_7() -> None:
    state = _at_go(("2열", "4열", "8열"), ("10열", "10띠", "5열", "6열"))
    assert choose_action(state.view(0)) == Stop()


def test_ai_stops_with_few_cards_left() -> None:
    state = _at_go((), ("10열",))
    assert choose_action(state.view(0)) == Stop()


def test_ai_ends_with_a_chongtong_and_refuses_views_without_a_turn() -> None:
    for seed in range(2000):
        state = new(2, seed=seed)
        if state.phase == Phase.CHONGTONG:
            seat = state.current_seat
            assert seat is not None
            assert choose_action(state.view(seat)) == ChongtongChoice(end=True)
            with pytest.raises(ValueError):
                choose_action(state.view(1 - seat))
            break
    else:
        raise AssertionError("no chongtong deal found")
