"""What every game's cog shares: buttons that survive restarts, answering, errors, posting.

A helper package, not an extension (it has no ``setup``): each game's cog calls
:func:`install` in its own ``setup`` and builds its commands from :mod:`cogs.common.table`.
"""

from cogs.common.buttons import GameButton, answer_post, build_view, custom_id
from cogs.common.poster import DiscordPoster, install
from cogs.common.respond import ephemeral, guarded, locale_of, member_of

__all__ = [
    "DiscordPoster",
    "GameButton",
    "answer_post",
    "build_view",
    "custom_id",
    "ephemeral",
    "guarded",
    "install",
    "locale_of",
    "member_of",
]
