"""Checking that a message speaks one language only (docs/design.md §4: answers in the member's
language). A line "of the other language" holds a phrase from the other language's message
catalog that this language's catalog does not have: card codes and names belong to no
language and are never flagged.
"""

from __future__ import annotations

import re
import string
from functools import cache
from typing import Any

from bot.i18n import LANGUAGES, catalog

__all__ = ["english_words", "foreign_lines", "message_lines"]

_TRIM = " .,:;!?()*`'\"-—…\n"


@cache
def _phrases(lang: str) -> frozenset[str]:
    """The literal pieces (between placeholders, per line) of ``lang``'s catalog that are
    long enough to tell a language by and appear in no other language's catalog."""
    others = " ".join(" ".join(catalog(other).values()) for other in LANGUAGES if other != lang)
    found = set()
    for text in catalog(lang).values():
        for literal, *_ in string.Formatter().parse(text):
            for line in literal.splitlines():
                piece = line.strip(_TRIM)
                if len(re.findall(r"\w", piece)) >= 4 and piece not in others:
                    found.add(piece)
    return frozenset(found)


def foreign_lines(lines: list[str], lang: str) -> list[str]:
    """The lines holding a phrase of another language than ``lang``."""
    phrases = [p for other in LANGUAGES if other != lang for p in _phrases(other)]
    return [line for line in lines if any(phrase in line for phrase in phrases)]


def message_lines(message: Any) -> list[str]:
    """What a member reads of a fake Discord message: its text and its components'
    labels, placeholders and options."""
    lines = str(message.text).splitlines()
    for item in message.items():
        for key in ("label", "placeholder"):
            if item.get(key):
                lines.append(str(item[key]))
        for option in item.get("options") or []:
            lines += [str(option.get("label", "")), str(option.get("description") or "")]
    return [line for line in lines if line]


_FENCE = re.compile(r"```[a-z]*")
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def english_words(text: str) -> list[str]:
    """Words of Latin letters in a Korean message, but card codes and seat letters (one
    letter: ``♠K``, ``R7``, seat ``A``), code blocks' language tags and mentions: a Korean
    reader should meet no English word."""
    plain = _COLOUR.sub("", _FENCE.sub("", text))
    plain = re.sub(r"<[@#][!&]?[0-9]+>", "", plain)
    return re.findall(r"[A-Za-z][A-Za-z'-]+", plain)
