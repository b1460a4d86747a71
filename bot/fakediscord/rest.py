"""The REST API under ``/api/v10``: the routes discord.py calls for a slash-command bot.

Routing is a small regex table so every request passes one place that can inject failures
(429 with ``retry_after``, 5xx) and record what Discord would refuse: every body Discord's
OpenAPI description has a schema for is validated against it (:mod:`.spec`), then against
the rules its documentation states in words (:mod:`.limits`). A refusal names the route, the
field and the rule. A route the fake does not know answers 404 and is recorded as a
violation: a test must not pass on a call the fake silently ignored.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .limits import (
    ANY_FLAGS,
    CHANNEL_MESSAGE_FLAGS,
    DEFERRED_FLAGS,
    INTERACTION_FLAGS,
    TOKEN_SECONDS,
    WEBHOOK_EDIT_FLAGS,
    WEBHOOK_FLAGS,
    check_autocomplete_choices,
    check_command_sync,
    check_message,
    form_error_body,
)
from .model import EPHEMERAL, LOADING, FakeMessage, Interaction, to_json
from .spec import SPEC_ROUTES, check_body, readable_path

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = ["Failure", "Rest", "Slowdown"]

Handler = Callable[[web.Request, dict[str, str], dict[str, Any] | None], Awaitable[web.Response]]

INTERACTION_DEADLINE = 3.0


def json_response(
    data: object, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py only parses JSON when the content type is exactly "application/json".
    return web.Response(
        body=to_json(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status=status)


@dataclass
class Failure:
    """An injected failure: the next ``count`` requests matching ``route`` get ``status``."""

    status: int
    route: str | None  # "POST /channels/{channel_id}/messages" or None for any route
    count: int = 1
    retry_after: float = 0.05
    hits: int = 0


@dataclass
class Slowdown:
    """An injected slow answer: the next ``count`` requests matching ``route`` wait
    ``seconds`` before they are handled (Discord having a bad minute)."""

    seconds: float
    route: str | None
    count: int = 1
    hits: int = 0


class Rest:
    """Routes, each ``(method, template)``; a template names its parameters in braces."""

    def __init__(self, discord: FakeDiscord) -> None:
        self.discord = discord
        self.failures: list[Failure] = []
        self.slowdowns: list[Slowdown] = []
        self.requests: list[str] = []  # "METHOD template", in order
        self.sent_at: dict[int, list[float]] = {}  # channel id -> times of recent sends
        self.routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        add = self._add
        add("GET", "/users/@me", self.get_me)
        add("GET", "/oauth2/applications/@me", self.get_application)
        add("GET", "/applications/@me", self.get_application)
        add("GET", "/gateway", self.get_gateway)
        add("GET", "/gateway/bot", self.get_gateway)
        add("PUT", "/applications/{app_id}/commands", self.put_commands)
        add("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands)
        add("GET", "/applications/{app_id}/commands", self.get_commands)
        add("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands)
        add("POST", "/channels/{channel_id}/messages", self.create_message)
        add("GET", "/channels/{channel_id}/messages", self.list_messages)
        add("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        add("POST", "/channels/{channel_id}/typing", self.typing)
        add("GET", "/channels/{channel_id}", self.get_channel)
        add("GET", "/guilds/{guild_id}", self.get_guild)
        add("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        add("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        add("GET", "/users/{user_id}", self.get_user)
        add("POST", "/interactions/{interaction_id}/{token}/callback", self.callback)
        add("POST", "/webhooks/{app_id}/{token}", self.followup)
        add("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_webhook_message)
        add("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.edit_webhook_message)
        add(
            "DELETE",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            self.delete_webhook_message,
        )

    def _add(self, method: str, template: str, handler: Handler) -> None:
        pattern = re.escape(template)
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", pattern)
        self.routes.append((method, template, re.compile(f"^{pattern}$"), handler))

    # -- plumbing ----------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.Response:
        path = request.match_info["tail"]
        path = "/" + path.lstrip("/")
        for method, template, pattern, handler in self.routes:
            if method != request.method:
                continue
            match = pattern.match(path)
            if match is None:
                continue
            route = f"{method} {template}"
            self.requests.append(route)
            await self._slow(route)
            injected = self._injected(route)
            if injected is not None:
                return injected
            params = match.groupdict()
            headers, limited = self.discord.limits.take(route, params)
            if limited is not None:
                return json_response(limited, status=429, headers=headers)
            body = await self._body(request)
            # Command syncs always; other bodies unless a benchmark turned it off.
            if route in SPEC_ROUTES and (self.discord.check_schema or route.startswith("PUT ")):
                commands = route.startswith("PUT ")
                errors = (check_command_sync if commands else check_body)(route, body)
                if errors:
                    self.discord.notify()
                    return self.refuse(route, errors, interaction=self._interaction_of(params))
            try:
                response = await handler(request, params, body)
                response.headers.update(headers)
                return response
            finally:
                self.discord.notify()
        self.discord.violation(
            "unknown-route",
            "the fake does not implement this route",
            route=f"{request.method} {path}",
        )
        return error(404, 0, "404: Not Found")

    async def _slow(self, route: str) -> None:
        for slowdown in self.slowdowns:
            if slowdown.count <= 0 or slowdown.route not in (None, route):
                continue
            slowdown.count -= 1
            slowdown.hits += 1
            await asyncio.sleep(slowdown.seconds)
            return

    def _injected(self, route: str) -> web.Response | None:
        for failure in self.failures:
            if failure.count <= 0 or (failure.route is not None and failure.route != route):
                continue
            failure.count -= 1
            failure.hits += 1
            if failure.status == 429:
                return json_response(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": failure.retry_after,
                        "global": False,
                    },
                    status=429,
                    headers={
                        "Via": "1.1 google",
                        "Retry-After": str(max(1, round(failure.retry_after))),
                        "X-RateLimit-Scope": "user",
                    },
                )
            return json_response(
                {"message": f"{failure.status}: Internal Server Error", "code": 0},
                status=failure.status,
            )
        return None

    @staticmethod
    async def _body(request: web.Request) -> dict[str, Any] | None:
        if not request.can_read_body:
            return None
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            form = await request.post()
            raw = form.get("payload_json")
            data: dict[str, Any] = json.loads(str(raw)) if raw is not None else {}
            files = [v for k, v in form.items() if k.startswith("files[")]
            if files and not data.get("attachments"):  # discord.py lists them in the payload
                data["attachments"] = [
                    {"id": str(i), "filename": getattr(f, "filename", f"file{i}")}
                    for i, f in enumerate(files)
                ]
            return data
        text = await request.text()
        return json.loads(text) if text else None

    def _interaction_of(self, params: dict[str, str]) -> Interaction | None:
        """The interaction a route's parameters name (a callback's id, a webhook's token)."""
        if "interaction_id" in params:
            return self.discord.interactions.get(int(params["interaction_id"]))
        if "token" in params:
            return self.discord.by_token.get(params["token"])
        return None

    def refuse(
        self,
        route: str,
        errors: list[tuple[str, str, str]],
        *,
        interaction: Interaction | None = None,
        prefix: str = "",
    ) -> web.Response:
        """Discord's 400 for a body it refuses, recorded as a violation that names the route,
        each field (``data.components[0].custom_id``) and the rule it breaks."""
        body = form_error_body(errors, prefix=prefix)
        full = [(f"{prefix}.{p}".strip(".") if prefix else p, m) for p, _c, m in errors]
        detail = "; ".join(f"{readable_path(p) or '<body>'}: {m}" for p, m in full)
        self.discord.violation("limit", detail, route=route, interaction=interaction)
        return json_response(body, status=400)

    # -- login, gateway, commands --------------------------------------------------------------

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

    # -- channels and messages -----------------------------------------------------------------

    async def create_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        route = "POST /channels/{channel_id}/messages"
        channel = self.discord.channels.get(int(p["channel_id"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        errors = check_message(body or {}, flags=CHANNEL_MESSAGE_FLAGS)
        if errors:
            return self.refuse(route, errors)
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
        return await self._apply_edit(
            "PATCH /channels/{channel_id}/messages/{message_id}",
            message,
            body or {},
            flags=ANY_FLAGS,
        )

    async def _apply_edit(
        self,
        route: str,
        message: FakeMessage,
        body: dict[str, Any],
        *,
        interaction: Interaction | None = None,
        prefix: str = "",
        flags: int = INTERACTION_FLAGS,
    ) -> web.Response:
        merged = _merged(message, body)
        errors = check_message(merged, flags=flags)
        if errors:
            return self.refuse(route, errors, interaction=interaction, prefix=prefix)
        self.discord.edit(message, merged)
        await self.discord.announce_update(message)
        return json_response(message.payload())

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

    # -- interactions --------------------------------------------------------------------------

    async def callback(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        route = "POST /interactions/{interaction_id}/{token}/callback"
        inter = self.discord.interactions.get(int(p["interaction_id"]))
        if inter is None or inter.token != p["token"]:
            return error(404, 10062, "Unknown interaction")
        loop_time = self.discord.loop_time()
        if inter.response_type is not None:
            self.discord.violation(
                "double-response",
                "a second initial response was sent",
                route=route,
                interaction=inter,
            )
            return error(400, 40060, "Interaction has already been acknowledged.")
        if loop_time - inter.created > self.discord.deadline:
            late = loop_time - inter.created
            self.discord.violation(
                "late-response",
                f"initial response after {late:.2f} s (limit {self.discord.deadline:g} s)",
                route=route,
                interaction=inter,
            )
            return error(404, 10062, "Unknown interaction")
        body = body or {}
        rtype = int(body.get("type", 0))
        data: dict[str, Any] = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[inter.kind]
        if rtype not in allowed:
            self.discord.violation(
                "bad-response",
                f"response type {rtype} for interaction type {inter.kind}",
                route=route,
                interaction=inter,
            )
            return error(400, 50035, "Interaction response type is invalid for this interaction")
        message: FakeMessage | None = None
        if rtype == 4:
            errors = check_message(data, flags=INTERACTION_FLAGS)
            if errors:
                return self.refuse(route, errors, interaction=inter, prefix="data")
            message = self.discord.new_message(inter.channel, data, interaction=inter)
            inter.original = message
        elif rtype == 5:
            errors = check_message(data, flags=DEFERRED_FLAGS, require_body=False)
            if errors:
                return self.refuse(route, errors, interaction=inter, prefix="data")
            loading = {"flags": (int(data.get("flags", 0)) & EPHEMERAL) | LOADING}
            message = self.discord.new_message(inter.channel, loading, interaction=inter)
            inter.original = message
        elif rtype == 7:
            target = self.discord.messages.get(int(inter.payload["message"]["id"]))
            if target is None or target.deleted:
                return error(404, 10008, "Unknown Message")
            merged = _merged(target, data)
            errors = check_message(merged, flags=INTERACTION_FLAGS)
            if errors:
                return self.refuse(route, errors, interaction=inter, prefix="data")
            self.discord.edit(target, merged)
            message = target
            inter.original = target
        elif rtype == 8:
            errors = check_autocomplete_choices(data.get("choices") or [])
            if errors:
                return self.refuse(route, errors, interaction=inter, prefix="data")
        inter.response_type = rtype
        inter.responded_at = loop_time
        inter.response_data = data
        inter.responded.set()
        if rtype in (4, 6, 7, 8, 9):
            inter.completed.set()
        if message is not None:
            if rtype == 7:
                await self.discord.announce_update(message)
            else:
                await self.discord.announce_create(message)
        reply: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.kind,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            reply["interaction"]["response_message_id"] = str(message.id)
            reply["resource"] = {"type": rtype, "message": message.payload()}
        return json_response(reply)

    def _webhook_interaction(self, p: dict[str, str]) -> Interaction | None:
        if int(p["app_id"]) != self.discord.application_id:
            return None
        return self.discord.by_token.get(p["token"])

    def _expired(self, route: str, inter: Interaction) -> web.Response | None:
        """Discord's answer to a follow-up, edit or delete through an interaction's token
        more than 15 minutes after the interaction (limits.TOKEN_SECONDS), or ``None``."""
        age = self.discord.loop_time() - inter.created
        if age <= TOKEN_SECONDS:
            return None
        self.discord.violation(
            "expired-token",
            f"the interaction's token was used {age / 60:.1f} minutes after it (valid 15)",
            route=route,
            interaction=inter,
        )
        return error(401, 50027, "Invalid Webhook Token")

    async def followup(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        route = "POST /webhooks/{app_id}/{token}"
        inter = self._webhook_interaction(p)
        if inter is None or inter.response_type is None:
            return error(404, 10015, "Unknown Webhook")
        expired = self._expired(route, inter)
        if expired is not None:
            return expired
        body = body or {}
        errors = check_message(body, flags=WEBHOOK_FLAGS)
        if errors:
            return self.refuse(route, errors, interaction=inter)
        original = inter.original
        if original is not None and original.loading and not original.deleted:
            # The first followup after a deferral fills the "thinking" message.
            self.discord.edit(original, body)
            original.flags &= ~LOADING
            inter.completed.set()
            await self.discord.announce_update(original)
            return json_response(original.payload())
        message = self.discord.new_message(inter.channel, body, interaction=inter)
        inter.followups.append(message)
        inter.completed.set()
        await self.discord.announce_create(message)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message.payload())
        return web.Response(status=204)

    def _webhook_message(self, inter: Interaction, message_id: str) -> FakeMessage | None:
        if message_id == "@original":
            message = inter.original
        else:
            message = self.discord.messages.get(int(message_id))
            if message is not None and message.interaction_id != inter.id:
                message = None
        if message is None or message.deleted:
            return None
        return message

    async def get_webhook_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        inter = self._webhook_interaction(p)
        if inter is not None:
            expired = self._expired("GET /webhooks/{app_id}/{token}/messages/{message_id}", inter)
            if expired is not None:
                return expired
        message = self._webhook_message(inter, p["message_id"]) if inter else None
        if message is None:
            return error(404, 10008, "Unknown Message")
        return json_response(message.payload())

    async def edit_webhook_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        route = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"
        inter = self._webhook_interaction(p)
        if inter is None:
            return error(404, 10015, "Unknown Webhook")
        expired = self._expired(route, inter)
        if expired is not None:
            return expired
        message = self._webhook_message(inter, p["message_id"])
        if message is None:
            return error(404, 10008, "Unknown Message")
        was_loading = message.loading
        reply = await self._apply_edit(
            route, message, body or {}, interaction=inter, flags=WEBHOOK_EDIT_FLAGS
        )
        if was_loading and reply.status == 200:
            message.flags &= ~LOADING
            inter.completed.set()
        return reply

    async def delete_webhook_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        inter = self._webhook_interaction(p)
        if inter is not None:
            route = "DELETE /webhooks/{app_id}/{token}/messages/{message_id}"
            expired = self._expired(route, inter)
            if expired is not None:
                return expired
        message = self._webhook_message(inter, p["message_id"]) if inter else None
        if message is None:
            return error(404, 10008, "Unknown Message")
        await self.discord.delete(message)
        if inter is not None:
            inter.completed.set()
        return web.Response(status=204)


def _merged(message: FakeMessage, edit: dict[str, Any]) -> dict[str, Any]:
    """The message as an edit leaves it (what Discord checks): each field the edit names,
    the message's own for the rest."""
    merged = {
        "content": edit.get("content", message.content),
        "embeds": edit.get("embeds", message.embeds),
        "components": edit.get("components", message.components),
        "attachments": edit.get("attachments", message.attachments),
    }
    merged |= {key: edit[key] for key in ("flags", "allowed_mentions") if key in edit}
    return merged
