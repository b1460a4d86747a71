"""The REST API under ``/api/v10``: the route table and the one place every request passes.

Routing is a small regex table so every request passes one place that can inject failures
(429 with ``retry_after``, 5xx), counts every answer (the invalid ones among them, as
Discord counts them: :meth:`~.ratelimits.RateLimits.answered`) and records what Discord
would refuse: every body Discord's OpenAPI description has a schema for is validated
against it (:mod:`.spec`), then against the rules its documentation states in words
(:mod:`.limits`). A refusal names the route, the
field and the rule. A route the fake does not know answers 404 and is recorded as a
violation: a test must not pass on a call the fake silently ignored.

The handlers live by subject: the application's (login, gateway, command sync) in
``rest_application.py``, channels' and messages' in ``rest_channels.py``, interactions' in
``rest_interactions.py``.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .limits import INTERACTION_FLAGS, check_command_sync, check_message, form_error_body
from .model import FakeMessage, Interaction
from .replies import error, json_response
from .rest_application import ApplicationRoutes
from .rest_channels import ChannelRoutes
from .rest_interactions import InteractionRoutes
from .spec import SPEC_ROUTES, check_body, readable_path

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = ["Failure", "Rest", "Slowdown"]

Handler = Callable[[web.Request, dict[str, str], dict[str, Any] | None], Awaitable[web.Response]]


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
        app = ApplicationRoutes(self)
        channels = ChannelRoutes(self)
        interactions = InteractionRoutes(self)
        add = self._add
        add("GET", "/users/@me", app.get_me)
        add("GET", "/oauth2/applications/@me", app.get_application)
        add("GET", "/applications/@me", app.get_application)
        add("GET", "/gateway", app.get_gateway)
        add("GET", "/gateway/bot", app.get_gateway)
        add("PUT", "/applications/{app_id}/commands", app.put_commands)
        add("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", app.put_commands)
        add("GET", "/applications/{app_id}/commands", app.get_commands)
        add("GET", "/applications/{app_id}/guilds/{guild_id}/commands", app.get_commands)
        add("POST", "/channels/{channel_id}/messages", channels.create_message)
        add("GET", "/channels/{channel_id}/messages", channels.list_messages)
        add("GET", "/channels/{channel_id}/messages/{message_id}", channels.get_message)
        add("PATCH", "/channels/{channel_id}/messages/{message_id}", channels.edit_message)
        add("DELETE", "/channels/{channel_id}/messages/{message_id}", channels.delete_message)
        add("POST", "/channels/{channel_id}/typing", channels.typing)
        add("GET", "/channels/{channel_id}", channels.get_channel)
        add("GET", "/guilds/{guild_id}", channels.get_guild)
        add("GET", "/guilds/{guild_id}/channels", channels.get_guild_channels)
        add("GET", "/guilds/{guild_id}/members/{user_id}", channels.get_member)
        add("GET", "/users/{user_id}", channels.get_user)
        add("POST", "/interactions/{interaction_id}/{token}/callback", interactions.callback)
        add("POST", "/webhooks/{app_id}/{token}", interactions.followup)
        add(
            "GET",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            interactions.get_webhook_message,
        )
        add(
            "PATCH",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            interactions.edit_webhook_message,
        )
        add(
            "DELETE",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            interactions.delete_webhook_message,
        )

    def _add(self, method: str, template: str, handler: Handler) -> None:
        pattern = re.escape(template)
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", pattern)
        self.routes.append((method, template, re.compile(f"^{pattern}$"), handler))

    # -- plumbing ----------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.Response:
        """Answer one request; every answer the fake gives is counted here."""
        response = await self._answer(request)
        self.discord.limits.answered(response.status, response.headers)
        return response

    async def _answer(self, request: web.Request) -> web.Response:
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
                for key, value in headers.items():  # a handler's own 429 keeps its headers
                    response.headers.setdefault(key, value)
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

    async def apply_edit(
        self,
        route: str,
        message: FakeMessage,
        body: dict[str, Any],
        *,
        interaction: Interaction | None = None,
        prefix: str = "",
        flags: int = INTERACTION_FLAGS,
    ) -> web.Response:
        """Edit ``message`` as ``body`` asks if Discord would take the message it leaves (else
        refuse), and tell the bot of the change."""
        merged = message.as_edited(body)
        errors = check_message(merged, flags=flags)
        if errors:
            return self.refuse(route, errors, interaction=interaction, prefix=prefix)
        self.discord.edit(message, merged)
        await self.discord.announce_update(message)
        return json_response(message.payload())
