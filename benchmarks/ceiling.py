"""How many tables Deckhand holds under Discord's own ceiling: N tables played at
a human pace through the fake Discord with Discord's rate limits on, N raised until the bot
falls behind, for today's design and the new one in the same run.

    python -m benchmarks.ceiling [--tables 50,100,200,...] [--seconds S] [--json OUT.json]

The fake Discord (this process) enforces the global 50 requests a second on counted routes
(all but the interaction endpoints) and the per-route buckets (``DISCORD_ROUTE_LIMITS``). The
bot runs as ``python -m bot run`` (the soak's :class:`soak.process.BotProcess`) in one of two
deployments: one process on SQLite, or two processes on PostgreSQL (``SHARD_COUNT=2``,
``SHARD_IDS=0`` and ``1``, one fresh schema), each spending its share of the 50 through its
request budget. Each is measured with today's design (``SPEAK_THROUGH_INTERACTIONS=false``:
computer moves, timeouts and reminders posted, and old tables stripped, with the bot's token)
and the new one (through members' interactions), both at every step, one after the other.

The tables (``benchmarks/ceiling_tables.py``): every game in turn, each in its own channel,
dealt round guilds of up to 25 whose ids alternate between the two shards; a third have
computer seats (one member each), one in nine is in a guild whose owner set ``/game settings
turn_seconds:10`` and whose members let every other turn of theirs run out, the rest are
members only. A table's members move every ``--pace`` seconds on average (uniform from half
to one and a half of it; sooner on a timeout table, so its member's turns between timeouts
meet no reminder) when the table names them: mostly Hand, then a pick from its menu (or its
buttons), sometimes a button of the table; "Deal again" when a game is over. Computers wait
``--computer-delay`` (the bot's default, 1 s) before they move.

At each step the tables are opened and play ``--warmup`` seconds unmeasured, then
``--seconds`` measured. A step **holds** when, over the measured window:

- p99 of a member's move (the click or pick that makes it) to its new table reaching the
  fake (the interaction's answer) is at most 1 s;
- p99 of the computers' reply lag is at most 1 s: at a computer table, the computers' table
  after a member's move reaches the fake more than ``--computer-delay`` after that move's
  table. Today's design posts it with the bot's token, so when the budget of 50 a second is
  spent it queues: members wait on the computers, not on their own answer, which is why
  this counts as the member's "new table";
- no global 429, and no 429 on an interaction's webhook (a token's 5 requests per 2 s, a
  channel's 30 webhook messages a minute: the fake's limits are on, as on Discord; the
  invalid requests, 401, 403 and 429, any 10 minutes held are reported beside them);
- nothing went wrong meanwhile: no error in the bots' logs, no request the fake says Discord
  would refuse, no table stalled (no member's turn for 20 s).

N goes up until a step does not hold; the largest N held is reported, and ``ratios`` is the
new design's largest N over today's, on two processes with PostgreSQL (the deployment
that scales out; the SQLite one is reported beside it).

Counted requests are attributed per table: the fake counts, for each channel, the requests
Discord would count against the global limit, and the members count per table their moves,
the computers' tables and the timeouts' tables (a table the bot posted by itself, not as an
interaction's answer: at a computer table the computers' burst, elsewhere a timeout). A
least-squares fit of ``requests = m * member moves + c * computer tables + t * timeouts``
over the tables gives m, c and t: a timeout's cost includes its reminder, a computer burst
is one table however many computer moves it holds. CPU is read from ``/proc/<pid>/stat`` for
the bot processes and the local PostgreSQL server's, and from this process (the fake and the
members) over the window.

Printed per step: member moves a second; counted requests per member move, per computer
move (burst) and per timeout, and a second; p50/p99 of move -> table and the p99 computers'
reply lag (ms); global 429s; the bots' CPU per move (member moves and the bot's own tables)
and each bot process's CPU (% of a core), this process's (``drv%``) and its event loop's
p99 lag (``drv lag``: a late loop stamps answers late), PostgreSQL's (``db%``) and what the
rest of the machine used meanwhile (``other%``, other jobs and the kernel). The fake's check
of every body against Discord's OpenAPI description costs it more CPU than the bot spends on
a move, so it is off unless ``--check-schema`` (the test turns it on).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.ceiling_tables import World, fit_costs, table_rows
from benchmarks.harness import Report, percentile
from bot.fakediscord import FakeDiscord
from bot.fakediscord.ratelimits import DISCORD_ROUTE_LIMITS
from soak.process import BotProcess, log_errors
from soak.store import drop_schema, fresh_schema

STEPS = (50, 100, 200, 400, 700, 1000, 1300, 1600)
POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
LIMIT_SECONDS = 1.0
TODAY = "today's design"
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Deployment:
    key: str
    label: str
    processes: int  # 1: one unsharded process; more: SHARD_COUNT processes of a shard each


DEPLOYMENTS = {
    "sqlite": Deployment("sqlite", "1 process, SQLite", 1),
    "postgresql": Deployment("postgresql", "2 processes, PostgreSQL", 2),
}
DESIGNS = {"today": (TODAY, False), "new": ("new design", True)}


class CeilingBot(BotProcess):
    """The soak's bot process with this benchmark's settings (:func:`settings_for`): no
    development guild (the commands are global, as every guild needs them), Discord's default
    turn times."""

    def cpu_seconds(self) -> float:
        """User and system CPU the process has used (all its threads)."""
        assert self.process is not None
        return cpu_seconds(self.process.pid)


def cpu_seconds(pid: int) -> float:
    """User and system CPU process ``pid`` has used (all its threads); 0 if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def database_cpu() -> dict[int, float]:
    """CPU used so far by each PostgreSQL server process of this machine (a local server)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == "postgres":
                    found[int(entry.name)] = cpu_seconds(int(entry.name))
    return found


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, every core."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    total = sum(fields[:8])
    return (total - idle) / TICKS, total / TICKS


def settings_for(deployment: Deployment, speak: bool, shard: int, delay: float) -> dict[str, str]:
    extra = {
        "SPEAK_THROUGH_INTERACTIONS": "true" if speak else "false",
        "COMPUTER_DELAY_SECONDS": str(delay),
    }
    if deployment.processes > 1:
        extra |= {"SHARD_COUNT": str(deployment.processes), "SHARD_IDS": str(shard)}
    return extra


async def run_step(
    deployment: Deployment, design: str, tables: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Open ``tables`` tables, play them, measure; the step's figures."""
    label, speak = DESIGNS[design]
    workdir = Path(tempfile.mkdtemp(prefix="deckhand-ceiling-"))
    schema = None
    if deployment.key == "postgresql":
        schema = f"ceiling_{os.getpid()}_{int(time.time() * 1000) % 10**9}"
        url = await fresh_schema(args.database_url, schema)
    else:
        url = f"sqlite:///{workdir / 'ceiling.db'}"
    errors: list[str] = []
    at_stop = 0
    try:
        async with FakeDiscord(guild_name="Ceiling") as fake:
            fake.limits.route_limits.update(DISCORD_ROUTE_LIMITS)
            fake.check_schema = args.check_schema
            world = World(
                fake, tables, pace=args.pace, computer_delay=args.computer_delay, seed=args.seed
            )
            bots = [
                CeilingBot(
                    fake,
                    url,
                    workdir / f"bot-{shard}.log",
                    settings_for(deployment, speak, shard, args.computer_delay),
                )
                for shard in range(deployment.processes)
            ]
            try:
                for bot in bots:  # one after the other: the first applies the migrations
                    await bot.start()
                await world.configure()
                await world.open_all()
                players = [asyncio.create_task(t.play()) for t in world.tables]
                await asyncio.sleep(args.warmup)
                figures = await measure(fake, world, bots, args.seconds)
                played = [len(bot.log_text()) for bot in bots]
                world.stopping = True
                for task in players:
                    task.cancel()
                await asyncio.gather(*players, return_exceptions=True)
            finally:
                for bot in bots:
                    await bot.stop()
            # Errors while the tables played; the ones a stop with moves in flight causes
            # (SIGTERM closing the bot's HTTP session under them) are counted apart.
            for bot, length in zip(bots, played, strict=True):
                errors += log_errors(bot.log_text()[:length])
                at_stop += len(log_errors(bot.log_text()[length:]))
            violations = [str(v) for v in fake.violations]
    finally:
        if schema is not None:
            await drop_schema(args.database_url, schema)
        keep = args.keep_logs or errors
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)
    figures.update({
        "deployment": deployment.label, "design": label, "tables": tables,
        "tables not opened": len(world.not_opened), "not opened, first": world.not_opened[:5],
        "errors": len(errors), "errors, first": errors[:5], "errors at stop": at_stop,
        "violations": len(violations), "violations, first": violations[:5],
        "logs": str(workdir) if keep else None,
    })  # fmt: skip
    figures["held"] = held(figures)
    return figures


