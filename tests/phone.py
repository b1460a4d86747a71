"""The phone-width check every game's table tests share (DESIGN.md §4: tables fit a phone).

A code block does not wrap on a phone, so each line of a public table must fit in
:data:`~bot.text.width.PHONE_COLUMNS` columns (a Hangul syllable counts two, colour codes
none). The consoles keep their seed's layout and are not checked here.
"""

from __future__ import annotations

import re

from bot.text.width import PHONE_COLUMNS, columns

__all__ = ["assert_fits_phone", "assert_tables_fit_phone", "code_block_lines"]

_BLOCK = re.compile(r"```[a-z]*\n(.*?)```", re.DOTALL)


def code_block_lines(message: str) -> list[str]:
    """The lines inside every code block of a message."""
    return [line for block in _BLOCK.findall(message) for line in block.splitlines()]


def assert_fits_phone(table: str) -> None:
    """Every line of ``table`` (a table body, or a message with code blocks: their lines)
    fits a phone."""
    lines = code_block_lines(table) if "```" in table else table.splitlines()
    _check(lines)


def assert_tables_fit_phone(message: str) -> None:
    """Every line in the code blocks of a message fits a phone (the text around them wraps
    by itself)."""
    _check(code_block_lines(message))


def _check(lines: list[str]) -> None:
    wide = [(columns(line), line) for line in lines if columns(line) > PHONE_COLUMNS]
    assert not wide, f"lines wider than {PHONE_COLUMNS} columns: {wide}"
