"""The engine contract for Blackjack: refusals change nothing, snapshots, views, options."""

from __future__ import annotations

import json
from typing import Any

import pytest

import rules.blackjack as bj
from rules.engine import Action, GameOver, GameState, IllegalAction, SnapshotError


def playing(seed: int = 3, players: int = 3) -> bj.State:
    while True:
        state = bj.new(players, seed=seed)
        if not state.is_over:
            return state
        seed += 1


class Surrender(Action):
    """Not a Blackjack move."""


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, bj.Hit(), "not_your_turn"),
        (2, bj.Stand(), "not_your_turn"),
        (0, Surrender(), "unknown_action"),
        (0, "Hit", "unknown_action"),
    ],
)
def test_refused_actions_change_nothing(seat: int, action: Any, code: str) -> None:
    state = playing()
    before = state.snapshot()
    with pytest.raises(IllegalAction) as refused:
        state.apply(seat, action)
    assert refused.value.code == code
    assert refused.value.reason
    assert state.snapshot() == before


def test_nothing_is_legal_after_the_game() -> None:
    state = playing(players=1)
    events = state.apply(0, bj.Stand())
    assert isinstance(events[-1], GameOver) and events[-1].result == state.result
    before = state.snapshot()
    for seat in (0, 1):
        assert state.legal_actions(seat) == ()
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, bj.Hit())
    assert refused.value.code == "game_over"
    assert state.snapshot() == before
    assert state.hand_to_computer(0) == []


def test_refusals_never_name_the_hole_card() -> None:
    state = playing(seed=40, players=2)
    hole = state.house_cards()[0]
    for seat, action in ((1, bj.Hit()), (0, Surrender())):
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, action)
        assert hole.code not in refused.value.reason
        assert hole.rank.label + "h" not in refused.value.reason


def test_snapshot_is_json_and_restores_the_same_continuation() -> None:
    for seed in (None, 5):
        state = bj.new(4, seed=seed, options={"computers": [2]})
        while state.is_over:
            state = bj.new(4, seed=seed, options={"computers": [2]})
        data = json.loads(json.dumps(state.snapshot()))
        copy = bj.restore(data)
        assert copy.snapshot() == state.snapshot()
        assert copy.view(0) == state.view(0)
        assert copy.opening_events == ()
        for seat in (0, 1, 3):
            action = bj.Hit() if seat == 0 else bj.Stand()
            while state.current_seat == seat:
                assert copy.apply(seat, action) == state.apply(seat, action)
        assert copy.result == state.result and state.is_over
        assert bj.restore(state.snapshot()).result == state.result


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(game="uno"),
        lambda d: d.update(schema=2),
        lambda d: d.update(players=9),
        lambda d: d.update(shuffle="sorted"),
        lambda d: d["shoe"].pop(),
        lambda d: d["shoe"].append(0),
        lambda d: d["hands"].pop(),
        lambda d: d.update(current=7),
        lambda d: d.update(computers=[0]),
        lambda d: d.update(revealed=True),
        lambda d: d.pop("rng"),
        lambda d: d.update(log=[[0]]),
        lambda d: d["house"].__setitem__(0, 99),
    ],
)
def test_damaged_snapshots_are_refused(damage: Any) -> None:
    data = playing().snapshot()
    damage(data)
    with pytest.raises(SnapshotError):
        bj.restore(data)


def _move_from_shoe(data: dict[str, Any], to: list[int], *, until: int = 0) -> None:
    """Deal shoe cards onto ``to`` (at least one, then until its total passes ``until``)."""
    to.append(data["shoe"].pop())
    while bj.hand_total(to) <= until:
        to.append(data["shoe"].pop())


def _low_house(data: dict[str, Any]) -> None:
    """Give the House two cards totalling under 17, keeping the 4 decks whole."""
    shoe, house = data["shoe"], data["house"]
    low = [n for n, i in enumerate(shoe) if bj.hand_total([i]) <= 5][:2]
    for n, position in enumerate(low):
        shoe[position], house[n] = house[n], shoe[position]


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda d: d.update(computers=[-1]), "no seat -1"),
        (lambda d: d.update(computers=[3]), "no seat 3"),
        (lambda d: d.update(dealt_computers=[-1]), "no seat -1"),
        (lambda d: d.update(log=[[-1, 1]]), "no seat -1"),
        (lambda d: d.update(log=[[0, 5]]), "unknown log entry 5"),
        (lambda d: d.update(current=3), "face down"),
        (lambda d: (_low_house(d), d.update(current=3, revealed=True)), "House stopped below 17"),
        (lambda d: _move_from_shoe(d, d["house"]), "House drew before"),
        (lambda d: _move_from_shoe(d, d["hands"][2]), "Player3 drew before"),
        (lambda d: _move_from_shoe(d, d["hands"][0], until=21), "Player1 is bust"),
    ],
)
def test_damaged_snapshots_are_refused_with_the_reason(damage: Any, reason: str) -> None:
    data = playing().snapshot()
    damage(data)
    with pytest.raises(SnapshotError, match=f"damaged blackjack snapshot: .*{reason}"):
        bj.restore(data)


def test_options_and_views_refuse_what_is_not_there() -> None:
    with pytest.raises(IllegalAction):
        bj.new(3, options={"decks": 6})
    with pytest.raises(IllegalAction):
        bj.new(3, options={"computers": [3]})
    with pytest.raises(IllegalAction):
        playing().view(5)


def test_opening_events_of_a_computer_first_seat() -> None:
    state = bj.new(2, seed=8, options={"computers": [0]})
    kinds = [type(e) for e in state.opening_events]
    assert kinds[0] is bj.Dealt
    if not state.is_over:
        assert kinds[1] is bj.TurnStarted
        assert state.current_seat == 1
        assert bj.TurnStarted(1) in state.opening_events


def test_views_are_immutable() -> None:
    view = playing().view(0)
    with pytest.raises(AttributeError):
        view.current = 2  # type: ignore[misc]


def test_state_meets_the_engine_contract() -> None:
    assert isinstance(playing(), GameState)


def test_replay_rebuilds_a_game_from_seed_and_log() -> None:
    state = playing(seed=12, players=3)
    state.apply(0, bj.Hit())
    if not state.is_over:
        state.hand_to_computer(2)
    data = state.snapshot()
    assert bj.replay(data).snapshot() == data
    assert data["log"][0] == [0, 1]


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.update(log=[[1, 1]]),  # not seat 1's turn
        lambda d: d.update(log=[[0, 7]]),
        lambda d: d.update(dealt_computers=[9]),
        lambda d: d.update(shuffle="sorted"),
        lambda d: d.pop("seed"),
    ],
)
def test_replay_refuses_a_log_the_rules_refuse(damage: Any) -> None:
    data = playing().snapshot()
    damage(data)
    with pytest.raises(SnapshotError):
        bj.replay(data)
