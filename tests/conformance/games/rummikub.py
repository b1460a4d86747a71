"""Rummikub in the conformance suite: racks and the pool are hidden (rule 2), and so is the
table a seat stages during its turn (rule 15). ``legal_actions`` lists the turn's choices
(draw, undo, done), not the table edits, which are open-ended."""

from __future__ import annotations

from typing import Any

from tests.conformance.profile import Deal, Profile, Slot, slots


def racks(snapshot: dict[str, Any]) -> list[list[Slot]]:
    """Each rack; the staging seat's rack is bound to its staged table, so left as it is."""
    staging = snapshot["turn"] if snapshot["staged"] is not None else None
    return [[] if seat == staging else slots(rack) for seat, rack in enumerate(snapshot["racks"])]


PROFILE = Profile(
    deals=(
        Deal(2),
        Deal(3, {"hints": True}, computers=(2,)),
        Deal(4),
    ),
    seeds=2,
    max_decisions=2000,
    hands=racks,
    stock=lambda snapshot: slots(snapshot["pool"]),
    open_moves=True,
    commands={"tiles": "put"},
)
