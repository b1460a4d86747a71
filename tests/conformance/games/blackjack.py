"""Blackjack in the conformance suite: every hand is public (rule 15); what no seat sees is
the shoe and, until the House plays, its face-down card (rule 3)."""

from __future__ import annotations

from typing import Any

from rules.levels import Level
from tests.conformance.profile import Deal, Profile, Slot, slots


def hidden(snapshot: dict[str, Any]) -> list[Slot]:
    """The shoe, and the House's first card while it is face down."""
    hole = [] if snapshot["revealed"] else [(snapshot["house"], 0)]
    return [*slots(snapshot["shoe"]), *hole]


PROFILE = Profile(
    deals=(
        Deal(1),
        Deal(3, computers=(1,)),
        Deal(7, {"ruleset": "casino"}, computers=(0, 3, 5), level=Level.HARD),
        Deal(4, {"ruleset": "casino", "soft17": "hit"}, computers=(2,), level=Level.EASY),
        Deal(5, secret=False),  # a member's seed deals the seed program's shoe (rule 11)
        Deal(2, {"ruleset": "casino"}, secret=False),
    ),
    seeds=12,
    max_decisions=60,
    hands=lambda snapshot: [[] for _ in snapshot["hands"]],
    stock=hidden,
    button_moves=True,  # Hit, Stand, Double and Split: no menu, no command
)
