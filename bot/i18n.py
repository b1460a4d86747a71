"""Messages and languages: one catalog per language, in ``bot/locales/<lang>/*.json``.

A language's catalog is every file of its folder together: ``core.json`` for what all games
share, one file per game (``uno.json``) for that game's words, so a game's text is added
without touching another's. A key may appear in one file only. Every sentence a member can
see is a key in those files; code asks for ``t(key, locale, **params)``. The language is
the first of (member's locale, guild's locale) Deckhand speaks, else English; a key missing
in a language falls back to English. Slash-command descriptions and choices are translated
by :class:`bot.translator.DeckhandTranslator` from ``locale_str(..., key=...)``, command and
option names from ``name.<english name>``; this module knows nothing of Discord.
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from rules.engine import IllegalAction

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "ParamWords",
    "catalog",
    "describe",
    "echo",
    "escape_markdown",
    "language",
    "placeholders",
    "refusal",
    "say_params_with",
    "t",
]

DEFAULT = "en"
LANGUAGES = ("en", "ko")


@cache
def catalog(lang: str) -> dict[str, str]:
    """The message catalog of ``lang`` (one of :data:`LANGUAGES`): all its files together.

    ``RuntimeError`` if two files define one key (one would silently win otherwise).
    """
    merged: dict[str, str] = {}
    where: dict[str, str] = {}
    folder = resources.files("bot").joinpath("locales", lang)
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if not entry.name.endswith(".json"):
            continue
        part: dict[str, str] = json.loads(entry.read_text("utf-8"))
        for key in part:
            if key in where:
                raise RuntimeError(
                    f"catalog {lang}: {key!r} is in both {where[key]} and {entry.name}"
                )
            where[key] = entry.name
        merged.update(part)
    return merged


def language(*locales: object) -> str:
    """The first of ``locales`` Deckhand speaks (``ko``, ``en-US``, a ``discord.Locale``...)."""
    for locale in locales:
        if locale is None:
            continue
        if locale in LANGUAGES:  # a session's own locale, as most calls pass: no parsing
            return str(locale)
        code = str(getattr(locale, "value", locale)).lower()  # a discord.Locale is an Enum
        base = code.split("-")[0]
        if base in LANGUAGES:
            return base
    return DEFAULT


def t(key: str, locale: object = DEFAULT, /, **params: Any) -> str:
    """The message ``key`` in ``locale``'s language with ``params`` filled in.

    An unknown key comes back as itself, so a typo shows up in the tests, not as a crash.
    """
    lang = language(locale)
    text = catalog(lang).get(key)
    if text is None:
        text = catalog(DEFAULT).get(key, key)
    return text.format_map(params) if params else text


def counted(key: str, n: int, locale: object = DEFAULT, /, **params: Any) -> str:
    """``key`` said of ``n`` things (its ``{n}``): its ``<key>.one`` form for one
    (``1 card``, not ``1 cards``) where the catalog has one, else ``key`` itself."""
    if n == 1 and f"{key}.one" in catalog(language(locale)):
        key = f"{key}.one"
    return t(key, locale, **{"n": n, **params})


def describe(key: str, locale: object, /, **params: Any) -> str | None:
    """Like :func:`t`, but ``None`` when no catalog has ``key``."""
    if key not in catalog(DEFAULT):
        return None
    return t(key, locale, **params)


ECHO_LIMIT = 60  # characters of what a member typed that an answer may repeat
REASON_LIMIT = 300  # an engine's own sentence, when no catalog has its code
# Bidirectional overrides and isolates: typed into a refusal they would reorder its text.
_BIDI_CONTROLS = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


# Everything Discord's markdown reads in text a member wrote: escaped with a backslash,
# which Discord hides (any ASCII punctuation may be escaped so).
_MARKDOWN = re.compile(r"([\\`*_~|>#\[\]<])")


def escape_markdown(text: str) -> str:
    """``text`` shown as written outside a code block: no bold, heading, masked link or
    mention can come of it."""
    return _MARKDOWN.sub(r"\\\1", text)


def echo(typed: object, limit: int = ECHO_LIMIT, *, markdown: bool = True) -> str:
    """What a member typed, fit to be repeated in an answer: no control characters or
    direction overrides, one line, at most ``limit`` characters (so no answer can outgrow
    Discord's 2,000 whatever an option's length limit becomes), its markdown escaped
    (``markdown=False``: for inside inline code, where backquotes become quotes instead)."""
    text = str(typed).translate(_BIDI_CONTROLS)
    text = "".join(" " if unicodedata.category(char) == "Cc" else char for char in text)
    text = " ".join(text.split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return escape_markdown(text) if markdown else text.replace("`", "'")


ParamWords = Callable[[str, str], str | None]
_PARAM_WORDS: dict[str, ParamWords] = {}


def say_params_with(game: str, namer: ParamWords) -> None:
    """Say ``game``'s refusal parameters with ``namer(value, lang)`` (``None``: leave it to
    the catalog): a card whose name is composed (Uno's colour and rank) rather than listed as
    ``<game>.card.<code>``, or a list of the engine's reasons (Rummikub's wrong sets)."""
    _PARAM_WORDS[game] = namer


def refusal(
    error: IllegalAction, locale: object, game: str | None = None, *, markdown: bool = True
) -> str:
    """The engine's refusal in the member's language: ``illegal.<game>.<code>`` (engines
    share codes with different words: Blackjack's and Rummikub's ``unknown_action``), else
    ``illegal.<code>``, else the engine's English reason.

    A parameter naming one of the game's cards by its code is said the way the game's catalog
    names that card (``<game>.card.<code>``: Go-Stop's ``5피a`` is ``May junk`` in English).
    What a member typed is repeated short, on one line, its markdown escaped unless
    ``markdown`` is false (a console: plain text) (:func:`echo`)."""
    params = {name: echo(value, markdown=markdown) for name, value in error.params.items()}
    keys = [f"illegal.{error.code}"]
    if game is not None:
        keys.insert(0, f"illegal.{game}.{error.code}")
        namer = _PARAM_WORDS.get(game)
        for name, value in error.params.items():
            # The game's own words for a value come whole (they are not what was typed).
            named = namer(str(value), language(locale)) if namer is not None else None
            echoed = params[name]
            params[name] = named or describe(f"{game}.card.{echoed}", locale) or echoed
    for key in keys:
        try:
            translated = describe(key, locale, **params)
        except (KeyError, IndexError, ValueError):
            translated = None  # the engine's params do not fit the catalog; say it in English
        if translated is not None:
            return translated
    # The engine's English sentence may quote what was typed: fit it the same way.
    return echo(error.reason, REASON_LIMIT, markdown=markdown)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a catalog message."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}
