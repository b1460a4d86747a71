"""Crazy Eights (크레이지 에이트) on Discord: ``/crazyeights``.

:mod:`bot.text.crazyeights` holds the text, :mod:`bot.games.crazyeights` what the session
code needs, and :mod:`.cog` the commands.
"""

from cogs.crazyeights.cog import setup, teardown

__all__ = ["setup", "teardown"]
