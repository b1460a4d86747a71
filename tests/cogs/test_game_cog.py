"""The shared ``game`` cog: its commands load, and every text they show is in the catalogs."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.games import GameCatalog
from bot.games.uno import UnoAdapter
from bot.i18n import catalog, t
from bot.sessions import Seat, Session, SessionError, SessionRegistry
from bot.settings import Settings
from bot.store.memory import MemoryStore
from bot.translator import DeckhandTranslator
from cogs import game as game_cog
from cogs import stats as stats_cog
from cogs.common.poster import DiscordPoster
from rules.levels import Level


def missing_korean(payload: dict[str, Any], path: str = "") -> list[str]:
    """Names of commands and options whose name or description has no Korean translation."""
    here = f"{path} {payload['name']}".strip()
    korean = [payload.get(f"{part}_localizations") or {} for part in ("name", "description")]
    missing = [] if all("ko" in found for found in korean) else [here]
    for option in payload.get("options", []):
        missing += missing_korean(option, here)
    return missing


async def translated(bot: commands.Bot) -> list[dict[str, Any]]:
    translator = DeckhandTranslator()
    await bot.tree.set_translator(translator)
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]


async def make_bot() -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    store = MemoryStore()
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    bot.store = store  # type: ignore[attr-defined]
    bot.settings = settings  # type: ignore[attr-defined]
    bot.sessions = SessionRegistry(store=store, settings=settings, games=GameCatalog())  # type: ignore[attr-defined]
    return bot


async def test_the_game_cog_loads_with_its_commands_and_installs_the_poster() -> None:
    bot = await make_bot()
    await game_cog.setup(bot)
    await stats_cog.setup(bot)
    names = sorted(command.qualified_name for command in bot.tree.walk_commands())
    assert names == [
        "game",
        "game end",
        "game kick",
        "game list",
        "game settings",
        "game status",
        "game verify",
        "leaderboard",
        "rules",
        "stats",
    ]
    assert isinstance(bot.sessions.poster, DiscordPoster)  # type: ignore[attr-defined]
    english = catalog("en")
    payloads = await translated(bot)
    assert [name for p in payloads for name in missing_korean(p)] == []
    for choice in game_cog.GAME_CHOICES:
        assert f"rules.{choice.value}" in english
    (game,) = [p for p in payloads if p["name"] == "game"]
    (settings,) = [o for o in game["options"] if o["name"] == "settings"]
    choices = {o["name"]: o.get("choices", []) for o in settings["options"]}
    auto = next(c for c in choices["language"] if c["value"] == "auto")
    assert auto["name_localizations"]["ko"] == catalog("ko")["choice.language.auto"]
    assert all("ko" in c["name_localizations"] for c in choices["reset"])
    await bot.close()


def test_allowed_games_are_parsed_forgivingly_and_checked() -> None:
    assert game_cog.parse_games("Blackjack, uno uno") == ("blackjack", "uno")
    assert game_cog.parse_games("all") is None
    # In Korean as the Korean texts name them: the games' command names, and 모두.
    assert game_cog.parse_games("블랙잭, 고스톱 원카드") == ("blackjack", "gostop", "onecard")
    assert game_cog.parse_games("모두") is None
    with pytest.raises(SessionError) as refused:
        game_cog.parse_games("blackjack, poker")
    assert refused.value.key == "error.unknown_games"
    assert refused.value.params == {"names": "poker", "games": game_cog.GAMES}


@pytest.mark.parametrize(
    ("locale", "sentence"),
    [
        (discord.Locale.american_english, "Use {games} or all."),
        (discord.Locale.korean, "{games} 또는 모두를 쓰세요."),
    ],
)
async def test_unknown_games_are_answered_with_every_game_as_the_member_types_it(
    locale: discord.Locale, sentence: str
) -> None:
    """The games the refusal names are the catalog's, in its order, each by its command's
    name in the member's language (what :func:`~cogs.game.parse_games` reads back)."""
    from cogs.common.respond import guarded
    from tests.cogs.test_common import interaction

    clicked = interaction(locale)

    async def work() -> None:
        game_cog.parse_games("poker")

    await guarded(clicked, work, what="/game settings")
    [(text, _)] = clicked.response.sent
    names = [t(f"name.{game}", locale.value) for game in GameCatalog.discover().names()]
    assert text.endswith(sentence.format(games=", ".join(names))) and "poker" in text
    for name in names:  # every one of them reads back as its game
        assert game_cog.parse_games(name) is not None


def test_the_list_of_tables_stays_within_discords_limits() -> None:
    sessions = [
        Session(
            channel_id=10**18 + n,
            guild_id=1,
            game="onecard",
            host_id=1,
            locale="en",
            players=4,
            bots=0,
            member_seed=None,
            options={},
            turn_seconds=90,
            seats=[Seat(n, "x" * 32) for n in range(4)],
            version=10**6,
            touched=0.0,
        )
        for n in range(40)
    ]
    text, view = game_cog.table_list(sessions, 7_300.0, "ko")
    assert len(text) <= 2000
    lines = text.splitlines()
    shown = len(lines) - 2  # the title and the "more" line
    assert len(view.children) == shown <= 25
    assert lines[-1] == t("list.more", "ko", n=40 - shown, shown=shown)
    assert t("list.hours", "ko", h=2, m=1) in lines[1]  # idle since the clock read 0
    assert all(len(str(b.custom_id)) <= 100 for b in view.children)  # type: ignore[attr-defined]


def test_the_list_of_tables_shows_each_computers_level_in_the_moderators_language() -> None:
    """A computer's seat shows its level; a member's seat a computer plays on since they
    left shows that, never a level."""
    session = Session(
        channel_id=5,
        guild_id=1,
        game="uno",
        host_id=1,
        locale="en",
        players=3,
        bots=1,
        member_seed=None,
        options={},
        turn_seconds=90,
        seats=[Seat(1, "alice"), Seat(2, "bob", computer=True), Seat(None, "AI 3", computer=True)],
        level=Level.HARD,
        touched=0.0,
    )
    text, _ = game_cog.table_list([session], 60.0, "ko")
    assert "alice, bob (나감 · 컴퓨터), AI 3 (고수)" in text
    session.level = Level.NORMAL
    text, _ = game_cog.table_list([session], 60.0, "en")
    assert "alice, bob (left · computer), AI 3 —" in text


def test_the_list_of_tables_leaves_restored_games_unread() -> None:
    """A restart restores every table without reading its game (restart at scale); listing them
    shows whose turn it is from the stored record, and reads none of them."""
    session = Session(
        channel_id=5,
        guild_id=1,
        game="uno",
        host_id=1,
        locale="en",
        players=2,
        bots=0,
        member_seed=None,
        options={},
        turn_seconds=90,
        seats=[Seat(1, "alice"), Seat(2, "bob")],
        touched=0.0,
        saved=(3, '{"state": "not read"}'),
        unloaded=UnoAdapter(),
        stored_turn=1,
    )
    text, _ = game_cog.table_list([session], 60.0, "en")
    assert t("list.turn", "en", name="bob") in text
    assert session.unloaded is not None  # still unread
