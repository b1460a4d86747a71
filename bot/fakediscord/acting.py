"""A member's hands in the fake Discord: what a person can do in Discord's client, each sent
to the bot as the interaction Discord would send.

A member runs a slash command (its options checked and resolved as the client does before
sending), types into an autocompleted option, clicks a button, picks in a select menu or fills
in a modal; :class:`InteractionResult` holds what came of it. Asking for something the client
would not let a person do raises :class:`UsageError`: a mistake in the test, not the bot.

Each act takes the fake first and is a method of :class:`~.server.FakeDiscord`
(``await discord.slash(alice, channel, "uno start")``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .model import (
    MEMBER_PERMISSIONS,
    FakeChannel,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Interaction,
    Violation,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = [
    "InteractionResult",
    "UsageError",
    "autocomplete",
    "click",
    "new_interaction",
    "select",
    "slash",
    "submit_modal",
]

APPLICATION_COMMAND = 2
COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
DEFERRED_UPDATE = 6  # a response type: acknowledge a component, edit its message later


class UsageError(ValueError):
    """The test asked for something a Discord user could not do (a typo, a disabled button)."""


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
        """The message the initial response created or updated (current state); after a
        deferred update (6), which changed none, the first follow-up, the member's answer."""
        inter = self.interaction
        if inter.response_type == DEFERRED_UPDATE:
            return inter.followups[0] if inter.followups else None
        return inter.original

    @property
    def followups(self) -> list[FakeMessage]:
        return list(self.interaction.followups)

    @property
    def messages(self) -> list[FakeMessage]:
        """Every message this interaction created or updated, the response first (a deferred
        update, 6, made none: its original is the component's message, unchanged)."""
        inter = self.interaction
        original = inter.original if inter.response_type != DEFERRED_UPDATE else None
        return [*([original] if original else []), *inter.followups]

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


def new_interaction(
    discord: FakeDiscord,
    kind: int,
    member: FakeMember,
    channel: FakeChannel,
    data: dict[str, Any],
    *,
    message: FakeMessage | None = None,
) -> Interaction:
    """An interaction of ``kind`` from ``member`` in ``channel`` as Discord builds it (the
    member's and the bot's permissions there, both locales), remembered by id and token."""
    guild = discord.guilds[channel.guild_id]
    inter_id = discord.ids.next()
    token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(24)
    payload: dict[str, Any] = {
        "id": str(inter_id),
        "application_id": str(discord.application_id),
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
        "app_permissions": str(guild.permissions_of(guild.members[discord.bot_user.id], channel)),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
        "data": data,
    }
    if message is not None:
        payload["message"] = message.payload()
    inter = Interaction(inter_id, token, kind, member, channel, payload, discord.loop_time())
    discord.interactions[inter_id] = inter
    discord.by_token[token] = inter
    return inter


async def _send(
    discord: FakeDiscord, inter: Interaction, *, settle: float = 5.0
) -> InteractionResult:
    """Send ``inter`` to the bot and wait for its answer as Discord does: an initial response
    within the deadline, and a deferred one completed within ``settle`` seconds."""
    delivered = await discord.gateway.dispatch_guild(
        inter.channel.guild_id, "INTERACTION_CREATE", inter.payload
    )
    if not delivered:
        raise RuntimeError("no bot is connected to the fake Discord gateway")
    wait = discord.deadline + 0.5 - (discord.loop_time() - inter.created)
    try:
        await asyncio.wait_for(inter.responded.wait(), max(0.0, wait))
    except TimeoutError:
        if not inter.refusals:
            discord.violation(
                "no-response",
                f"no initial response within {discord.deadline:g} s (the member saw "
                "'This interaction failed')",
                interaction=inter,
            )
        return InteractionResult(discord, inter)
    if inter.response_type == DEFERRED_UPDATE:  # the bot may say nothing more: no fault
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(inter.completed.wait(), settle)
    elif inter.response_type == 5:
        try:
            await asyncio.wait_for(inter.completed.wait(), settle)
        except TimeoutError:
            discord.violation(
                "no-followup",
                "a deferred response never completed (the member saw 'thinking...' forever)",
                interaction=inter,
            )
    return InteractionResult(discord, inter)


