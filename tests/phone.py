"""The phone-width check every game's table tests share (docs/design.md §4: tables fit a phone).

A code block does not wrap on a phone, so each line of a public table must fit in
:data:`~bot.text.width.PHONE_COLUMNS` columns (a Hangul syllable counts two, colour codes
none). The consoles keep their seed's layout and are not checked here.

Columns must also line up on every client. East Asian *ambiguous* characters (the suits,
``▶ ★ × ← → ·``, Greek and Cyrillic letters) take one column in most fonts and two in a CJK
monospace font, so a column that lines up under one measure must line up under the other:
:func:`misaligned` measures every block both ways.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Sequence

from bot.text.width import PHONE_COLUMNS, columns

__all__ = ["assert_fits_phone", "assert_tables_fit_phone", "code_block_lines", "misaligned"]

_BLOCK = re.compile(r"```[a-z]*\n(.*?)```", re.DOTALL)


def code_block_lines(message: str) -> list[str]:
    """The lines inside every code block of a message."""
    return [line for block in _BLOCK.findall(message) for line in block.splitlines()]


def _code_blocks(message: str) -> list[list[str]]:
    return [block.splitlines() for block in _BLOCK.findall(message)]


def _wide_columns(text: str) -> int:
    """Columns in a CJK monospace font: ambiguous characters take two."""
    return columns(text) + sum(unicodedata.east_asian_width(c) == "A" for c in text)


def _cells(line: str) -> list[tuple[int, int, int, int, bool]]:
    """Each word of ``line`` as (start, end) columns under the narrow and the wide measure,
    and whether two or more spaces pad it (padding is what makes a column)."""
    cells = []
    for match in re.finditer(r"\S+", line):
        before, word = line[: match.start()], match.group()
        padded = match.start() >= 2 and before.endswith("  ") and before.strip() != ""
        start, wide_start = columns(before), _wide_columns(before)
        cells.append(
            (start, start + columns(word), wide_start, wide_start + _wide_columns(word), padded)
        )
    return cells


def misaligned(lines: Sequence[str]) -> list[str]:
    """The lines of one block whose padded columns line up under one measure of ambiguous
    characters and not under the other.

    A column is the words that start (or end) at the same place in two or more rows (lines
    padded by two or more spaces somewhere), one of them reached by padding; their places
    under the other measure must agree as well. Running text is not a column.
    """
    bad: set[str] = set()
    rows = {line: _cells(line) for line in lines}
    rows = {line: cells for line, cells in rows.items() if any(cell[4] for cell in cells)}
    for narrow, wide in ((0, 2), (2, 0)):  # each measure must keep what the other lines up
        for edge in (narrow, narrow + 1):
            groups: dict[int, list[tuple[str, int, bool]]] = defaultdict(list)
            for line, cells in rows.items():
                for cell in cells:
                    groups[cell[edge]].append((line, cell[wide + (edge - narrow)], cell[4]))
            for members in groups.values():
                if len({line for line, _, _ in members}) < 2 or not any(p for *_, p in members):
                    continue
                if len({place for _, place, _ in members}) > 1:
                    bad.update(line for line, _, _ in members)
    return sorted(bad, key=list(lines).index)


def assert_fits_phone(table: str) -> None:
    """Every line of ``table`` (a table body, or a message with code blocks: their lines)
    fits a phone."""
    blocks = _code_blocks(table) if "```" in table else [table.splitlines()]
    for lines in blocks:
        _check(lines)


def assert_tables_fit_phone(message: str) -> None:
    """Every line in the code blocks of a message fits a phone (the text around them wraps
    by itself)."""
    for lines in _code_blocks(message):
        _check(lines)


def _check(lines: list[str]) -> None:
    wide = [(columns(line), line) for line in lines if columns(line) > PHONE_COLUMNS]
    assert not wide, f"lines wider than {PHONE_COLUMNS} columns: {wide}"
    shifted = misaligned(lines)
    assert not shifted, f"columns that shift where ambiguous characters take two: {shifted}"
