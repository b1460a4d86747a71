"""What a session shows in its channel: the public message of a lobby or a table, with the
line telling a member their turn has started, and the lines saying how the deal was made (a
seeded practice deal, or a fair deal's commitment on the first table and its seed revealed
on the last)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.fairness import commitment
from bot.games import AnyAdapter
from bot.i18n import t
from bot.sessions.model import Post, Session, compose
from bot.text.lobby import LOBBY_CONTROLS, lobby_text
from bot.verify import verify_command
from rules.engine import Event

__all__ = ["fairness", "render"]


def render(
    session: Session,
    adapter: AnyAdapter,
    events: Sequence[Event],
    notices: Sequence[str],
    *,
    mention: int | None = None,
    closing: Sequence[str] = (),
    names: Sequence[str] | None = None,
) -> Post:
    """The public message of the session as it is now: the lobby, or the table; with
    ``mention``, the line telling that member their turn has started; ``closing`` below
    the table (a finished deal's reveal, read last)."""
    if session.state is None:
        return Post(
            session.channel_id,
            session.version,
            lobby_text(session, notices),
            LOBBY_CONTROLS,
            session.locale,
            session.game,
        )
    shown = session.names if names is None else list(names)
    table = adapter.table(session.state.view(None), events, shown, session.locale)
    turn = None
    if mention is not None:
        turn = t("turn.yours", session.locale, member=f"<@{mention}>")
    return Post(
        session.channel_id,
        session.version,
        compose(table, notices, turn, session.locale, closing),
        table.controls,
        session.locale,
        session.game,
        mention=mention,
    )


def fairness(session: Session, *, end: bool) -> list[str]:
    """How the deal was made, for the first table (``end=False``) and the last: a
    seeded practice deal, or a fair deal's commitment, then its revealed seed."""
    locale = session.locale
    if session.member_seed is not None:
        return [t("fair.seeded", locale, seed=session.member_seed)]
    secret = session.secret
    if secret is None:  # dealt before fair deals existed
        return []
    if not end:
        shown = commitment(session.game, secret.seed, secret.salt)
        return [t("fair.commit", locale, commitment=shown)]
    command = verify_command(
        session.game,
        secret.seed,
        secret.salt,
        len(session.seats),
        options=session.options,
        locale=locale,
    )
    return [t("fair.reveal", locale, seed=secret.seed, salt=secret.salt, command=command)]