def _command(discord: FakeDiscord, path: str, guild_id: int) -> tuple[dict[str, Any], list[str]]:
    words = path.split()
    if not words:
        raise UsageError("empty command")
    for scope in (guild_id, None):
        for cmd in discord.commands.get(scope, []):
            if cmd.get("type", 1) == 1 and cmd["name"] == words[0]:
                return cmd, words[1:]
    known = sorted({c["name"] for cs in discord.commands.values() for c in cs})
    raise UsageError(f"/{words[0]} was not synced by the bot (synced: {known})")


def _command_data(
    discord: FakeDiscord,
    path: str,
    guild_id: int,
    values: dict[str, Any],
    focused: str | None = None,
) -> dict[str, Any]:
    cmd, rest = _command(discord, path, guild_id)
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
            given.append({"name": name, "type": opt["type"], "value": str(value), "focused": True})
            continue
        given.append(
            {
                "name": name,
                "type": opt["type"],
                "value": _option_value(discord, path, opt, value, resolved),
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
    discord: FakeDiscord,
    path: str,
    opt: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
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
            guild = discord.guilds[value.guild_id]
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
    discord: FakeDiscord, member: FakeMember, channel: FakeChannel, command: str, /, **options: Any
) -> InteractionResult:
    """``member`` runs ``/command`` (words for subcommand groups) with ``options``."""
    data = _command_data(discord, command, channel.guild_id, options)
    return await _send(
        discord, new_interaction(discord, APPLICATION_COMMAND, member, channel, data)
    )


async def autocomplete(  # noqa: PLR0917 - a FakeDiscord method: discord is its self
    discord: FakeDiscord,
    member: FakeMember,
    channel: FakeChannel,
    command: str,
    option: str,
    typed: str,
    **others: Any,
) -> list[dict[str, Any]]:
    """What the bot suggests to ``member`` typing ``typed`` into ``option``."""
    data = _command_data(
        discord, command, channel.guild_id, {**others, option: typed}, focused=option
    )
    result = await _send(discord, new_interaction(discord, AUTOCOMPLETE, member, channel, data))
    return result.choices


def _visible_message(
    discord: FakeDiscord, member: FakeMember, message: FakeMessage, stale: bool
) -> FakeMessage:
    current = discord.messages.get(message.id)
    if current is None or current.deleted:
        raise UsageError("the message is gone; nobody can click it")
    if current.visible_to is not None and current.visible_to != member.id:
        raise UsageError(f"{member.name} cannot see this ephemeral message")
    return message if stale else current


async def click(
    discord: FakeDiscord,
    member: FakeMember,
    message: FakeMessage,
    button: str,
    *,
    stale: bool = False,
) -> InteractionResult:
    """``member`` clicks the button labelled ``button`` (or with that custom_id).

    The button is looked up on the message as it is now; ``stale=True`` uses ``message``
    as given (a snapshot), as a member whose client has not refreshed yet would.
    """
    shown = _visible_message(discord, member, message, stale)
    found = [b for b in shown.buttons if b.get("label") == button]
    found = found or [b for b in shown.buttons if b.get("custom_id") == button]
    if not found:
        raise UsageError(f"no button {button!r} on the message (buttons: {shown.button_labels})")
    target = found[0]
    if target.get("disabled"):
        raise UsageError(f"the button {button!r} is disabled")
    if target.get("style") == 5:
        raise UsageError("a link button sends no interaction")
    data = {"custom_id": target["custom_id"], "component_type": 2}
    channel = discord.channels[shown.channel_id]
    return await _send(
        discord, new_interaction(discord, COMPONENT, member, channel, data, message=shown)
    )


async def select(
    discord: FakeDiscord,
    member: FakeMember,
    message: FakeMessage,
    select: str,
    values: Iterable[str],
    *,
    stale: bool = False,
) -> InteractionResult:
    """``member`` picks ``values`` in the select menu with this custom_id or placeholder."""
    shown = _visible_message(discord, member, message, stale)
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
    channel = discord.channels[shown.channel_id]
    return await _send(
        discord, new_interaction(discord, COMPONENT, member, channel, data, message=shown)
    )


async def submit_modal(
    discord: FakeDiscord, member: FakeMember, shown: InteractionResult, values: dict[str, Any]
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
    submitted = new_interaction(discord, MODAL_SUBMIT, member, inter.channel, data)
    submitted.opener = inter  # its messages' triggering_interaction_metadata
    if message is not None:
        submitted.payload["message"] = message
    return await _send(discord, submitted)
