"""Messages that fit Discord's 2,000 characters by design, never cut blind.

A message is whole lines: what does not fit is left out as whole lines and said so ("… 12
earlier lines", "and 5 more"), a code block is always closed, and the lines that matter (a
fair deal's reveal, whose turn it is, the table) are placed first and dropped never; the
lines that can go (a long move log, a long list) give way, oldest or last first. Pure
functions over strings: the session code, the cogs and the tests share them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

__all__ = ["MAX_MESSAGE", "fit_list", "fit_tail", "pages"]

MAX_MESSAGE: Final = 2000  # Discord's limit on a bot message's content


def _size(lines: Sequence[str]) -> int:
    """Characters of ``lines`` joined by newlines."""
    return sum(len(line) for line in lines) + max(0, len(lines) - 1)


def fit_tail(lines: Sequence[str], room: int, earlier: Callable[[int], str]) -> list[str]:
    """The last of ``lines`` that fit in ``room`` characters, under ``earlier(n)`` naming how
    many were left out before them (none left out: ``lines`` as they are)."""
    if _size(lines) <= room:
        return list(lines)
    kept: list[str] = []
    for line in reversed(lines):
        if _size([earlier(len(lines) - len(kept) - 1), line, *kept]) > room:
            break
        kept.insert(0, line)
    head = earlier(len(lines) - len(kept))
    return [head, *kept] if len(head) <= room else kept


def fit_list(lines: Sequence[str], room: int, more: Callable[[int], str]) -> list[str]:
    """The first of ``lines`` that fit in ``room`` characters, then ``more(n)`` naming how
    many were left out (none left out: ``lines`` as they are)."""
    if _size(lines) <= room:
        return list(lines)
    kept: list[str] = []
    for line in lines:
        if _size([*kept, line, more(len(lines) - len(kept) - 1)]) > room:
            break
        kept.append(line)
    tail = more(len(lines) - len(kept))
    return [*kept, tail] if len(tail) <= room else kept


def pages(head: str, lines: Sequence[str], lang: str = "", *, most: int = MAX_MESSAGE) -> list[str]:
    """``head`` and then ``lines`` in a code block, as as many messages as they need: each at
    most ``most`` characters, each block closed, every line whole and shown once (a line
    longer than a page is split where it must, with ``…``)."""
    fence_open, fence_close = f"```{lang}\n", "\n```"
    room = most - len(fence_open) - len(fence_close)
    out: list[str] = []
    current: list[str] = []
    first_room = room - len(head) - 1 if head else room
    for line in _split_long(lines, min(room, max(first_room, 1))):
        limit = first_room if not out else room
        if current and _size([*current, line]) > limit:
            out.append(_page(head if not out else "", current, fence_open, fence_close))
            current = []
        current.append(line)
    out.append(_page(head if not out else "", current, fence_open, fence_close))
    return out


def _page(head: str, lines: list[str], fence_open: str, fence_close: str) -> str:
    block = f"{fence_open}{chr(10).join(lines)}{fence_close}"
    return f"{head}\n{block}" if head else block


def _split_long(lines: Sequence[str], room: int) -> list[str]:
    out: list[str] = []
    for line in lines:
        rest = line
        while len(rest) > room:
            out.append(rest[: room - 1] + "…")
            rest = rest[room - 1 :]
        out.append(rest)
    return out