async def measure(
    fake: FakeDiscord, world: World, bots: list[CeilingBot], seconds: float
) -> dict[str, Any]:
    """Count and time ``seconds`` of play."""
    loop = asyncio.get_running_loop()
    limits = fake.limits
    global_429, route_429 = limits.global_429, sum(limits.route_429.values())
    webhook_429 = sum(limits.webhook_429.values())
    bot_cpu = [bot.cpu_seconds() for bot in bots]
    database = database_cpu()
    own, machine, started = own_cpu_seconds(), machine_busy(), loop.time()
    lags: list[float] = []
    ticker = asyncio.create_task(loop_lag(lags))
    world.measuring = True
    await asyncio.sleep(seconds)
    world.measuring = False
    ticker.cancel()
    wall = loop.time() - started
    bot_cpu = [bot.cpu_seconds() - before for bot, before in zip(bots, bot_cpu, strict=True)]
    own = own_cpu_seconds() - own
    database = {pid: cpu_seconds(pid) - cpu for pid, cpu in database.items()}
    busy, total = (now - then for now, then in zip(machine_busy(), machine, strict=True))
    tally = world.tally
    moves = sum(tally.member_moves.values())
    computer, timeouts = tally.bot_tables["computer"], tally.bot_tables["timeout"]
    counted = sum(tally.requests.values()) + tally.other_requests
    all_moves = moves + computer + timeouts
    lat, lag = tally.latencies or [float("nan")], tally.computer_lag or [0.0]
    return {
        "seconds": round(wall, 2),
        "member moves": moves,
        "computer moves": computer,
        "timeouts": timeouts,
        "member moves per second": moves / wall,
        "refused moves": tally.refused,
        "stalled tables": tally.stalls,
        "stalled, first": tally.stalled[:8],
        "costs": fit_costs(table_rows(world)),
        "counted requests": counted,
        "counted requests not in a channel": tally.other_requests,
        "counted requests per second": counted / wall,
        "global 429s": limits.global_429 - global_429,
        "route 429s": sum(limits.route_429.values()) - route_429,
        # An interaction webhook's limits (a token's 5 per 2 s, a channel's 30 messages a
        # minute), and the invalid requests (401, 403, 429) any 10 minutes held so far:
        # Discord bans a bot's address at 10,000.
        "webhook 429s": sum(limits.webhook_429.values()) - webhook_429,
        "invalid requests per 10 min": limits.invalid_requests_peak,
        "p50 ms": percentile(lat, 0.50) * 1000,
        "p99 ms": percentile(lat, 0.99) * 1000,
        "computer lag p99 ms": percentile(lag, 0.99) * 1000,
        "bot cpu %": [round(100 * cpu / wall, 1) for cpu in bot_cpu],
        "bot cpu ms per move": 1000 * sum(bot_cpu) / max(all_moves, 1),
        "driver cpu %": round(100 * own / wall, 1),
        "driver loop lag p99 ms": percentile(lags or [0.0], 0.99) * 1000,
        "database cpu %": round(100 * sum(database.values()) / wall, 1),
        "p99 ms by game": {
            game: round(percentile(found, 0.99) * 1000)
            for game, found in sorted(tally.by_game.items())
        },
        "computer lag p99 ms by game": {
            game: round(percentile(found, 0.99) * 1000)
            for game, found in sorted(tally.lag_by_game.items())
        },
        "computer lag max ms": round(max(lag) * 1000),
        "machine busy %": round(100 * busy / total * (os.cpu_count() or 1), 1),
        "others cpu %": round(
            100 * (busy / total * (os.cpu_count() or 1) - (sum(bot_cpu) + own) / wall)
            - 100 * sum(database.values()) / wall,
            1,
        ),
        "machine load": os.getloadavg(),
    }


