"""Line widths: wrapping keeps a running width, which must agree with measuring each line."""

from __future__ import annotations

import random

from bot.text.width import columns, pad, wrap_words

WORDS = ["♠A,", "♥10,", "앨리스:", "(24)", "\x1b[31mred\x1b[0m", "e\u0301", "JKB", "-", "한글단어"]


def measured(words: list[str], width: int, indent: str) -> list[str]:
    """The definition: a word joins the line if the joined line, measured whole, fits."""
    lines: list[str] = []
    current = words[0] if words else ""
    for word in words[1:]:
        if columns(f"{current} {word}") > width:
            lines.append(current)
            current = indent + word
        else:
            current = f"{current} {word}"
    return [*lines, current]


def test_wrapping_agrees_with_measuring_every_line() -> None:
    rng = random.Random(16)
    for _ in range(500):
        words = [rng.choice(WORDS) for _ in range(rng.randrange(0, 14))]
        width = rng.randrange(4, 41)
        indent = rng.choice(["", "    ", "  "])
        assert wrap_words(words, width, indent) == measured(words, width, indent)


def test_wide_letters_take_two_columns_and_colour_codes_none() -> None:
    assert columns("앨리스") == 6
    assert columns("\x1b[31mred\x1b[0m") == 3
    assert columns("e\u0301") == 1
    assert wrap_words(["한글단어", "한글단어"], 16) == ["한글단어", "    한글단어"]
    assert wrap_words(["한글단어", "한글"], 13) == ["한글단어 한글"]


def test_padding_counts_columns_not_characters_and_never_cuts() -> None:
    assert pad("앨리스", 8) == "앨리스  " and columns(pad("♠A", 5)) == 5
    assert pad("\x1b[31m♥10\x1b[0m", 4) == "\x1b[31m♥10\x1b[0m "
    assert pad("longer than", 4) == "longer than"
