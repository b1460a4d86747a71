"""One Card in the conformance suite: hands and the main deck are hidden (rules 1-4)."""

from __future__ import annotations

from rules.levels import Level
from tests.conformance.profile import Deal, Profile, slots

PROFILE = Profile(
    deals=(
        Deal(2),
        Deal(3, computers=(1,)),
        Deal(4, computers=(0, 2), level=Level.EASY),
    ),
    seeds=4,
    max_decisions=3000,
    hands=lambda snapshot: [slots(hand) for hand in snapshot["hands"]],
    stock=lambda snapshot: slots(snapshot["deck"]),
    commands={"card": "play"},
)
