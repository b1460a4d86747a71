"""``FakeDiscord``: the REST API and gateway on 127.0.0.1, plus helpers to act as members.

Start it (``async with FakeDiscord() as discord``), point discord.py at it (done on start:
``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``), run a bot with ``discord.token``,
then act: ``await discord.slash(alice, table, "blackjack start", players=3)``,
``await discord.click(bob, message, "Hit")``. Whatever Discord would refuse is answered with
Discord's error JSON *and* recorded in ``discord.violations``; the e2e fixtures assert that
list is empty at teardown.
"""

from __future__ import annotations

import asyncio
import functools
import operator
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord as dpy
import yarl
from aiohttp import web

from .gateway import Gateway
from .model import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    EPHEMERAL,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    FakeChannel,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Interaction,
    Snowflakes,
    Violation,
    iso_now,
    pinged_users,
)
from .ratelimits import RateLimits
from .rest import INTERACTION_DEADLINE, Failure, Rest, Slowdown

SEND_ROUTE = "POST /channels/{channel_id}/messages"

__all__ = ["FakeDiscord", "FakeGuild", "InteractionResult", "UsageError"]

T = TypeVar("T")

APPLICATION_COMMAND = 2
COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
# The guild fields only GUILD_CREATE sends (resources/guild.mdx, "Guild Create Extra Fields").
GUILD_CREATE_ONLY = frozenset(
    ("joined_at", "large", "unavailable", "member_count", "voice_states", "members",
     "channels", "threads", "presences", "stage_instances", "guild_scheduled_events",
     "soundboard_sounds")
)  # fmt: skip


class UsageError(ValueError):
    """The test asked for something a Discord user could not do (a typo, a disabled button)."""


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


