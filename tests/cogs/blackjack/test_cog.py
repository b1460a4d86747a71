"""The Blackjack cog loads, registers its game and has every text in both languages."""

from __future__ import annotations

from cogs import blackjack
from cogs import game as game_cog
from tests.cogs.test_game_cog import make_bot, missing_korean, translated


async def test_the_blackjack_cog_loads_and_registers_its_game() -> None:
    bot = await make_bot()
    await blackjack.setup(bot)
    await game_cog.setup(bot)
    names = sorted(command.qualified_name for command in bot.tree.walk_commands())
    assert [n for n in names if n.startswith("blackjack")] == [
        "blackjack",
        "blackjack double",
        "blackjack hand",
        "blackjack hit",
        "blackjack join",
        "blackjack leave",
        "blackjack split",
        "blackjack stand",
        "blackjack start",
    ]
    start = next(c for c in bot.tree.walk_commands() if c.qualified_name == "blackjack start")
    rules = next(p for p in start.parameters if p.name == "rules")  # type: ignore[union-attr]
    assert [c.value for c in rules.choices] == ["seed", "casino"]
    assert rules.default == "seed" and not rules.required
    assert "blackjack" in bot.sessions.games  # type: ignore[attr-defined]
    payloads = await translated(bot)
    assert [name for p in payloads for name in missing_korean(p)] == []
    await blackjack.teardown(bot)
    assert "blackjack" not in bot.sessions.games  # type: ignore[attr-defined]
    await bot.close()
