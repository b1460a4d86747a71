"""Rule 17: the solver is exact (brute force agrees) and always answers a valid table."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.rummikub.sets import check_set, table_value
from rules.rummikub.solver import Solution, solve
from rules.rummikub.tiles import COLOURS, FULL_SET, JOKER, Tile, parse_tiles
from tests.rules.rummikub.brute import brute_force


def ts(text: str) -> list[Tile]:
    return parse_tiles(text)


def table_of(text: str) -> list[list[Tile]]:
    return [ts(part) for part in text.split("|") if part.strip()]


def check_answer(rack: list[Tile], table: list[list[Tile]], answer: Solution) -> None:
    """The answer is a valid table: the old tiles plus exactly the rack tiles it played."""
    if not answer.found:
        assert [list(s) for s in answer.table] == [list(s) for s in table]
        assert answer.value == 0
        return
    for tiles in answer.table:
        assert check_set(tiles).valid, tiles
    after = Counter(t for s in answer.table for t in s)
    before = Counter(t for s in table for t in s)
    assert after == before + Counter(answer.tiles)
    assert not Counter(answer.tiles) - Counter(rack)
    assert answer.value == table_value(answer.table) - table_value(table)


def test_rule_17_the_rule_18_example() -> None:
    rack, table = ts("R10 R11 R12 J K7"), table_of("B5 O5 K5|R1 R2 R3")
    answer = solve(rack, table)
    check_answer(rack, table, answer)
    assert sorted(t.code for t in answer.tiles) == ["J", "R10", "R11", "R12"]
    assert answer.value == 10 + 11 + 12 + 13


def test_rule_17_rearranges_the_table() -> None:
    # B4 and O4 fit nowhere alone: the R4 leaves the run to make a group with them.
    table = table_of("R1 R2 R3 R4")
    rack = ts("B4 O4 K9")
    answer = solve(rack, table)
    check_answer(rack, table, answer)
    assert sorted(t.code for t in answer.tiles) == ["B4", "O4"]
    assert sorted(len(s) for s in answer.table) == [3, 3]


def test_rule_17_no_play_leaves_the_table() -> None:
    table = table_of("R1 R2 R3")
    answer = solve(ts("B9 K12"), table)
    assert not answer.found and answer.tiles == ()
    check_answer(ts("B9 K12"), table, answer)


def test_rule_17_needs_three_runs_of_one_colour() -> None:
    # Two R11-R13 runs and R10 with both jokers as a third run beside them.
    rack = ts("R10 R11 R11 R12 R12 R13 R13 J J")
    answer = solve(rack, [])
    check_answer(rack, [], answer)
    assert len(answer.tiles) == 9
    assert answer.value == brute_force(rack, [])[1]  # type: ignore[index]


def test_rule_17_table_jokers_stay_on_the_table() -> None:
    table = table_of("R5 J R7")
    rack = ts("R6")
    answer = solve(rack, table)
    check_answer(rack, table, answer)
    assert answer.tiles == (Tile.of(COLOURS[0], 6),)
    assert Counter(t for s in answer.table for t in s)[JOKER] == 1


def test_rule_17_initial_meld_needs_thirty_from_the_rack() -> None:
    table = table_of("R7 R8 R9")
    small = solve(ts("B1 B2 B3 R10"), table, initial=True)
    assert not small.found  # 6 points, and R10 may not touch the table yet
    enough = solve(ts("B9 B10 B11 R10 K1"), table, initial=True)
    assert sorted(t.code for t in enough.tiles) == ["B10", "B11", "B9"]
    assert enough.value == 30
    assert [list(s) for s in enough.table[:1]] == table  # the table is untouched
    check_answer(ts("B9 B10 B11 R10 K1"), table, enough)


def test_rule_17_initial_meld_may_beat_more_tiles_worth_less() -> None:
    rack = ts("R1 R2 R3 R4 B12 O12 K12")
    answer = solve(rack, [], initial=True)
    assert len(answer.tiles) == 7 and answer.value == 10 + 36
    only = solve(ts("R1 R2 R3 R4 R5 B10 O10 K10"), [], initial=True)
    assert len(only.tiles) == 8


def test_rule_17_value_objective() -> None:
    rack = ts("R1 R2 R3 B13 O13 K13 R13")
    tiles = solve(rack, [], objective="tiles")
    value = solve(rack, [], objective="value")
    assert len(tiles.tiles) == 7
    assert value.value >= tiles.value


def test_rule_17_invalid_table_is_no_play() -> None:
    table = table_of("R1 B2 O3")
    answer = solve(ts("R2 R3"), table)
    assert not answer.found


# ---------------------------------------------------------------- properties


@st.composite
def small_states(draw: st.DrawFn) -> tuple[list[Tile], list[Tile], bool, str]:
    """A table block and a rack, at most 11 tiles from a window of 4-6 numbers.

    Whole runs (longer than 3 too) and groups are drawn first, each going to the table or
    the rack, so that most states have a play; loose tiles and up to two jokers go beside.
    """
    width = draw(st.integers(4, 6))
    low = draw(st.integers(1, 14 - width))
    colours = draw(st.sampled_from([COLOURS[:1], COLOURS[:2], COLOURS[:3], COLOURS]))
    numbers = range(low, low + width)
    sets: list[list[Tile]] = []
    for _ in range(draw(st.integers(0, 2))):
        colour = draw(st.sampled_from(colours))
        start = draw(st.sampled_from(numbers[:-2]))
        end = draw(st.integers(start + 2, low + width - 1))
        sets.append([Tile.of(colour, n) for n in range(start, end + 1)])
    if len(colours) >= 3 and draw(st.booleans()):
        number = draw(st.sampled_from(numbers))
        sets.append([Tile.of(c, number) for c in colours])
    kinds = [Tile.of(c, n) for c in colours for n in numbers]
    loose = draw(st.lists(st.sampled_from(kinds), max_size=4))
    loose += [JOKER] * draw(st.integers(0, 2))
    table: list[Tile] = []
    rack: list[Tile] = []
    for tiles in [*sets, *([t] for t in loose)]:
        (table if draw(st.booleans()) else rack).extend(tiles)
    rack.reverse()  # the jokers first, so the 11-tile cap keeps them
    seen: Counter[Tile] = Counter()
    kept = ([], [])
    for side, tiles in zip(kept, (table, rack), strict=True):
        for tile in tiles:
            seen[tile] += 1
            if seen[tile] <= 2 and sum(seen.values()) <= 11:
                side.append(tile)
    return kept[0], kept[1], draw(st.booleans()), draw(st.sampled_from(["tiles", "value"]))


@settings(max_examples=1000, deadline=None)
@given(small_states())
def test_rule_17_matches_brute_force_on_small_states(
    state: tuple[list[Tile], list[Tile], bool, str],
) -> None:
    table_tiles, rack, initial, objective = state
    # The table as one block: the solver may lay it out any way it likes.
    table = [table_tiles] if table_tiles else []
    answer = solve(rack, table, initial=initial, objective=objective)  # type: ignore[arg-type]
    expected = brute_force(
        rack, [] if initial else table_tiles, initial=initial, objective=objective
    )
    if expected is None or expected[0] == 0:
        assert not answer.found
        return
    assert len(answer.tiles) == expected[0]
    got_value = table_value(answer.table) - (table_value(table) if initial else 0)
    assert got_value == expected[1]
    for tiles in answer.table[len(table) if initial else 0 :]:
        assert check_set(tiles).valid


@st.composite
def game_states(draw: st.DrawFn) -> tuple[list[Tile], list[list[Tile]], bool]:
    seed = draw(st.integers(0, 2**32))
    on_table = draw(st.integers(0, 60))
    rack_size = draw(st.integers(1, 14))
    rng = random.Random(seed)
    bag = list(FULL_SET)
    rng.shuffle(bag)
    laid = solve(bag[:on_table], [])
    rest = bag[on_table:]
    unused = Counter(bag[:on_table]) - Counter(laid.tiles)
    rack = list(unused.elements())[:rack_size] + rest[: max(0, rack_size - sum(unused.values()))]
    return rack, [list(s) for s in laid.table], draw(st.booleans())


@settings(max_examples=200, deadline=None)
@given(game_states())
def test_rule_17_answers_are_valid_tables(state: tuple[list[Tile], list[list[Tile]], bool]) -> None:
    rack, table, initial = state
    answer = solve(rack, table, initial=initial)
    check_answer(rack, table, answer)
    if initial and answer.found:
        assert answer.value >= 30
        assert [list(s) for s in answer.table[: len(table)]] == table


def test_rule_17_objectives_order_their_keys() -> None:
    rng = random.Random(5)
    for _ in range(20):
        bag = list(FULL_SET)
        rng.shuffle(bag)
        rack = bag[:14]
        a = solve(rack, [], objective="tiles")
        b = solve(rack, [], objective="value")
        assert (len(a.tiles), a.value) >= (len(b.tiles), b.value)
        assert (b.value, len(b.tiles)) >= (a.value, len(a.tiles))


def test_rule_17_a_full_run_frees_its_joker_by_splitting() -> None:
    # The joker stands for R13; the real R13 takes its place and the run splits to keep it.
    table = table_of("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 J")
    rack = ts("R13")
    answer = solve(rack, table)
    check_answer(rack, table, answer)
    assert answer.tiles == tuple(ts("R13"))
    assert answer.value == brute_force(rack, table[0])[1] - table_value(table)  # type: ignore[index]
