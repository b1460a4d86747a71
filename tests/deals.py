"""Fixed "fair" deals for tests: a deal nobody seeded comes from the operating system, and a
test must not depend on what that chance deals."""

from __future__ import annotations

import pytest

__all__ = ["fair_blackjack_deals"]


def fair_blackjack_deals(monkeypatch: pytest.MonkeyPatch, players: int) -> int:
    """Make every unseeded ("fair", Blackjack rule 12) deal from now on draw the same
    operating-system seed, one whose deal for ``players`` seats does not end at once; that seed.

    An unseeded deal ends at once about one time in twenty (the House's 21): a test of a
    deal nobody seeded, such as "Deal again", must not depend on that chance.
    """
    import rules.rng
    from rules.blackjack import new

    def fair(seed: int) -> bool:
        monkeypatch.setattr(rules.rng, "new_seed", lambda: seed)
        return not new(players).is_over

    return next(seed for seed in range(1000) if fair(seed))
