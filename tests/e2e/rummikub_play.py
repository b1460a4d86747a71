"""Rummikub as members play it in the e2e tests (tests/e2e/test_rummikub.py).

Reading the channel: the tiles a table's code block shows, checked against the committed
table it was drawn from (:func:`check_public`, :class:`Drawn`: never a rack tile or a staged
set in public). Acting like a member: opening a game, the Arrange box, the solver's move
played through it, and positions built for a test."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord, FakeMember, FakeMessage
from bot.i18n import language, t
from rules.rummikub import Draw, Meld, State
from rules.rummikub import restore as restore_state
from rules.rummikub.ai import choose_action
from rules.rummikub.tiles import parse_tile
from tests.e2e.deckhand_tables import answered_in_private, open_hand, to_play
from tests.language import foreign_lines, message_lines
from tests.phone import assert_fits_phone

if TYPE_CHECKING:
    from bot.client import DeckhandBot

BLOCK = re.compile(r"```ansi\n(.*?)\n```", re.DOTALL)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
TILE = re.compile(r"(?<![\w:])\+?([RBOK](?:1[0-3]|[1-9])|J)(?!\w)")


# -- reading the channel --------------------------------------------------------------------


def game_state(bot: DeckhandBot, channel_id: int) -> State:
    session = bot.sessions.get(channel_id)
    assert session is not None and isinstance(session.state, State)
    return session.state


def block_tiles(message: FakeMessage) -> Counter[str]:
    """The tiles a message's code block names (colour codes removed)."""
    return shown_tiles(message.content)


def shown_tiles(content: str) -> Counter[str]:
    """The tiles the sets of a table's code block name."""
    found = BLOCK.findall(content)
    assert found, content
    body = ANSI.sub("", found[-1])
    sets = body.split("\n\n")[0]  # the sets come first; the seats after a blank line
    return Counter(TILE.findall(sets))


def table_tiles(state: State) -> Counter[str]:
    return Counter(tile.code for tiles in state.table for tile in tiles)


def check_public(fake: FakeDiscord, message: FakeMessage, state: State) -> None:
    """The public table shows exactly the committed table: no rack or staged tile; within
    Discord's limits and 40 columns."""
    assert len(message.content) <= 2000
    assert_fits_phone(message.content)
    assert block_tiles(message) == table_tiles(state), message.content
    log = message.content.split("```")[0]
    named = Counter(TILE.findall(log))
    assert not named - table_tiles(state), (log, state.table)


class Drawn:
    """Every public table the bot drew, with the committed table it was drawn from: the scan
    of every public message checks each against its own table."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from bot.games.rummikub import RummikubAdapter

        self.tables: dict[str, Counter[str]] = {}
        drawing = RummikubAdapter.table

        def table(adapter: Any, view: Any, events: Any, names: Any, locale: str) -> Any:
            assert view.seat is None and view.rack == () and view.staged is None
            drawn = drawing(adapter, view, events, names, locale)
            tiles = Counter(tile.code for found in view.table for tile in found)
            self.tables[ANSI.sub("", drawn.body).split("\n\n")[0]] = tiles
            return drawn

        monkeypatch.setattr(RummikubAdapter, "table", table)

    def leaks(self, message: FakeMessage) -> list[str]:
        """What a public message shows that its table does not hold (a rack tile, a staged
        set); a table the bot never drew from a spectator's view is one."""
        found = BLOCK.findall(message.content)
        if not found:
            return [] if not TILE.findall(message.content) else ["tiles outside a table"]
        sets = ANSI.sub("", found[-1]).split("\n\n")[0]
        table = self.tables.get(sets)
        if table is None:
            return ["a table that is not a spectator's view"]
        log = Counter(TILE.findall(BLOCK.sub("", message.content)))
        return sorted((shown_tiles(message.content) - table) + (log - table))


def codes(tiles: Any) -> str:
    return " ".join(tile.code for tile in tiles)


