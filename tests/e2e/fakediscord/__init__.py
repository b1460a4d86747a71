"""A fake Discord (REST API v10 + gateway) on 127.0.0.1 for end-to-end tests of the real bot.

See :class:`FakeDiscord` in ``server.py``; ``limits.py`` holds Discord's limits, ``rest.py``
the routes, ``gateway.py`` the websocket, ``model.py`` what the fake remembers.
"""

from .model import FakeChannel, FakeMember, FakeMessage, FakeRole, FakeUser, Violation
from .running import running_client
from .server import FakeDiscord, FakeGuild, InteractionResult, UsageError

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
