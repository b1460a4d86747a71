"""What the fake Discord remembers: guild, members, channels, messages, interactions, violations.

Every payload builder here produces the JSON shape Discord's API v10 documents and discord.py
2.7 parses, so the client under test cannot tell the fake from the real service.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import itertools
import operator
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

__all__ = [
    "ADMINISTRATOR",
    "ALL_PERMISSIONS",
    "EPHEMERAL",
    "LOADING",
    "MANAGE_GUILD",
    "MANAGE_MESSAGES",
    "MEMBER_PERMISSIONS",
    "VIEW_CHANNEL",
    "FakeChannel",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Interaction",
    "Snowflakes",
    "Violation",
]

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Message types (resources/message.mdx:84, 102, 103) and the interaction types that make them.
DEFAULT, REPLY, CHAT_INPUT_COMMAND = 0, 19, 20
APPLICATION_COMMAND, COMPONENT, MODAL_SUBMIT = 2, 3, 5

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
VIEW_CHANNEL = 1 << 10
ALL_PERMISSIONS = (1 << 53) - 1
MEMBER_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 31)  # use application commands
    | (1 << 38)  # send messages in threads
)


USER_MENTION = re.compile(r"<@!?(\d+)>")


def pinged_users(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """Who a new message notifies: its user mentions that ``allowed_mentions`` lets through
    (no ``allowed_mentions``: every mention pings, as on Discord)."""
    mentioned = list(dict.fromkeys(int(i) for i in USER_MENTION.findall(content)))
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    listed = {int(i) for i in allowed.get("users") or []}
    return [user for user in mentioned if user in listed]


class Snowflakes:
    """Increasing Discord ids whose timestamp part is the current time (discord.py reads it)."""

    def __init__(self) -> None:
        self._counter = itertools.count()

    def next(self) -> int:
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


def to_json(data: object) -> str:
    """``data`` as JSON text, through orjson: with the standard library's encoder, a fifth of
    the fake's time went to it at a few hundred tables (benchmarks/ceiling.py)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(frozen=True, slots=True)
class Violation:
    """Something Discord would have refused or a user would have seen fail."""

    kind: str  # "limit", "double-response", "late-response", "no-response", "unknown-route", ...
    detail: str
    route: str = ""
    interaction_id: int | None = None

    def __str__(self) -> str:
        where = f" [{self.route}]" if self.route else ""
        return f"{self.kind}{where}: {self.detail}"


@dataclass(slots=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(frozen=True, slots=True)
class FakeRole:
    """A guild role; pass it as a role or mentionable option, or give it to a member."""

    id: int
    name: str
    permissions: int
    position: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }


@dataclass(slots=True)
class FakeMember:
    """A guild member the tests act as; ``moderator`` gives Manage Messages."""

    user: FakeUser
    guild_id: int
    locale: str = "en-US"
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.user.id}>"

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(slots=True)
class FakeChannel:
    id: int
    guild_id: int
    name: str
    type: int = 0  # GUILD_TEXT; 11 is a public thread
    parent_id: int | None = None
    owner_id: int | None = None  # a thread's creator
    # Permission overwrites: target id (a role, or a member) -> (allow, deny) bits.
    overwrites: dict[int, tuple[int, int]] = field(default_factory=dict)
    overwrite_types: dict[int, int] = field(default_factory=dict)  # 0 role, 1 member

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [
                {
                    "id": str(target),
                    "type": self.overwrite_types.get(target, 0),
                    "allow": str(allow),
                    "deny": str(deny),
                }
                for target, (allow, deny) in self.overwrites.items()
            ],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=0,
                member_count=1,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                },
            )
        return data


