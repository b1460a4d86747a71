"""What Uno's snapshot holds, and the damaged ones it refuses.

That ``restore(snapshot())`` plays on identically, and that another game's or schema's
snapshot is refused, the conformance suite checks for every game (tests/conformance/).
"""

from __future__ import annotations

import pytest

from rules.engine import SnapshotError
from rules.uno import new, restore


def test_snapshot_carries_generator_log_and_schema() -> None:
    state = new(3, seed=42)
    state.apply(state.turn, state.legal_actions(state.turn)[-1])
    data = state.snapshot()
    assert (data["game"], data["schema"]) == ("uno", 1)
    assert data["rng"]["seed"] == 42
    assert len(data["log"]) == 1


def test_damaged_snapshots_are_refused() -> None:
    data = new(3, seed=1).snapshot()
    with pytest.raises(SnapshotError, match="deck"):
        restore({**data, "pile": data["pile"][1:]})
    broken = dict(data)
    del broken["hands"]
    with pytest.raises(SnapshotError):
        restore(broken)
