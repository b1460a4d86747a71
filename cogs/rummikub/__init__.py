"""Rummikub on Discord: ``/rummikub``, its adapter and its pure text.

:mod:`bot.text.rummikub` holds the text, :mod:`bot.games.rummikub` what the session code
needs, and :mod:`.cog` the commands.
"""

from cogs.rummikub.cog import setup, teardown

__all__ = ["setup", "teardown"]
