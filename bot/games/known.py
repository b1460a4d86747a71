"""Every game's adapter by name, without the cogs: the names tools used before the catalog
found the games by itself (:meth:`bot.games.GameCatalog.discover`), derived from it."""

from __future__ import annotations

from typing import Final

from bot.games import AnyAdapter, GameCatalog

__all__ = ["ADAPTERS", "adapter"]

ADAPTERS: Final = {game.name: type(game).__module__ for game in GameCatalog.discover()}


def adapter(name: str) -> AnyAdapter:
    """The adapter of game ``name``; :class:`~bot.games.UnknownGame` if none."""
    return GameCatalog.discover().get(name)
