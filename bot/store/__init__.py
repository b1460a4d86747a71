"""Persistence: the GameStore contract and its SQLite and PostgreSQL implementations.

:func:`open_store` picks the implementation from ``DATABASE_URL``'s scheme; a driver is
imported only when its scheme is chosen.
"""

from __future__ import annotations

import importlib

from bot.store.base import GameStore

__all__ = [
    "STORE_RETRY_WAIT_SECONDS",
    "STORE_WAIT_SECONDS",
    "StoreUnavailable",
    "StoreUncertain",
    "UnsupportedDatabaseURL",
    "open_store",
]

# How long one statement may wait for a locked or silent database before it is
# StoreUnavailable: under Discord's 3 s for an interaction's first answer, so a member whose
# move cannot be saved is told so in time (the soak found 5 s answering after Discord gave up).
STORE_WAIT_SECONDS = 2.0
# Right after a refusal the database is most likely still out of reach: an operation then
# waits this long only, so a click queued behind a refused one (in the same channel) is not
# answered after two whole waits.
STORE_RETRY_WAIT_SECONDS = 0.25

# scheme -> (module, class); each class has ``from_url(url)``.
STORES: dict[str, tuple[str, str]] = {
    "memory": ("bot.store.memory", "MemoryStore"),
    "sqlite": ("bot.store.sqlite", "SQLiteStore"),
    "postgresql": ("bot.store.postgres", "PostgresStore"),
    "postgres": ("bot.store.postgres", "PostgresStore"),
}


class UnsupportedDatabaseURL(ValueError):
    """``DATABASE_URL`` names no store Deckhand has."""


class StoreUnavailable(RuntimeError):
    """The database cannot be reached or used; the message says which and why, no password."""


class StoreUncertain(StoreUnavailable):
    """A write whose answer was lost: the connection dropped after it was sent, so the
    database may hold it or not, and only reading it tells which."""


def open_store(url: str) -> GameStore:
    """The store for ``url``, not yet opened (``await store.open()`` connects and migrates).

    ``sqlite:///relative/path.db`` or ``sqlite:////absolute/path.db``; ``postgresql://...``
    or ``postgres://...``; ``memory://`` for a store that lives only as long as the process.
    """
    scheme, separator, _ = url.partition("://")
    where = STORES.get(scheme.lower()) if separator else None
    if where is None:
        # Only the scheme is echoed: the rest of the URL may hold a password.
        shown = f"{scheme}://" if separator else "no scheme"
        raise UnsupportedDatabaseURL(
            f"DATABASE_URL must start with sqlite:///, postgresql:// or memory:// (got {shown})"
        )
    module, name = where
    store: GameStore = getattr(importlib.import_module(module), name).from_url(url)
    return store
