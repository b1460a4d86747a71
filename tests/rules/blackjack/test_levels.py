"""Computer-seat levels: the ``computer_level`` option, basic strategy and easy."""

from __future__ import annotations

import json

import pytest

import rules.blackjack as bj
from rules.blackjack.ai import HIT, STAND, basic_strategy, choose_action, decide_at
from rules.cards import STANDARD_DECK
from rules.engine import IllegalAction, SnapshotError
from rules.levels import Level


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
