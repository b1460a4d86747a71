"""Card codes and the forgiving parser (rule 1)."""

from __future__ import annotations

import pytest

from rules.uno import CardParseError, Colour, parse_card, parse_colour, parse_play
from rules.uno.cards import CARD_CODES, cards_of_code, top_code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("red_5", "red_5"),
        ("r5", "red_5"),
        ("red 5", "red_5"),
        ("R 5", "red_5"),
        ("빨강 5", "red_5"),
        ("blue_+2", "blue_+2"),
        ("blue +2", "blue_+2"),
        ("b draw2", "blue_+2"),
        ("green_R", "green_R"),
        ("gr", "green_R"),
        ("green reverse", "green_R"),
        ("yellow_S", "yellow_S"),
        ("노랑 스킵", "yellow_S"),
        ("ys", "yellow_S"),
        ("wild", "none_W"),
        ("W", "none_W"),
        ("none_W", "none_W"),
        ("+4", "none_W+4"),
        ("none_W+4", "none_W+4"),
        ("Wild Draw Four", "none_W+4"),
        ("yellow_W+4", "none_W+4"),
        ("5 red", "red_5"),
        ("[green_9]", "green_9"),
    ],
)
def test_parse_card_accepts_what_people_type(text: str, code: str) -> None:
    assert parse_card(text) == code
    assert code in CARD_CODES


def test_parse_play_keeps_the_colour_named_with_a_wild() -> None:
    assert parse_play("wild red") == ("none_W", Colour.RED)
    assert parse_play("+4 blue") == ("none_W+4", Colour.BLUE)
    assert parse_play("yellow_W+4") == ("none_W+4", Colour.YELLOW)
    assert parse_play("green 7") == ("green_7", None)


@pytest.mark.parametrize("text", ["", "  ", "purple 5", "red 10", "none_5", "r", "wild purple"])
def test_parse_card_refuses_non_cards_with_a_hint(text: str) -> None:
    with pytest.raises(CardParseError, match=r"red_5|No card"):
        parse_card(text)


def test_colours_and_top_codes() -> None:
    assert parse_colour("빨강") is Colour.RED
    assert parse_colour(" Yellow ") is Colour.YELLOW
    with pytest.raises(CardParseError):
        parse_colour("none")
    wild_four = cards_of_code("none_W+4")
    assert len(wild_four) == 4
    assert top_code(wild_four[0], Colour.YELLOW) == "yellow_W+4"
    assert top_code(cards_of_code("red_5")[0], Colour.BLUE) == "red_5"
    assert len(cards_of_code("red_0")) == 1
