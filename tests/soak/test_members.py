"""The soak's members (soak/members.py) play every registered game by its adapter's strategy."""

from __future__ import annotations

import random

from bot.games import GameCatalog
from soak.members import GAMES, STRATEGIES


def test_every_game_of_the_soak_has_a_strategy_that_starts_it() -> None:
    assert STRATEGIES
    for game, strategy in STRATEGIES.items():
        options = strategy.start(random.Random(1))
        assert "bots" in options, game


def test_the_soak_plays_every_registered_game_in_the_catalogs_order() -> None:
    assert tuple(GameCatalog.discover().names()) == GAMES
