"""Tiles, the parser and set checking: rules 1 and 3-6, and the seed's set checks."""

from __future__ import annotations

import itertools

import pytest

from rules.rummikub.sets import check_set, set_value, table_value
from rules.rummikub.tiles import (
    ALL_TILES,
    FULL_SET,
    JOKER,
    Colour,
    Tile,
    TileError,
    check_counts,
    parse_tile,
    parse_tiles,
)


def ts(text: str) -> list[Tile]:
    return parse_tiles(text)


# ---------------------------------------------------------------- rule 1: tiles and codes


def test_rule_1_one_hundred_and_six_tiles() -> None:
    assert len(FULL_SET) == 106
    numbered = [t for t in FULL_SET if not t.is_joker]
    assert len(numbered) == 104
    every = {(c, n) for c in Colour for n in range(1, 14)}
    assert {(t.colour, t.number) for t in numbered} == every
    assert FULL_SET.count(JOKER) == 2
    assert all(FULL_SET.count(t) == 2 for t in ALL_TILES)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("R10", "R10"),
        ("r10", "R10"),
        ("K7", "K7"),
        ("O5", "O5"),
        ("Y5", "O5"),
        ("y5", "O5"),
        ("B13", "B13"),
        ("J", "J"),
        ("*", "J"),
        ("빨10", "R10"),
        ("파3", "B3"),
        ("노5", "O5"),
        ("검1", "K1"),
        ("조커", "J"),
        (" r 10 ", "R10"),
    ],
)
def test_rule_1_codes_are_read_as_people_type_them(text: str, code: str) -> None:
    assert parse_tile(text).code == code


@pytest.mark.parametrize(
    "text",
    # Leading zeros and non-ASCII digits (full-width, Arabic-Indic) are refused: a code has
    # one canonical spelling of its number.
    [
        "R0",
        "R14",
        "X5",
        "5",
        "",
        "RR",
        "G3",
        "R1.5",
        "R01",
        "R007",
        "R\uff11",
        "빨\uff11\uff10",
        "R\u0661",
    ],
)
def test_rule_1_bad_codes_are_refused_with_help(text: str) -> None:
    with pytest.raises(TileError, match="is not a tile"):
        parse_tile(text)


def test_rule_1_tiles_are_shared_and_round_trip() -> None:
    for tile in ALL_TILES:
        assert parse_tile(tile.code) is tile
        assert Tile.at(tile.index) is tile
    assert [t.code for t in ts("r 10, Y5 *  조커")] == ["R10", "O5", "J", "J"]


def test_rule_1_at_most_two_copies_and_two_jokers() -> None:
    check_counts(ts("R1 R1 J J"))
    with pytest.raises(TileError, match="only 2 copies of R1"):
        check_counts(ts("R1 R1 R1"))
    with pytest.raises(TileError, match="only 2 jokers"):
        check_counts(ts("J * 조커"))


# ---------------------------------------------------------------- rules 3-6: sets


def test_rule_3_group_of_three_and_four_distinct_colours() -> None:
    three = check_set(ts("R7 B7 K7"))
    assert three.valid and three.kind == "group" and three.value == 21
    four = check_set(ts("R7 B7 K7 O7"))
    assert four.valid and four.value == 28


def test_rule_3_group_refuses_repeated_colour_with_the_reason() -> None:
    check = check_set(ts("R7 B7 B7"))
    assert not check.valid
    assert check.reason == "group has two blue 7s"
    assert check.value == 0


def test_rule_3_group_has_at_most_four_tiles() -> None:
    check = check_set(ts("R7 B7 K7 O7 J"))
    assert not check.valid
    assert check.reason is not None and "at most 4" in check.reason


def test_rule_3_and_4_too_few_tiles() -> None:
    check = check_set(ts("R7 B7"))
    assert not check.valid and check.reason is not None and "at least 3" in check.reason


def test_rule_4_run_of_one_colour() -> None:
    check = check_set(ts("R3 R4 R5 R6"))
    assert check.valid and check.kind == "run" and check.value == 18
    assert check_set(ts("K13 K11 K12")).value == 36  # order of input does not matter


