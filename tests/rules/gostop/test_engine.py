"""The engine contract for Go-Stop: leaving a game (the bot's ``/gostop leave``), what a view
shows (captures by kind, no hidden card ever) and tells a renderer of the end, and refusals that
name what a phase waits for.

Not a numbered rule of docs/rules/gostop.md: a member who leaves a running game forfeits it, and the
other seat wins as if they had stopped (rule 26's points). The view carries what the table's
header and the final score sheet show: the deal's options, its redeals, the settlement.
"""

import json

import pytest

from rules.engine import GameOver, IllegalAction, Outcome
from rules.gostop import Phase, Play, Stop, new, restore
from rules.gostop.cards import parse_hwatu
from rules.gostop.events import Forfeited
from tests.rules.gostop.helpers import arrange

C = parse_hwatu
FILL1 = ("11광", "11피a")
FIVE_POINTS = [f"{m}피{x}" for m in range(3, 10) for x in "ab"]  # 14 pi: 5 points


def test_forfeit_ends_the_game_and_the_other_seat_wins_its_score_sheet() -> None:
    state = arrange(
        (("1피b", "10열"), FILL1),
        ["1피a", "8광"],
        ["12광", "3광", "10피a"],
        captured=((), FIVE_POINTS),
        instant=[0, 7],
        carry=1,  # one nagari before this game
    )
    events = state.forfeit(0)
    assert events[0] == Forfeited(0) and isinstance(events[-1], GameOver)
    result = state.result
    assert result is not None and result.outcomes == (Outcome.LOSE, Outcome.WIN)
    sheet = state.settlement
    assert sheet is not None and sheet.base == 5 and sheet.multiplier == 2  # the carried nagari
    assert result.scores == (0, 10 + 7)  # the sheet, and the instant points kept (rule 16)
    view = state.view(None)
    assert view.win_reason == "forfeit" and view.settlement == sheet
    assert state.next_options() == {"bonus_cards": 0, "dealer": 1, "nagari_carry": 0}
    again = restore(json.loads(json.dumps(state.snapshot())))
    assert again.settlement == sheet and again.result == result
    assert again.snapshot()["log"][-1] == ["forfeit", 0]


def test_forfeit_in_the_middle_of_a_turn_keeps_every_card() -> None:
    state = arrange((("8피b", "10열", "10띠"), FILL1), ["12열", "12띠"], ["12쌍피", "5피a"])
    state.apply(0, Play(C("8피b")))
    assert state.phase == Phase.FLIP_CHOICE
    state.forfeit(1)
    assert state.result is not None and state.result.winners == (0,)
    again = restore(state.snapshot())
    assert again.snapshot() == state.snapshot()


def test_forfeit_after_the_end_or_of_no_seat_is_refused_and_changes_nothing() -> None:
    state = arrange((("1피b",), FILL1), ["1피a"], ["12광", "3광"])
    with pytest.raises(IllegalAction) as refused:
        state.forfeit(2)
    assert refused.value.code == "no_such_seat"
    state.forfeit(1)
    before = state.snapshot()
    with pytest.raises(IllegalAction) as refused:
        state.forfeit(0)
    assert refused.value.code == "game_over" and state.snapshot() == before


def test_the_view_names_the_bonus_option_the_redeals_and_after_a_stop_the_sheet() -> None:
    assert new(2, seed=5, options={"bonus_cards": 3}).view(None).bonus_cards == 3
    redealt = next(s for s in range(600) if new(2, seed=s).nagari_carry == 1)
    view = new(2, seed=redealt).view(None)
    assert view.redeals == 1 and view.nagari_carry == 1
    state = arrange(
        (("1피b", "10열", "10띠"), FILL1),
        ["1피a", "8광"],
        ["12광", "3광", "10피a", "10피b"],
        captured=(FIVE_POINTS, ()),
    )
    assert state.view(None).settlement is None and state.view(None).win_reason == ""
    state.apply(0, Play(C("1피b")))  # 16 pi: 7 points
    assert state.phase == Phase.GO_STOP
    state.apply(0, Stop())
    view = state.view(None)
    assert view.win_reason == "stop" and view.settlement == state.settlement
    assert view.settlement is not None and view.settlement.base == 7


