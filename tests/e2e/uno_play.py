"""Uno as members play it in the e2e tests (tests/e2e/test_uno.py): the move the computer
would make in a seat, made through what a member can use (the Hand select, the table's
buttons, ``/uno`` commands); tables rigged to a deal set by hand; and the scan of public text
for a card of a hand (only the played cards and the top card may be named in public)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from bot.fakediscord import FakeDiscord, FakeMember, FakeMessage
from bot.i18n import t
from bot.text import uno as render
from rules.engine import Action
from rules.uno import (
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Pass,
    Play,
    State,
)
from rules.uno.ai import choose_action
from rules.uno.cards import CARD_CODES, COLOUR_NAMES
from tests.e2e.deckhand_tables import (
    answered_in_private,
    answered_with_private,
    live_tables,
    open_hand,
    pick_in_menus,
    settled,
    whose_turn,
)

if TYPE_CHECKING:
    from bot.client import DeckhandBot


ANSI = re.compile(r"\x1b\[[0-9;]*m")
CARD_CODE = re.compile(r"\b(?:red|green|blue|yellow|none)_(?:\d|\+2|R\b|S\b|W)")
ALL_RULES = {
    "stacking": True,
    "draw_until_playable": True,
    "jump_in": True,
    "seven_zero": True,
    "uno_call": True,
}
CARD_NAMES = sorted(
    {render.card_name(code, lang) for code in set(CARD_CODES) for lang in ("en", "ko")}
    | {
        render.card_name(f"{colour}_{rank}", lang)
        for colour in ("red", "yellow", "green", "blue")
        for rank in ("W", "W+4")
        for lang in ("en", "ko")
    },
    key=len,
    reverse=True,
)
# The seed of the next fair deal: test_uno.py's fixture deals from its last one.
NEXT_DEAL: list[int] = []


def state_of(bot: DeckhandBot, channel_id: int) -> State:
    session = bot.sessions.get(channel_id)
    assert session is not None and isinstance(session.state, State)
    return session.state


def public_cards(text: str) -> list[str]:
    """Card names in a public message outside the lines allowed to name one (a card
    played, the top card, the first card turned): a card anywhere else would be a hand's."""
    found = []
    allowed = (
        r"played |jumped in with |냈어요|끼어들었어요|^Top: |^맨 위: |^First card: |^첫 카드: "
    )
    for line in ANSI.sub("", text).splitlines():
        if re.search(allowed, line):
            continue
        rest = line
        for name in CARD_NAMES:
            if name in rest:
                found.append(name)
                rest = rest.replace(name, "")
    return found


def state_of_finished(bot: DeckhandBot, channel_id: int) -> State:
    finished = bot.sessions.finished.get(channel_id)
    assert finished is not None and isinstance(finished.state, State)
    return finished.state


async def by_hand_menu(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, *values: str
) -> Any:
    """Hand, then ``values`` in its menu and the menus after it (a wild's colour, a 7's
    target)."""
    return await pick_in_menus(fake, member, await open_hand(fake, member, table), list(values))


async def make_move(
    fake: FakeDiscord, bot: DeckhandBot, member: FakeMember, action: Action, turn: int
) -> Any:
    """``action`` as a member makes it: the Hand select, buttons, or commands, in turn; the
    answer once the move's table is in the channel. A pick in the hand's menu is answered in
    the hand (type 7), a command or a table's button with the table, or, with something
    for the member alone (the drawn card, a hand revealed), with that, privately."""
    result = await _make_move(fake, bot, member, action, turn)
    from_hand = isinstance(action, ChooseColour) or (isinstance(action, Play) and not turn % 2)
    if from_hand:
        await answered_in_private(fake, result)
    elif result.ephemeral:
        await answered_with_private(fake, result)
    return result


