"""bot.sessions.model: composing a message, seat names and levels, and reading a stored
record (older ones included).
"""

from __future__ import annotations

from dataclasses import replace

from bot.games import Rendered
from bot.sessions import MAX_MESSAGE, Player, compose
from bot.store.base import ActiveGame
from bot.text.names import TABLE_NAME_COLUMNS, block_name
from bot.text.width import columns
from rules.levels import Level
from tests.bot.sessions.harness import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    Harness,
    count_adapter,
    open_against_computers,
    start_two,
)
from tests.reference_game import Add


async def test_a_restored_game_is_read_from_its_record_only_when_first_needed(
    table: Harness,
) -> None:
    await start_two(table)
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(2)))
    await table.registry.close()
    again = Harness(table.store)
    assert await again.registry.restore_all() == 1
    session = again.registry.get(CHANNEL)
    assert session is not None and not session.is_lobby
    # Restored and timed (Bob's turn), yet no engine state built: the record's text is all.
    assert session.engine is None and session.turn == 1
    assert session.deadline_seat == 1 and again.registry.tasks.running(CHANNEL)
    post = await again.answered(again.registry.act(CHANNEL, BOB.id, Add(1)))
    assert session.engine is not None and post is not None and "total 3" in post.content
    await again.registry.close()


async def test_a_record_saved_before_the_turn_was_kept_loads_its_state_at_once(
    table: Harness,
) -> None:
    await start_two(table)
    stored = await table.stored()
    assert stored is not None and stored.data["turn"] == 0
    await table.registry.close()
    del stored.data["turn"]
    older = replace(stored, version=stored.version + 1, text=None)
    await table.store.save(older, expected_version=stored.version)
    again = Harness(table.store)
    assert await again.registry.restore_all() == 1
    session = again.registry.get(CHANNEL)
    assert session is not None and session.engine is not None and session.turn == 0
    await again.registry.close()


def test_compose_drops_the_oldest_log_lines_to_fit() -> None:
    body = "x" * 100
    log = tuple(f"line {i} " + "y" * 50 for i in range(100))
    text = compose(Rendered(log, body, "ansi"), ["notice"])
    assert len(text) <= MAX_MESSAGE
    assert text.endswith(f"```ansi\n{body}\n```")
    assert "line 99" in text and "line 0 " not in text
    assert compose(Rendered(("a", "b"), "t"), ["n"]) == "n\na\nb\n```\nt\n```"


async def test_a_computer_seat_shows_its_level_in_the_tables_language(table: Harness) -> None:
    await open_against_computers(table, "hard", target=50)
    [post] = table.poster.posts
    assert post.content.startswith("AI 2 (hard) +2\nAI 3 (hard) +2\n")
    session = table.registry.get(CHANNEL)
    assert session is not None
    session.locale = "ko"
    assert session.names == ["Alice", "AI 2 (고수)", "AI 3 (고수)"]


async def test_a_normal_table_names_its_computers_as_ever(table: Harness) -> None:
    await open_against_computers(table, "normal", target=50)
    session = table.registry.get(CHANNEL)
    assert session is not None and session.names == ["Alice", "Computer 2", "Computer 3"]
    assert count_adapter(table).dealt_levels == [Level.NORMAL]


async def test_a_long_name_gives_way_to_its_tag_within_a_tables_columns(
    table: Harness,
) -> None:
    await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", Player(104, "가나다라마바사아자차"), players=2, level="hard"
        )
    )
    await table.answered(table.registry.join(CHANNEL, BOB))
    await table.answered(table.registry.kick(CHANNEL, 104))
    session = table.registry.get(CHANNEL)
    assert session is not None
    shown = session.names[0]
    assert shown.endswith(" (left)") and columns(shown) <= TABLE_NAME_COLUMNS
    assert block_name(shown) == shown  # the table's own clipping leaves the tag be


async def test_a_game_saved_before_levels_existed_loads_as_normal(table: Harness) -> None:
    await start_two(table, target=50)
    stored = await table.stored()
    assert stored is not None and stored.data["level"] == "normal"
    await table.registry.close()
    older = {key: value for key, value in stored.data.items() if key != "level"}
    record = ActiveGame(CHANNEL, GUILD, "count", stored.version + 1, older)
    await table.store.save(record, expected_version=stored.version)
    again = Harness(table.store)
    assert await again.registry.restore_all() == 1
    session = again.registry.get(CHANNEL)
    assert session is not None and session.level is Level.NORMAL
    await again.registry.close()
