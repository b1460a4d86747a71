"""Checking a fair deal after the game (``deckhand verify`` and ``/game verify``).

Given what the final table revealed (the game, the seed, the salt and the number of seats),
this recomputes the commitment the first table showed and deals the game again from the
seed, printing every seat's starting hand and the table: anyone can compare them with what
they saw. See :mod:`bot.fairness`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.fairness import commitment
from bot.games import UnknownGame
from bot.games.known import ADAPTERS, adapter
from bot.i18n import t
from rules.engine import IllegalAction

__all__ = ["VerifyError", "matches", "parse_options", "parse_seed", "replay"]

SEED_MAX = 2**63 - 1


class VerifyError(ValueError):
    """Input that names no deal: the message says which part and why (in English; ``key``
    and ``params`` say it through the catalogs as ``verify.<key>``)."""

    def __init__(self, reason: str, key: str, **params: object) -> None:
        super().__init__(reason)
        self.key = key
        self.params = params


def parse_options(text: str | None) -> dict[str, Any]:
    """The table's options as the reveal printed them (a JSON object), or none."""
    if text is None or not text.strip():
        return {}
    try:
        options = json.loads(text.strip().strip("'"))
    except json.JSONDecodeError:
        options = None
    if not isinstance(options, dict):
        raise VerifyError("the options are a JSON object, as the final table showed", "bad_options")
    return options


def parse_seed(text: str) -> int:
    """A revealed seed: a whole number from 0 to 2**63 - 1."""
    cleaned = text.strip()
    if not cleaned.isascii() or not cleaned.isdigit() or int(cleaned) > SEED_MAX:
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
    try:
        game_adapter = adapter(game)
    except UnknownGame:
        known = ", ".join(sorted(ADAPTERS))
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
