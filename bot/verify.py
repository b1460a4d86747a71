"""Checking a fair deal after the game (``deckhand verify`` and ``/game verify``).

Given what the final table revealed (the game, the seed, the salt and the number of seats),
this recomputes the commitment the first table showed and deals the game again from the
seed, printing every seat's starting hand and the table: anyone can compare them with what
they saw. See :mod:`bot.fairness`.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any, Final

from bot.fairness import commitment
from bot.games import GameCatalog, UnknownGame
from bot.i18n import LANGUAGES, catalog, t
from rules.engine import IllegalAction

__all__ = [
    "VerifyError",
    "matches",
    "options_code",
    "parse_options",
    "parse_seed",
    "replay",
    "verify_command",
]

SEED_MAX = 2**63 - 1
_SEED_DIGITS = len(str(SEED_MAX))
_OPTION_DIGITS = 9  # an option's number (a score to reach, a count of decks) is far smaller


class VerifyError(ValueError):
    """Input that names no deal: the message says which part and why (in English; ``key``
    and ``params`` say it through the catalogs as ``verify.<key>``)."""

    def __init__(self, reason: str, key: str, **params: object) -> None:
        super().__init__(reason)
        self.key = key
        self.params = params


_CODE_WORD: Final = re.compile(r"[\w.-]+")


def options_code(game: str, options: Mapping[str, Any], locale: str) -> str:
    """A table's options as the final table shows them, short and in the reader's words:
    an option that is on by its name, one with a value as ``name=value``, one that is off
    not at all (``쌓기,규칙=공식``; no options: ``""``). :func:`parse_options` reads it back
    in any language. Names are the slash command's own option names (``name.<option>``),
    values its choices' (``choice.<game>.<value>``)."""
    words = catalog(locale)
    parts = []
    for key in sorted(options):
        value = options[key]
        name = words.get(f"name.{key}", key)
        if value is True:
            parts.append(name)
        elif value is not False and value is not None:
            parts.append(f"{name}={_choice_word(words.get(f'choice.{game}.{value}'), value)}")
    return ",".join(parts)


def _choice_word(label: str | None, value: object) -> str:
    """A choice's label's first word (``classroom rules``: ``classroom``), the value itself
    where the label has no such word."""
    words = (label or "").split(" (")[0].split(":")[0].split()
    word = words[0] if words else ""
    return word if _CODE_WORD.fullmatch(word) else str(value)


@functools.cache
def _code_words() -> tuple[dict[str, str], dict[str, str]]:
    """Every language's option names and choice words, back to their codes."""
    names: dict[str, str] = {}
    values: dict[str, str] = {}
    for lang in LANGUAGES:
        for key, text in catalog(lang).items():
            if key.startswith("name."):
                names.setdefault(text.casefold(), key.removeprefix("name."))
            elif key.startswith("choice.") and key.count(".") == 2:
                value = key.rsplit(".", 1)[1]
                values.setdefault(_choice_word(text, value).casefold(), value)
    return names, values


def parse_options(text: str | None) -> dict[str, Any]:
    """The table's options as a final table showed them (:func:`options_code`, or the JSON
    object older tables printed), or none."""
    if text is None or not text.strip() or text.strip() == "-":
        return {}
    cleaned = text.strip().strip("'`")
    if cleaned.startswith("{"):
        try:
            options = json.loads(cleaned)
        except json.JSONDecodeError:
            options = None
        if not isinstance(options, dict):
            raise VerifyError("the options are as the final table showed them", "bad_options")
        return options
    names, values = _code_words()
    parsed: dict[str, Any] = {}
    for part in cleaned.split(","):
        name, has_value, value = (piece.strip() for piece in part.partition("="))
        if not _CODE_WORD.fullmatch(name) or (has_value and not _CODE_WORD.fullmatch(value)):
            raise VerifyError("the options are as the final table showed them", "bad_options")
        key = names.get(name.casefold(), name)
        if not has_value:
            parsed[key] = True
        elif value.isascii() and value.lstrip("-").isdigit():
            if len(value) > _OPTION_DIGITS:  # no option counts this high; int() may refuse
                raise VerifyError("the options are as the final table showed them", "bad_options")
            parsed[key] = int(value)
        else:
            parsed[key] = values.get(value.casefold(), value)
    return parsed


