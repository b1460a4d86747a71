"""The lobby's text, the same for every game: who opened it, who sits where, who is missing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.games import Control
from bot.i18n import counted, describe, t
from bot.text.names import markdown_name
from rules.levels import Level

if TYPE_CHECKING:
    from bot.sessions.model import Session

__all__ = ["LOBBY_CONTROLS", "lobby_text", "option_lines"]

LOBBY_CONTROLS = (
    Control("join", "button.join", "success"),
    Control("leave", "button.leave", "secondary"),
    Control("start", "button.start", "primary"),
    Control("cancel", "button.cancel", "danger"),
)


def lobby_text(session: Session, notices: Sequence[str]) -> str:
    """The lobby message: notices, the title, each seat (free and computer ones too)."""
    locale = session.locale
    lines = [
        *notices,
        t(
            "lobby.title",
            locale,
            game=t(f"game.{session.game}", locale),
            host=f"<@{session.host_id}>",
        ),
    ]
    lines += [
        t("lobby.seat", locale, n=n, name=markdown_name(seat.name))
        for n, seat in enumerate(session.seats, 1)
    ]
    # Members take the free seats in order; the computers sit after them.
    free = session.players - len(session.seats) - session.bots
    first_free = len(session.seats) + 1
    lines += [t("lobby.seat_free", locale, n=n) for n in range(first_free, first_free + free)]
    lines += [
        t("lobby.seat_computer", locale, n=n) for n in range(first_free + free, session.players + 1)
    ]
    if session.bots or session.level is not Level.NORMAL:
        level = t(f"level.name.{session.level.value}", locale)
        lines.append(t("lobby.level", locale, level=level))
    lines += option_lines(session.game, session.options, locale)
    lines.append(counted("lobby.waiting", free, locale, free=free))
    return "\n".join(lines)


def option_lines(game: str, options: Mapping[str, Any], locale: str) -> list[str]:
    """The game's options as its catalog words them (``<game>.option.<name>.<value>``, e.g.
    Uno's ruleset and house rules); an option the catalog does not name is not shown."""
    lines = []
    for name, value in options.items():
        said = describe(f"{game}.option.{name}.{str(value).lower()}", locale)
        if said:
            lines.append(said)
    return lines
