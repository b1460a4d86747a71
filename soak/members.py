"""The simulated members: each channel's three members (one in Korean) playing one game at a
time, the games taken in turn (:data:`GAMES`), at random: buttons, hand menus, slash commands
with legal and illegal arguments, out of turn, stale buttons, double clicks, leaving and
joining; and a moderator who ends tables and kicks players.

A game is played as its adapter's :class:`~bot.games.SoakStrategy` says (how to start it,
which slash moves a member may try); its buttons and hand menus are played without knowing it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any

from bot.fakediscord import FakeChannel, FakeMember, FakeMessage, InteractionResult, UsageError
from bot.games import AUTOCOMPLETE, GameCatalog, SoakStrategy
from bot.i18n import t
from soak.witness import SELECT, actions_of

if TYPE_CHECKING:
    from soak.run import Soak

__all__ = ["GAMES", "STRATEGIES", "Members"]

# How a random member plays each game: its adapter's own SoakStrategy (the options of
# /<game> start and the slash moves to try), in the games' order.
STRATEGIES: dict[str, SoakStrategy] = {game.name: game.soak for game in GameCatalog.discover()}
GAMES = tuple(STRATEGIES)
NO_GAME = {t("error.no_game", lang) for lang in ("en", "ko")}


class Members:
    """One channel's members and the game they play there now (``index``: the channel's
    place, which decides its first game and seeds its members' choices)."""

    def __init__(
        self,
        soak: Soak,
        channel: FakeChannel,
        members: list[FakeMember],
        index: int,
    ) -> None:
        self.soak = soak
        self.fake = soak.fake
        self.channel = channel
        self.members = members
        self.rng = random.Random(soak.seed * 1000 + index)
        self.game_index = index
        self.game = GAMES[index % len(GAMES)]
        self.old_tables: list[FakeMessage] = []
        # Refusals in a row saying no game runs here: a kill left an ended game's table with
        # its buttons (nobody stripped them), so members open a new one as people would.
        self.no_game = 0

    @property
    def strategy(self) -> SoakStrategy:
        """How the game played here now is played."""
        return STRATEGIES[self.game]

    def live_table(self) -> FakeMessage | None:
        """The channel's newest public message of the bot's with buttons."""
        tables = [
            m
            for m in self.fake.public_messages(self.channel)
            if m.author.id == self.fake.bot_user.id and m.buttons
        ]
        return tables[-1] if tables else None

    async def send(self, action: Awaitable[InteractionResult]) -> InteractionResult | None:
        """Send one interaction; count how it was answered."""
        tally = self.soak.tally
        try:
            result = await action
        except UsageError:
            tally.not_sent += 1
            return None
        tally.interactions += 1
        if result.text in NO_GAME:
            self.no_game += 1
        if result.messages and not result.ephemeral:
            self.no_game = 0
            tally.acknowledged += 1
        elif result.response_type is not None:
            tally.refused += 1
        self.soak.sent.append(result)
        return result

    async def play(self, until: float) -> None:
        """Act, again and again, until the loop's time ``until`` (waiting out each kill)."""
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            await self.soak.running.wait()
            try:
                await self.step()
            except (TimeoutError, RuntimeError) as error:
                # The bot was killed under this action: the member saw "interaction failed".
                self.soak.notes.append(f"{self.channel.name}: {type(error).__name__}")
            await asyncio.sleep(self.rng.uniform(0.05, 0.4))

    async def step(self) -> None:
        """One member's action (or two at once, for a double click)."""
        rng = self.rng
        game = self.game
        member = rng.choice(self.members)
        table = self.live_table()
        actions = actions_of(table) if table is not None else {}
        stale = self.no_game >= 3
        if table is None or stale or ("again" in actions and rng.random() < 0.3):
            self.no_game = 0
            # Each new table plays the next game in turn.
            self.game_index += 1
            game = self.game = GAMES[self.game_index % len(GAMES)]
            options = self.strategy.start(rng)
            await self.send(self.fake.slash(member, self.channel, f"{game} start", **options))
            return
        # Mostly the member the table pinged (whose turn it is) acts; anyone may, though.
        turn = next((m for m in self.members if m.id in table.pinged), None)
        if turn is not None and rng.random() < 0.7:
            member = turn
        for action in ("join", "start", "again"):
            # A finished table offers nothing else but "Deal again" (or a new game above).
            chance = 0.9 if action == "again" else 0.5
            if action in actions and rng.random() < chance:
                await self.click(member, table, actions[action])
                return
        snapshot = table.snapshot()
        self.old_tables = [*self.old_tables[-4:], snapshot]
        moderator = self.soak.moderator
        roll = rng.random()
        if roll < 0.45:
            # Leaving and cancelling rarely, or no game would last.
            calm = [label for a, label in actions.items() if a not in ("leave", "cancel")]
            pool = calm if calm and rng.random() < 0.85 else table.button_labels
            await self.click(member, table, rng.choice(pool))
        elif roll < 0.55:  # a double click: the same button twice at once
            label = rng.choice(table.button_labels)
            await asyncio.gather(self.click(member, table, label), self.click(member, table, label))
        elif roll < 0.62 and len(self.old_tables) > 1:  # a client that did not refresh
            old = rng.choice(self.old_tables[:-1])
            if old.button_labels:
                label = rng.choice(old.button_labels)
                await self.send(self.fake.click(member, old, label, stale=True))
        elif roll < 0.85 and self.strategy.moves:
            await self.slash_move(member, *rng.choice(self.strategy.moves))
        elif roll < 0.92 and self.strategy.join:
            verb = rng.choice(("join", "leave"))
            await self.send(self.fake.slash(member, self.channel, f"{game} {verb}"))
        elif roll < 0.96:
            victim = rng.choice(self.members)
            await self.send(self.fake.slash(moderator, self.channel, "game kick", member=victim))
        elif roll < 0.98:
            await self.send(self.fake.slash(moderator, self.channel, "game end"))
        else:
            await self.send(self.fake.slash(moderator, self.channel, "game list"))

    async def click(self, member: FakeMember, table: FakeMessage, label: str) -> None:
        """Click; a hand that comes back with a menu is played from, menu after menu."""
        result = await self.send(self.fake.click(member, table, label))
        for _ in range(3):
            if result is None or not result.ephemeral or result.message is None:
                return
            shown = result.message
            menus = [c for c in shown.items() if c.get("type") == SELECT and not c.get("disabled")]
            if not menus or self.rng.random() < 0.1:
                return
            menu = menus[0]
            values = [str(o["value"]) for o in menu.get("options", [])]
            if not values:
                return
            picked = self.rng.choice(values)
            result = await self.send(self.fake.select(member, shown, menu["custom_id"], [picked]))

    async def slash_move(self, member: FakeMember, verb: str, options: Mapping[str, Any]) -> None:
        """``/<game> <verb>`` with ``options`` filled in (a strategy's move)."""
        game = self.game
        chosen: dict[str, Any] = {}
        for name, value in options.items():
            if value is AUTOCOMPLETE:
                choices = await self.fake.autocomplete(
                    member, self.channel, f"{game} {verb}", name, ""
                )
                if not choices:
                    return
                chosen[name] = self.rng.choice(choices)["value"]
            elif isinstance(value, tuple):
                chosen[name] = self.rng.choice(value)
            else:
                chosen[name] = value
        await self.send(self.fake.slash(member, self.channel, f"{game} {verb}", **chosen))
