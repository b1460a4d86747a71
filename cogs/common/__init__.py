"""What every game's cog shares: components that survive restarts, answering, errors, posting.

A helper package, not an extension (it has no ``setup``): each game's cog calls
:func:`install` in its own ``setup`` and builds its commands from :mod:`cogs.common.verbs`
(start, join, leave, hand, a move, autocomplete of the member's own moves). Its buttons and
menus (:mod:`.buttons`, ids in :mod:`.ids`) serve every game through the game's adapter.
"""

from cogs.common.buttons import (
    GameButton,
    MoveMenu,
    answer,
    answer_post,
    build_view,
    send_hand,
)
from cogs.common.ids import button_id, menu_id
from cogs.common.poster import DiscordPoster, install
from cogs.common.respond import ephemeral, guarded, locale_of, member_of, public_locale

__all__ = [
    "DiscordPoster",
    "GameButton",
    "MoveMenu",
    "answer",
    "answer_post",
    "build_view",
    "button_id",
    "ephemeral",
    "guarded",
    "install",
    "locale_of",
    "member_of",
    "menu_id",
    "public_locale",
    "send_hand",
]
