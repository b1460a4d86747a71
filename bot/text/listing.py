"""The moderator's list of every table in a server (``/game list``): pure text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.i18n import t
from bot.text.names import markdown_name
from bot.text.width import clip

if TYPE_CHECKING:
    from bot.sessions.model import Session

__all__ = ["idle_text", "lines_for", "table_line"]

NAME_COLUMNS = 16


def idle_text(seconds: float, locale: str) -> str:
    """``<1 min``, ``12 min`` or ``3 h 5 min``."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return t("list.under_a_minute", locale)
    if minutes < 60:
        return t("list.minutes", locale, n=minutes)
    return t("list.hours", locale, h=minutes // 60, m=minutes % 60)


def table_line(number: int, session: Session, now: float, locale: str) -> str:
    """``1. #games Uno: alice, bob, AI 3 (hard) — bob's turn — idle 2 min``."""
    game = t(f"game.{session.game}", locale)
    seats = ", ".join(
        # The name clipped, not what follows it: "(left · computer)" stays whole.
        markdown_name(
            session.shown_name(
                replace(seat, name=clip(seat.name, NAME_COLUMNS)), locale, short=False
            )
        )
        for seat in session.seats
    )
    # ``turn``, not the state: listing a server's tables must not load every restored game.
    turn = session.turn
    if session.is_lobby:
        where = t(
            "list.lobby", locale, seated=len(session.seats) + session.bots, players=session.players
        )
    elif turn is None:
        where = t("list.over", locale)
    elif session.seats[turn].computer:
        where = t("list.computer", locale)
    else:
        where = t(
            "list.turn", locale, name=markdown_name(clip(session.seats[turn].name, NAME_COLUMNS))
        )
    since = now if session.touched is None else session.touched
    idle = idle_text(max(0.0, now - since), locale)
    return t(
        "list.row",
        locale,
        n=number,
        channel=f"<#{session.channel_id}>",
        game=game,
        seats=seats,
        turn=where,
        idle=idle,
    )


def lines_for(sessions: Sequence[Session], now: float, locale: str) -> list[str]:
    """The whole list, numbered, oldest change first (the likeliest to be stuck)."""
    return [table_line(n, s, now, locale) for n, s in enumerate(sessions, 1)]
