"""Sessions: one lobby or game per channel, its seats, timers and persistence (docs/design.md §3).

:class:`SessionRegistry` maps a channel id to its :class:`Session` and runs everything that
changes a session under that channel's lock: check-then-create, apply-then-save, end-game.
Every accepted action is saved (with a version one higher than the stored one) *before* the
caller answers Discord, so a crash never loses a move a player saw accepted.

The registry never talks to Discord itself: public tables, stripped buttons and pings go
through a :class:`Poster` (``cogs/common/poster.py`` in the bot, a fake in tests), and time
comes from an injected clock and sleep, so all of this is testable without Discord.
Refusals raise :class:`SessionError` with a message-catalog key; the engine's own refusals
come through as :class:`~rules.engine.IllegalAction`.

Where each part lives:

- :mod:`.model`: sessions, seats, posts and replies (data, and what the store keeps);
- :mod:`.core`: the live sessions, per-channel locks and tasks, and the commit path
  (render, save, reload on failure);
- :mod:`.render`: the public message a session shows, and how its deal was made;
- :mod:`.uncertain`: a write whose answer was lost, read back before the next;
- :mod:`.unrestorable`: stored games the engine refuses, set aside;
- :mod:`.lobby`: open, join, start; :mod:`.play`: act, leave, forfeit, kick, end, deal
  again, the private hand;
- :mod:`.clock`: turn deadlines, reminders, timeouts and computer bursts;
- :mod:`.finished`: finished tables kept for "Deal again";
- :mod:`.registry`: all of it as one object, plus restoring after a restart.
"""

from bot.sessions.core import ChannelLocks
from bot.sessions.model import (
    DEAL_AGAIN_SECONDS,
    MAX_MESSAGE,
    TIMEOUTS_BEFORE_COMPUTER,
    Player,
    Post,
    Poster,
    Reply,
    Seat,
    Session,
    SessionError,
    compose,
)
from bot.sessions.registry import SessionRegistry

__all__ = [
    "DEAL_AGAIN_SECONDS",
    "MAX_MESSAGE",
    "TIMEOUTS_BEFORE_COMPUTER",
    "ChannelLocks",
    "Player",
    "Post",
    "Poster",
    "Reply",
    "Seat",
    "Session",
    "SessionError",
    "SessionRegistry",
    "compose",
]