async def arrange(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, text: str
) -> tuple[Any, str]:
    """Hand, then Arrange: the box's prefilled text; submit ``text``; the preview."""
    lang = language(member.locale)
    hand = await open_hand(fake, member, table, t("button.hand", "en"))
    shown = await fake.click(member, hand, t("button.rummikub.arrange", lang))
    assert shown.response_type == 9, shown.text
    modal = shown.interaction.response_data or {}
    prefilled = modal["components"][0]["components"][0].get("value", "")
    preview = await fake.submit_modal(member, shown, {"table": text})
    return preview, prefilled


async def play_by_solver(
    fake: FakeDiscord, bot: DeckhandBot, members: dict[int, FakeMember], turns: int
) -> FakeMessage:
    """Each member plays the solver's move through the Arrange box and Done (the preview's
    button, answered in the preview, the table posted; or the command, answered with the
    table), or draws by command; every public table is checked. The last table."""
    for turn in range(turns):
        table = await to_play(fake, bot, fake.channel)
        state = game_state(bot, fake.channel.id) if bot.sessions.get(fake.channel.id) else None
        if state is None:
            return table
        check_public(fake, table, state)
        seat = state.current_seat
        assert seat is not None
        session = bot.sessions.get(fake.channel.id)
        assert session is not None
        member = members[session.seats[seat].member_id or 0]
        action = choose_action(state.view(seat))
        if isinstance(action, Draw):
            drew = await fake.slash(member, fake.channel, "rummikub draw")
            assert not drew.ephemeral, drew.text
            continue
        assert isinstance(action, Meld)
        text = "\n".join(codes(tiles) for tiles in action.table)
        preview, _ = await arrange(fake, member, table, text)
        assert preview.ephemeral and preview.message is not None, preview.text
        assert not foreign_lines(message_lines(preview.message), language(member.locale))
        if turn % 2:
            done = await fake.click(
                member, preview.message, t("button.rummikub.done", language(member.locale))
            )
            await answered_in_private(fake, done, preview.message)
        else:
            done = await fake.slash(member, fake.channel, "rummikub done")
            assert not done.ephemeral, done.text
    raise AssertionError("the game did not end")


# -- opening a game and setting a position -------------------------------------------------


async def open_game(
    fake: FakeDiscord,
    members: list[FakeMember],
    seed: int | None,
    *,
    bots: int = 0,
    hints: bool = False,
) -> None:
    players = len(members) + bots
    chosen: dict[str, Any] = {} if seed is None else {"seed": seed}
    if hints:
        chosen["hints"] = "on"
    opened = await fake.slash(
        members[0], fake.channel, "rummikub start", players=players, bots=bots, **chosen
    )
    assert not opened.ephemeral, opened.text
    for member in members[1:]:
        joined = await fake.slash(member, fake.channel, "rummikub join")
        assert not joined.ephemeral, joined.text


def put_position(bot: DeckhandBot, channel_id: int, snapshot: dict[str, Any]) -> None:
    """Set the game to a position built for the test (saved with the next change)."""
    session = bot.sessions.get(channel_id)
    assert session is not None
    session.state = restore_state(snapshot)


def position(
    racks: list[list[str]],
    table: list[list[str]],
    *,
    melded: bool = True,
    turn: int = 0,
    hints: bool = False,
) -> dict[str, Any]:
    """A snapshot of a game with these racks and table; the rest of the tiles in the pool."""
    from rules import rummikub
    from rules.rummikub.tiles import FULL_SET

    state = rummikub.new(len(racks), seed=1, options={"hints": hints})
    state.racks = [[parse_tile(c) for c in rack] for rack in racks]
    state.table = [tuple(parse_tile(c) for c in tiles) for tiles in table]
    left = Counter(FULL_SET) - Counter(t for r in state.racks for t in r)
    left -= Counter(t for s in state.table for t in s)
    state.pool = sorted(left.elements())
    state.melded = [melded] * len(racks)
    state.turn = turn
    return state.snapshot()
