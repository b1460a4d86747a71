"""The Go-Stop positions the text tests draw (tests/bot/text/test_gostop*.py): a game in its
middle with every count a table shows, a Go-or-Stop question, and whole games played by the
computer on both sides."""

from __future__ import annotations

from rules.gostop import Phase, Play, State, new
from rules.gostop.ai import choose_action
from rules.gostop.cards import parse_hwatu
from tests.rules.gostop.helpers import FIVE_POINTS, arrange

C = parse_hwatu
NAMES = ["Alice", "Bob"]


def rich() -> State:
    """A game in its middle: a ppuk's stack, a Go, a shake, a bomb with a flip-only turn
    owed, instant points, a bonus card, a carried nagari."""
    return arrange(
        (("1피b", "2띠", "3띠", "3피a", "3피b", "6열"), ("11광", "11피a", "11피b", "12띠", "12열")),
        ["1피a", "2열", "2피a", "9열", "9띠", "9피a", "10피a"],
        ["12광", "3광", "10피b", "4피a", "5피a"],
        captured=(
            ("1광", "8광", "4열", "5열", "1띠", "5띠", "6띠", "4피b", "6피a", "6피b", "7피a",
             "12쌍피", "B2a"),
            ("2피b", "7열", "8피a", "8피b", "11쌍피", "9피b", "10열"),
        ),
        stacks={9: 1},
        goes=[1, 0], go_score=[7, 0], shakes=[1, 0], bombs=[0, 1], flip_turns=[0, 1],
        instant=[0, 7], ppuks=[0, 1], carry=1,
        options={"bonus_cards": 2, "dealer": 0, "nagari_carry": 1},
    )  # fmt: skip


def at_go_stop() -> State:
    """Alice has just reached 7 with 16 pi, Bob having called Go: Go or Stop."""
    state = arrange(
        (("1피b", "10열", "10띠"), ("11광", "11피a")),
        ["1피a", "8광"],
        ["12광", "3광", "10피a", "10피b"],
        captured=([*FIVE_POINTS, "2띠", "1띠"], ["11쌍피", "9열"]),
        goes=[0, 1], shakes=[1, 0], instant=[7, 0], carry=1,
        options={"bonus_cards": 0, "dealer": 0, "nagari_carry": 1},
    )  # fmt: skip
    state.apply(0, Play(C("1피b")))
    assert state.phase == Phase.GO_STOP
    return state


def finished_games(count: int) -> list[State]:
    """Whole games played by the computer on both sides, one per seed."""
    games = []
    for seed in range(count):
        state = new(2, seed=seed, options={"bonus_cards": seed % 4 if seed % 4 != 1 else 0})
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat)))
        games.append(state)
    return games
