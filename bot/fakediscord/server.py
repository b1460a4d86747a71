"""``FakeDiscord``: the REST API and gateway on 127.0.0.1, the world they serve (guilds,
members, channels, messages), the refusals recorded and the trouble a test can inject.

Start it (``async with FakeDiscord() as discord``), point discord.py at it (done on start:
``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``), run a bot with ``discord.token``,
then act: ``await discord.slash(alice, table, "blackjack start", players=3)``,
``await discord.click(bob, message, "Hit")``. Whatever Discord would refuse is answered with
Discord's error JSON *and* recorded in ``discord.violations``; the e2e fixtures assert that
list is empty at teardown, so a public message of the bot drawn as a reply to one other
members cannot see (``hidden_replies``) fails a test too. What members do (``slash``,
``click``, ...) is in ``acting.py``.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import discord as dpy
import yarl
from aiohttp import web

from . import acting
from .gateway import Gateway
from .model import (
    ADMINISTRATOR,
    EPHEMERAL,
    GUILD_CREATE_ONLY,
    MANAGE_MESSAGES,
    MEMBER_PERMISSIONS,
    FakeChannel,
    FakeGuild,
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
from .rest import Failure, Rest, Slowdown
from .rest_interactions import INTERACTION_DEADLINE

SEND_ROUTE = "POST /channels/{channel_id}/messages"
CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOWUP_ROUTE = "POST /webhooks/{app_id}/{token}"

__all__ = ["FakeDiscord"]

T = TypeVar("T")


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
        # Public messages drawn as replies to one other members cannot load (each a violation).
        self.hidden_replies: list[FakeMessage] = []
        self.deadline = INTERACTION_DEADLINE  # seconds for the initial response
        # Check request bodies against Discord's OpenAPI description (``spec.py``): many
        # milliseconds a request, which a benchmark playing hundreds of tables turns off.
        self.check_schema = True
        # Discord's rate limits: the global one and the webhooks' on, per-route buckets as a
        # test sets them.
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
    def webhook_limits(self) -> bool:
        """Whether an interaction's webhook meets Discord's limits: 5 requests per 2 s on its
        token, 30 webhook messages per 60 s in a channel (on unless a test turns them off)."""
        return self.limits.webhook_limits

    @webhook_limits.setter
    def webhook_limits(self, on: bool) -> None:
        self.limits.webhook_limits = on

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

    def take_webhook_429s(self) -> Counter[str]:
        """Hand the webhook 429s the fake answered (by kind: ``token``, ``channel``) to a test
        that provoked them on purpose, and forget them."""
        taken = Counter(self.limits.webhook_429)
        self.limits.webhook_429.clear()
        return taken

    def assert_no_webhook_429s(self) -> None:
        """The bot never asked past an interaction webhook's limits (a 429 there is no
        refusal of a bad request, but a bot that meets one waits, or is wrong about them)."""
        assert not self.limits.webhook_429, f"webhook 429s: {dict(self.limits.webhook_429)}"

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
        self,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        interaction: Interaction | None = None,
        followup: bool = False,
    ) -> FakeMessage:
        """A new message of the bot in ``channel``: an ``interaction``'s carries its metadata
        and the message it replies to (its original response, for a ``followup``)."""
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
        if interaction is not None:
            # "Sent if the message is sent as a result of an interaction" (message.mdx:52).
            message.interaction_metadata = interaction.metadata(followup=followup)
            message.reply_to = interaction.replied_to(followup=followup)
            message.type = interaction.message_type(message.reply_to)
        self.messages[message.id] = message
        if interaction is not None and not message.ephemeral:
            self._check_reply(message, interaction, FOLLOWUP_ROUTE if followup else CALLBACK_ROUTE)
        return message

    def _check_reply(self, message: FakeMessage, interaction: Interaction, route: str) -> None:
        """A public message drawn as a reply to a message other members cannot load fails:
        "in the case of an ephemeral original message with non-ephemeral followups", the
        sender and "everyone else" see different replies, and after dismissing it the sender
        gets "Original message was deleted" (discord-api-docs#2733)."""
        if message.reply_to is None:
            return
        target = self.messages.get(message.reply_to)
        if target is None or target.deleted:
            what, seen = "deleted message", "members see 'Original message was deleted'"
        elif target.ephemeral:
            what, seen = "ephemeral message", "others see 'Message could not be loaded.'"
        elif target.loading:
            what, seen = "deferral still loading", "members see 'Message could not be loaded.'"
        else:
            return
        self.hidden_replies.append(message)
        self.violation(
            "hidden-reply",
            f"public message {message.id} is drawn as a reply to {what} {message.reply_to}: {seen}",
            route=route,
            interaction=interaction,
        )

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

    def unknown_webhook(self, interaction: Interaction | acting.InteractionResult) -> None:
        """Discord forgets ``interaction``'s token early: from now on every webhook route with
        it answers ``404 {"code": 10015, "message": "Unknown Webhook"}`` though its 15 minutes
        have not passed (discord-api-docs#6851: "While the token is still active in the 15
        minutes window, any API requests send to it return with 404"). Its callback is
        unaffected. Using it again after that 404 is recorded as a violation
        (``"dead-webhook"``): "If a webhook returns a **404** status you should not attempt to
        use it again - repeated attempts to do so will result in a temporary restriction"
        (topics/rate-limits.mdx:142)."""
        inter = (
            interaction.interaction
            if isinstance(interaction, acting.InteractionResult)
            else interaction
        )
        inter.webhook_unknown = True

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

    # -- acting as members (acting.py) ---------------------------------------------------------

    slash = acting.slash
    autocomplete = acting.autocomplete
    click = acting.click
    select = acting.select
    submit_modal = acting.submit_modal
    _interaction = acting.new_interaction