class InteractionResult:
    """What one interaction produced: the response, its message(s), and any refusal recorded."""

    def __init__(self, discord: FakeDiscord, interaction: Interaction) -> None:
        self.discord = discord
        self.interaction = interaction

    @property
    def response_type(self) -> int | None:
        """4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete, 9 modal."""
        return self.interaction.response_type

    @property
    def message(self) -> FakeMessage | None:
        """The message the initial response created or updated (current state)."""
        return self.interaction.original

    @property
    def followups(self) -> list[FakeMessage]:
        return list(self.interaction.followups)

    @property
    def messages(self) -> list[FakeMessage]:
        """Every message this interaction created, the response first."""
        found = [self.interaction.original] if self.interaction.original else []
        return [*found, *self.interaction.followups]

    @property
    def ephemeral(self) -> bool:
        """True when the member's answer was private (the response or its first followup)."""
        return bool(self.messages) and self.messages[0].ephemeral

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages)

    @property
    def refusals(self) -> list[Violation]:
        return list(self.interaction.refusals)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (``[{"name", "value"}]``)."""
        return list((self.interaction.response_data or {}).get("choices", []))

    async def wait_followup(self, count: int = 1, within: float = 5.0) -> list[FakeMessage]:
        """Wait until this interaction has at least ``count`` followup messages."""
        await self.discord.wait_for(lambda: len(self.interaction.followups) >= count, within)
        return self.followups

    def __repr__(self) -> str:
        return (
            f"<InteractionResult type={self.response_type} ephemeral={self.ephemeral} "
            f"text={self.text[:80]!r} refusals={self.refusals}>"
        )


class FakeDiscord:
    """A Discord API v10 + gateway on 127.0.0.1 with one guild, its members and channels."""

    def __init__(self, *, guild_name: str = "Deckhand Test Server") -> None:
        self.ids = Snowflakes()
        self.token = "fake." + secrets.token_hex(12)
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self.application_id, "Deckhand", bot=True)
        self.owner = FakeUser(self.ids.next(), "owner")
        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner.id: self.owner,
        }
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.violations: list[Violation] = []
        self.deadline = INTERACTION_DEADLINE  # seconds for the initial response
        # Check request bodies against Discord's OpenAPI description (``spec.py``): many
        # milliseconds a request, which a benchmark playing hundreds of tables turns off.
        self.check_schema = True
        # Discord's rate limits: the global one on, per-route buckets as a test sets them.
        self.limits = RateLimits(self.loop_time)
        self.gateway = Gateway(self)
        self.rest = Rest(self)
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._waiters: list[asyncio.Future[None]] = []
        self.changes = 0  # counts notify() calls: a watcher (the sandbox page) redraws on change
        self._saved: tuple[str, yarl.URL] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

        self.guild = FakeGuild(self.ids.next(), guild_name, owner_id=self.owner.id)
        self.guilds[self.guild.id] = self.guild
        self.guild.add_role(self.guild.id, "@everyone", MEMBER_PERMISSIONS)
        self.moderator_role = self.guild.add_role(
            self.ids.next(), "Moderator", MEMBER_PERMISSIONS | MANAGE_MESSAGES
        )
        self.bot_role = self.guild.add_role(self.ids.next(), "Deckhand", ADMINISTRATOR)
        self.guild.members[self.bot_user.id] = FakeMember(
            self.bot_user, self.guild.id, role_ids=[self.bot_role.id]
        )
        self.guild.members[self.owner.id] = FakeMember(self.owner, self.guild.id)
        self.channel = self.add_channel("games")

    # -- life cycle ----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self) -> FakeDiscord:
        """Listen on a free port and point discord.py (this process) at it."""
        self._loop = asyncio.get_running_loop()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.handle)
        app.router.add_get("/", self.gateway.handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._saved = (dpy.http.Route.BASE, dpy.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        dpy.http.Route.BASE = f"{self.base_url}/api/v10"
        dpy.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            dpy.http.Route.BASE, dpy.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def channel_send_limit(self) -> tuple[int, float] | None:
        """Messages a channel takes per so many seconds (``None``: no limit); Discord's is
        about 5 per 5 s (:data:`~bot.fakediscord.ratelimits.DISCORD_ROUTE_LIMITS`)."""
        return self.limits.route_limits.get(SEND_ROUTE)

    @channel_send_limit.setter
    def channel_send_limit(self, limit: tuple[int, float] | None) -> None:
        if limit is None:
            self.limits.route_limits.pop(SEND_ROUTE, None)
        else:
            self.limits.route_limits[SEND_ROUTE] = limit

    @property
    def rate_limited(self) -> list[int]:
        """The channel of each message send the channel's limit answered 429."""
        return [int(major) for route, major in self.limits.limited if route == SEND_ROUTE]

    def loop_time(self) -> float:
        assert self._loop is not None
        return self._loop.time()

    # -- the world -----------------------------------------------------------------------------

    def add_member(
        self,
        name: str,
        *,
        locale: str = "en-US",
        moderator: bool = False,
        guild: FakeGuild | None = None,
    ) -> FakeMember:
        """A member of the guild, or of ``guild`` (:meth:`add_guild`); ``moderator``: a role
        with Manage Messages (the first guild's only)."""
        user = FakeUser(self.ids.next(), name)
        self.users[user.id] = user
        roles = [self.moderator_role.id] if moderator else []
        home = self.guild if guild is None else guild
        member = FakeMember(user, home.id, locale=locale, role_ids=roles)
        home.members[user.id] = member
        return member

    def add_guild(self, name: str, *, guild_id: int | None = None) -> FakeGuild:
        """Another server the bot is in, with the owner and the bot as members (add it
        before the bot connects: it arrives with READY on its shard, ``(guild_id >> 22) %
        shard_count``; ``guild_id`` picks it, as a benchmark spreading guilds over shards
        does). Its channels and members come from :meth:`add_channel` and :meth:`add_member`
        with ``guild=``."""
        guild = FakeGuild(guild_id or self.ids.next(), name, owner_id=self.owner.id)
        self.guilds[guild.id] = guild
        guild.add_role(guild.id, "@everyone", MEMBER_PERMISSIONS)
        bot_role = guild.add_role(self.ids.next(), "Deckhand", ADMINISTRATOR)
        guild.members[self.bot_user.id] = FakeMember(
            self.bot_user, guild.id, role_ids=[bot_role.id]
        )
        guild.members[self.owner.id] = FakeMember(self.owner, guild.id)
        return guild

    async def add_role(self, name: str, *, permissions: int = MEMBER_PERMISSIONS) -> FakeRole:
        """A new role in the guild, announced to a connected bot (GUILD_ROLE_CREATE)."""
        role = self.guild.add_role(self.ids.next(), name, permissions)
        data = {"guild_id": str(self.guild.id), "role": role.payload()}
        await self.gateway.dispatch_guild(self.guild.id, "GUILD_ROLE_CREATE", data)
        return role

    async def give_role(self, member: FakeMember, role: FakeRole) -> None:
        """``member`` gets ``role``; their next interactions carry it (and its permissions)."""
        member.role_ids.append(role.id)
        guild = self.guilds[member.guild_id]
        data = {**member.payload(), "guild_id": str(guild.id)}
        # Only a bot with the privileged members intent hears of it; interactions always do.
        await self.gateway.dispatch_guild(guild.id, "GUILD_MEMBER_UPDATE", data)

    async def set_guild_locale(self, locale: str) -> None:
        """The server's language (its primary language in Server Settings): interactions
        from now on carry it as ``guild_locale``, and a connected bot hears of it as Discord
        tells it (GUILD_UPDATE, the guild without the fields only GUILD_CREATE has)."""
        self.guild.locale = locale
        data = {k: v for k, v in self.guild.payload().items() if k not in GUILD_CREATE_ONLY}
        await self.gateway.dispatch_guild(self.guild.id, "GUILD_UPDATE", data)
        self.notify()

    def add_channel(self, name: str, *, guild: FakeGuild | None = None) -> FakeChannel:
        """A text channel of the guild, or of ``guild`` (add it before the bot connects: it
        arrives with GUILD_CREATE)."""
        home = self.guild if guild is None else guild
        channel = FakeChannel(self.ids.next(), home.id, name)
        home.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def overwrite(
        self, channel: FakeChannel, target: FakeMember | FakeRole, *, allow: int = 0, deny: int = 0
    ) -> None:
        """A permission overwrite on ``channel`` for a member or a role (add it before the
        bot connects, as channels arrive with GUILD_CREATE)."""
        channel.overwrites[target.id] = (allow, deny)
        channel.overwrite_types[target.id] = 1 if isinstance(target, FakeMember) else 0

    async def add_thread(self, parent: FakeChannel, name: str, owner: FakeMember) -> FakeChannel:
        """A public thread under ``parent``, announced to a connected bot (THREAD_CREATE)."""
        thread = FakeChannel(
            self.ids.next(), parent.guild_id, name, type=11, parent_id=parent.id, owner_id=owner.id
        )
        self.guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        data = {**thread.payload(), "newly_created": True}
        await self.gateway.dispatch_guild(parent.guild_id, "THREAD_CREATE", data)
        return thread

    # -- recording -----------------------------------------------------------------------------

    def violation(
        self, kind: str, detail: str, *, route: str = "", interaction: Interaction | None = None
    ) -> None:
        record = Violation(kind, detail, route, interaction.id if interaction else None)
        self.violations.append(record)
        if interaction is not None:
            interaction.refusals.append(record)

    def take_violations(self) -> list[Violation]:
        """Hand the recorded violations to a test that provoked them on purpose, and forget them."""
        taken, self.violations = self.violations, []
        return taken

    def assert_no_violations(self) -> None:
        self._check_unanswered()
        assert not self.violations, "Discord would have refused:\n" + "\n".join(
            f"  - {v}" for v in self.violations
        )

    def _check_unanswered(self) -> None:
        if self._loop is None:
            return
        now = self.loop_time()
        for inter in self.interactions.values():
            late = now - inter.created > self.deadline
            if inter.response_type is None and late and not inter.refusals:
                self.violation(
                    "no-response",
                    "the interaction was never answered (the member saw 'This interaction failed')",
                    interaction=inter,
                )

    def notify(self) -> None:
        """Wake everything waiting in :meth:`wait_for` (called after every state change)."""
        self.changes += 1
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(self, predicate: Callable[[], T | None], within: float = 5.0) -> T:
        """Wait until ``predicate()`` is truthy (re-checked after every change); return it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {within} s")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except TimeoutError:
                continue

    # -- messages ------------------------------------------------------------------------------

    def new_message(
        self, channel: FakeChannel, data: dict[str, Any], *, interaction: Interaction | None = None
    ) -> FakeMessage:
        flags = int(data.get("flags") or 0)
        visible_to = interaction.member.id if interaction and flags & EPHEMERAL else None
        message = FakeMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=data.get("content") or "",
            embeds=list(data.get("embeds") or []),
            components=list(data.get("components") or []),
            flags=flags,
            visible_to=visible_to,
            interaction_id=interaction.id if interaction else None,
            attachments=list(data.get("attachments") or []),
        )
        if visible_to is None:
            message.pinged = pinged_users(message.content, data.get("allowed_mentions"))
        self.messages[message.id] = message
        return message

    def edit(self, message: FakeMessage, data: dict[str, Any]) -> None:
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = list(data["embeds"] or [])
        if "components" in data:
            message.components = list(data["components"] or [])
        if "attachments" in data:
            message.attachments = list(data["attachments"] or [])
        message.edits += 1
        message.edited_timestamp = iso_now()

    async def delete(self, message: FakeMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            await self.gateway.dispatch_guild(
                message.guild_id,
                "MESSAGE_DELETE",
                {
                    "id": str(message.id),
                    "channel_id": str(message.channel_id),
                    "guild_id": str(message.guild_id),
                },
            )

    async def announce_create(self, message: FakeMessage) -> None:
        if not message.ephemeral:
            await self.gateway.dispatch_guild(message.guild_id, "MESSAGE_CREATE", message.payload())

    async def announce_update(self, message: FakeMessage) -> None:
        if not message.ephemeral:
            await self.gateway.dispatch_guild(message.guild_id, "MESSAGE_UPDATE", message.payload())

    def public_messages(self, channel: FakeChannel) -> list[FakeMessage]:
        """The channel as every member sees it, oldest first (deleted messages gone)."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and not m.ephemeral and not m.deleted
        ]

    def ephemeral_messages(
        self, member: FakeMember, channel: FakeChannel | None = None
    ) -> list[FakeMessage]:
        """Messages only ``member`` can see, oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.visible_to == member.id
            and not m.deleted
            and (channel is None or m.channel_id == channel.id)
        ]

    def visible_to(self, member: FakeMember, channel: FakeChannel) -> list[FakeMessage]:
        """What ``member`` sees in ``channel``: public messages plus their own ephemerals."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id
            and not m.deleted
            and (m.visible_to is None or m.visible_to == member.id)
        ]

    async def wait_for_message(
        self,
        channel: FakeChannel,
        predicate: Callable[[FakeMessage], bool] = lambda m: True,
        *,
        after: int = 0,
        within: float = 5.0,
    ) -> FakeMessage:
        """The first public message in ``channel`` (with id > ``after``) matching ``predicate``."""

        def find() -> FakeMessage | None:
            for m in self.public_messages(channel):
                if m.id > after and predicate(m):
                    return m
            return None

        return await self.wait_for(find, within)

    # -- failures and gateway trouble -----------------------------------------------------------

    def fail_next(
        self, status: int, route: str | None = None, *, count: int = 1, retry_after: float = 0.05
    ) -> Failure:
        """Answer the next ``count`` requests to ``route`` (``"POST /channels/{channel_id}/
        messages"``; ``None``: any) with ``status`` (429 carries ``retry_after``)."""
        failure = Failure(status, route, count, retry_after)
        self.rest.failures.append(failure)
        return failure

    def slow_next(self, seconds: float, route: str | None = None, *, count: int = 1) -> Slowdown:
        """Answer the next ``count`` requests to ``route`` (``None``: any) ``seconds`` late."""
        slowdown = Slowdown(seconds, route, count)
        self.rest.slowdowns.append(slowdown)
        return slowdown

    async def reconnect_gateway(self, *, how: str = "reconnect", within: float = 10.0) -> None:
        """Make the bot reconnect and wait until it has resumed.

        ``how="reconnect"`` sends opcode 7 (Discord asking the client to reconnect);
        ``how="drop"`` closes the socket with 4000 (an unknown error) as a broken link would.
        """
        before = self.gateway.resumes
        if how == "reconnect":
            await self.gateway.send_reconnect()
        else:
            await self.gateway.drop(4000)
        await self.wait_for(lambda: self.gateway.resumes > before, within)

    # -- acting as members ---------------------------------------------------------------------

    def _interaction(
        self,
        kind: int,
        member: FakeMember,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> Interaction:
        guild = self.guilds[channel.guild_id]
        inter_id = self.ids.next()
        token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(24)
        payload: dict[str, Any] = {
            "id": str(inter_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(guild.id),
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "member": member.payload(permissions=guild.permissions_of(member, channel)),
            "locale": member.locale,
            "guild_locale": guild.locale,
            "app_permissions": str(guild.permissions_of(guild.members[self.bot_user.id], channel)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }
        if message is not None:
            payload["message"] = message.payload()
        inter = Interaction(inter_id, token, kind, member, channel, payload, self.loop_time())
        self.interactions[inter_id] = inter
        self.by_token[token] = inter
        return inter

    async def _send(self, inter: Interaction, *, settle: float = 5.0) -> InteractionResult:
        delivered = await self.gateway.dispatch_guild(
            inter.channel.guild_id, "INTERACTION_CREATE", inter.payload
        )
        if not delivered:
            raise RuntimeError("no bot is connected to the fake Discord gateway")
        wait = self.deadline + 0.5 - (self.loop_time() - inter.created)
        try:
            await asyncio.wait_for(inter.responded.wait(), max(0.0, wait))
        except TimeoutError:
            if not inter.refusals:
                self.violation(
                    "no-response",
                    f"no initial response within {self.deadline:g} s (the member saw "
                    "'This interaction failed')",
                    interaction=inter,
                )
            return InteractionResult(self, inter)
        if inter.response_type == 5:
            try:
                await asyncio.wait_for(inter.completed.wait(), settle)
            except TimeoutError:
                self.violation(
                    "no-followup",
                    "a deferred response never completed (the member saw 'thinking...' forever)",
                    interaction=inter,
                )
        return InteractionResult(self, inter)

    def _command(self, path: str, guild_id: int) -> tuple[dict[str, Any], list[str]]:
        words = path.split()
        if not words:
            raise UsageError("empty command")
        for scope in (guild_id, None):
            for cmd in self.commands.get(scope, []):
                if cmd.get("type", 1) == 1 and cmd["name"] == words[0]:
                    return cmd, words[1:]
        known = sorted({c["name"] for cs in self.commands.values() for c in cs})
        raise UsageError(f"/{words[0]} was not synced by the bot (synced: {known})")

    def _build_options(
        self, path: str, guild_id: int, values: dict[str, Any], focused: str | None = None
    ) -> dict[str, Any]:
        cmd, rest = self._command(path, guild_id)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        node_defs: list[dict[str, Any]] = cmd.get("options") or []
        holder = data
        for word in rest:
            sub = next((o for o in node_defs if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                raise UsageError(f"/{path}: no subcommand {word!r}")
            entry: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
            holder.setdefault("options", []).append(entry)
            holder = entry
            node_defs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in node_defs):
            raise UsageError(f"/{path} needs a subcommand")
        given: list[dict[str, Any]] = []
        for name, value in values.items():
            opt = next((o for o in node_defs if o["name"] == name), None)
            if opt is None:
                raise UsageError(f"/{path} has no option {name!r}")
            if name == focused:
                if not opt.get("autocomplete"):
                    raise UsageError(f"/{path} option {name!r} does not autocomplete")
                given.append(
                    {"name": name, "type": opt["type"], "value": str(value), "focused": True}
                )
                continue
            given.append(
                {
                    "name": name,
                    "type": opt["type"],
                    "value": self._option_value(path, opt, value, resolved),
                }
            )
        for opt in node_defs:
            if opt.get("required") and opt["name"] not in values and focused is None:
                raise UsageError(f"/{path} needs the option {opt['name']!r}")
        holder.setdefault("options", []).extend(given)
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(
        self, path: str, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]
    ) -> Any:
        kind = opt["type"]
        name = opt["name"]
        if kind == 3:
            value = str(value)
            if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
                raise UsageError(f"/{path} {name}: length out of range")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise UsageError(f"/{path} {name}: an integer is required")
        elif kind == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise UsageError(f"/{path} {name}: a number is required")
        elif kind == 5:
            if not isinstance(value, bool):
                raise UsageError(f"/{path} {name}: true or false is required")
        elif kind in (6, 9) and isinstance(value, FakeMember | FakeUser):
            # Discord resolves a user; a member of the guild also as a member (no user inside).
            user = value.user if isinstance(value, FakeMember) else value
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if isinstance(value, FakeMember):
                guild = self.guilds[value.guild_id]
                resolved.setdefault("members", {})[str(value.id)] = value.payload(
                    with_user=False, permissions=guild.permissions_of(value)
                )
            return str(user.id)
        elif kind in (8, 9) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        elif kind == 7 and isinstance(value, FakeChannel):
            allowed = opt.get("channel_types")
            if allowed and value.type not in allowed:
                raise UsageError(f"/{path} {name}: channel type {value.type} is not offered")
            # A partial channel with the member's permissions in it (a thread keeps its
            # metadata and counts, which Discord sends too).
            full = value.payload()
            channel = {key: full[key] for key in ("id", "name", "type", "parent_id")}
            if value.is_thread:
                channel = full
            channel["permissions"] = str(MEMBER_PERMISSIONS)
            resolved.setdefault("channels", {})[str(value.id)] = channel
            return str(value.id)
        else:
            raise UsageError(f"/{path} {name}: unsupported option value {value!r}")
        if kind in (4, 10):
            if "min_value" in opt and value < opt["min_value"]:
                raise UsageError(f"/{path} {name}: below {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise UsageError(f"/{path} {name}: above {opt['max_value']}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise UsageError(f"/{path} {name}: {value!r} is not one of the choices")
        return value

    async def slash(
        self, member: FakeMember, channel: FakeChannel, command: str, /, **options: Any
    ) -> InteractionResult:
        """``member`` runs ``/command`` (words for subcommand groups) with ``options``."""
        data = self._build_options(command, channel.guild_id, options)
        return await self._send(self._interaction(APPLICATION_COMMAND, member, channel, data))

    async def autocomplete(
        self,
        member: FakeMember,
        channel: FakeChannel,
        command: str,
        option: str,
        typed: str,
        **others: Any,
    ) -> list[dict[str, Any]]:
        """What the bot suggests to ``member`` typing ``typed`` into ``option``."""
        data = self._build_options(
            command, channel.guild_id, {**others, option: typed}, focused=option
        )
        result = await self._send(self._interaction(AUTOCOMPLETE, member, channel, data))
        return result.choices

    def _visible_message(
        self, member: FakeMember, message: FakeMessage, stale: bool
    ) -> FakeMessage:
        current = self.messages.get(message.id)
        if current is None or current.deleted:
            raise UsageError("the message is gone; nobody can click it")
        if current.visible_to is not None and current.visible_to != member.id:
            raise UsageError(f"{member.name} cannot see this ephemeral message")
        return message if stale else current

    async def click(
        self, member: FakeMember, message: FakeMessage, button: str, *, stale: bool = False
    ) -> InteractionResult:
        """``member`` clicks the button labelled ``button`` (or with that custom_id).

        The button is looked up on the message as it is now; ``stale=True`` uses ``message``
        as given (a snapshot), as a member whose client has not refreshed yet would.
        """
        shown = self._visible_message(member, message, stale)
        found = [b for b in shown.buttons if b.get("label") == button]
        found = found or [b for b in shown.buttons if b.get("custom_id") == button]
        if not found:
            raise UsageError(
                f"no button {button!r} on the message (buttons: {shown.button_labels})"
            )
        target = found[0]
        if target.get("disabled"):
            raise UsageError(f"the button {button!r} is disabled")
        if target.get("style") == 5:
            raise UsageError("a link button sends no interaction")
        data = {"custom_id": target["custom_id"], "component_type": 2}
        channel = self.channels[shown.channel_id]
        return await self._send(self._interaction(COMPONENT, member, channel, data, shown))

    async def select(
        self,
        member: FakeMember,
        message: FakeMessage,
        select: str,
        values: Iterable[str],
        *,
        stale: bool = False,
    ) -> InteractionResult:
        """``member`` picks ``values`` in the select menu with this custom_id or placeholder."""
        shown = self._visible_message(member, message, stale)
        menus = [c for c in shown.items() if c.get("type") == 3]
        found = [m for m in menus if select in (m.get("custom_id"), m.get("placeholder"))]
        if not found:
            raise UsageError(f"no select menu {select!r} on the message")
        menu = found[0]
        if menu.get("disabled"):
            raise UsageError(f"the select menu {select!r} is disabled")
        picked = list(values)
        allowed = {o["value"] for o in menu.get("options", [])}
        if not set(picked) <= allowed:
            raise UsageError(f"{sorted(set(picked) - allowed)} are not options of {select!r}")
        if not menu.get("min_values", 1) <= len(picked) <= menu.get("max_values", 1):
            raise UsageError(f"wrong number of values for {select!r}")
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": picked}
        channel = self.channels[shown.channel_id]
        return await self._send(self._interaction(COMPONENT, member, channel, data, shown))

    async def submit_modal(
        self, member: FakeMember, shown: InteractionResult, values: dict[str, Any]
    ) -> InteractionResult:
        """``member`` fills in the modal ``shown`` opened (``values`` by input custom_id: a
        string for a text input, a list for a select) and submits it."""
        inter = shown.interaction
        if inter.response_type != 9 or inter.member.id != member.id:
            raise UsageError(f"{member.name} has no modal open from this interaction")
        modal = inter.response_data or {}
        unknown = set(values)

        def filled(item: dict[str, Any]) -> dict[str, Any]:
            custom_id = item.get("custom_id")
            unknown.discard(custom_id)
            value = values.get(custom_id) if custom_id else None
            if item.get("type") == 4:
                text = "" if value is None else str(value)
                if item.get("required", True) and not text:
                    raise UsageError(f"the input {item.get('label')!r} is required")
                if not item.get("min_length", 0) <= len(text) <= item.get("max_length", 4000):
                    raise UsageError(f"the input {item.get('label')!r} has a bad length")
                return {"type": 4, "custom_id": custom_id, "value": text}
            return {"type": item.get("type"), "custom_id": custom_id, "values": list(value or [])}

        rows: list[dict[str, Any]] = []
        for row in modal.get("components", []):
            if row.get("type") == 1:
                rows.append({"type": 1, "components": [filled(c) for c in row["components"]]})
            elif row.get("type") == 18:
                rows.append({"type": 18, "component": filled(row["component"])})
        if unknown:
            raise UsageError(f"the modal has no inputs {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": rows}
        message = inter.payload.get("message")
        submitted = self._interaction(MODAL_SUBMIT, member, inter.channel, data)
        if message is not None:
            submitted.payload["message"] = message
        return await self._send(submitted)
