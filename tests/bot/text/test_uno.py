"""Uno text: golden tables and hands in English and Korean, 40 columns, in colour.

Positions are dealt by hand (:func:`rig`): a table with every house rule, a player on one
card who did not call UNO, a long name, and the final table with each hand's points.
"""

from __future__ import annotations

import re

from bot.text import uno as render
from rules import uno
from rules.uno import Play
from rules.uno.cards import CARD_CODES, COLOUR_NAMES
from tests.language import foreign_lines
from tests.phone import assert_fits_phone, misaligned

ANSI = re.compile(r"\x1b\[[0-9;]*m")
NAMES = ["alice", "민준", "a very long display name", "dave"]
ALL_RULES = {
    "stacking": True,
    "draw_until_playable": True,
    "jump_in": True,
    "seven_zero": True,
    "uno_call": True,
}


def rig(hands: list[list[str]], top: str, **options: object) -> uno.State:
    """A game whose hands and top card are these codes, seat 0 to play."""
    state = uno.new(len(hands), seed=1, options=options)
    free = list(range(len(CARD_CODES)))

    def take(code: str) -> int:
        card = next(c for c in free if CARD_CODES[c] == code)
        free.remove(card)
        return card

    state.hands = [[take(code) for code in hand] for hand in hands]
    state.discard = [take(top)]
    state.colour = COLOUR_NAMES.index(top.partition("_")[0])
    state.pile = free
    state._unshuffled = len(free)  # the pile is shuffled as it is drawn
    state.turn = 0
    state.direction = 1
    return state


def middle() -> uno.State:
    state = rig(
        [
            ["red_3", "red_4"],
            ["green_1", "none_W+4", "blue_2"],
            ["blue_9", "yellow_S", "yellow_1"],
            ["yellow_2"],
        ],
        "red_7",
        **ALL_RULES,
    )
    state.apply(0, Play(0))  # alice goes down to one card without calling UNO
    return state


TABLE_EN = """\
UNO · official rules
House: stacking, draw to play, jump-in,
    7-0, UNO call
Top: Red 3
→ clockwise · draw pile 98

 1 alice            1 UNO? (not called)
>2 민준             3
 3 a very long d~   3
 4 dave             1 UNO!"""

TABLE_KO = """\
우노 · 공식 규칙
하우스: 쌓기, 낼때까지 뽑기, 끼어들기,
    7-0, 우노 외치기
맨 위: 빨강 3
→ 시계 방향 · 뽑을 더미 98장

 1 alice            1 우노? (안 외침)
>2 민준             3
 3 a very long d~   3
 4 dave             1 우노!"""


def test_the_table_in_english_and_korean_shows_counts_rules_and_the_unsaid_uno() -> None:
    view = middle().view(None)
    for locale, golden in (("en", TABLE_EN), ("ko", TABLE_KO)):
        body = render.table_body(view, NAMES, locale)
        assert ANSI.sub("", body) == golden
        assert_fits_phone(body)
        assert foreign_lines(body.splitlines(), locale) == []
    assert "\x1b[31mRed 3\x1b[0m" in render.table_body(view, NAMES, "en")


def test_the_hand_is_sorted_by_colour_then_rank_numbered_and_coloured() -> None:
    state = rig(
        [["blue_2", "none_W", "red_9", "yellow_+2", "red_1", "green_R"], ["red_5"]], "red_7"
    )
    lines = render.hand_lines(state.view(0), "en")
    assert [ANSI.sub("", line) for line in lines] == [
        "Top: Red 7",
        "6 cards:",
        " 1 Red 1             2 Red 9",
        " 3 Yellow +2         4 Green Reverse",
        " 5 Blue 2            6 Wild",
    ]
    assert lines[2].startswith("\x1b[31m 1 Red 1")
    assert "\x1b[35m 6 Wild\x1b[0m" in lines[4]
    ko = [ANSI.sub("", line) for line in render.hand_lines(state.view(0), "ko")]
    assert ko[2:] == [
        " 1 빨강 1            2 빨강 9",
        " 3 노랑 +2           4 초록 리버스",
        " 5 파랑 2            6 와일드",
    ]


