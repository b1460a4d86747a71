"""The sandbox's web page and its small JSON API over the local Discord imitation.

The page (``static/``) plays every member of one server: it reads what a member sees in a
channel (public messages and that member's own ephemeral ones) and acts as that member
through the imitation, exactly as the Discord client would: a slash command with its
options, a button click, a select pick, a modal submitted. The imitation checks each of
them as Discord does, and the bot answers through the same gateway and REST calls it makes
in a real server. Nothing here knows a game: the bot's messages are shown as Discord shows
them.

Routes (JSON unless said otherwise):

* ``GET /`` the page; ``GET /static/<file>`` its script and style.
* ``GET /api/server``: the server (with its language), its channels, the members (with
  their own language, whether they moderate and whether they manage the server), the synced
  commands, and what the imitation refused so far.
* ``GET /api/messages?channel=&member=``: what that member sees in that channel (a reply
  with the message it replies to as that member's client shows it).
* ``POST /api/command``, ``/api/autocomplete``, ``/api/click``, ``/api/select``,
  ``/api/modal``, ``/api/language``: act as a member.
* ``POST /api/server-language``: change the server's language, Discord's ``guild_locale``.
* ``GET /api/events``: server-sent events, one ``change`` whenever anything changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from importlib import resources
from typing import Any, Final

from aiohttp import web

from bot.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
    UsageError,
)
from bot.fakediscord.model import MANAGE_GUILD, MANAGE_MESSAGES

__all__ = ["Sandbox", "option_value", "preview"]

log = logging.getLogger(__name__)

LANGUAGES: Final = {"en": "en-US", "ko": "ko"}
HEARTBEAT_SECONDS: Final = 15.0  # a comment line keeps a proxy from closing an idle stream
MODAL: Final = 9  # the interaction response type that opens a modal
REPLY_PREVIEW: Final = 100  # characters of a replied-to message's first line (the page clips)
_FENCE: Final = re.compile(r"^`{3}\w*$")
_ANSI: Final = re.compile(r"\x1b\[[0-9;]*m")
STATIC: Final = ("index.html", "app.js", "render.js", "style.css")
_TYPES: Final = {"js": "text/javascript", "css": "text/css", "html": "text/html"}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadRequest(Exception):
    """What the page asked cannot be done; the text says why (shown to the member)."""


class Sandbox:
    """The page and API for one :class:`FakeDiscord` (started and stopped by the caller)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        # Modals a member has open, by interaction id: the result that opened each.
        self.modals: dict[int, InteractionResult] = {}

    def app(self) -> web.Application:
        """The aiohttp application serving the page and the API."""
        app = web.Application()
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/favicon.ico", _no_content)
        app.router.add_get("/api/server", self._json(self.server))
        app.router.add_get("/api/messages", self._json(self.messages))
        app.router.add_get("/api/events", self._events)
        for name, handler in (
            ("command", self.command),
            ("autocomplete", self.autocomplete),
            ("click", self.click),
            ("select", self.select),
            ("modal", self.modal),
            ("language", self.language),
            ("server-language", self.server_language),
        ):
            app.router.add_post(f"/api/{name}", self._json(handler))
        return app

    # -- reading ---------------------------------------------------------------------------

    async def server(self, query: dict[str, Any]) -> dict[str, Any]:
        """The server as the page draws it."""
        fake = self.fake
        guild = fake.guild
        return {
            "name": guild.name,
            "language": guild.locale[:2],
            "bot": fake.bot_user.id,
            "channels": [
                {"id": str(c.id), "name": c.name} for c in guild.channels.values() if c.type == 0
            ],
            "members": [
                {
                    "id": str(m.id),
                    "name": m.name,
                    "language": m.locale[:2],
                    "moderator": bool(guild.permissions_of(m) & MANAGE_MESSAGES),
                    "manager": bool(guild.permissions_of(m) & MANAGE_GUILD),
                }
                for m in self.members()
            ],
            "commands": [
                c
                for scope in (guild.id, None)
                for c in fake.commands.get(scope, [])
                if c.get("type", 1) == 1
            ],
            "refused": [
                {"kind": v.kind, "detail": v.detail} for v in getattr(fake, "violations", [])
            ],
        }

    async def messages(self, query: dict[str, Any]) -> dict[str, Any]:
        """What one member sees in one channel, oldest first."""
        member = self.member(query.get("member"))
        channel = self.channel(query.get("channel"))
        seen = self.fake.visible_to(member, channel)
        return {"messages": [self.message(message, member) for message in seen]}

    def message(self, message: FakeMessage, reader: FakeMember) -> dict[str, Any]:
        """A message as the page draws it; who ran the command it answers, if any (a
        follow-up is drawn as a reply to that answer instead)."""
        used = None
        inter = self.fake.interactions.get(message.interaction_id or 0)
        if inter is not None and inter.kind == 2 and message.reply_to is None:
            used = {"member": inter.member.name, "command": _command_path(inter.payload["data"])}
        author = self.fake.users.get(message.author.id)
        return {
            "id": str(message.id),
            "author": author.name if author else "?",
            "bot": message.author.id == self.fake.bot_user.id,
            "content": message.content,
            "embeds": message.embeds,
            "components": message.components,
            "ephemeral": message.ephemeral,
            "edited": message.edits > 0,
            "pinged": reader.id in message.pinged,
            "used": used,
            "reply": self.reply(message, reader),
        }

    def reply(self, message: FakeMessage, reader: FakeMember) -> dict[str, Any] | None:
        """What ``reader``'s client draws above a reply (a follow-up, a component's answer):
        the replied-to message's author and first line; ``deleted`` when it is gone, as "the
        sender gets the `Original message was deleted` in the reply" (discord-api-docs#2733);
        ``unloaded`` when ``reader`` cannot load it (another member's ephemeral, a deferral
        still "thinking")."""
        if message.reply_to is None:
            return None
        target = self.fake.messages.get(message.reply_to)
        if target is None or target.deleted:
            return {"deleted": True}
        if target.loading or target.visible_to not in (None, reader.id):
            return {"unloaded": True}
        author = self.fake.users.get(target.author.id)
        return {"author": author.name if author else "?", "text": preview(target.text)}

    # -- acting ----------------------------------------------------------------------------

    async def command(self, body: dict[str, Any]) -> dict[str, Any]:
        """Run ``/command`` (words for subcommands) with ``options`` given as text."""
        member, channel = self.member(body.get("member")), self.channel(body.get("channel"))
        path = " ".join(str(body.get("command", "")).split())
        options = self.options(path, body.get("options") or {})
        return self.outcome(await self.fake.slash(member, channel, path, **options))

    async def autocomplete(self, body: dict[str, Any]) -> dict[str, Any]:
        """The bot's suggestions for the option being typed."""
        member, channel = self.member(body.get("member")), self.channel(body.get("channel"))
        path = " ".join(str(body.get("command", "")).split())
        focused = str(body.get("option", ""))
        others = {k: v for k, v in (body.get("options") or {}).items() if k != focused}
        choices = await self.fake.autocomplete(
            member, channel, path, focused, str(body.get("typed", "")), **self.options(path, others)
        )
        return {"choices": choices}

    async def click(self, body: dict[str, Any]) -> dict[str, Any]:
        """Click a button (by custom id) on a message."""
        member, message = self.member(body.get("member")), self.visible(body)
        return self.outcome(await self.fake.click(member, message, str(body.get("custom_id"))))

    async def select(self, body: dict[str, Any]) -> dict[str, Any]:
        """Pick ``values`` in a select menu (by custom id) on a message."""
        member, message = self.member(body.get("member")), self.visible(body)
        values = [str(v) for v in body.get("values") or []]
        picked = await self.fake.select(member, message, str(body.get("custom_id")), values)
        return self.outcome(picked)

    async def modal(self, body: dict[str, Any]) -> dict[str, Any]:
        """Submit an open modal with its inputs' ``values`` by custom id."""
        member = self.member(body.get("member"))
        opened = self.modals.get(_number(body.get("interaction")))
        if opened is None or opened.interaction.member.id != member.id:
            raise BadRequest("That form is no longer open.")
        values = {str(k): v for k, v in (body.get("values") or {}).items()}
        submitted = await self.fake.submit_modal(member, opened, values)
        del self.modals[opened.interaction.id]
        return self.outcome(submitted)

    async def language(self, body: dict[str, Any]) -> dict[str, Any]:
        """Change the language a member's Discord client uses (``en`` or ``ko``): the
        ``locale`` of their interactions, which their private answers follow."""
        member = self.member(body.get("member"))
        wanted = _language(body)
        member.locale = LANGUAGES[wanted]
        self.fake.notify()
        return {"language": wanted}

    async def server_language(self, body: dict[str, Any]) -> dict[str, Any]:
        """Change the server's language (``en`` or ``ko``): the ``guild_locale`` of every
        interaction from now on, which public tables follow unless ``/game settings`` chose
        a language for the server."""
        wanted = _language(body)
        await self.fake.set_guild_locale(LANGUAGES[wanted])
        return {"language": wanted}

    def outcome(self, result: InteractionResult) -> dict[str, Any]:
        """What the page needs of an answer: a modal to open; the rest arrives as messages."""
        inter = result.interaction
        answer: dict[str, Any] = {"type": result.response_type}
        if result.response_type == MODAL:
            self.modals[inter.id] = result
            answer["modal"] = {"interaction": str(inter.id), **(inter.response_data or {})}
        if result.response_type is None:
            answer["failed"] = True  # Discord shows "This interaction failed"
        return answer

    # -- lookups ---------------------------------------------------------------------------

    def members(self) -> list[FakeMember]:
        """The members a visitor can be: everyone but the bot and the server's owner."""
        fake = self.fake
        hidden = (fake.bot_user.id, fake.owner.id)
        return [m for m in fake.guild.members.values() if m.id not in hidden]

    def member(self, given: object) -> FakeMember:
        found = self.fake.guild.members.get(_number(given))
        if found is None or found not in self.members():
            raise BadRequest("Choose a member of the server first.")
        return found

    def channel(self, given: object) -> FakeChannel:
        found = self.fake.channels.get(_number(given))
        if found is None:
            raise BadRequest("Choose a channel first.")
        return found

    def visible(self, body: dict[str, Any]) -> FakeMessage:
        found = self.fake.messages.get(_number(body.get("message")))
        if found is None or found.deleted:
            raise BadRequest("That message is gone.")
        return found

    def options(self, path: str, given: dict[str, Any]) -> dict[str, Any]:
        """Option values typed as text, converted by the synced command's option types."""
        definitions = {o["name"]: o for o in _options_of(self.fake, path)}
        converted: dict[str, Any] = {}
        for name, text in given.items():
            definition = definitions.get(name)
            if definition is None:
                raise BadRequest(f"/{path} has no option {name!r}.")
            converted[name] = option_value(definition, text, self.members())
        return converted

    # -- plumbing --------------------------------------------------------------------------

    def _json(self, handler: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]) -> Handler:
        async def respond(request: web.Request) -> web.StreamResponse:
            try:
                if request.method == "POST":
                    body = await request.json()
                    if not isinstance(body, dict):
                        raise BadRequest("Send a JSON object.")
                else:
                    body = dict(request.query)
                return web.json_response(await handler(body))
            except (BadRequest, UsageError, json.JSONDecodeError) as error:
                return web.json_response({"error": str(error)}, status=400)

        return respond

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return _file("index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return _file(name)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        stream = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await stream.prepare(request)
        with contextlib.suppress(ConnectionResetError, asyncio.CancelledError):
            async for _ in self._changes():
                await stream.write(b"event: change\ndata: {}\n\n")
        return stream

    async def _changes(self) -> AsyncIterator[None]:
        """Yield once now and then after every change (or a heartbeat when idle)."""
        fake = self.fake
        seen = -1
        while True:
            if fake.changes != seen:
                seen = fake.changes
                yield
            with contextlib.suppress(TimeoutError):
                await fake.wait_for(partial(_changed_since, fake, seen), HEARTBEAT_SECONDS)


def _changed_since(fake: FakeDiscord, seen: int) -> bool:
    return fake.changes != seen


def option_value(definition: dict[str, Any], text: object, members: list[FakeMember]) -> Any:
    """A typed option value as Discord's client would send it: integers, numbers, true or
    false, a member by name or id; text as it is. ``BadRequest`` says what is wrong."""
    kind = definition.get("type")
    name = definition.get("name", "")
    raw = str(text).strip()
    for choice in definition.get("choices") or []:
        localized = (choice.get("name_localizations") or {}).values()
        if raw in (choice.get("name"), *localized, str(choice.get("value"))):
            return choice["value"]
    try:
        if kind == 4:
            return int(raw)
        if kind == 10:
            return float(raw)
    except ValueError:
        raise BadRequest(f"{name}: type a number.") from None
    if kind == 5:
        if raw.lower() in ("true", "yes", "1", "on"):
            return True
        if raw.lower() in ("false", "no", "0", "off"):
            return False
        raise BadRequest(f"{name}: type true or false.")
    if kind in (6, 9):
        wanted = raw.removeprefix("@").removeprefix("<@").removesuffix(">").lower()
        for member in members:
            if wanted in (member.name.lower(), str(member.id)):
                return member
        raise BadRequest(f"{name}: no member called {raw!r}.")
    return str(text)


def preview(text: str) -> str:
    """A message's first line of text as a reply header shows it: code fences and colour
    codes left out, at most :data:`REPLY_PREVIEW` characters."""
    for raw in _ANSI.sub("", text).splitlines():
        line = raw.strip()
        if _FENCE.match(line):
            continue
        line = line.replace("```", "").strip()
        if line:
            return line if len(line) <= REPLY_PREVIEW else line[: REPLY_PREVIEW - 1] + "…"
    return ""


def _options_of(fake: FakeDiscord, path: str) -> list[dict[str, Any]]:
    words = path.split()
    for scope in (fake.guild.id, None):
        for command in fake.commands.get(scope, []):
            if words and command.get("name") == words[0]:
                options: list[dict[str, Any]] = command.get("options") or []
                for word in words[1:]:
                    sub = next((o for o in options if o.get("name") == word), None)
                    options = (sub or {}).get("options") or []
                return options
    raise BadRequest(f"/{path} is not a command of this bot.")


def _language(body: dict[str, Any]) -> str:
    wanted = str(body.get("language", ""))
    if wanted not in LANGUAGES:
        raise BadRequest(f"Unknown language {wanted!r}: en or ko.")
    return wanted


def _command_path(data: dict[str, Any]) -> str:
    words = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        words.append(str(options[0].get("name", "")))
        options = options[0].get("options") or []
    return " ".join(words)


async def _no_content(request: web.Request) -> web.Response:
    return web.Response(status=204)


def _number(given: object) -> int:
    try:
        return int(str(given))
    except ValueError:
        return 0


def _file(name: str) -> web.Response:
    body = resources.files("bot.sandbox").joinpath("static", name).read_bytes()
    suffix = name.rsplit(".", 1)[-1]
    return web.Response(body=body, content_type=_TYPES[suffix], charset="utf-8")
