"""snapshot()/restore() are lossless at every step, through JSON, and refuse damaged data."""

from __future__ import annotations

import json
import random

import pytest

from rules.engine import SnapshotError
from rules.uno import Play, new, restore
from rules.uno.state import HOUSE_RULES


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_restore_plays_on_identically_at_every_step(ruleset: str) -> None:
    for seed in range(25):
        rand = random.Random(seed)
        house = {rule: rand.random() < 0.5 for rule in HOUSE_RULES}
        state = new(2 + seed % 9, seed=seed, options={"ruleset": ruleset, **house})
        for _ in range(400):
            if state.is_over:
                break
            data = json.loads(json.dumps(state.snapshot()))
            twin = restore(data)
            assert twin.snapshot() == data
            assert twin.view(state.turn) == state.view(state.turn)
            seat = state.turn
            legal = state.legal_actions(seat)
            assert twin.legal_actions(seat) == legal
            plays = [a for a in legal if isinstance(a, Play)]
            action = rand.choice(plays if plays and rand.random() < 0.8 else legal)
            assert twin.apply(seat, action) == state.apply(seat, action)
        assert restore(state.snapshot()).snapshot() == state.snapshot()
        assert restore(state.snapshot()).result == state.result


def test_snapshot_carries_generator_log_and_schema() -> None:
    state = new(3, seed=42)
    state.apply(state.turn, state.legal_actions(state.turn)[-1])
    data = state.snapshot()
    assert (data["game"], data["schema"]) == ("uno", 1)
    assert data["rng"]["seed"] == 42
    assert len(data["log"]) == 1


def test_damaged_snapshots_are_refused() -> None:
    data = new(3, seed=1).snapshot()
    with pytest.raises(SnapshotError):
        restore({**data, "game": "onecard"})
    with pytest.raises(SnapshotError):
        restore({**data, "schema": 99})
    with pytest.raises(SnapshotError, match="deck"):
        restore({**data, "pile": data["pile"][1:]})
    broken = dict(data)
    del broken["hands"]
    with pytest.raises(SnapshotError):
        restore(broken)
