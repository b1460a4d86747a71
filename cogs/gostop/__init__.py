"""Go-Stop (고스톱, two-player Matgo) on Discord: ``/gostop``, its adapter and its pure text.

:mod:`bot.text.gostop` holds the text (also used by the console), :mod:`bot.games.gostop`
what the session code needs, and :mod:`.cog` the commands.
"""

from cogs.gostop.cog import setup, teardown

__all__ = ["setup", "teardown"]
