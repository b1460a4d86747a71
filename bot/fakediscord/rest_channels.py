"""The fake's channel and guild endpoints: the messages a bot posts, lists, reads, edits and
deletes in a channel (each checked against Discord's message limits), typing, and the reads of
a channel, a guild, a member and a user that discord.py makes.

Only public messages are reachable here: an ephemeral message belongs to its interaction and
is read or changed through the interaction's token (``rest_interactions.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .limits import ANY_FLAGS, CHANNEL_MESSAGE_FLAGS, check_message
from .model import FakeMessage
from .replies import error, json_response

if TYPE_CHECKING:
    from .rest import Rest

__all__ = ["ChannelRoutes"]


class ChannelRoutes:
    """Handlers of the channel, message, guild, member and user routes (:class:`~.rest.Rest`
    routes to them)."""

    def __init__(self, rest: Rest) -> None:
        self.rest = rest
        self.discord = rest.discord

    async def create_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        route = "POST /channels/{channel_id}/messages"
        channel = self.discord.channels.get(int(p["channel_id"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        errors = check_message(body or {}, flags=CHANNEL_MESSAGE_FLAGS)
        if errors:
            return self.rest.refuse(route, errors)
        message = self.discord.new_message(channel, body or {})
        await self.discord.announce_create(message)
        return json_response(message.payload())

    async def list_messages(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        channel_id = int(p["channel_id"])
        limit = int(request.query.get("limit", 50))
        found = [
            m
            for m in self.discord.messages.values()
            if m.channel_id == channel_id and not m.ephemeral and not m.deleted
        ]
        found.sort(key=lambda m: m.id, reverse=True)
        return json_response([m.payload() for m in found[:limit]])

    def _channel_message(self, p: dict[str, str]) -> FakeMessage | None:
        message = self.discord.messages.get(int(p["message_id"]))
        if message is None or message.deleted or message.ephemeral:
            return None
        if message.channel_id != int(p["channel_id"]):
            return None
        return message

    async def get_message(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        message = self._channel_message(p)
        if message is None:
            return error(404, 10008, "Unknown Message")
        return json_response(message.payload())

    async def edit_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        message = self._channel_message(p)
        if message is None:
            return error(404, 10008, "Unknown Message")
        if message.author.id != self.discord.bot_user.id:
            return error(403, 50005, "Cannot edit a message authored by another user")
        return await self.rest.apply_edit(
            "PATCH /channels/{channel_id}/messages/{message_id}",
            message,
            body or {},
            flags=ANY_FLAGS,
        )

    async def delete_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        message = self._channel_message(p)
        if message is None:
            return error(404, 10008, "Unknown Message")
        await self.discord.delete(message)
        return web.Response(status=204)

    async def typing(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        return web.Response(status=204)

    async def get_channel(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        channel = self.discord.channels.get(int(p["channel_id"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        return json_response(channel.payload())

    async def get_guild(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        guild = self.discord.guilds.get(int(p["guild_id"]))
        if guild is None:
            return error(404, 10004, "Unknown Guild")
        data = guild.payload()
        for key in ("channels", "members", "threads", "presences", "voice_states"):
            data.pop(key, None)
        return json_response(data)

    async def get_guild_channels(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        guild = self.discord.guilds.get(int(p["guild_id"]))
        if guild is None:
            return error(404, 10004, "Unknown Guild")
        return json_response([c.payload() for c in guild.channels.values()])

    async def get_member(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        guild = self.discord.guilds.get(int(p["guild_id"]))
        member = guild.members.get(int(p["user_id"])) if guild else None
        if member is None:
            return error(404, 10007, "Unknown Member")
        return json_response(member.payload())

    async def get_user(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        user = self.discord.users.get(int(p["user_id"]))
        if user is None:
            return error(404, 10013, "Unknown User")
        return json_response(user.payload())
