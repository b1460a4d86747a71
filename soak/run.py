"""One soak run: the fake Discord, the bot process, the members of every channel playing
until the time is up while faults come on their schedule; at each kill, with the bot dead,
the store is checked against what the bot showed; at the end the bot is started once more
and must restore every stored game.

:func:`run_soak` is the whole run; it returns the summary (:func:`soak.report.summary`).
The run on PostgreSQL has a schema of its own, dropped at the end.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.fakediscord import FakeDiscord, InteractionResult
from bot.fakediscord.ratelimits import DISCORD_ROUTE_LIMITS
from cogs.common.ids import version_of as version_of_id
from soak.faults import Faults, FaultSchedule, Relay
from soak.members import GAMES, Members
from soak.process import BotProcess, log_conflicts, log_errors, log_stalls
from soak.report import Tally, summary
from soak.store import drop_schema, fresh_schema, stored_games
from soak.witness import Witness

__all__ = ["BOT_SETTINGS", "Options", "Soak", "run_soak"]

COMPONENT = 3  # an interaction's type: a button clicked or a menu picked in
# The bot's settings for a soak: short turns, so timers fire (and meet the faults) within a
# short run, and computers that answer soon.
BOT_SETTINGS = {
    "COMPUTER_DELAY_SECONDS": "0.2",
    "DEFAULT_TURN_SECONDS": "6",
    "BLACKJACK_TURN_SECONDS": "6",
}


@dataclass
class Options:
    """What a run is asked for: how long, how many channels (each with three members), the
    seed of every random choice, the store (SQLite in a temporary folder unless
    ``database_url`` names a PostgreSQL server) and whether Discord's rate limits apply."""

    minutes: float = 1.0
    channels: int = len(GAMES)
    seed: int = 1
    database_url: str | None = None
    rate_limits: bool = True


class Soak:
    """One run in ``fake``, its files in ``workdir``; :meth:`run` plays it."""

    def __init__(self, options: Options, fake: FakeDiscord, workdir: Path) -> None:
        self.options = options
        self.seed = options.seed
        self.games = GAMES
        self.fake = fake
        self.tally = Tally()
        self.witness = Witness(fake, self.tally)
        # One generator for the chaos's pauses, the faults' order and their details.
        self.rng = random.Random(options.seed)
        self.schedule = FaultSchedule(self.rng)
        self.database_url = options.database_url or f"sqlite:///{workdir / 'soak.db'}"
        # PostgreSQL: the bot reaches it through a relay the faults cut (Relay).
        self.relay = None if options.database_url is None else Relay(self.database_url)
        self.faults = Faults(fake, self.rng, self.database_url, self.relay, self.tally.faults)
        settings = {**BOT_SETTINGS, "DEV_GUILD_ID": str(fake.guild.id)}
        self.bot = BotProcess(fake, self.database_url, workdir / "bot.log", settings)
        self.running = asyncio.Event()
        self.sent: list[InteractionResult] = []
        self.notes: list[str] = []
        self.excused: list[tuple[float, float]] = []  # fake loop times: kill .. ready
        self.excused_count = 0  # interactions a kill left unanswered
        self.moderator = fake.add_member("mod", moderator=True)
        self.channels: list[Members] = []
        for i in range(options.channels):
            channel = fake.add_channel(f"soak-{i}")
            members = [
                fake.add_member(f"p{i}{j}", locale="ko" if j == 1 else "en-US") for j in range(3)
            ]
            self.channels.append(Members(self, channel, members, i))

    async def run(self) -> None:
        """Play until the time is up, kill and check a last time, restart once more."""
        if self.relay is not None:
            await self.relay.open()
            self.bot.database_url = self.relay.url
        await self.bot.start()
        self.running.set()
        until = asyncio.get_running_loop().time() + self.options.minutes * 60
        players = [asyncio.create_task(members.play(until)) for members in self.channels]
        chaos = asyncio.create_task(self.chaos(until))
        await asyncio.gather(*players)
        # The schedule ends by itself after its current fault (never cut in a kill's middle).
        await chaos
        self.running.set()
        await self.quiet()
        # The last kill, checked like the others; then a last start restores every game.
        await self.kill_and_check(restart=False)
        # Finished tables kept for "Deal again" are not games to go on with.
        stored = await stored_games(self.database_url)
        rows = {c: r for c, r in stored.items() if not r[1].get("finished_at")}
        before = self.bot.log_text().count(" ready as ")
        await self.bot.start()
        assert self.bot.log_text().count(" ready as ") > before
        restored = re.findall(r"restored (\d+) game\(s\)", self.bot.log_text())
        if restored and int(restored[-1]) < len(rows):
            self.tally.stuck.append(f"{len(rows)} stored, {restored[-1]} restored")
        await self.quiet()
        await self.bot.stop()
        if self.relay is not None:
            await self.relay.close()

    async def quiet(self) -> None:
        """Let answers in flight and computer moves settle."""
        await asyncio.sleep(4.0)

    async def chaos(self, until: float) -> None:
        """A fault every few seconds, as the schedule orders them, until ``until``."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.rng.uniform(2.0, 6.0))
            if loop.time() > until:
                return
            kind = self.schedule.next()
            if kind == "kill":
                self.tally.faults[kind] += 1
                await self.kill_and_check(restart=True)
            else:
                await self.faults.inject(kind)

    async def kill_and_check(self, *, restart: bool) -> None:
        """SIGKILL the bot, check nothing it acknowledged is missing from the store, restart."""
        self.running.clear()
        killed_at = self.fake.loop_time()
        await self.bot.kill()
        self.tally.kills += 1
        rows = await stored_games(self.database_url)
        for channel_id, (version, message_id) in self.witness.shown.items():
            stored = rows.get(channel_id)
            if stored is None:
                if not self.witness.ended_after(
                    channel_id, message_id
                ) and not self.end_cut_by_kill(channel_id, killed_at):
                    shown = self.witness.public.get((channel_id, version), "").splitlines()
                    self.tally.moves_lost.append(
                        f"channel {channel_id}: version {version} was shown (message "
                        f"{message_id}: {shown[0][:80] if shown else ''!r}), nothing is stored"
                    )
            elif stored[0] < version:
                self.tally.moves_lost.append(
                    f"channel {channel_id}: version {version} was shown, {stored[0]} is stored"
                )
        if restart:
            await self.bot.start()
            self.excused.append((killed_at, self.fake.loop_time()))
            self.running.set()
        else:
            self.excused.append((killed_at, float("inf")))

    def end_cut_by_kill(self, channel_id: int, killed_at: float) -> bool:
        """Whether the kill caught in flight an interaction that may have ended this channel's
        game (a /game end here, a list's End naming it, a host's leave, a last move): written,
        then never announced, as no bot can help. That includes an end answered in private
        just before the kill, whose table is the bot's post after that answer (a move from a
        private message, a moderator's end); a look at a hand or a refusal is no excuse. A
        lost move shows as an older version stored; only an end leaves nothing, so nothing
        else is excused by this."""
        since = killed_at - self.fake.deadline - 1
        return any(
            since <= inter.created <= killed_at
            and (not inter.completed.is_set() or _answered_before_its_table(inter))
            and (inter.channel.id == channel_id or str(channel_id) in json.dumps(inter.payload))
            for inter in self.fake.interactions.values()
        )

    def violations(self) -> list[str]:
        """The fake's violations, minus interactions a kill caught in flight or while down."""
        self.fake._check_unanswered()
        deadline = self.fake.deadline
        found = []
        self.excused_count = 0
        for v in self.fake.violations:
            inter = self.fake.interactions.get(v.interaction_id or 0)
            lost = v.kind in ("no-response", "no-followup", "late-response")
            if (
                inter is not None
                and lost
                and any(start - deadline - 1 <= inter.created <= end for start, end in self.excused)
            ):
                self.excused_count += 1
                continue
            found.append(str(v))
        return found

    def double_clicks(self) -> list[str]:
        """Buttons (one version each) acknowledged in public more than once."""
        by_button: dict[str, int] = {}
        for result in self.sent:
            inter = result.interaction
            if inter.kind != COMPONENT or result.ephemeral or not result.messages:
                continue
            custom_id = str(inter.payload["data"].get("custom_id", ""))
            # /game list's End buttons name another channel's table: any member may press one.
            if version_of_id(custom_id) is not None and ":end_listed" not in custom_id:
                by_button[custom_id] = by_button.get(custom_id, 0) + 1
        return [
            f"{custom_id} acknowledged {count} times"
            for custom_id, count in by_button.items()
            if count > 1
        ]

    def errors(self) -> list[str]:
        """The bot log's errors (:func:`soak.process.log_errors`)."""
        return log_errors(self.bot.log_text())

    def stalls(self) -> list[str]:
        """The bot log's tables that took over 5 s to go out (:func:`soak.process.log_stalls`)
        while Discord was not failing: a table waiting on Discord's own slow or failed
        answers (a fault injected while it waited) is no stall of the bot's making."""
        return [
            line
            for line, ended, waited in log_stalls(self.bot.log_text())
            if not any(ended - waited - 1 <= at <= ended + 1 for at in self.faults.times)
        ]

    def conflicts(self) -> list[str]:
        """The bot log's version conflicts (:func:`soak.process.log_conflicts`)."""
        return log_conflicts(self.bot.log_text())