async def _make_move(
    fake: FakeDiscord, bot: DeckhandBot, member: FakeMember, action: Action, turn: int
) -> Any:
    state = state_of(bot, fake.channel.id)
    seat = state.turn
    view = state.view(seat)
    table = await settled(fake, bot, fake.channel)
    if isinstance(action, Play):
        code = (view.hand or ())[action.index]
        colour = None if action.colour is None else COLOUR_NAMES[action.colour]
        if turn % 2:
            return await fake.slash(
                member,
                fake.channel,
                "uno play",
                card=code,
                **({"colour": colour} if colour else {}),
                **({"target": action.target + 1} if action.target is not None else {}),
            )
        values = [code]
        if colour is not None or action.target is not None:
            values.append(colour if colour is not None else str(action.target))
        return await by_hand_menu(fake, member, table, *values)
    if isinstance(action, Draw):
        label = t("uno.take_n", "en", n=view.pending) if view.pending else t("uno.draw", "en")
        return await fake.click(member, table, label)
    if isinstance(action, Pass):
        return await fake.slash(member, fake.channel, "uno pass")
    if isinstance(action, CallUno):
        return await fake.slash(member, fake.channel, "uno uno")
    if isinstance(action, Challenge):
        return await fake.click(member, table, t("uno.challenge", "en"))
    if isinstance(action, CatchUno):
        return await fake.click(member, table, t("uno.catch", "en"))
    if isinstance(action, ChooseColour):
        return await by_hand_menu(fake, member, table, f"={COLOUR_NAMES[action.colour]}")
    raise AssertionError(action)


async def final_table(fake: FakeDiscord) -> FakeMessage:
    """The round's final table: the one message left with a button, Deal again."""

    def ready() -> FakeMessage | None:
        live = live_tables(fake, fake.channel)
        return live[0] if len(live) == 1 and live[0].button_labels == ["Deal again"] else None

    return await fake.wait_for(ready)


async def play_round(fake: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]) -> int:
    """Each member plays what the computer would in their seat; the moves made."""
    by_id = {m.id: m for m in members}
    for turn in range(600):
        if bot.sessions.get(fake.channel.id) is None:
            return turn
        await settled(fake, bot, fake.channel)
        member_id = whose_turn(bot, fake.channel)
        if member_id is None:
            return turn
        state = state_of(bot, fake.channel.id)
        action = choose_action(state.view(state.turn))
        answer = await make_move(fake, bot, by_id[member_id], action, turn)
        if answer.ephemeral:
            # A private answer (the drawn card, a revealed hand, the hand after a pick in its
            # menu) is fine, its table posted (make_move waited for it); a refusal is not.
            assert state_of(bot, fake.channel.id).log, answer.text
    raise AssertionError("the round did not end")


async def open_rigged(
    fake: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
    hands: list[list[str]],
    top: str,
    **options: Any,
) -> State:
    """Three members at a table whose hands and top card are ``hands`` and ``top`` (codes),
    alice to play; the rest of the deck is the draw pile."""
    NEXT_DEAL.append(5)
    opened = await fake.slash(members[0], fake.channel, "uno start", players=3, **options)
    assert not opened.ephemeral, opened.text
    await fake.slash(members[1], fake.channel, "uno join")
    await fake.slash(members[2], fake.channel, "uno join")
    await settled(fake, bot, fake.channel)
    state = state_of(bot, fake.channel.id)
    free = list(range(len(CARD_CODES)))

    def take(code: str) -> int:
        card = next(c for c in free if CARD_CODES[c] == code)
        free.remove(card)
        return card

    state.hands = [[take(code) for code in hand] for hand in hands]
    state.discard = [take(top)]
    state.colour = COLOUR_NAMES.index(top.partition("_")[0])
    state.pile = free
    state._unshuffled = len(free)  # the pile is shuffled as it is drawn
    state.turn = 0
    state.direction = 1
    return state


def log_text(fake: FakeDiscord) -> str:
    return "\n".join(ANSI.sub("", m.text) for m in fake.public_messages(fake.channel))