def verify_command(
    game: str, seed: int, salt: str, players: int, *, options: Mapping[str, Any], locale: str
) -> str:
    """The ``/game verify`` a member types to check a finished deal, in the reader's words
    (``/게임 확인 게임:우노 시드:… 소금값:… 자리:3 옵션:쌓기``)."""
    words = catalog(locale)

    def named(word: str) -> str:
        return words.get(f"name.{word}", word)

    parts = [
        f"/{named('game')} {named('verify')}",
        f"{named('game')}:{t(f'game.{game}', locale)}",
        f"{named('seed')}:{seed}",
        f"{named('salt')}:{salt}",
        f"{named('players')}:{players}",
    ]
    code = options_code(game, options, locale)
    if code:
        parts.append(f"{named('options')}:{code}")
    return " ".join(parts)


def parse_seed(text: str) -> int:
    """A revealed seed: a whole number from 0 to 2**63 - 1."""
    cleaned = text.strip()
    # By its length before ``int()``: past 4,300 digits Python refuses to convert at all.
    if not cleaned.isascii() or not cleaned.isdigit() or len(cleaned) > _SEED_DIGITS:
        raise VerifyError(
            f"the seed is a whole number from 0 to {SEED_MAX}", "bad_seed", most=SEED_MAX
        )
    if int(cleaned) > SEED_MAX:
        raise VerifyError(
            f"the seed is a whole number from 0 to {SEED_MAX}", "bad_seed", most=SEED_MAX
        )
    return int(cleaned)


def replay(
    game: str,
    seed: int,
    salt: str,
    players: int | None,
    *,
    options: Mapping[str, Any] | None = None,
    locale: str = "en",
) -> tuple[str, list[str]]:
    """The commitment of ``(game, seed, salt)`` and the deal as text: each seat's starting
    hand, then the table. :class:`VerifyError` for a game, seat count or option that
    cannot be dealt."""
    games = GameCatalog.discover()
    try:
        game_adapter = games.get(game)
    except UnknownGame:
        known = ", ".join(games.names())
        raise VerifyError(f"unknown game {game!r} (known: {known})", "unknown_game") from None
    seats = game_adapter.min_seats if players is None else players
    if not game_adapter.min_seats <= seats <= game_adapter.max_seats:
        low, high = game_adapter.min_seats, game_adapter.max_seats
        raise VerifyError(
            f"{game} is dealt to {low} to {high} seats", "bad_players", low=low, high=high
        )
    names = [t("verify.seat", locale, n=n) for n in range(1, seats + 1)]
    lines: list[str] = []
    try:
        state, events = game_adapter.new(seats, seed, dict(options or {}), [], secret=True)
        for seat, name in enumerate(names):
            hand = game_adapter.hand(state.view(seat), names, locale)
            lines += [f"{name}:", hand.body, ""]
        table = game_adapter.table(state.view(None), events, names, locale)
    except IllegalAction as error:
        raise VerifyError(error.reason, "bad_options") from None
    except (ArithmeticError, LookupError, TypeError, ValueError) as error:
        # Options a member pasted that the engine cannot deal or show: an engine's own check
        # (Go-Stop's), a number too large or not finite.
        raise VerifyError(str(error)[:200], "bad_options") from None
    lines += [t("verify.table", locale), table.body]
    return commitment(game, seed, salt), lines


def matches(shown: str, given: str | None) -> bool | None:
    """Whether the commitment a member copied from the first table (``given``, backticks and
    spaces allowed) is the one the revealed seed and salt make; ``None`` when none was given."""
    if given is None or not given.strip(" `\n"):
        return None
    return given.strip(" `\n").lower() == shown.lower()
