"""``restore(snapshot())`` is the same game, in every game (docs/design.md §2).

At every decision of every play-out the snapshot goes through JSON, as the store keeps it,
and back: the restored state snapshots back identically, has the same seat to act, shows
every seat and a spectator the same view and offers every seat the same moves. From a few
random decisions on, the restored copy is played alongside the original, move for move:
the same events and the same snapshot after each move, to the end. A snapshot that names
another game or an unknown schema is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.engine import SnapshotError
from tests.conformance.harness import GAMES, Case, Step, play_all, through_json

FOLLOWERS = 3  # copies per play-out, each restored at a random decision and played on


def restores(case: Case) -> Callable[[Step], None]:
    adapter = case.adapter
    seats = range(case.deal.seats)
    followers: list[Any] = []

    def check(step: Step) -> None:
        state = step.state
        for follower in followers:
            assert step.played is not None
            assert step.played.again(adapter, follower) == list(step.events), (
                f"a restored copy's {step.played} did otherwise"
            )
            assert follower.snapshot() == state.snapshot(), (
                f"after {step.played}, a restored copy's snapshot differs"
            )
        data = through_json(state.snapshot())
        twin = adapter.restore(through_json(data))
        assert twin.snapshot() == data, "the restored state snapshots otherwise"
        assert twin.current_seat == state.current_seat
        assert twin.is_over == state.is_over and twin.result == state.result
        for seat in [*seats, None]:
            assert twin.view(seat) == state.view(seat), f"seat {seat} sees otherwise"
        for seat in seats:
            assert list(twin.legal_actions(seat)) == list(state.legal_actions(seat))
        if step.number == 0:
            for damaged in ({**data, "game": f"not {case.game}"}, {**data, "schema": -1}):
                with pytest.raises(SnapshotError):
                    adapter.restore(damaged)
        if len(followers) < FOLLOWERS and step.rng.random() < 0.1:
            followers.append(twin)

    return check


@pytest.mark.parametrize("name", GAMES)
def test_a_restored_snapshot_plays_on_identically(name: str) -> None:
    assert play_all(name, restores) > 20