# The guild fields only GUILD_CREATE sends (resources/guild.mdx, "Guild Create Extra Fields").
GUILD_CREATE_ONLY = frozenset(
    ("joined_at", "large", "unavailable", "member_count", "voice_states", "members",
     "channels", "threads", "presences", "stage_instances", "guild_scheduled_events",
     "soundboard_sounds")
)  # fmt: skip


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    everyone_permissions: int = MEMBER_PERMISSIONS
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    locale: str = "en-US"

    def add_role(self, role_id: int, name: str, permissions: int) -> FakeRole:
        role = FakeRole(role_id, name, permissions, position=len(self.roles))
        self.roles[role_id] = role
        return role

    def permissions_of(self, member: FakeMember, channel: FakeChannel | None = None) -> int:
        """``member``'s permissions in the guild, or in ``channel`` with its overwrites
        applied as Discord applies them (topics/permissions.mdx, "Permission Overwrites"):
        @everyone's, then the member's roles' together, then the member's own; a thread
        takes its parent's."""
        if member.id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.everyone_permissions
        for role_id in member.role_ids:
            value |= self.roles[role_id].permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        if channel is not None and channel.parent_id is not None:
            channel = self.channels.get(channel.parent_id, channel)
        if channel is None:
            return value
        overwrites = channel.overwrites
        allow, deny = overwrites.get(self.id, (0, 0))
        value = (value & ~deny) | allow
        roles = [overwrites[r] for r in member.role_ids if r in overwrites]
        value &= ~functools.reduce(operator.or_, (d for _, d in roles), 0)
        value |= functools.reduce(operator.or_, (a for a, _ in roles), 0)
        allow, deny = overwrites.get(member.id, (0, 0))
        return (value & ~deny) | allow

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [role.payload() for role in self.roles.values()],
            "emojis": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "stickers": [],
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass(slots=True)
class FakeMessage:
    """A message as Discord stores it; ``visible_to`` is the member of an ephemeral message,
    ``reply_to`` the message Discord's client draws it as replying to (its reference)."""

    id: int
    channel_id: int
    guild_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    interaction_id: int | None = None
    attachments: list[dict[str, Any]] = field(default_factory=list)
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    edits: int = 0
    deleted: bool = False
    pinged: list[int] = field(default_factory=list)  # members notified when it was sent
    type: int = DEFAULT
    reply_to: int | None = None
    interaction_metadata: dict[str, Any] | None = None

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content, embed titles, descriptions and fields."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(str(embed.get(k) or "") for k in ("title", "description"))
            for fld in embed.get("fields", []):
                parts.extend((str(fld.get("name", "")), str(fld.get("value", ""))))
            parts.append(str((embed.get("footer") or {}).get("text", "")))
            parts.append(str((embed.get("author") or {}).get("name", "")))
        return "\n".join(p for p in parts if p)

    def items(self) -> list[dict[str, Any]]:
        """Every interactive component (buttons, selects) in display order."""
        found: list[dict[str, Any]] = []
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            if comp.get("type") == 1 or "components" in comp:
                stack.extend(reversed(comp.get("components", [])))
            else:
                found.append(comp)
        return found

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.items() if c.get("type") == 2]

    @property
    def button_labels(self) -> list[str]:
        return [str(c.get("label", "")) for c in self.buttons]

    def as_edited(self, edit: dict[str, Any]) -> dict[str, Any]:
        """The message as ``edit`` leaves it (what Discord checks): each field the edit names,
        the message's own for the rest."""
        merged = {
            "content": edit.get("content", self.content),
            "embeds": edit.get("embeds", self.embeds),
            "components": edit.get("components", self.components),
            "attachments": edit.get("attachments", self.attachments),
        }
        merged |= {key: edit[key] for key in ("flags", "allowed_mentions") if key in edit}
        return merged

    def snapshot(self) -> FakeMessage:
        """A copy as seen now (a client that has not refreshed yet still shows this)."""
        return copy.deepcopy(self)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(self.guild_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            # Edits replace these lists, never mutate them, so sharing them is safe.
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.interaction_id is not None:
            data["application_id"] = str(self.author.id)
            data["webhook_id"] = str(self.author.id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.reply_to is not None:
            # A reply's reference (resources/message.mdx:398); no ``referenced_message``: "the
            # backend did not attempt to fetch the message that was being replied to" (:71).
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reply_to),
                "channel_id": str(self.channel_id),
                "guild_id": str(self.guild_id),
            }
        return data


@dataclass(slots=True)
class Interaction:
    """One interaction the fake sent to the bot, and everything the bot answered to it."""

    id: int
    token: str
    kind: int  # 2 application command, 3 component, 4 autocomplete, 5 modal submit
    member: FakeMember
    channel: FakeChannel
    payload: dict[str, Any]
    created: float  # loop.time()
    response_type: int | None = None
    responded_at: float | None = None  # loop.time() when the initial response arrived
    response_data: dict[str, Any] | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    refusals: list[Violation] = field(default_factory=list)
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    completed: asyncio.Event = field(default_factory=asyncio.Event)
    opener: Interaction | None = None  # a modal submit's: the interaction that showed the modal
    webhook_unknown: bool = False  # Discord dropped its token early (FakeDiscord.unknown_webhook)
    webhook_404s: int = 0  # "Unknown Webhook" answers given since

    @property
    def interacted_message_id(self) -> int | None:
        """The message its component was on (a modal's: the component that opened it)."""
        message = self.payload.get("message")
        return int(message["id"]) if message else None

    def metadata(self, *, followup: bool = False) -> dict[str, Any]:
        """The ``interaction_metadata`` of a message it makes (resources/message.mdx:269,
        one structure per kind: 276-282 a command's, 290-295 a component's, 303-308 a modal
        submit's): ``original_response_message_id`` "present only on follow-up messages"."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.kind,
            "user": self.member.user.payload(),
            "authorizing_integration_owners": dict(self.payload["authorizing_integration_owners"]),
        }
        if followup and self.original is not None:
            data["original_response_message_id"] = str(self.original.id)
        if self.kind == COMPONENT and self.interacted_message_id is not None:
            data["interacted_message_id"] = str(self.interacted_message_id)
        if self.kind == MODAL_SUBMIT and self.opener is not None:
            # "Metadata for the interaction that was used to open the modal" (line 308).
            data["triggering_interaction_metadata"] = self.opener.metadata()
        return data

    def replied_to(self, *, followup: bool = False) -> int | None:
        """The message Discord's client draws a message of this interaction as replying to: a
        follow-up, the original response (discord-api-docs#2733; after a deferred update, the
        component's message); a response, the message its component was on ("responses to
        Message Components ... [include] a message reference object",
        interactions/receiving-and-responding.mdx:206), a modal's from a component too."""
        if followup:
            return self.original.id if self.original is not None else None
        return self.interacted_message_id

    def message_type(self, reply_to: int | None) -> int:
        """The ``type`` of a message it makes. The docs name none for an interaction's messages:
        a reply is 19 ("messages replying to a previous message (type 19)",
        resources/message.mdx:397), a command's answer 20 (CHAT_INPUT_COMMAND, line 103); a
        modal's answer is taken as its command's (a guess: nothing says)."""
        if reply_to is not None:
            return REPLY
        root = self.opener if self.kind == MODAL_SUBMIT and self.opener else self
        return CHAT_INPUT_COMMAND if root.kind == APPLICATION_COMMAND else DEFAULT
