"""One Card (원카드) on Discord: ``/onecard``, its adapter and its pure rendering.

:mod:`bot.text.onecard` holds the text (also used by the console), :mod:`bot.games.onecard`
what the session code needs, and :mod:`.cog` the commands.
"""

from cogs.onecard.cog import setup, teardown

__all__ = ["setup", "teardown"]
