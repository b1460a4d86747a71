"""Members' display names as every game's text shows them: inside a code block (one line,
no backquote, clipped to a table's room) and in the move log above it (markdown escaped).

A display name is the one thing in a table a member types: these keep it from breaking out
of the block, from bolding the log, or from pushing a line past a phone's width.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final

from bot.i18n import escape_markdown, t
from bot.text.width import clip, columns
from rules.levels import Level

__all__ = [
    "TABLE_NAME_COLUMNS",
    "block_name",
    "block_names",
    "clean_name",
    "escape_log",
    "left_name",
    "leveled_name",
    "markdown_name",
]

TABLE_NAME_COLUMNS: Final = 12  # a name's room in a table line, so a line fits a phone
_MARKDOWN: Final = re.compile(r"([\\`*_~|>])")
_LINE_START: Final = re.compile(r"^(\s*)(-#|#{1,3})(?=\s)")  # a heading, or subtext
_ZERO_WIDTH_JOINER: Final = "\u200d"  # joins emoji: kept


@functools.lru_cache(maxsize=4096)  # a table draws its few names after every move
def clean_name(name: str) -> str:
    """A display name as Deckhand keeps it: no control or format character (bidi overrides
    and isolates would reverse a table line), on one line with its spaces folded; ``?`` if
    nothing is left."""
    kept = "".join(
        " " if char.isspace() else char
        for char in name
        if char == _ZERO_WIDTH_JOINER
        or char.isspace()
        or unicodedata.category(char) not in ("Cc", "Cf")
    )
    return " ".join(kept.split()) or "?"


def markdown_name(name: str) -> str:
    """A display name in text outside a code block (a notice, a lobby, a list): cleaned,
    with everything markdown would read in it escaped (``*``, ``#``, ``[…](…)``, ``<@…>``)."""
    return escape_markdown(clean_name(name))


def block_name(name: str, most: int = TABLE_NAME_COLUMNS) -> str:
    """``name`` cleaned (:func:`clean_name`), backquotes made quotes, clipped to ``most``
    columns: it cannot leave a code block or turn its line around."""
    return clip(clean_name(name).replace("`", "'"), most) or "?"


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


def left_name(name: str, locale: str, *, short: bool = True) -> str:
    """A member's seat a computer plays on since they left (or were handed over):
    ``bob (left)`` in a table, within :data:`TABLE_NAME_COLUMNS` (``short``), and
    ``bob (left · computer)`` where there is room (``/game list``)."""
    tag = t("seat.left_short" if short else "seat.left", locale)
    if not short:
        return f"{name} {tag}"
    return f"{block_name(name, TABLE_NAME_COLUMNS - 1 - columns(tag))} {tag}"


def escape_log(lines: Iterable[str]) -> list[str]:
    """Move-log lines with Discord markdown escaped: a display name in them may hold ``*``
    or ``_``, start the line as a heading (``# BIG``, ``-# tiny``), make a masked link
    (``[free nitro](https://…)``) or carry bidi controls, and none of it may take effect."""
    escaped = []
    for line in lines:
        kept = (
            line  # no format character is ASCII: most lines need no look at each character
            if line.isascii()
            else "".join(
                c for c in line if c == _ZERO_WIDTH_JOINER or unicodedata.category(c) != "Cf"
            )
        )
        marked = _MARKDOWN.sub(r"\\\1", kept).replace("](", "]\\(")
        escaped.append(_LINE_START.sub(r"\1\\\2", marked))
    return escaped
