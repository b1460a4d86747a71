"""The suite runs over every game: each registered game has a profile (so a new game cannot
slip past it), and each profile deals what its game allows."""

from __future__ import annotations

import pytest

from tests.conformance.harness import GAMES, game, profiles, registered


def test_every_registered_game_has_a_profile_and_every_profile_a_game() -> None:
    missing = sorted(set(registered()) - set(profiles()))
    assert not missing, f"add tests/conformance/games/<game>.py for {missing}"
    for name, profile in profiles().items():
        assert name in registered() or profile.adapter is not None, name
    assert set(GAMES) == set(profiles())


@pytest.mark.parametrize("name", GAMES)
def test_each_profile_deals_what_its_game_allows(name: str) -> None:
    played = game(name)
    seats = {deal.seats for deal in played.profile.deals}
    assert {played.adapter.min_seats, played.adapter.max_seats} <= seats
    for deal in played.profile.deals:
        assert played.adapter.min_seats <= deal.seats <= played.adapter.max_seats, deal
        assert all(0 <= seat < deal.seats for seat in deal.computers), deal
    assert played.profile.seeds >= 2
