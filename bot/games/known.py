"""Every game's adapter by name, for what runs without Discord (``deckhand verify``).

In the bot each game's cog registers its adapter; a tool that must know every game without
loading the cogs looks here. The modules are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Final

from bot.games import AnyAdapter, UnknownGame

__all__ = ["ADAPTERS", "adapter"]

ADAPTERS: Final = {
    "blackjack": "bot.games.blackjack",
    "onecard": "bot.games.onecard",
    "uno": "bot.games.uno",
    "gostop": "bot.games.gostop",
    "rummikub": "bot.games.rummikub",
}


def adapter(name: str) -> AnyAdapter:
    """The adapter of game ``name`` (its module's ``ADAPTER``); :class:`UnknownGame` if none."""
    module = ADAPTERS.get(name)
    if module is None:
        raise UnknownGame(name)
    found: AnyAdapter = importlib.import_module(module).ADAPTER
    return found
