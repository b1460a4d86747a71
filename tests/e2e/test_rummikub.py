"""Rummikub end to end: the real bot and cogs, driven by members through the fake Discord.

Members stage their turns with ``/rummikub put``, ``add``, ``move``, ``split``, ``undo`` and
the **Arrange** box, commit with **Done** (or ``/rummikub done``), draw, ask for a hint and
leave; computer seats play the solver's move. Besides the games reaching their end, the tests
check what nobody may see: every public table shows exactly the committed table (never a
rack tile or a staged set), and every message stays within Discord's limits and 40 columns.
How a member plays, and the checks of public tables, are in tests/e2e/rummikub_play.py.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

import pytest

import rules.rng
from bot.fakediscord import FakeDiscord, FakeMember
from bot.i18n import counted, t
from bot.text.rummikub import LOG_LINE
from rules.rummikub import State
from rules.rummikub import restore as restore_state
from tests.e2e.deckhand_tables import answered_in_private, leave_game, to_play
from tests.e2e.rummikub_play import (
    ANSI,
    BLOCK,
    TILE,
    Drawn,
    arrange,
    block_tiles,
    check_public,
    codes,
    game_state,
    open_game,
    play_by_solver,
    position,
    put_position,
    shown_tiles,
    table_tiles,
)
from tests.language import foreign_lines, message_lines
from tests.phone import assert_fits_phone, assert_tables_fit_phone

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand

MELD_SEED = 6  # alice (seat 0) moves first and holds a set worth under 30 and a meld over it
GAME_SEED = 3


# -- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def members(fake_discord: FakeDiscord) -> list[FakeMember]:
    return [
        fake_discord.add_member("alice"),
        fake_discord.add_member("민준", locale="ko"),
    ]


# -- the tests --------------------------------------------------------------------------------


async def test_two_members_and_a_computer_play_to_the_end_then_deal_again_and_stats(
    fake_discord: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    drawn = Drawn(monkeypatch)
    # A fair deal (counted in the stats), its secret seed fixed so the game is known.
    monkeypatch.setattr(rules.rng, "new_seed", lambda: GAME_SEED)
    await open_game(fake, members, None, bots=1)
    by_id = {m.id: m for m in members}
    final = await play_by_solver(fake, bot, by_id, 400)
    finished = bot.sessions.finished.get(fake.channel.id)
    assert finished is not None and isinstance(finished.state, State)
    result = finished.state.result
    assert result is not None and sum(result.scores) == 0
    assert final.button_labels == [t("button.again", "en")]
    assert t("rummikub.result.title", "en") in final.content
    public = fake.public_messages(fake.channel)
    assert any(t("rummikub.log.drew", "en", name="alice") in m.content for m in public)
    tables = [m for m in public if "```ansi" in m.content]
    assert len(tables) > 20
    for message in public:
        assert len(message.content) <= 2000
        assert_tables_fit_phone(message.content)
        assert drawn.leaks(message) == [], message.content
        # A turn's log is broken between melds, no line a wall of text.
        for line in BLOCK.sub("", message.content).splitlines():
            if TILE.search(line):
                assert len(line) <= LOG_LINE, line
    # The scan is no formality: a rack tile in a table, or a made-up table, is seen.
    on_table = table_tiles(finished.state)
    rack_tile = next(x.code for r in finished.state.racks for x in r if not on_table[x.code])
    table = tables[-1]
    shown = table.content.replace(" 1: ", f" 1: {rack_tile} ", 1)
    assert drawn.leaks(dataclasses.replace(table, content=table.content + "\n" + rack_tile))
    assert drawn.leaks(dataclasses.replace(table, content=shown))
    board = await fake.slash(members[0], fake.channel, "leaderboard", game="rummikub")
    assert not board.ephemeral, board.text
    assert f"<@{members[0].id}>" in board.text and f"<@{members[1].id}>" in board.text
    stats = await bot.store.member_stats(fake.guild.id, members[0].id)
    assert stats.games["rummikub"]["played"] == 1
    again = await fake.click(members[0], final, t("button.again", "en"))
    assert not again.ephemeral, again.text
    # The next deal, the computer's first move made if it starts.
    await to_play(fake, bot, fake.channel)


async def test_an_initial_meld_below_30_is_refused_with_its_value_then_accepted(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun = members
    await open_game(fake, members, MELD_SEED)
    await to_play(fake, bot, fake.channel)
    state = game_state(bot, fake.channel.id)
    assert state.current_seat == 0
    from bot.games.rummikub import _rack_sets
    from rules.rummikub.sets import check_set
    from rules.rummikub.solver import solve

    small = min(_rack_sets(state.racks[0]), key=lambda s: check_set(s).value)
    value = check_set(small).value
    assert value < 30
    offered = await fake.autocomplete(alice, fake.channel, "rummikub put", "tiles", "")
    assert offered and len(offered) <= 25
    staged = await fake.slash(alice, fake.channel, "rummikub put", tiles=codes(small).lower())
    assert staged.ephemeral, staged.text
    assert t("rummikub.problem.meld", "en", value=value, need=30) in staged.text
    assert len(fake.public_messages(fake.channel)) == 2  # the lobby and the first table
    refused = await fake.slash(alice, fake.channel, "rummikub done")
    assert refused.ephemeral
    named = codes(sorted(small))
    said = t("illegal.rummikub.initial_meld_value", "en", value=value, tiles=named)
    assert refused.text == said
    # 민준 asks for the view: not her turn, nothing staged shown, in Korean only.
    theirs = await fake.slash(minjun, fake.channel, "rummikub hand")
    assert not foreign_lines(message_lines(theirs.message), "ko")
    undone = await fake.slash(alice, fake.channel, "rummikub undo")
    assert t("rummikub.hand.nothing_staged", "en") in undone.text
    best = solve(state.racks[0], (), initial=True)
    for tiles in best.table:
        put = await fake.slash(
            alice, fake.channel, "rummikub put", tiles=", ".join(x.code for x in tiles)
        )
        assert put.ephemeral, put.text
    assert t("rummikub.hand.ready", "en") in put.text
    done = await fake.slash(alice, fake.channel, "rummikub done")
    assert not done.ephemeral, done.text
    assert done.message is not None and f"<@{minjun.id}>" in done.text
    assert done.message.pinged == [minjun.id]
    check_public(fake, done.message, game_state(bot, fake.channel.id))
    assert game_state(bot, fake.channel.id).melded[0]


REARRANGE_RACKS = [["R9", "O9", "K1", "K2", "B5"], ["R1", "B1", "O1", "K3"]]
REARRANGE_TABLE = [["R3", "R4", "R5", "R6", "R7", "R8"], ["K9", "B9", "J"]]
REARRANGED = "R3 R4 R5\nR6 R7 R8 R9\nB9 O9 K9\nK1 K2 J"


async def test_a_rearrangement_splits_a_run_and_reuses_a_joker_by_commands(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, _ = members
    await open_game(fake, members, GAME_SEED)
    await to_play(fake, bot, fake.channel)
    put_position(bot, fake.channel.id, position(REARRANGE_RACKS, REARRANGE_TABLE))

    async def step(command: str, **options: Any) -> str:
        answer = await fake.slash(alice, fake.channel, f"rummikub {command}", **options)
        assert answer.ephemeral, answer.text
        assert answer.message is not None and len(answer.message.content) <= 2000
        return answer.text

    text = await step("split", set=1, at=4)
    assert "R3 R4 R5" in ANSI.sub("", text) and "R6 R7 R8" in ANSI.sub("", text)
    text = await step("move", tiles="3:J", to="new")
    assert t("rummikub.reason.short", "en", count=2) in text  # set 3 is left with B9 K9
    text = await step("add", set=3, tiles="노9")  # O9 typed in Korean
    text = await step("add", set=4, tiles="k1,K2")
    text = await step("add", set=2, tiles="r 9")
    plain = ANSI.sub("", text)
    assert "+R9" in plain and "+O9" in plain and "+K1" in plain
    assert t("rummikub.hand.ready", "en") in text
    # Undo takes back the last step only; Reset all of them.
    text = await step("undo")
    assert "+R9" not in ANSI.sub("", text) and "+K1" in ANSI.sub("", text)
    await step("add", set=2, tiles="R9")
    done = await fake.slash(alice, fake.channel, "rummikub done")
    assert not done.ephemeral and done.message is not None, done.text
    state = game_state(bot, fake.channel.id)
    assert sorted(sorted(x.code for x in s) for s in state.table) == sorted(
        sorted(line.split()) for line in REARRANGED.splitlines()
    )
    check_public(fake, done.message, state)
    numbered = {tuple(x.code for x in s): n for n, s in enumerate(state.table, 1)}
    assert f"alice added R9 to set {numbered[('R6', 'R7', 'R8', 'R9')]}" in done.text
    assert f"added K1 K2 to set {numbered[('K1', 'K2', 'J')]}" in done.text
    # alice leaves: her rack goes back to the pool and 민준, the last seat, wins.
    pool = len(state.pool)
    left = await leave_game(fake, alice, fake.channel, "rummikub")
    # The Leave button of a private question answers in it; the table goes to the channel.
    told = await answered_in_private(fake, left)
    assert left.text == t("answer.on_table", "en"), left.text  # no seat, no hand any more
    said = counted("rummikub.log.left", 1, "en", name="alice", count=1)
    assert said in told.text  # in public: who left and that the rack went back
    assert "alice left the game: 1 tile goes back" in said
    assert t("rummikub.log.won", "en", name="민준") in told.text  # one winner line
    finished = bot.sessions.finished.get(fake.channel.id)
    assert finished is not None and isinstance(finished.state, State)
    assert finished.state.result is not None and finished.state.result.ranking[0] == 1
    assert len(finished.state.pool) == pool + 1 and finished.state.racks[0] == []


async def test_the_same_rearrangement_through_the_arrange_box_and_a_refused_done(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun = members
    await open_game(fake, members, GAME_SEED)
    table = await to_play(fake, bot, fake.channel)
    put_position(bot, fake.channel.id, position(REARRANGE_RACKS, REARRANGE_TABLE))
    # A wrong arrangement first: the preview names the set and why; Done is refused naming it.
    wrong = "R3 R4 R5\nR6 R7 R8 R9\nB9 O9 K9 K1\nK2 J"
    preview, prefilled = await arrange(fake, alice, table, wrong)
    assert prefilled.splitlines() == [" ".join(s) for s in REARRANGE_TABLE]
    assert preview.ephemeral and preview.message is not None, preview.text
    assert "set 3: B9 O9 K1 K9 — " in preview.text
    assert "set 4: K2 J" in preview.text
    refused = await fake.click(alice, preview.message, t("button.rummikub.done", "en"))
    assert refused.ephemeral
    # The refusal itself says which sets and why, as the preview does.
    lines = refused.text.splitlines()
    assert lines[0] == "Not done:" and len(lines) == 3, refused.text
    assert lines[1].startswith("set 3: ") and " — " in lines[1]
    assert lines[2].startswith("set 4: K2 J — ")
    # The box again, prefilled with the staged table; the right arrangement; Done.
    first = preview
    preview, prefilled = await arrange(fake, alice, table, REARRANGED)
    assert prefilled.splitlines()[2] == "B9 O9 K1 K9"
    assert t("rummikub.hand.ready", "en") in preview.text
    # Staging saves a new version: the older preview's buttons are out of date, while the
    # public table's Hand (no version) still works for everyone, and shows no staged set.
    assert first.message is not None
    stale = await fake.click(alice, first.message, t("button.rummikub.done", "en"))
    assert stale.ephemeral and stale.text == t("error.stale_button", "en")
    theirs = await fake.click(minjun, table, t("button.hand", "en"))
    assert theirs.ephemeral and "O9" not in theirs.text and "K1" not in ANSI.sub("", theirs.text)
    done = await fake.click(alice, preview.message, t("button.rummikub.done", "en"))
    # Done on the preview answers in it; the table goes to the channel.
    posted = await answered_in_private(fake, done, preview.message)
    check_public(fake, posted, game_state(bot, fake.channel.id))
    # A table tile left out of the box is refused, and nothing changes.
    table = await to_play(fake, bot, fake.channel)
    session = bot.sessions.get(fake.channel.id)
    assert session is not None
    before = session.version
    shown, _ = await arrange(fake, minjun, table, "R3 R4 R5")
    # The refusal names the tiles left out, as the hand shows them (rule 11).
    missing = "R6 R7 R8 R9 B9 O9 K1 K2 K9 J"
    assert shown.text == t("illegal.rummikub.table_tile_missing", "ko", tiles=missing)
    assert session.version == before


async def test_a_restart_keeps_a_staged_turn(
    fake_discord: FakeDiscord, deckhand: Deckhand, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, _ = members
    async with deckhand.run() as bot:
        await open_game(fake, members, GAME_SEED)
        await to_play(fake, bot, fake.channel)
        put_position(bot, fake.channel.id, position(REARRANGE_RACKS, REARRANGE_TABLE))
        await fake.slash(alice, fake.channel, "rummikub split", set=1, at=4)
        staged = await fake.slash(alice, fake.channel, "rummikub add", set=2, tiles="R9")
        assert "+R9" in ANSI.sub("", staged.text)
    async with deckhand.run() as bot:
        view = await fake.slash(alice, fake.channel, "rummikub hand")
        assert "+R9" in ANSI.sub("", view.text) and t("rummikub.hand.ready", "en") in view.text
        undone = await fake.slash(alice, fake.channel, "rummikub undo")
        assert "+R9" not in ANSI.sub("", undone.text)
        redone = await fake.slash(alice, fake.channel, "rummikub add", set=2, tiles="R9")
        assert redone.ephemeral
        done = await fake.slash(alice, fake.channel, "rummikub done")
        assert not done.ephemeral, done.text


async def test_a_timeout_with_staged_changes_draws_three(
    fake_discord: FakeDiscord, deckhand: Deckhand, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, _ = members
    async with deckhand.run(default_turn_seconds=2.0) as bot:
        await open_game(fake, members, GAME_SEED)
        await to_play(fake, bot, fake.channel)
        put_position(bot, fake.channel.id, position(REARRANGE_RACKS, REARRANGE_TABLE))
        staged = await fake.slash(alice, fake.channel, "rummikub split", set=1, at=4)
        assert staged.ephemeral, staged.text
        line = t("rummikub.log.timed_out", "en", name="alice", count=3)
        timed_out = await fake.wait_for(
            lambda: next(
                (m for m in fake.public_messages(fake.channel) if line in m.content), None
            ),
            within=10.0,
        )
        state = game_state(bot, fake.channel.id)
        assert len(state.racks[0]) == len(REARRANGE_RACKS[0]) + 3
        check_public(fake, timed_out, state)


FULL_TABLE = [
    [f"{c}{n}" for n in range(1, 13 if copy == 0 else 14)] for c in "RBOK" for copy in (0, 1)
]  # 100 tiles: every run 1-13 twice, the first copy of each colour without its 13


async def test_a_full_table_fits_discord_and_a_hint_answers_in_time(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, _ = members
    await open_game(fake, members, GAME_SEED)
    await to_play(fake, bot, fake.channel)
    assert sum(len(s) for s in FULL_TABLE) == 100
    put_position(
        bot,
        fake.channel.id,
        position([["R13", "B13", "J"], ["O13", "K13", "J"]], FULL_TABLE, hints=True),
    )
    hint = await fake.slash(alice, fake.channel, "rummikub hint")
    # A deferred answer ("thinking") within Discord's 3 s (the fake refuses a late one), then
    # edited with the play. How long the solver takes is measured in
    # benchmarks/rummikub_bot.py, not asserted here (machines are noisy).
    answer = await fake.wait_for(
        lambda: hint.message if hint.message and hint.message.edits else None
    )
    assert hint.response_type == 5 and answer.ephemeral
    assert answer.content.startswith("Hint, one meld of the best play: make ")
    assert len(answer.content) <= 2000
    assert_fits_phone(answer.content)
    view = await fake.slash(alice, fake.channel, "rummikub hand")
    assert view.message is not None and len(view.message.content) <= 2000
    assert_fits_phone(view.message.content)
    # The public table of 100 (then 103) tiles: one message, 40 columns, every tile shown.
    done = await fake.slash(alice, fake.channel, "rummikub put", tiles="R13 B13 J")
    assert done.ephemeral
    committed = await fake.slash(alice, fake.channel, "rummikub done")
    assert not committed.ephemeral and committed.message is not None, committed.text
    finished = bot.sessions.finished.get(fake.channel.id)  # alice's rack is empty: she won
    assert finished is not None and isinstance(finished.state, State)
    assert finished.state.result is not None and finished.state.result.ranking[0] == 0
    check_public(fake, committed.message, finished.state)
    assert sum(block_tiles(committed.message).values()) == 103
    assert not foreign_lines(message_lines(committed.message), "en")


async def test_hints_are_off_unless_the_host_turns_them_on(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    minjun = members[1]
    await open_game(fake, members, GAME_SEED)  # no hints option: off
    table = await to_play(fake, bot, fake.channel)
    assert t("rummikub.table.hints", "en") not in table.content
    refused = await fake.slash(minjun, fake.channel, "rummikub hint")
    assert refused.ephemeral and refused.text == t("error.rummikub_hints_off", "ko")
    assert "`/루미큐브 시작 힌트허용:켜기`" in refused.text  # how to get them, as 민준 types it


async def test_a_table_with_hints_on_says_so_gives_one_meld_and_deals_again_with_them(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun = members
    # A table started with hints:on says so in its header; the hint is one meld and its
    # lines, pasted into Arrange as shown, stage it.
    opened = await fake.slash(alice, fake.channel, "rummikub start", players=2, hints="on")
    assert not opened.ephemeral, opened.text
    await fake.slash(minjun, fake.channel, "rummikub join")
    table = await to_play(fake, bot, fake.channel)
    assert t("rummikub.table.hints", "en") in ANSI.sub("", table.content)
    put_position(bot, fake.channel.id, position(REARRANGE_RACKS, REARRANGE_TABLE, hints=True))
    hint = await fake.slash(alice, fake.channel, "rummikub hint")
    answer = await fake.wait_for(
        lambda: hint.message if hint.message and hint.message.edits else None
    )
    lines = re.search(r"```\n(.*?)\n```", answer.content, re.DOTALL)
    assert lines is not None, answer.content
    preview, _ = await arrange(fake, alice, table, lines.group(1))
    assert preview.ephemeral and preview.message is not None, preview.text
    staged = game_state(bot, fake.channel.id).view(0).staged
    assert staged is not None and len(staged) == len(REARRANGE_TABLE) + 1
    # The last tile out wins; Deal again deals with hints on as well.
    put_position(bot, fake.channel.id, position([["R9"], ["K1"]], [["R6", "R7", "R8"]], hints=True))
    await fake.slash(alice, fake.channel, "rummikub add", set=1, tiles="R9")
    final = await fake.slash(alice, fake.channel, "rummikub done")
    assert final.message is not None and final.message.button_labels == [t("button.again", "en")], (
        final.text
    )
    again = await fake.click(alice, final.message, t("button.again", "en"))
    assert not again.ephemeral, again.text
    table = await to_play(fake, bot, fake.channel)
    assert t("rummikub.table.hints", "en") in ANSI.sub("", table.content)
    assert game_state(bot, fake.channel.id).hints


async def test_a_staged_turn_is_one_private_message(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    """Every staging step once posted a new private message with five buttons. A step
    made with a button (or the Arrange box opened from one) edits that message."""
    fake = fake_discord
    alice, _ = members
    await open_game(fake, members, GAME_SEED)
    table = await to_play(fake, bot, fake.channel)
    put_position(bot, fake.channel.id, position(REARRANGE_RACKS, REARRANGE_TABLE))
    before = len(fake.ephemeral_messages(alice, fake.channel))
    hand = await fake.click(alice, table, t("button.hand", "en"))
    assert hand.ephemeral and hand.message is not None, hand.text
    mine = hand.message

    async def box(text: str) -> None:
        shown = await fake.click(alice, mine, t("button.rummikub.arrange", "en"))
        assert shown.response_type == 9, shown.text
        step = await fake.submit_modal(alice, shown, {"table": text})
        assert step.response_type == 7 and step.message is mine, step.text

    await box("R3 R4 R5\nR6 R7 R8 R9\nB9 O9 K9 K1\nK2 J")
    assert "set 3: B9 O9 K1 K9 — " in mine.content
    undone = await fake.click(alice, mine, t("button.rummikub.undo", "en"))
    assert undone.response_type == 7 and undone.message is mine, undone.text
    assert t("rummikub.hand.nothing_staged", "en") in mine.content
    await box(REARRANGED)
    assert t("rummikub.hand.ready", "en") in mine.content
    assert len(mine.button_labels) == 5  # the same five buttons, at the new version
    done = await fake.click(alice, mine, t("button.rummikub.done", "en"))
    # Done answers in the same message too (its fourth edit); the table goes to the channel.
    await answered_in_private(fake, done, mine)
    received = fake.ephemeral_messages(alice, fake.channel)[before:]
    assert received == [mine] and mine.edits == 4
    # A slash command has no message to edit: it answers with a new one, whose buttons then
    # edit it in turn.
    await to_play(fake, bot, fake.channel)
    put_position(bot, fake.channel.id, position(REARRANGE_RACKS, REARRANGE_TABLE, turn=1))
    minjun = members[1]
    split = await fake.slash(minjun, fake.channel, "rummikub split", set=1, at=4)
    assert split.ephemeral and split.message is not None, split.text
    reset = await fake.click(minjun, split.message, t("button.rummikub.reset", "ko"))
    assert reset.response_type == 7 and reset.message is split.message, reset.text


async def test_a_hint_the_solver_cannot_finish_in_time_says_so(
    fake_discord: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from cogs.rummikub import cog as rummikub_cog

    released = threading.Event()

    def stuck_solver(view: Any) -> Any:
        released.wait(30)  # a solver still working when the time limit comes
        return None

    monkeypatch.setattr(rummikub_cog, "solver_hint", stuck_solver)
    fake = fake_discord
    alice, _ = members
    await open_game(fake, members, GAME_SEED, hints=True)
    await to_play(fake, bot, fake.channel)
    try:
        hint = await fake.slash(alice, fake.channel, "rummikub hint")
        # The deferred "thinking" answer, edited with the words once the limit passed.
        answer = await fake.wait_for(
            lambda: hint.message if hint.message and hint.message.edits else None
        )
    finally:
        released.set()  # let the thread go
    assert hint.response_type == 5 and answer.ephemeral
    seconds = rummikub_cog.HINT_SECONDS
    assert answer.content == t("rummikub.hint.timeout", "en", seconds=seconds)


def test_the_public_check_sees_a_rack_tile() -> None:
    """The public check is no formality: a table naming one more tile fails it."""
    from bot.text.rummikub import table_body

    state = restore_state(position(REARRANGE_RACKS, REARRANGE_TABLE))
    body = table_body(state.view(None), ["alice", "민준"], "en")
    assert shown_tiles(f"```ansi\n{body}\n```") == table_tiles(state)
    leaked = body.replace("R8", "R8 R9", 1)
    assert shown_tiles(f"```ansi\n{leaked}\n```") != table_tiles(state)
