"""An imitation of Discord (REST API v10 + gateway) on 127.0.0.1: the end-to-end tests run
the real bot against it, and ``deckhand sandbox`` lets a visitor play in it from a browser.
It ships with the bot so the sandbox works from an installed package; nothing else in the
bot imports it.

See :class:`FakeDiscord` in ``server.py``; ``acting.py`` holds what members do, ``limits.py``
Discord's limits, ``rest.py`` the routes (their handlers in ``rest_*.py``), ``gateway.py`` the
websocket, ``model.py`` what the fake remembers.
"""

from .acting import InteractionResult, UsageError
from .model import FakeChannel, FakeGuild, FakeMember, FakeMessage, FakeRole, FakeUser, Violation
from .running import running_client
from .server import FakeDiscord

__all__ = [
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionResult",
    "UsageError",
    "Violation",
    "running_client",
]
