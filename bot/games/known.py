"""Every game's adapter by name, without the cogs: the names tools used before the catalog
found the games by itself (:meth:`bot.games.GameCatalog.discover`), derived from it.

``ADAPTERS`` (game name to adapter module) is computed on first use, not on import: the
catalog's discovery imports every module of ``bot.games``, this one too.
"""

from __future__ import annotations

from bot.games import AnyAdapter, GameCatalog

__all__ = ["adapter"]  # and ADAPTERS, made on first use (__getattr__)


def adapter(name: str) -> AnyAdapter:
    """The adapter of game ``name``; :class:`~bot.games.UnknownGame` if none."""
    return GameCatalog.discover().get(name)


def __getattr__(name: str) -> dict[str, str]:
    if name == "ADAPTERS":
        return {game.name: type(game).__module__ for game in GameCatalog.discover()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
