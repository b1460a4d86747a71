"""The computer player at each level: the ``computer_level`` option, basic strategy and easy,
at the seed program's table and at a casino one (doubles and splits)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import rules.blackjack as bj
from rules.blackjack import ai
from rules.blackjack.ai import (
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    basic_strategy,
    casino_move,
    choose_action,
    decide_at,
)
from rules.cards import STANDARD_DECK
from rules.engine import IllegalAction, SnapshotError
from rules.levels import Level
from tests.rules.blackjack.test_casino import position
from tests.rules.blackjack.test_engine import playing


def no_coin() -> int:
    raise AssertionError("only the normal level may toss the engine's coin")


@pytest.mark.parametrize(
    ("total", "soft", "up", "move"),
    [
        (11, False, 10, HIT),
        (12, False, 3, HIT),
        (12, False, 4, STAND),
        (12, False, 7, HIT),
        (13, False, 2, STAND),
        (16, False, 6, STAND),
        (16, False, 7, HIT),
        (16, False, 1, HIT),
        (17, False, 1, STAND),
        (17, True, 6, HIT),
        (18, True, 8, STAND),
        (18, True, 9, HIT),
        (18, True, 1, HIT),
        (19, True, 10, STAND),
    ],
)
def test_basic_strategy_for_hit_or_stand_against_a_house_standing_on_17(
    total: int, soft: bool, up: int, move: object
) -> None:
    assert basic_strategy(total, soft, up) is move
    assert decide_at(Level.HARD, total, soft, up, no_coin) is move


@pytest.mark.parametrize(
    ("total", "soft", "up", "move"),
    [
        (12, False, 10, STAND),  # afraid of the House's ten
        (12, False, 1, STAND),
        (16, False, 5, HIT),  # thinks a weak House card means it must take one
        (17, False, 5, STAND),
        (11, False, 9, HIT),
        (18, True, 3, HIT),  # misreads a soft 18
        (19, True, 9, STAND),
    ],
)
def test_easy_has_the_reasoning_backwards(total: int, soft: bool, up: int, move: object) -> None:
    assert decide_at(Level.EASY, total, soft, up, no_coin) is move


def test_normal_is_the_seed_rule_with_its_coin() -> None:
    assert decide_at(Level.NORMAL, 15, False, 10, lambda: 1) is HIT
    assert decide_at(Level.NORMAL, 15, False, 10, lambda: 0) is STAND
    assert decide_at(Level.NORMAL, 13, True, 6, no_coin) is HIT


def test_a_normal_table_plays_exactly_as_before() -> None:
    for seed in range(300):
        plain = bj.new(3, seed=seed, options={"computers": [0, 2]})
        levelled = bj.new(3, seed=seed, options={"computers": [0, 2], "computer_level": "normal"})
        assert plain.opening_events == levelled.opening_events
        assert plain.snapshot() == levelled.snapshot()


def hard_moves(state: bj.State, seat: int) -> list[object]:
    """What hard would do at each point of ``seat``'s finished hand, from public cards."""
    view = state.view(None)
    up = view.house[1]
    moves = []
    cards = list(view.hands[seat])
    for n in range(2, len(cards) + 1):
        indices = [c.index for c in cards[:n]]
        total = bj.hand_total(indices)
        raw = sum(min(int(STANDARD_DECK[i].rank), 10) for i in indices)
        if total <= 21:
            moves.append(basic_strategy(total, total != raw, min(int(up.rank), 10)))
    return moves


def test_hard_computer_seats_play_basic_strategy() -> None:
    for seed in range(300):
        state = bj.new(
            2, seed=seed, fair=True, options={"computers": [0, 1], "computer_level": "hard"}
        )
        assert state.result is not None
        if (
            len(state.view(None).house) == 2
            and bj.hand_total([c.index for c in state.view(None).house]) == 21
        ):
            continue  # the House's Blackjack ends the game before anyone plays
        for seat in (0, 1):
            moves = hard_moves(state, seat)
            # Every card but the last was a Hit; the last decision stood unless it went bust.
            assert all(m is HIT for m in moves[:-1])
            busted = bj.hand_total([c.index for c in state.view(None).hands[seat]]) > 21
            assert busted or moves[-1] is STAND


def test_the_level_is_kept_in_the_snapshot_and_old_snapshots_read_as_normal() -> None:
    state = bj.new(2, seed=4, options={"computers": [1], "computer_level": "easy"})
    data = json.loads(json.dumps(state.snapshot()))
    assert data["computer_level"] == "easy"
    assert bj.restore(data).snapshot() == state.snapshot()
    assert bj.replay(data).snapshot() == state.snapshot()
    assert state.deal_again().snapshot()["computer_level"] == "easy"
    del data["computer_level"]
    assert bj.restore(data).snapshot()["computer_level"] == "normal"


