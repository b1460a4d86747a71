"""One Card (원카드) on Discord: ``/onecard``, its adapter and its pure rendering.

:mod:`cogs.onecard.render` holds the text (also used by the console), :mod:`.adapter` what
the session code needs, and :mod:`.cog` the commands, buttons and menus.
"""

from cogs.onecard.cog import setup, teardown

__all__ = ["setup", "teardown"]
