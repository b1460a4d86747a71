"""The fake's application endpoints: who the bot is (its user, its application), where the
gateway is, and the slash commands it syncs, globally or to a guild.

A synced command is stored as Discord returns it (ids, version, application); members' slash
commands (``acting.py``) are looked up among them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .replies import json_response

if TYPE_CHECKING:
    from .rest import Rest

__all__ = ["ApplicationRoutes"]


class ApplicationRoutes:
    """Handlers of login, the gateway's address and command sync (:class:`~.rest.Rest` routes
    to them)."""

    def __init__(self, rest: Rest) -> None:
        self.rest = rest
        self.discord = rest.discord

    async def get_me(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        return json_response(self.discord.bot_user.payload())

    async def get_application(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        owner = self.discord.owner.payload()
        return json_response(
            {
                "id": str(self.discord.application_id),
                "name": self.discord.bot_user.name,
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "bot": self.discord.bot_user.payload(),
                "interactions_endpoint_url": None,
                "approximate_guild_count": 1,
            }
        )

    async def get_gateway(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        return json_response(
            {
                "url": self.discord.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def put_commands(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        guild_id = int(p["guild_id"]) if "guild_id" in p else None
        stored = []
        for cmd in body or []:
            data = dict(cmd)
            data.setdefault("type", 1)
            data["id"] = str(self.discord.ids.next())
            data["application_id"] = str(self.discord.application_id)
            data["version"] = str(self.discord.ids.next())
            data.setdefault("description", "")
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            stored.append(data)
        self.discord.commands[guild_id] = stored
        return json_response(stored)

    async def get_commands(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        guild_id = int(p["guild_id"]) if "guild_id" in p else None
        return json_response(self.discord.commands.get(guild_id, []))
