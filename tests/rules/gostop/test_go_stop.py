"""Rules 22-26 of docs/rules/gostop.md: Go or Stop at 7 points, the pile running out, the
final points and what multiplies the winner's (a shake, a bomb, a carried nagari), on
arranged positions."""

import pytest

from rules.engine import GameOver, IllegalAction, Outcome
from rules.gostop import Go, Phase, Play, Stop
from rules.gostop.cards import parse_hwatu
from rules.gostop.events import Stopped
from tests.rules.gostop.helpers import (
    FILL0,
    FIVE_POINTS,
    arrange,
    near_seven,
)

C = parse_hwatu


def test_rule_22_reaching_7_asks_go_or_stop() -> None:
    state = near_seven(("1피b", *FILL0), ["12광", "3광"])
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
    state = near_seven(("1피b",), ["12광", "3광", "10피b"])
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
    state = near_seven(("1피b", *FILL0), ["12광", "3광"], instant=[7, 14], goes=[0, 1])
    state.apply(0, Play(C("1피b")))
    state.apply(0, Stop())
    assert state.settlement is not None
    assert state.settlement.baks == ("go-bak",)
    assert state.result is not None
    assert state.result.scores == (7 * 2 + 7, 14)


def test_rule_24_nagari_carry_doubles_the_winner() -> None:
    state = near_seven(("1피b", *FILL0), ["12광", "3광"], carry=1)
    state.apply(0, Play(C("1피b")))
    state.apply(0, Stop())
    assert state.result is not None and state.result.scores == (14, 0)


def test_rule_14_a_shake_doubles_the_winner_in_play() -> None:
    state = near_seven(("1피b", *FILL0), ["12광", "3광"], shakes=[1, 0])
    state.apply(0, Play(C("1피b")))
    state.apply(0, Stop())
    assert state.result is not None and state.result.scores == (14, 0)
    # The winner deals the next game.
    assert state.next_options() == {"bonus_cards": 0, "dealer": 0, "nagari_carry": 0}


def test_rule_13_a_bomb_doubles_the_winner_in_play() -> None:
    state = near_seven(("1피b", *FILL0), ["12광", "3광"], bombs=[1, 0])
    state.apply(0, Play(C("1피b")))
    state.apply(0, Stop())
    assert state.settlement is not None and state.settlement.multiplier == 2
    assert state.result is not None and state.result.scores == (14, 0)