def test_an_unknown_level_is_refused_and_a_damaged_one_is_a_snapshot_error() -> None:
    with pytest.raises(IllegalAction) as refused:
        bj.new(2, options={"computers": [1], "computer_level": "expert"})
    assert refused.value.code == "unknown_level"
    data = bj.new(2, seed=1).snapshot()
    data["computer_level"] = "expert"
    with pytest.raises(SnapshotError):
        bj.restore(data)


def test_the_view_player_agrees_with_the_engine_and_never_sees_the_hole_card() -> None:
    for seed in range(200):
        state = bj.new(1, seed=seed, fair=True)
        if state.result is not None:
            continue
        view = state.view(0)
        data = state.snapshot()
        # Swap the hole card with a shoe card: the view, hence every level's move, is the same.
        data["house"][0], data["shoe"][0] = data["shoe"][0], data["house"][0]
        other = bj.restore(data)
        assert other.view(0) == view
        for level in (Level.EASY, Level.HARD):
            here = choose_action(view, no_coin, level)
            assert here is choose_action(other.view(0), no_coin, level)
        cards = [c.index for c in view.hands[0]]
        total = bj.hand_total(cards)
        raw = sum(min(int(STANDARD_DECK[i].rank), 10) for i in cards)
        up = min(int(view.house[0].rank), 10)
        assert choose_action(view, no_coin, Level.HARD) is basic_strategy(total, total != raw, up)


@pytest.mark.parametrize(
    ("level", "hand", "up", "move"),
    [
        (Level.HARD, ["♦8", "♣8"], "♥10", bj.PairSplit),  # always split eights
        (Level.HARD, ["♦5", "♣6"], "♥6", bj.Doubled),  # double 11
        (Level.HARD, ["♦10", "♣10"], "♥6", bj.Stood),  # never split tens
        (Level.NORMAL, ["♦A", "♣A"], "♥10", bj.PairSplit),
        (Level.NORMAL, ["♦4", "♣6"], "♥5", bj.Doubled),
        (Level.EASY, ["♦4", "♣6"], "♥5", bj.CardDrawn),  # easy doubles only an 11
        (Level.EASY, ["♦8", "♣8"], "♥5", bj.CardDrawn),  # and splits only Aces
    ],
)
def test_computer_seats_double_and_split(
    level: Level, hand: list[str], up: str, move: type[Any]
) -> None:
    state = position([hand], ["♠9", up], ["♦2", "♣2", "♥2", "♠2"] * 2, level=level.value)
    events = state.hand_to_computer(0)
    assert type(events[1]) is move
    assert state.is_over


@pytest.mark.parametrize(
    ("total", "soft", "up", "pair", "hits_soft17", "move"),
    [
        (11, False, 1, None, False, HIT),  # 11 against an Ace: hit when the House stands on 17
        (11, False, 1, None, True, DOUBLE),  # and double when it hits soft 17
        (18, True, 2, None, False, STAND),
        (18, True, 2, None, True, DOUBLE),
        (18, True, 4, None, False, DOUBLE),
        (19, True, 6, None, True, DOUBLE),
        (18, False, 7, 9, False, STAND),  # nines stand against a 7
        (18, False, 8, 9, False, SPLIT),
        (10, False, 10, 5, False, HIT),  # fives are a 10, never split
        (12, False, 6, 6, False, SPLIT),
        (9, False, 2, None, False, HIT),
        (9, False, 3, None, False, DOUBLE),
        (16, False, 10, None, False, HIT),
    ],
)
def test_hard_plays_basic_strategy_at_a_casino_table(  # noqa: PLR0917 - one chart cell
    total: int, soft: bool, up: int, pair: int | None, hits_soft17: bool, move: object
) -> None:
    got = casino_move(
        Level.HARD, total, soft, up, no_coin, pair=pair, may_double=True, hits_soft17=hits_soft17
    )
    assert got is move


def test_without_a_double_or_split_each_level_plays_hit_or_stand_as_before() -> None:
    coin = iter([1, 0])
    for level in Level:
        for total, soft, up in ((12, False, 4), (16, False, 10), (18, True, 9)):
            before = ai.decide_at(level, total, soft, up, lambda: 1)
            assert casino_move(level, total, soft, up, lambda: 1) is before
    assert casino_move(Level.NORMAL, 15, False, 10, lambda: next(coin)) is HIT  # the coin


def test_choose_reads_a_casino_view() -> None:
    state = position([["♦8", "♣8"]], ["♠10", "♥9"], level="hard")
    assert ai.choose_action(state.view(None), no_coin, Level.HARD) is SPLIT
    state.apply(0, bj.Split())
    assert ai.choose_action(state.view(None), no_coin, Level.HARD) in (HIT, STAND, DOUBLE)


def test_the_computer_player_needs_a_seat_to_act() -> None:
    state = playing(players=1)
    state.apply(0, bj.Stand())
    with pytest.raises(ValueError, match="over"):
        ai.choose_action(state.view(None), lambda: 1)