def test_each_phase_refuses_other_moves_with_a_code_naming_what_it_waits_for() -> None:
    from rules.gostop import ChongtongChoice, Go, TakeFlip

    play = arrange((("8피b", "10열", "10띠"), FILL1), ["12열", "12띠"], ["12쌍피", "5피a"])
    for action in (Go(), TakeFlip(C("12열")), ChongtongChoice(end=True)):
        with pytest.raises(IllegalAction) as refused:
            play.apply(0, action)
        assert refused.value.code == "expects_play"
    play.apply(0, Play(C("8피b")))
    assert play.phase == Phase.FLIP_CHOICE
    with pytest.raises(IllegalAction) as refused:
        play.apply(0, Play(C("10열")))
    assert refused.value.code == "expects_flip_choice"
    with pytest.raises(IllegalAction) as refused:
        play.apply(0, TakeFlip(C("1광")))
    assert refused.value.code == "bad_target"
    assert (refused.value.params["first"], refused.value.params["second"]) == ("12열", "12띠")
    assert refused.value.params["card"] == "12쌍피"
    go_stop = arrange(
        (("1피b", "10열"), FILL1), ["1피a", "8광"], ["12광", "3광", "10피a"],
        captured=([*FIVE_POINTS, "2피a", "2피b"], ()),
    )  # fmt: skip
    go_stop.apply(0, Play(C("1피b")))
    assert go_stop.phase == Phase.GO_STOP
    with pytest.raises(IllegalAction) as refused:
        go_stop.apply(0, Play(C("10열")))
    assert refused.value.code == "expects_go_stop"
    chongtong = next(s for s in (new(2, seed=n) for n in range(3000)) if s.phase == Phase.CHONGTONG)
    seat = chongtong.current_seat
    assert seat is not None
    with pytest.raises(IllegalAction) as refused:
        chongtong.apply(seat, Go())
    assert refused.value.code == "expects_chongtong"


def test_view_groups_piles_and_floor_and_shows_multipliers() -> None:
    state = arrange(
        (("1피b", "10열"), FILL1),
        ["1피a", "8광", "8피a"],
        ["12광", "3광", "10피a"],
        captured=(("1광", "12열", "2열", "4열", "1띠"), ("9열",)),
        shakes=[1, 0],
        goes=[0, 1],
    )
    view = state.view(0)
    pile = view.piles[0]
    assert [c.code for c in pile.brights] == ["1광"]
    assert [c.code for c in pile.animals] == ["2열", "4열", "12열"]
    assert [c.code for c in pile.ribbons] == ["1띠"]
    assert view.floor[1] == (8, (C("8광"), C("8피a")), None)
    assert view.pile_size == 3
    assert view.hand == (C("1피b"), C("10열"))
    assert view.hand_sizes == (2, 2)
    assert view.goes == (0, 1)
    assert "shake×1" in view.multipliers[0] and "go-bak" in view.multipliers[0]
    assert view.legal and state.view(1).legal == ()


def test_views_never_show_the_opponent_hand_or_the_pile_order() -> None:
    state = new(2, seed=11)
    spectator = state.view(None)
    assert spectator.hand is None
    for seat in (0, 1):
        view = state.view(seat)
        other = state.view(1 - seat).hand
        assert view.hand is not None and other is not None
        assert not set(other) & set(view.hand)
        text = repr(view)
        for card in other:
            # A hand card can appear elsewhere only if it is public (it is not: it is in hand).
            assert f"HwatuCard({card.code})" not in text
        assert isinstance(view.pile_size, int)