def test_rule_4_run_breaks_with_the_reason() -> None:
    check = check_set(ts("R5 R7 R8"))
    assert not check.valid
    assert check.reason == "run breaks between R5 and R7"


def test_rule_4_run_cannot_wrap() -> None:
    check = check_set(ts("R12 R13 R1"))
    assert not check.valid
    assert check.reason == "a run cannot wrap from 13 to 1"
    assert check_set(ts("R13 J R2")).reason == "a run cannot wrap from 13 to 1"


def test_rule_4_mixed_colours_and_numbers_are_neither() -> None:
    check = check_set(ts("R5 B6 O7"))
    assert not check.valid
    assert check.reason is not None and "neither" in check.reason


def test_rule_4_run_with_a_repeated_tile() -> None:
    assert check_set(ts("R5 R5 R6 R7")).reason == "run has two R5s"


def test_rule_5_joker_in_the_middle_of_a_run() -> None:
    check = check_set(ts("R5 J R7"))
    assert check.valid and check.value == 18
    assert [t.code for t in check.stands_for] == ["R6"]


@pytest.mark.parametrize(
    ("text", "value", "stands"),
    [
        ("R11 R12 J", 36, ["R13"]),
        ("R12 R13 J", 36, ["R11"]),  # no room above 13: the joker goes below
        ("R1 R2 J", 6, ["R3"]),  # either end; the higher reading is taken
        ("J R2 R3", 9, ["R4"]),
    ],
)
def test_rule_5_joker_at_either_end_of_a_run(text: str, value: int, stands: list[str]) -> None:
    check = check_set(ts(text))
    assert check.valid and check.value == value
    assert [t.code for t in check.stands_for] == stands


def test_rule_5_two_jokers_in_one_set() -> None:
    run = check_set(ts("R5 J J"))
    assert run.valid and run.kind == "run" and run.value == 5 + 6 + 7
    group = check_set(ts("K13 J J"))
    assert group.valid and group.value == 39  # 13-13-13 beats the run 11-12-13
    spread = check_set(ts("B3 J B5 J"))
    assert spread.valid and spread.value == 3 + 4 + 5 + 6
    assert check_set(ts("J J")).valid is False
    assert check_set(ts("J J J")).valid is False


def test_rule_5_joker_in_a_group_of_four() -> None:
    check = check_set(ts("R9 B9 J K9"))
    assert check.valid and check.kind == "group" and check.value == 36
    assert [t.code for t in check.stands_for] == ["O9"]
    assert check_set(ts("R9 B9 J J")).value == 36


def test_rule_5_set_and_table_values() -> None:
    assert set_value(ts("R1 R2 R3")) == 6
    assert set_value(ts("R1 R3 R4")) == 0
    assert table_value([ts("R1 R2 R3"), ts("B5 O5 K5 J")]) == 26


# The seed's setcheck: 4 tiles of one number in different colours (their sum), 3 tiles of one
# number in different colours, and same-colour consecutive runs; everything else is refused.
SEED_PROGRAM_CASES = [
    ("R3 B3 O3 K3", 12),
    ("K3 O3 B3 R3", 12),
    ("R10 B10 K10", 30),
    ("B1 B2 B3", 6),
    ("O9 O10 O11 O12 O13", 55),
    ("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13", 91),
    ("R3 B3 R3 B3", 0),  # neighbours differ, yet only two colours: not a group
    ("R3 B3 R3", 0),
    ("R3 B3 O3 O3", 0),
    ("R1 R2 B3", 0),
    ("R1 R2 R4", 0),
]


@pytest.mark.parametrize(("text", "value"), SEED_PROGRAM_CASES)
def test_rule_6_seed_set_checks(text: str, value: int) -> None:
    check = check_set(ts(text))
    assert check.value == value
    assert check.valid is (value > 0)


def test_rule_6_four_tiles_alternating_two_colours_is_what_a_neighbour_check_misses() -> None:
    tiles = ts("R3 B3 R3 B3")
    # A check of neighbouring pairs only sees R≠B, B≠R, R≠B and would accept it.
    assert all(a.colour != b.colour for a, b in itertools.pairwise(tiles))
    check = check_set(tiles)
    assert not check.valid
    assert check.reason in {"group has two red 3s", "group has two blue 3s"}
