"""Reading and driving Deckhand's tables in e2e tests (any game): one place for finding the
table, waiting for it to settle, opening a hand and picking in its menus.

A table is the newest public message with live buttons; its buttons' custom ids carry the
game version (``dh:<channel>:<version>:<action>``, read with the patterns of
``cogs/common/ids.py``), so a test can wait for the table of the session's current version
instead of sleeping.
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.fakediscord import FakeChannel, FakeDiscord, FakeMember, FakeMessage, InteractionResult
from bot.i18n import language, t
from cogs.common.ids import parse_button_id
from cogs.common.ids import version_of as version_of_id

if TYPE_CHECKING:
    from bot.client import DeckhandBot

__all__ = [
    "CALLBACK",
    "answered_in_private",
    "answered_table",
    "answered_with_private",
    "blackjack_seed",
    "button_action",
    "code_block",
    "hole_card",
    "latest_table",
    "leave_game",
    "live_tables",
    "member_move",
    "members_turn",
    "menu_of",
    "open_hand",
    "open_table",
    "owner_of",
    "pick_in_menus",
    "play_to_the_end",
    "recorded",
    "settled",
    "to_play",
    "version_of",
    "whose_turn",
]

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
CODE_BLOCK = re.compile(r"```[a-z]*\n(.*?)\n```", re.DOTALL)


def version_of(message: FakeMessage) -> int | None:
    """The game version a message's buttons and menus carry (``cogs/common/ids.py``)."""
    for item in message.items():
        version = version_of_id(str(item.get("custom_id", "")))
        if version is not None:
            return version
    return None


def button_action(button: dict[str, Any]) -> str:
    """A Deckhand button's action (``dh:<channel>:<version>:<action>``), whatever its label
    says in the reader's language; ``""`` for any other component."""
    try:
        return parse_button_id(str(button.get("custom_id", "")))[2]
    except ValueError:
        return ""


def code_block(text: str) -> str:
    """The last code block of a message (a table's body)."""
    found = CODE_BLOCK.findall(text)
    assert found, text
    return str(found[-1])