async def run_soak(options: Options) -> dict[str, Any]:
    """Run a soak as ``options`` say; its summary (:func:`soak.report.summary`)."""
    workdir = Path(tempfile.mkdtemp(prefix="deckhand-soak-"))
    server_url = options.database_url
    schema = None
    if server_url:
        schema = f"soak_{secrets.token_hex(4)}"
        options = replace(options, database_url=await fresh_schema(server_url, schema))
    try:
        async with FakeDiscord(guild_name="Soak") as fake:
            if options.rate_limits:  # Discord's: the global 50/s and a channel's 5 messages / 5 s
                fake.limits.route_limits.update(DISCORD_ROUTE_LIMITS)
            else:
                fake.limits.global_per_second = None
            run = Soak(options, fake, workdir)
            started = time.monotonic()
            try:
                await run.run()
            finally:
                if run.bot.process is not None:
                    await run.bot.kill()
            return summary(run, time.monotonic() - started)
    finally:
        if schema is not None and server_url:
            await drop_schema(server_url, schema)


# What a member or moderator may end a game with, answered in private before the table.
_ENDING_COMMANDS = {"game": ("end", "kick")}
_ENDING_ACTIONS = ("end_listed", "leave", "cancel")


def _answered_before_its_table(inter: Any) -> bool:
    """Whether ``inter`` was an end answered in private first, its table posted after: a
    move from a private message (answered by editing it), or an ending command or click
    answered ephemerally."""
    original = inter.original
    if original is None or not original.ephemeral:
        return False
    if inter.response_type == 7:
        return True
    data = inter.payload.get("data", {})
    action = str(data.get("custom_id", "")).rsplit(":", 1)[-1]
    options = data.get("options") or [{}]
    ending = _ENDING_COMMANDS.get(str(data.get("name")), ())
    return options[0].get("name") in ending or action in _ENDING_ACTIONS
