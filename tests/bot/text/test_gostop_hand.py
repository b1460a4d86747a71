"""Go-Stop's private text (bot/text/gostop_hand.py): golden hands numbered by month with
what each card takes, and the Go-or-Stop question, in English and Korean; a hand line never
breaks inside a card's name or after an arrow.
"""

from __future__ import annotations

import itertools

import pytest

from bot.text import gostop as render
from rules.gostop import new
from rules.gostop.ai import choose_action
from rules.gostop.cards import CARDS, parse_hwatu
from tests.bot.text.gostop_positions import NAMES, at_go_stop, rich
from tests.rules.gostop.helpers import arrange

C = parse_hwatu


HAND_EN = """\
6 cards
Jan: 1) junk -> takes the junk
Feb: 2) ribbon -> takes the animal or
    the junk: your pick
Mar: 3) ribbon 4) junk 5) junk
    -> stays on the floor (may shake:
    show the three, a win pays ×2)
Jun: 6) animal -> stays on the floor"""


HAND_KO = """\
손패 6장
1월: 1) 피 -> 피 먹기
2월: 2) 띠 -> 열, 피 중 골라 먹기
3월: 3) 띠 4) 피 5) 피 -> 바닥에 깔림
    (흔들기 가능, ×2)
6월: 6) 열 -> 바닥에 깔림"""


@pytest.mark.parametrize(("locale", "golden"), [("en", HAND_EN), ("ko", HAND_KO)])
def test_hand_golden_numbered_by_month_with_what_each_takes(locale: str, golden: str) -> None:
    assert "\n".join(render.hand_lines(rich().view(0), locale)) == golden


def test_a_hand_says_a_stack_a_bomb_and_a_bonus_card() -> None:
    state = arrange(
        (("9피b", "5열", "5띠", "5피a", "B3"), ("11광",)),
        ["9열", "9띠", "9피a", "5피b"],
        ["12광", "3광"],
        stacks={9: 1},
    )
    assert render.hand_lines(state.view(0), "en") == [
        "5 cards",
        "May: 1) animal 2) ribbon 3) junk",
        "    -> takes the junk",
        "    (may bomb: play all three at once)",
        "Sep: 4) junk -> takes all three",
        "    (animal, ribbon, junk)",
        "bonus: 5) bonus triple -> taken at once,",
        "    steals 1 junk, then play again",
    ]


GO_STOP_EN = [
    "You have 7 points; Bob has 0.",
    "Stop: you win 119 points now.",
    "Doubled by: shakes: 1 (3 of a month shown), pi-bak (loser: 1-7 junk), go-bak (loser "
    "called Go), nagari ×2 (no winner).",
    "Go: your Go 1 adds +1 and you play on.",
    "The risk: if Bob reaches 7 points and stops first, you pay double (go-bak).",
]


GO_STOP_KO = [
    "지금 7점이에요. Bob 님은 0점이에요.",
    "스톱하면 지금 119점을 받고 이겨요.",
    "두 배씩 곱해지는 것: 흔들기 1번, 피박, 고박, 나가리 ×2.",
    "고를 하면 1고로 +1점을 얹고 계속해요.",
    "하지만 Bob 님이 먼저 7점을 내고 스톱하면 고박으로 두 배를 물어요.",
]


@pytest.mark.parametrize(("locale", "golden"), [("en", GO_STOP_EN), ("ko", GO_STOP_KO)])
def test_go_stop_golden_with_the_score_and_what_go_risks(locale: str, golden: list[str]) -> None:
    assert render.go_stop_lines(at_go_stop().view(0), NAMES, locale) == golden


def test_from_the_third_go_the_question_says_the_total_doubles() -> None:
    state = at_go_stop()
    data = state.snapshot()
    data["goes"] = [2, 1]
    from rules.gostop import restore

    lines = render.go_stop_lines(restore(data).view(0), NAMES, "en")
    assert "Go: your Go 3 adds +3 and you play on. From the third Go your total is also ×2." in (
        lines
    )


def test_no_hand_line_breaks_inside_a_card_name_or_after_an_arrow() -> None:
    """Nor inside a phrase that fits a line: ``-> stays on the floor`` is never left at
    ``the``."""
    multiword = [render.card_name(c, "en") for c in CARDS if " " in render.card_name(c, "en")]
    checked = 0
    for seed in range(30):
        state = new(2, seed=seed, options={"bonus_cards": 3})
        while not state.is_over:
            for seat in (0, 1):
                lines = render.hand_lines(state.view(seat), "en")
                for line, after in itertools.pairwise(lines):
                    assert not line.endswith("->"), lines
                    assert not line.endswith((" stays on the", " stays on")), lines
                    for name in multiword:
                        words = name.split(" ")
                        for cut in range(1, len(words)):
                            head, tail = " ".join(words[:cut]), " ".join(words[cut:])
                            broken = line.endswith(head) and after.lstrip().startswith(tail)
                            assert not broken, (name, lines)
                    checked += 1
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat)))
    assert checked > 1000
    # The words the hand wraps keep each filled-in name whole, wherever the template puts it.
    state = arrange(
        (("B3", "2띠"), ("3광",)),
        ["2열", "2피a"],
        ["12광"],
        options={"bonus_cards": 3, "dealer": 0},
    )
    words = render.outcome_words(state.view(0), C("2띠"), "en")
    assert "Feb animal" in words and "Feb junk:" in words