FINAL_EN = """\
UNO · classroom rules
Top: Red 3
→ clockwise · draw pile 103

*1 alice            0 wins +71 pts
 2 민준             2 hand: 51 pts
 3 a very long d~   1 hand: 20 pts

Round over: Deal again keeps the seats."""

FINAL_KO = """\
우노 · 수업용 규칙
맨 위: 빨강 3
→ 시계 방향 · 뽑을 더미 103장

*1 alice            0 승리 +71점
 2 민준             2 패 51점
 3 a very long d~   1 패 20점

판 끝: 다시 하기로 같은 자리에서 새 판."""


def test_the_final_table_names_the_winner_and_every_hands_points() -> None:
    state = rig([["red_3"], ["green_1", "none_W+4"], ["blue_S"]], "red_7", ruleset="seed")
    events = state.apply(0, Play(0))
    view = state.view(None)
    for locale, golden in (("en", FINAL_EN), ("ko", FINAL_KO)):
        body = render.table_body(view, NAMES, locale)
        assert ANSI.sub("", body) == golden
        assert_fits_phone(body)
        assert foreign_lines(body.splitlines(), locale) == []
    assert render.event_lines(events, NAMES, "en") == [
        "alice played Red 3",
        "alice wins the round: 71 points!",
    ]


def test_the_seat_marks_are_ascii_so_the_counts_line_up_in_every_font() -> None:
    # A star or triangle is two columns in a CJK monospace font: the counts after it would
    # shift by one on such a client (tests/phone.py measures both ways).
    view = middle().view(None)
    for locale in ("en", "ko"):
        seats = render.table_body(view, NAMES, locale).splitlines()[-4:]
        assert misaligned(seats) == []
        assert all(line[0] in " >" for line in seats)
    bad = [line.replace(">", "▶") for line in render.table_body(view, NAMES, "en").splitlines()]
    assert misaligned(bad[-4:])  # the check does see the old mark


def test_counts_of_one_are_singular() -> None:
    state = rig([["blue_2"], ["red_5", "red_6"]], "red_7")
    assert ANSI.sub("", render.hand_lines(state.view(0), "en")[1]) == "1 card:"
    assert render.hand_lines(state.view(0), "ko")[1] == "1장:"
    assert render.event_lines([uno.CardsDrawn(1, 1), uno.CardsDrawn(1, 4)], NAMES, "en") == [
        "민준 draws 1 card",
        "민준 draws 4 cards",
    ]
    assert render.event_lines([uno.Forfeited(0, 1)], NAMES, "en") == [
        "alice left the game: 1 card goes under the draw pile"
    ]


def test_a_wild_is_named_with_its_colour_once_played() -> None:
    assert render.card_name("none_W+4", "en") == "Wild +4"
    assert render.card_name("blue_W+4", "en") == "Wild +4 (Blue)"
    assert render.card_name("yellow_W", "ko") == "와일드 (노랑)"
    played = uno.CardPlayed(1, "none_W+4", "blue")
    assert render.event_lines([played], NAMES, "en") == ["민준 played Wild +4 (Blue)"]


def test_a_hand_of_half_the_deck_is_listed_by_colour_and_fits_one_message() -> None:
    coloured = [code for code in CARD_CODES[:100] if code not in ("red_7", "green_1")]
    hand = [*coloured[:90], "none_W", "none_W+4"]
    state = rig([hand, ["green_1"]], "red_7")
    for locale in ("en", "ko"):
        body = "\n".join(render.hand_lines(state.view(0), locale))
        assert len(body) < 1800
        assert_fits_phone(body)
    lines = [ANSI.sub("", line) for line in render.hand_lines(state.view(0), "en")]
    assert lines[1] == "92 cards:"
    assert lines[2] == "Red: 0 1 1 2 2 3 3 4 4 5 5 6 6 8 8 9 9"
    assert lines[-1] == "Wild Wild+4"


def test_a_round_won_by_one_point_says_point() -> None:
    state = rig([["red_3"], ["green_1"]], "red_7")
    events = state.apply(0, Play(0))
    assert render.event_lines(events, NAMES, "en")[-1] == "alice wins the round: 1 point!"
    assert render.event_lines(events, NAMES, "ko")[-1] == "alice님이 이겼어요: 1점!"