async def loop_lag(lags: list[float], every: float = 0.05) -> None:
    """How late this process's event loop wakes a sleeper: the fake and the members share
    it, so a late loop delays the answers it times."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(every)
        lags.append(loop.time() - started - every)


def held(step: dict[str, Any]) -> bool:
    """Whether the step kept up: see the module's docstring."""
    return bool(
        step["member moves"]
        and not step["tables not opened"]
        and step["p99 ms"] <= LIMIT_SECONDS * 1000
        and step["computer lag p99 ms"] <= LIMIT_SECONDS * 1000
        and step["global 429s"] == 0
        and step["webhook 429s"] == 0
        and not (step["errors"] or step["violations"] or step["stalled tables"])
    )


async def ramp(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every deployment, each design at each step in turn (so load from elsewhere meets both
    alike), until neither holds."""
    steps: list[dict[str, Any]] = []
    for key in args.deployments:
        deployment = DEPLOYMENTS[key]
        going = list(args.designs)
        for tables in args.tables:
            for design in list(going):
                step = await run_step(deployment, design, tables, args)
                steps.append(step)
                print(line(step), flush=True)
                if not step["held"]:
                    going.remove(design)
            if not going:
                break
    return steps


COLUMNS = (
    ("deployment", 23), ("design", 14), ("tables", 6), ("moves/s", 7), ("req/move", 8),
    ("req/comp", 8), ("req/tmo", 7), ("req/s", 5), ("p50 ms", 6), ("p99 ms", 6),
    ("lag p99", 7), ("g429", 4), ("w429", 4), ("inval", 5), ("bot ms/mv", 9),
    ("bots cpu%", 9), ("drv%", 4), ("drv lag", 7), ("db%", 4), ("other%", 6), ("held", 4),
)  # fmt: skip


def _cost(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def line(step: dict[str, Any]) -> str:
    costs = step["costs"]
    cells = (
        step["deployment"], step["design"], str(step["tables"]),
        f"{step['member moves per second']:.1f}", _cost(costs["member move"]),
        _cost(costs["computer move"]), _cost(costs["timeout"]),
        f"{step['counted requests per second']:.0f}", f"{step['p50 ms']:.0f}",
        f"{step['p99 ms']:.0f}", f"{step['computer lag p99 ms']:.0f}", str(step["global 429s"]),
        str(step["webhook 429s"]), str(step["invalid requests per 10 min"]),
        f"{step['bot cpu ms per move']:.2f}", "+".join(f"{c:.0f}" for c in step["bot cpu %"]),
        f"{step['driver cpu %']:.0f}", f"{step['driver loop lag p99 ms']:.0f}",
        f"{step['database cpu %']:.0f}",
        f"{step['others cpu %']:.0f}", "yes" if step["held"] else "NO",
    )  # fmt: skip
    return "  ".join(c.rjust(w) if i > 1 else c.ljust(w) for i, (c, (_, w)) in
                     enumerate(zip(cells, COLUMNS, strict=True)))  # fmt: skip


def header() -> str:
    names = [name.rjust(w) if i > 1 else name.ljust(w) for i, (name, w) in enumerate(COLUMNS)]
    return "  ".join(names) + "\n" + "  ".join("-" * w for _, w in COLUMNS)


def largest_held(steps: list[dict[str, Any]], deployment: str, design: str) -> int:
    """The largest N before the first step of this deployment and design that did not hold."""
    largest = 0
    for step in steps:
        if step["deployment"] == deployment and step["design"] == design:
            if not step["held"]:
                break
            largest = step["tables"]
    return largest


METRICS = (
    ("member moves per second", "moves/s"), ("counted requests per second", "requests/s"),
    ("global 429s", "429s"), ("route 429s", "429s"), ("p50 ms", "ms"), ("p99 ms", "ms"),
    ("computer lag p99 ms", "ms"), ("bot cpu ms per move", "ms"), ("driver cpu %", "% of a core"),
    ("database cpu %", "% of a core"), ("others cpu %", "% of a core"),
    ("driver loop lag p99 ms", "ms"), ("errors at stop", "log lines"),
    ("refused moves", "moves"), ("stalled tables", "tables"), ("errors", "log lines"),
    ("violations", "refusals"),
)  # fmt: skip


def report(steps: list[dict[str, Any]], args: argparse.Namespace) -> Report:
    """The JSON contract: the new design's figures as results, today's as baselines."""
    out = Report(benchmark="ceiling")
    for step in steps:
        case = f"{step['deployment']}, {step['tables']} tables"

        def add(
            metric: str, value: float, unit: str, step: dict[str, Any] = step, case: str = case
        ) -> None:
            if step["design"] == TODAY:
                out.add_baseline(TODAY, case, metric, value, unit)
            else:
                out.add(case, metric, value, unit)

        for kind, value in step["costs"].items():
            if value is not None:
                add(f"counted requests per {kind}", value, "requests")
        for metric, unit in METRICS:
            add(metric, step[metric], unit)
        add("bot cpu", sum(step["bot cpu %"]), "% of a core")
        add("held", int(step["held"]), "1 = held")
    largest: dict[tuple[str, str], int] = {}
    for key in args.deployments:
        label = DEPLOYMENTS[key].label
        for design in args.designs:
            name = DESIGNS[design][0]
            largest[label, name] = found = largest_held(steps, label, name)
            if name == TODAY:
                out.add_baseline(TODAY, label, "largest N held", found, "tables")
            else:
                out.add(label, "largest N held", found, "tables")
    for key in sorted(args.deployments, key=lambda k: k != "postgresql"):
        label = DEPLOYMENTS[key].label
        new, today = largest.get((label, "new design")), largest.get((label, TODAY))
        if new is None or today is None:
            continue
        name = TODAY if TODAY not in out.ratios else f"{TODAY}, {label}"
        # Today's design holding no step at all: against the smallest step, a lower bound.
        out.set_ratio(name, new / (today or min(args.tables)))
    load = os.getloadavg()
    out.note(f"machine: {os.cpu_count()} cpus, load average {load[0]:.2f} {load[1]:.2f} "
             f"{load[2]:.2f} (1/5/15 min) at the end")  # fmt: skip
    out.note(f"each step: {args.warmup:g} s warm-up, {args.seconds:g} s measured; a member's "
             f"move every {args.pace:g} s a table on average; computers wait "
             f"{args.computer_delay:g} s")  # fmt: skip
    out.note("held: p99 move -> its table <= 1 s, p99 computers' reply lag <= 1 s, 0 global 429,")
    out.note("0 webhook 429 (w429; inval: the most invalid requests any 10 minutes held),")
    out.note("no error logged, no request Discord would refuse, no table stalled")
    out.note("requests per kind: least squares over the tables (benchmarks/ceiling.py)")
    out.note("ratios: largest N held by the new design / by today's; the first key is the")
    out.note("two-process PostgreSQL deployment when it ran")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default=",".join(map(str, STEPS)),
                        help="the steps of N, comma-separated")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=30.0, help="measured at each step")
    parser.add_argument("--warmup", type=float, default=8.0, help="played, unmeasured, first")
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between moves")
    parser.add_argument("--computer-delay", type=float, default=1.0)
    parser.add_argument("--deployments", default="sqlite,postgresql")
    parser.add_argument("--designs", default="today,new")
    parser.add_argument("--database-url", default=POSTGRES, help="PostgreSQL for 2 processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-schema", action="store_true",
                        help="the fake checks bodies against Discord's OpenAPI (slow)")  # fmt: skip
    parser.add_argument("--keep-logs", action="store_true", help="keep logs with errors")
    parser.add_argument("--json", metavar="OUT.json", help="also write the report as JSON")
    args = parser.parse_args()
    args.tables = [int(n) for n in args.tables.split(",") if n.strip()]
    args.deployments = [d for d in args.deployments.split(",") if d in DEPLOYMENTS]
    args.designs = [d for d in args.designs.split(",") if d in DESIGNS]
    print(f"== ceiling: {os.cpu_count()} cpus, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start")  # fmt: skip
    print(header(), flush=True)
    steps = asyncio.run(ramp(args))
    out = report(steps, args)
    print()
    for (label, design), _ in sorted({(s["deployment"], s["design"]): 0 for s in steps}.items()):
        print(f"largest N held: {label}, {design}: {largest_held(steps, label, design)} tables")
    for peer, ratio in out.ratios.items():
        print(f"new design / {peer}: {ratio:.2f}x the tables")
    for text in out.notes:
        print(f"note: {text}")
    if args.json:
        data = out.to_json()
        data["steps"] = steps
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        raise SystemExit(main())
