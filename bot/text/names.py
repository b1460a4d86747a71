"""Members' display names as every game's text shows them: inside a code block (one line,
no backquote, clipped to a table's room) and in the move log above it (markdown escaped).

A display name is the one thing in a table a member types: these keep it from breaking out
of the block, from bolding the log, or from pushing a line past a phone's width.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from bot.i18n import t
from bot.text.width import clip, columns
from rules.levels import Level

__all__ = ["TABLE_NAME_COLUMNS", "block_name", "block_names", "escape_log", "leveled_name"]

TABLE_NAME_COLUMNS: Final = 12  # a name's room in a table line, so a line fits a phone
_MARKDOWN: Final = re.compile(r"([\\`*_~|>])")


def block_name(name: str, most: int = TABLE_NAME_COLUMNS) -> str:
    """``name`` on one line, backquotes made quotes, clipped to ``most`` columns; ``?`` if
    nothing is left."""
    return clip(" ".join(name.replace("`", "'").split()), most) or "?"


def block_names(names: Sequence[str], most: int = TABLE_NAME_COLUMNS) -> list[str]:
    """:func:`block_name` of each name."""
    return [block_name(name, most) for name in names]


def leveled_name(name: str, level: Level, locale: str) -> str:
    """A computer seat's name with how well it plays, ``AI 2 (hard)`` / ``AI 2 (고수)``;
    a normal player's (today's) as ever. The name gives way, not the level, so it still
    shows within a table's :data:`TABLE_NAME_COLUMNS`."""
    if level is Level.NORMAL:
        return name
    tag = t(f"level.tag.{level.value}", locale)
    return f"{block_name(name, TABLE_NAME_COLUMNS - 1 - columns(tag))} {tag}"


def escape_log(lines: Iterable[str]) -> list[str]:
    """Move-log lines with Discord markdown escaped (display names may hold ``*`` or ``_``)."""
    return [_MARKDOWN.sub(r"\\\1", line) for line in lines]
