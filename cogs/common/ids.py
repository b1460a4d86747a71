"""The custom ids of Deckhand's components: ``dh:<channel>:<version>:<what>[:<arg>]``.

Every button and select carries the channel it was posted in and the game version of its
message, so a click is checked on the server (right channel, still the current version)
and works after a restart. Two shapes, which never match each other's pattern:

- a button: ``dh:<channel>:<version>:<action>[:<arg>]``, the action in ``[a-z_]``
  (``hit``, ``take``, ``hand``), passed to the session as the move ``(action, arg)``;
- a game's menu of moves: ``dh:<channel>:<version>:<game>-menu[:<step>]``, ``step`` being
  what was picked in the menu before (One Card's 7 asking for a suit carries the card).

Both stay within Discord's 100 characters for the largest channel id and version.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "BUTTON_TEMPLATE",
    "CUSTOM_ID_LIMIT",
    "MENU_TEMPLATE",
    "button_id",
    "menu_id",
    "parse_button_id",
    "version_of",
]

CUSTOM_ID_LIMIT: Final = 100  # Discord's limit
_PREFIX: Final = r"dh:(?P<channel>[0-9]{1,20}):(?P<version>[0-9]{1,12}):"
BUTTON_TEMPLATE: Final = _PREFIX + r"(?P<action>[a-z_]{1,20})(?::(?P<arg>[^:]{1,40}))?"
MENU_TEMPLATE: Final = _PREFIX + r"(?P<game>[a-z]{1,12})-menu(?::(?P<step>[^:]{1,40}))?"
_BUTTON: Final = re.compile(BUTTON_TEMPLATE)
_MENU: Final = re.compile(MENU_TEMPLATE)


def _checked(text: str, template: str) -> str:
    if len(text) > CUSTOM_ID_LIMIT or re.fullmatch(template, text) is None:
        raise ValueError(f"not a valid Deckhand custom id: {text!r}")
    return text


def button_id(channel_id: int, version: int, action: str, arg: str | None = None) -> str:
    """A button's custom id; ``ValueError`` if it would not fit Discord's 100 chars."""
    text = f"dh:{channel_id}:{version}:{action}" + ("" if arg is None else f":{arg}")
    return _checked(text, BUTTON_TEMPLATE)


def menu_id(channel_id: int, version: int, game: str, step: str | None = None) -> str:
    """A game's move menu's custom id (``step``: the first pick, for a second menu)."""
    text = f"dh:{channel_id}:{version}:{game}-menu" + ("" if step is None else f":{step}")
    return _checked(text, MENU_TEMPLATE)


def parse_button_id(text: str) -> tuple[int, int, str, str | None]:
    """``(channel, version, action, arg)`` from a custom id; ``ValueError`` if it is not ours."""
    match = re.fullmatch(BUTTON_TEMPLATE, text)
    if match is None:
        raise ValueError(f"not a Deckhand button id: {text!r}")
    return int(match["channel"]), int(match["version"]), match["action"], match["arg"]


def version_of(text: str) -> int | None:
    """The game version a button's or a menu's custom id carries; ``None`` if it is not ours."""
    match = _BUTTON.fullmatch(text) or _MENU.fullmatch(text)
    return int(match["version"]) if match else None
