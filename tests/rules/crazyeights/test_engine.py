"""Crazy Eights' own checks of the engine contract: what restore refuses, what options it
takes (the contract every game keeps is the conformance suite's, tests/conformance/)."""

from __future__ import annotations

import pytest

import rules.crazyeights as ce
from rules.engine import IllegalAction, SnapshotError


def test_restore_refuses_another_game_and_damaged_snapshots() -> None:
    state = ce.new(3, seed=1)
    data = state.snapshot()
    damaged = [
        {**data, "game": "onecard"},
        {**data, "schema": 2},
        {**data, "stock": data["stock"][1:]},  # a card lost
        {**data, "stock": [*data["stock"], data["discard"][0]]},  # a card twice
        {**data, "hands": "nonsense"},
        {**data, "suit": 4},
        {**data, "current": 3},
        {**data, "out_order": [0, 0]},
        {**data, "players": 7},
        {key: value for key, value in data.items() if key != "rng"},
    ]
    for bad in damaged:
        with pytest.raises(SnapshotError):
            ce.restore(bad)
    assert ce.restore(data).snapshot() == data


def test_unknown_options_are_refused() -> None:
    with pytest.raises(IllegalAction, match="options") as error:
        ce.new(2, seed=1, options={"jokers": True})
    assert error.value.code == "options"
    assert ce.new(2, seed=1, options={}).snapshot() == ce.new(2, seed=1).snapshot()