def live_tables(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    """The channel's public messages that still have buttons, oldest first."""
    return [m for m in fake.public_messages(channel) if m.buttons]


def latest_table(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """The newest public message with live buttons (older tables lose theirs)."""
    tables = live_tables(fake, channel)
    assert tables, "no table with buttons in the channel"
    return tables[-1]


def _table(
    fake: FakeDiscord, bot: DeckhandBot, channel: FakeChannel, *, to_play: bool, restarted: bool
) -> FakeMessage | None:
    live = live_tables(fake, channel)
    if not live or (len(live) > 1 and not restarted):
        return None
    newest = live[-1]
    session = bot.sessions.get(channel.id)
    if session is not None:
        if version_of(newest) != session.version:
            return None
        if to_play:
            if session.state is None:
                return None
            seat = session.state.current_seat
            if seat is not None and session.seats[seat].computer:
                return None  # the computer's move is on its way
    elif to_play:
        finished = bot.sessions.finished.get(channel.id)
        if finished is None or version_of(newest) != finished.version:
            return None
    return newest


async def settled(fake: FakeDiscord, bot: DeckhandBot, channel: FakeChannel) -> FakeMessage:
    """Wait until the table of the session's current version is posted and the older ones
    are stripped; return it."""
    return await fake.wait_for(lambda: _table(fake, bot, channel, to_play=False, restarted=False))


async def to_play(
    fake: FakeDiscord,
    bot: DeckhandBot,
    channel: FakeChannel,
    *,
    restarted: bool = False,
    within: float = 20.0,
) -> FakeMessage:
    """Wait until a member is to move (the computers have played: a search may think for
    seconds, hence the long ``within``) and return the table of the session's version, or
    the final table once the game is over; older tables have lost their buttons by then.
    ``restarted``: the last table before a restart keeps its buttons (the store knows the id
    of the table before it only), so only the newest is looked at."""
    return await fake.wait_for(
        lambda: _table(fake, bot, channel, to_play=True, restarted=restarted), within=within
    )


def whose_turn(bot: DeckhandBot, channel: FakeChannel) -> int | None:
    """The member id whose turn it is (``None``: no game, game over, or a computer's turn)."""
    session = bot.sessions.get(channel.id)
    if session is None or session.state is None or session.state.current_seat is None:
        return None
    seat = session.seats[session.state.current_seat]
    return None if seat.computer else seat.member_id


async def open_table(
    fake: FakeDiscord,
    bot: DeckhandBot,
    host: FakeMember,
    others: list[FakeMember],
    *,
    bots: int = 0,
    seed: int | None = None,
    fair: bool = False,
) -> FakeMessage:
    """``host`` opens a Blackjack table for ``others`` plus ``bots`` computers; all join.

    Without a ``seed`` the first seed whose deal does not end the game at once is used;
    ``fair``: no seed at all (the bot's own, a counted game; see tests.deals.fair_blackjack_deals).
    """
    players = 1 + len(others) + bots
    seed = blackjack_seed(players) if seed is None else seed
    options: dict[str, Any] = {"players": players, "bots": bots}
    if not fair:
        options["seed"] = seed
    opened = await fake.slash(host, fake.channel, "blackjack start", **options)
    assert not opened.ephemeral, opened.text
    for i, member in enumerate(others):
        if i % 2:
            joined = await fake.slash(member, fake.channel, "blackjack join")
        else:
            joined = await fake.click(member, latest_table(fake, fake.channel), "Join")
        assert not joined.ephemeral, joined.text
    return await settled(fake, bot, fake.channel)


async def play_to_the_end(
    fake: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> FakeMessage:
    """Each member hits once then stands; computers play themselves. The final table."""
    by_id = {m.id: m for m in members}
    hits: set[int] = set()
    for _ in range(200):
        table = await settled(fake, bot, fake.channel)
        member_id = whose_turn(bot, fake.channel)
        if member_id is None:
            return table
        label = "Stand" if member_id in hits else "Hit"
        hits.add(member_id)
        result = await fake.click(by_id[member_id], table, label)
        assert not result.ephemeral, result.text
    raise AssertionError("the game did not end")


def blackjack_seed(players: int) -> int:
    """The first seed whose deal for ``players`` seats does not end the game at once (the
    House's first two cards making 21 ends it, Blackjack rule 4), so tests are repeatable."""
    from rules.blackjack import new

    return next(seed for seed in range(1000) if not new(players, seed=seed).is_over)


def hole_card(players: int, seed: int) -> str:
    """The House's face-down card in the seeded game (read from the engine, never shown)."""
    from rules.blackjack import new
    from rules.cards import STANDARD_DECK

    return str(STANDARD_DECK[new(players, seed=seed).snapshot()["house"][0]].code)


async def leave_game(
    fake: FakeDiscord, member: FakeMember, channel: FakeChannel, game: str
) -> InteractionResult:
    """``/<game> leave`` as a member does it: in a running game the bot asks first (an
    ephemeral question with one button), and the member confirms; in a lobby it is at once.
    The answer that left."""
    asked = await fake.slash(member, channel, f"{game} leave")
    if not asked.ephemeral or asked.message is None or not asked.message.components:
        return asked
    label = t("button.leave_confirmed", language(member.locale))
    return await fake.click(member, asked.message, label)


def members_turn(bot: DeckhandBot, channel: FakeChannel, member: FakeMember) -> bool | None:
    """Whether it is ``member``'s move or the game is over (``None``: computers play on)."""
    session = bot.sessions.get(channel.id)
    state = None if session is None else session.state
    if state is None or state.is_over:
        return True
    return whose_turn(bot, channel) == member.id or None


async def member_move(
    fake: FakeDiscord,
    bot: DeckhandBot,
    member: FakeMember,
    channel: FakeChannel,
    rng: random.Random,
) -> list[InteractionResult] | None:
    """The member makes a move of any game as a player would: from the private hand's menu
    or buttons, else with a button of the table; what the bot answered (``None``: no game
    on, nothing done)."""
    session = bot.sessions.get(channel.id)
    if session is None or session.state is None or session.state.is_over:
        return None
    table = latest_table(fake, channel)
    hand = await fake.slash(member, channel, f"{session.game} hand")
    message = hand.message
    menus = [] if message is None else [c for c in message.items() if c.get("type") == 3]
    if menus and message is not None:
        values = [str(option["value"]) for option in menus[0].get("options", [])]
        picked = await fake.select(member, message, menus[0]["custom_id"], [rng.choice(values)])
        return [hand, picked]
    if message is not None and message.buttons:  # Rummikub: Draw, Done …
        button = rng.choice(message.buttons)
        return [hand, await fake.click(member, message, str(button["custom_id"]))]
    moves = [b for b in table.buttons if button_action(b) not in ("leave", "hand")]
    button = rng.choice(moves)
    return [hand, await fake.click(member, table, str(button["custom_id"]))]


async def open_hand(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, label: str = "Hand"
) -> FakeMessage:
    """The member's private hand, opened with the table's Hand button (``label``: in the
    table's language)."""
    hand = await fake.click(member, table, label)
    assert hand.ephemeral and hand.message is not None, hand.text
    return hand.message


async def answered_table(fake: FakeDiscord, result: InteractionResult) -> FakeMessage:
    """The public table (or notice) a move answered with: the answer itself, or, for a move
    answered in private, the bot's post right after it: a move made from a private message
    (a hand's menu or buttons, a private question's button), answered in that message (type
    7; Discord would draw a public answer to a private message as a reply nobody else can
    open), or a move with something for the member alone (a drawn card), answered with it
    (an ephemeral type 4; after a deferred update, 6, an ephemeral follow-up: a click on a
    table the bot posted with its own token, which the click adopts)."""
    if not result.ephemeral and result.message is not None:
        return result.message
    assert result.response_type in (4, 6, 7) and result.ephemeral, result
    inter = result.interaction
    return await fake.wait_for_message(
        inter.channel, lambda m: m.author.id == fake.bot_user.id, after=inter.id
    )


async def answered_in_private(
    fake: FakeDiscord, result: InteractionResult, private: FakeMessage | None = None
) -> FakeMessage:
    """A move made from a private message (``private``, when the test holds it): its answer is
    that message updated in place (type 7), still the member's alone, and the table (or
    notice) it made reached the channel as the bot's public post; that post."""
    assert result.response_type == 7 and result.ephemeral, result
    updated = result.message
    assert updated is not None and updated.visible_to == result.interaction.member.id, result
    if private is not None:
        assert updated.id == private.id, (updated.id, private.id)
    table = await answered_table(fake, result)
    assert not table.ephemeral and table.author.id == fake.bot_user.id, table
    return table


async def answered_with_private(fake: FakeDiscord, result: InteractionResult) -> FakeMessage:
    """A move made by command or with a button of the public table that has something to tell
    the member alone (a drawn card, a choice the move leaves them): its answer is that, in a
    new message for the member alone (an ephemeral type 4; or, a click the table's message
    adopted, 6, its first follow-up), and the table (or notice) it made reached the channel as
    the bot's public post; that post."""
    assert result.response_type in (4, 6) and result.ephemeral, result
    told = result.message
    assert told is not None and told.visible_to == result.interaction.member.id, result
    table = await answered_table(fake, result)
    assert not table.ephemeral and table.author.id == fake.bot_user.id, table
    return table


def menu_of(message: FakeMessage) -> dict[str, Any]:
    """The one select menu of a message."""
    menus = [c for c in message.items() if c.get("type") == 3]
    assert len(menus) == 1, message.items()
    return menus[0]


async def pick_in_menus(
    fake: FakeDiscord, member: FakeMember, message: FakeMessage, values: list[str]
) -> Any:
    """Pick ``values`` in a menu and the menus that follow it (One Card's 7 asks for the
    suit, a wild card for its colour); the last pick's result."""
    picked: Any = None
    for i, value in enumerate(values):
        picked = await fake.select(member, message, menu_of(message)["custom_id"], [value])
        if i < len(values) - 1:
            assert picked.ephemeral and picked.message is not None, picked.text
            message = picked.message
    return picked


def owner_of(fake: FakeDiscord) -> FakeMember:
    """The guild's owner, who has every permission (Manage Server included)."""
    return fake.guild.members[fake.owner.id]


def recorded(db_path: Path) -> list[tuple[int | None, str, int | None]]:
    """Every seat result stored: (member, outcome, who ended the game)."""
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT s.member_id, s.outcome, f.ended_by FROM seat_results s"
            " JOIN finished_games f ON f.id = s.finished_id ORDER BY f.id, s.seat"
        ).fetchall()
