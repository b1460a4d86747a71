"""Uno on Discord: ``/uno``, its adapter and its pure text.

:mod:`bot.text.uno` holds the text, :mod:`bot.games.uno` what the session code needs, and
:mod:`.cog` the commands.
"""

from cogs.uno.cog import setup, teardown

__all__ = ["setup", "teardown"]
