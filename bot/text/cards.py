"""French cards in the text of Discord's tables, for every game played with them (One Card,
Crazy Eights): hearts and diamonds in red in an ``ansi`` code block.

A card is said by its code everywhere (``♠A``, ``♥10``): it is what a member types back, in
any language. Nothing here knows a game's rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

__all__ = ["red_cards"]

_RED_CARD: Final = r"[♥♦](?:10|[2-9AJQK])?"  # a red card (♥10) or suit (♦) as tables say it
_RED: Final = "\x1b[31m"
_RESET: Final = "\x1b[0m"


def red_cards(body: str, also: Sequence[str] = ()) -> str:
    """``body`` for an ``ansi`` code block: every heart and diamond (a card or a suit alone)
    in red, and the words in ``also`` (One Card's colour joker by name)."""
    pattern = "|".join([_RED_CARD, *(re.escape(word) for word in also)])
    return re.sub(pattern, lambda match: f"{_RED}{match[0]}{_RESET}", body)
