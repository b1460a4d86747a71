"""The throwaway discord.py bot that proves the fake Discord (tests/e2e/test_fakediscord.py):
one command per thing the fake has to get right (options of every kind, a subcommand group,
buttons, a select menu, autocomplete, a modal, channel messages, slow and missing answers),
and :data:`OVERFLOWS`, bodies Discord refuses that discord.py would not send on its own."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands

__all__ = ["FRUIT", "OVERFLOWS", "Toy"]


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"toy:count:(?P<n>\d+)"):
    """A button whose count lives in its custom_id, so it survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Add ({n})", custom_id=f"toy:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class Toy(discord.Client):
    """The throwaway bot: one command per thing the fake has to get right."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id
        self.errors: list[discord.HTTPException] = []
        self.seen_locales: list[str] = []
        self.seen_permissions: list[bool] = []
        self.slow_seconds = 0.0
        self._define()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    def _define(self) -> None:
        tree = self.tree

        @tree.command(description="Answer pong")
        async def ping(interaction: discord.Interaction) -> None:
            self.seen_locales.append(str(interaction.locale))
            perms = interaction.permissions
            self.seen_permissions.append(perms.manage_messages)
            await interaction.response.send_message("pong")

        @tree.command(description="A button that counts")
        async def counter(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(0))
            await interaction.response.send_message("count 0", view=view)

        @tree.command(description="A select menu")
        async def pick(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id="toy:pick",
                placeholder="Choose fruit",
                max_values=2,
                options=[discord.SelectOption(label=f, value=f) for f in FRUIT],
            )

            async def chosen(inner: discord.Interaction) -> None:
                picked = ", ".join(select.values)
                await inner.response.send_message(f"picked {picked}", ephemeral=True)

            select.callback = chosen  # type: ignore[method-assign,assignment]
            view.add_item(select)
            await interaction.response.send_message("pick", view=view)

        deck = app_commands.Group(name="toy", description="Nested commands")
        cards = app_commands.Group(name="deck", description="A subcommand group", parent=deck)

        @cards.command(name="draw", description="Draw cards, privately")
        @app_commands.describe(count="how many")
        async def draw(
            interaction: discord.Interaction, count: app_commands.Range[int, 1, 5]
        ) -> None:
            await interaction.response.send_message(f"you drew {count} cards: ♠A", ephemeral=True)

        @deck.command(name="fruit", description="Autocompleted option")
        async def fruit(interaction: discord.Interaction, name: str) -> None:
            await interaction.response.send_message(f"fruit {name}")

        @fruit.autocomplete("name")
        async def fruit_names(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f, value=f) for f in FRUIT if f.startswith(current)]

        tree.add_command(deck)

        @tree.command(description="Post, edit and delete a channel message")
        async def temp(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            assert interaction.channel is not None
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            message = await channel.send("draft")
            await message.edit(content="final")
            second = await channel.send("to delete")
            await second.delete()
            await interaction.followup.send("done", ephemeral=True)

        @tree.command(description="Post in the channel after answering")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("posting", ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("posted")

        @tree.command(description="Send something Discord refuses, then recover")
        @app_commands.choices(kind=[app_commands.Choice(name=k, value=k) for k in OVERFLOWS])
        async def overflow(interaction: discord.Interaction, kind: str) -> None:
            try:
                await interaction.response.send_message(**OVERFLOWS[kind]())
            except discord.HTTPException as exc:
                self.errors.append(exc)
                await interaction.response.send_message("refused", ephemeral=True)

        @tree.command(description="Mention a member, pinging them or not")
        async def mention(
            interaction: discord.Interaction, member: discord.Member, quiet: bool
        ) -> None:
            none = discord.AllowedMentions.none()
            extra: dict[str, Any] = {"allowed_mentions": none} if quiet else {}
            await interaction.response.send_message(f"hello {member.mention}", **extra)

        @tree.command(description="Every kind of option a member can pass")
        async def kinds(  # noqa: PLR0917 - one parameter per option kind, as Discord sends them
            interaction: discord.Interaction,
            role: discord.Role,
            user: discord.User,
            channel: discord.TextChannel,
            mentionable: discord.Role | discord.Member,
            number: float,
            flag: bool,
        ) -> None:
            assert isinstance(interaction.user, discord.Member)
            seen = [
                f"role {role.name} {role.id}",
                f"user {type(user).__name__} {user.name}",
                f"channel {channel.name}",
                f"mentionable {type(mentionable).__name__} {mentionable.id}",
                f"number {number!r}",
                f"flag {flag!r}",
                "my roles " + ",".join(r.name for r in interaction.user.roles),
            ]
            await interaction.response.send_message("\n".join(seen), ephemeral=True)

        @tree.command(description="Ask for a note in a modal")
        async def note(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NoteModal())

        @tree.command(description="Answer slowly")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.slow_seconds)
            try:
                await interaction.response.send_message("late")
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @tree.command(description="Never answer")
        async def ignore(interaction: discord.Interaction) -> None:
            return


FRUIT = ["apple", "apricot", "banana", "cherry"]


class NoteModal(discord.ui.Modal, title="Leave a note"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Note", custom_id="toy:note", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.text.value}", ephemeral=True)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def _rows(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for i in range(n):
        view.add_item(discord.ui.Button(label=str(i), custom_id=f"r{i}", row=i % 5))
    return view


class _SixRows(discord.ui.View):
    """discord.py itself refuses a sixth row, so this view smuggles one past it."""

    def to_components(self) -> list[dict[str, Any]]:
        return [
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": str(i), "custom_id": f"six{i}"}],
            }
            for i in range(6)
        ]


class _SixInARow(discord.ui.View):
    """discord.py itself refuses a sixth button in a row, so this view smuggles one past it."""

    def to_components(self) -> list[dict[str, Any]]:
        buttons = [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"} for i in range(6)]
        return [{"type": 1, "components": buttons}]


def _select_26() -> dict[str, Any]:
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id="many", options=[discord.SelectOption(label=str(i)) for i in range(25)]
    )
    # discord.py refuses a 26th option itself; go around it to reach the fake.
    select._underlying.options.append(discord.SelectOption(label="25"))
    return {"content": "many", "view": _view(select)}


OVERFLOWS: dict[str, Any] = {
    "content": lambda: {"content": "x" * 2001},
    "embed": lambda: {"embed": discord.Embed(description="y" * 4097)},
    "rows": lambda: {"content": "rows", "view": _SixRows(timeout=None)},
    "buttons": lambda: {"content": "buttons", "view": _SixInARow(timeout=None)},
    "options": _select_26,
    "custom_id": lambda: {
        "content": "id",
        "view": _view(discord.ui.Button(label="ok", custom_id="c" * 101)),
    },
    "label": lambda: {
        "content": "label",
        "view": _view(discord.ui.Button(label="l" * 81, custom_id="label")),
    },
}
