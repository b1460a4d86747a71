"""How wide text is on a phone, and making table lines fit it.

Every public table is a code block, and a code block does not wrap on a phone: a line wider
than the screen scrolls sideways. :data:`PHONE_COLUMNS` (40) is what a phone shows of a
code block without scrolling; a Hangul syllable (or any wide East Asian character) takes two
columns, a combining mark none, and ANSI colour codes none.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Final

__all__ = ["PHONE_COLUMNS", "clip", "columns", "pad", "wrap", "wrap_words"]

PHONE_COLUMNS: Final = 40
_ANSI: Final = re.compile(r"\x1b\[[0-9;]*m")
# Where a cut was made. Not "…": that is East Asian ambiguous width (two columns in a CJK
# font), and a clipped name sits before a table's aligned columns.
_CUT_MARK: Final = "~"


@functools.lru_cache(maxsize=4096)
def columns(text: str) -> int:
    """The columns ``text`` takes in a monospaced code block (remembered: tables measure
    the same cards, names and words on every move)."""
    width = 0
    for char in _ANSI.sub("", text):
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def clip(text: str, most: int) -> str:
    """``text`` cut to at most ``most`` columns, ending in ``~`` when it was cut."""
    if columns(text) <= most:
        return text
    kept = ""
    for char in text:
        if columns(kept + char + _CUT_MARK) > most:
            break
        kept += char
    return kept.rstrip() + _CUT_MARK


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` columns (a column of a table)."""
    return text + " " * max(0, width - columns(text))


def wrap(line: str, width: int = PHONE_COLUMNS, indent: str = "    ") -> list[str]:
    """``line`` broken at spaces into lines of at most ``width`` columns (see
    :func:`wrap_words`); leading spaces stay on the first line."""
    body = line.lstrip(" ")
    words = body.split(" ")
    words[0] = line[: len(line) - len(body)] + words[0]
    return wrap_words(words, width, indent)


def wrap_words(words: Sequence[str], width: int = PHONE_COLUMNS, indent: str = "    ") -> list[str]:
    """``words`` joined by spaces into lines of at most ``width`` columns, the later lines
    indented. A word is never broken (pass ``"(24) - Bust !!"`` as one to keep it whole);
    one wider than ``width`` stays whole on its own line."""
    lines: list[str] = []
    current = words[0] if words else ""
    used = columns(current)
    # Widths add up word by word (a colour code never spans a space), so the line's width
    # is kept as it grows instead of measured again for every word.
    for word in words[1:]:
        wide = columns(word)
        if used + 1 + wide > width:
            lines.append(current)
            current = indent + word
            used = columns(indent) + wide
        else:
            current = f"{current} {word}"
            used += 1 + wide
    lines.append(current)
    return lines
