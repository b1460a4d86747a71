"""The shared cog helpers: button ids, views and how refusals and failures are answered."""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.games import MAX_OPTIONS, Control, GameCatalog, Menu, Option
from bot.i18n import catalog, t
from bot.sessions import Player, Post, SessionError, SessionRegistry
from bot.settings import Settings
from bot.store import StoreUnavailable
from bot.store.memory import MemoryStore
from cogs.common.buttons import GameButton, MoveMenu, build_view, mentions, menu_select
from cogs.common.ids import (
    BUTTON_TEMPLATE,
    CUSTOM_ID_LIMIT,
    MENU_TEMPLATE,
    button_id,
    menu_id,
    parse_button_id,
)
from cogs.common.respond import guarded
from rules.engine import IllegalAction
from tests.bot.sessions.harness import ALICE, BOB, CHANNEL, FakePoster
from tests.reference_game import CountAdapter

BIG_CHANNEL = 2**64 - 1  # the largest snowflake


@pytest.mark.parametrize(
    ("channel", "version", "action", "arg"),
    [
        (123, 1, "hit", None),
        (BIG_CHANNEL, 10**12 - 1, "a" * 20, "x" * 40),
        (42, 7, "play", "♠10"),
        (42, 7, "deal_again", None),
    ],
)
def test_custom_id_round_trips_and_fits(
    channel: int, version: int, action: str, arg: str | None
) -> None:
    text = button_id(channel, version, action, arg)
    assert len(text) <= CUSTOM_ID_LIMIT
    assert parse_button_id(text) == (channel, version, action, arg)
    assert text.startswith(f"dh:{channel}:{version}:{action}")


@pytest.mark.parametrize(
    ("action", "arg"), [("Hit", None), ("a" * 21, None), ("hit", "x" * 41), ("hit", "a:b")]
)
def test_custom_ids_that_would_not_parse_are_refused(action: str, arg: str | None) -> None:
    with pytest.raises(ValueError):
        button_id(1, 1, action, arg)


def test_foreign_custom_ids_do_not_match() -> None:
    for text in ("persistent_view:green", "dh:1:x:hit", "dh:1:2", "xdh:1:2:hit"):
        with pytest.raises(ValueError):
            parse_button_id(text)


async def test_a_button_is_rebuilt_from_its_custom_id() -> None:
    text = button_id(55, 9, "stand")
    match = re.fullmatch(BUTTON_TEMPLATE, text)
    assert match is not None
    button = await GameButton.from_custom_id(None, None, match)  # type: ignore[arg-type]
    assert (button.channel_id, button.version, button.action, button.arg) == (55, 9, "stand", None)
    assert button.custom_id == text


@pytest.mark.parametrize("step", [None, "♦7", "x" * 40])
def test_menu_ids_fit_round_trip_and_never_reach_the_button(step: str | None) -> None:
    longest_game = "a" * 12
    text = menu_id(BIG_CHANNEL, 10**12 - 1, longest_game, step)
    assert len(text) <= CUSTOM_ID_LIMIT
    match = re.fullmatch(MENU_TEMPLATE, text)
    assert match is not None and (match["game"], match["step"]) == (longest_game, step)
    assert re.fullmatch(BUTTON_TEMPLATE, text) is None
    assert re.fullmatch(MENU_TEMPLATE, button_id(1, 2, "hit", "x")) is None
    with pytest.raises(ValueError):
        menu_id(1, 1, "onecard", "x" * 41)


async def test_a_menu_is_rebuilt_from_its_custom_id_with_its_step() -> None:
    menu = Menu("pick", (Option("[♠ 7]", "♠7", "then a suit"), Option("Take", "take")), "♦7")
    select = menu_select(55, 9, "onecard", menu)
    assert select.custom_id == "dh:55:9:onecard-menu:♦7"
    assert [(o.label, o.value, o.description) for o in select.options] == [
        ("[♠ 7]", "♠7", "then a suit"),
        ("Take", "take", None),
    ]
    match = re.fullmatch(MENU_TEMPLATE, select.custom_id)
    assert match is not None
    rebuilt = await MoveMenu.from_custom_id(None, select, match)  # type: ignore[arg-type]
    assert (rebuilt.channel_id, rebuilt.version, rebuilt.game, rebuilt.step) == (
        55,
        9,
        "onecard",
        "♦7",
    )


def test_a_menu_never_offers_more_than_discord_allows() -> None:
    options = tuple(Option(f"card {i}", f"c{i}") for i in range(30))
    select = menu_select(55, 9, "uno", Menu("Pick", options))
    assert [o.value for o in select.options] == [f"c{i}" for i in range(MAX_OPTIONS)]


def test_build_view_puts_the_menu_first_then_the_buttons() -> None:
    menu = Menu("pick", (Option("a", "a"),))
    post = Post(77, 5, "hand", (Control("take", "button.hand"),), "en", "onecard", menu=menu)
    view = build_view(post)
    assert view is not None
    rows = view.to_components()
    assert [[c["type"] for c in row["components"]] for row in rows] == [[3], [2]]
    assert rows[0]["components"][0]["custom_id"] == "dh:77:5:onecard-menu"
    assert build_view(Post(77, 5, "h", (), "en", "onecard", menu=menu)) is not None


def test_the_components_are_what_discord_py_makes_of_the_items() -> None:
    """Built straight from the post, the payload is the one a view of the items gives:
    same fields, the menu on its own row, buttons five to a row."""
    menu = Menu("pick", (Option("a", "a", "first"), Option("b", "b")))
    controls = tuple(
        Control("play", "button.hit", ("primary", "secondary", "success", "danger")[i % 4], str(i))
        for i in range(7)
    )
    post = Post(77, 5, "table", controls, "ko", "uno", menu=menu)
    items = discord.ui.View(timeout=None)
    items.add_item(MoveMenu(menu_select(77, 5, "uno", menu)))
    for control in controls:
        items.add_item(
            GameButton(
                77,
                5,
                control.action,
                control.arg,
                label="히트",
                style=discord.ButtonStyle[control.style],
            )
        )
    view = build_view(post)
    assert view is not None
    assert view.to_components() == items.to_components()
    too_many = Post(77, 5, "table", controls * 4, "en", "uno", menu=menu)
    with pytest.raises(ValueError, match="rows"):
        build_view(too_many)


def test_only_the_member_whose_turn_starts_is_pinged() -> None:
    nobody = mentions(None)
    assert nobody.users is False and nobody.everyone is False and nobody.roles is False
    one = mentions(42)
    assert [user.id for user in one.users] == [42]  # type: ignore[union-attr]
    assert one.everyone is False and one.roles is False


def test_build_view_translates_labels_and_encodes_the_version() -> None:
    post = Post(
        77,
        5,
        "table",
        (Control("hand", "button.hand"), Control("hit", "button.hit", "primary")),
        "ko",
    )
    view = build_view(post)
    assert view is not None and view.timeout is None
    [row] = view.to_components()
    buttons = row["components"]
    assert [b["label"] for b in buttons] == [catalog("ko")["button.hand"], "히트"]
    assert [b["custom_id"] for b in buttons] == ["dh:77:5:hand", "dh:77:5:hit"]
    assert buttons[1]["style"] == discord.ButtonStyle.primary.value
    assert build_view(Post(77, 5, "over", (), "en")) is None


class FakeResponse:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str, **options: Any) -> None:
        self.sent.append((content, options))


def interaction(locale: discord.Locale = discord.Locale.american_english) -> Any:
    sessions = SimpleNamespace(get=lambda channel_id: None)
    return SimpleNamespace(
        message=None,
        locale=locale,
        guild_locale=None,
        channel_id=10,
        guild_id=1,
        client=SimpleNamespace(sessions=sessions, is_closed=lambda: False),
        response=FakeResponse(),
    )


async def test_a_session_refusal_is_an_ephemeral_sentence_in_the_members_language() -> None:
    clicked = interaction(discord.Locale.korean)

    async def work() -> None:
        raise SessionError("error.not_your_turn")

    await guarded(clicked, work, what="test")
    assert clicked.response.sent == [("지금은 내 차례가 아니에요.", {"ephemeral": True})]


async def test_an_engine_refusal_falls_back_to_its_reason() -> None:
    clicked = interaction()

    async def work() -> None:
        raise IllegalAction("You don't have ♠7.", code="not_in_hand_xyz", card="♠7")

    await guarded(clicked, work, what="test")
    assert clicked.response.sent == [("You don't have ♠7.", {"ephemeral": True})]


async def test_a_database_out_of_reach_is_nothing_changed_try_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clicked = interaction(discord.Locale.korean)

    async def work() -> None:
        raise StoreUnavailable("cannot use SQLite database data/deckhand.db: database is locked")

    with caplog.at_level(logging.WARNING):
        await guarded(clicked, work, what="/stats")
    assert clicked.response.sent == [(t("error.storage", "ko"), {"ephemeral": True})]
    assert "/stats: the store is unavailable" in caplog.text
    assert "Traceback" not in caplog.text  # expected while the database is down: no stack


async def test_a_bug_is_logged_with_context_and_answered_politely(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clicked = interaction()

    async def work() -> None:
        raise RuntimeError("boom")

    with caplog.at_level(logging.ERROR):
        await guarded(clicked, work, what="/blackjack hit")
    assert clicked.response.sent == [
        ("Something went wrong; the game is unchanged.", {"ephemeral": True})
    ]
    assert "/blackjack hit failed in channel 10" in caplog.text


# -- a click through the real session code, with a fake interaction ------------------------


class RecordingResponse(FakeResponse):
    """Notes what the store held at the moment the bot answered Discord."""

    def __init__(self, store: MemoryStore) -> None:
        super().__init__()
        self.store = store
        self.stored_versions: list[int] = []

    async def send_message(self, content: str, **options: Any) -> Any:
        self.stored_versions += [game.version for game in await self.store.load_active()]
        await super().send_message(content, **options)
        return SimpleNamespace(message_id=9000 + len(self.sent))


async def count_table() -> tuple[SessionRegistry, MemoryStore]:
    store = MemoryStore()
    games = GameCatalog()
    games.register(CountAdapter())
    registry = SessionRegistry(
        store=store,
        settings=Settings(_env_file=None),  # type: ignore[call-arg]
        games=games,
    )
    await registry.open_lobby(CHANNEL, 1, "count", ALICE, players=2)
    await registry.join(CHANNEL, BOB)
    return registry, store


class FakeFollowup:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def send(self, content: str, **options: Any) -> None:
        self.sent.append((content, options))


def clicker(
    registry: SessionRegistry, store: MemoryStore, member: Player, channel: int = CHANNEL
) -> Any:
    return SimpleNamespace(
        message=None,  # a slash command's; a click on a table sets it (see tests/e2e)
        followup=FakeFollowup(),
        locale=discord.Locale.american_english,
        guild_locale=None,
        channel_id=channel,
        guild_id=1,
        user=SimpleNamespace(id=member.id, display_name=member.name),
        client=SimpleNamespace(sessions=registry, store=store, is_closed=lambda: False),
        response=RecordingResponse(store),
    )


async def test_a_click_is_saved_before_discord_hears_back() -> None:
    registry, store = await count_table()
    session = registry.get(CHANNEL)
    assert session is not None
    version = session.version
    poster = FakePoster()
    registry.poster = poster
    click = clicker(registry, store, ALICE)
    await GameButton(CHANNEL, version, "add", "2").callback(click)
    # What the game tells the mover alone is the click's answer, ephemeral, in their
    # language (never a follow-up a webhook limit could hold back), then the table is posted.
    [(private, options)] = click.response.sent
    assert private.startswith("en: only Alice sees this") and options["ephemeral"] is True
    assert click.response.stored_versions == [version + 1]  # saved before the answer
    assert click.followup.sent == []
    [posted] = poster.posts
    assert posted.version == version + 1 and posted.content.startswith("Alice +2")
    assert session.message_id == poster.next_id
    await registry.close()


async def test_a_menu_of_another_game_at_the_same_version_is_out_of_date() -> None:
    registry, store = await count_table()
    session = registry.get(CHANNEL)
    assert session is not None
    menu = MoveMenu(
        menu_select(CHANNEL, session.version, "onecard", Menu("p", (Option("1", "1"),)))
    )
    click = clicker(registry, store, ALICE)
    await menu.callback(click)
    assert click.response.sent == [(t("error.stale_button", "en"), {"ephemeral": True})]
    await registry.close()


async def test_stale_wrong_channel_and_out_of_turn_clicks_change_nothing() -> None:
    registry, store = await count_table()
    session = registry.get(CHANNEL)
    assert session is not None
    version = session.version
    cases = [
        (GameButton(CHANNEL, version - 1, "add", "1"), ALICE, CHANNEL, "error.stale_button"),
        (GameButton(CHANNEL, version, "add", "1"), ALICE, CHANNEL + 1, "error.wrong_channel"),
        (GameButton(CHANNEL, version, "add", "1"), BOB, CHANNEL, "error.not_your_turn"),
    ]
    for button, member, channel, key in cases:
        click = clicker(registry, store, member, channel)
        await button.callback(click)
        assert click.response.sent == [(t(key, "en"), {"ephemeral": True})]
    assert session.version == version
    [stored] = await store.load_active()
    assert stored.version == version
    await registry.close()


class RefusingResponse(RecordingResponse):
    """Discord will not take the answer (a 5xx after discord.py's retries, or a lost token)."""

    async def send_message(self, content: str, **options: Any) -> Any:
        self.stored_versions += [game.version for game in await self.store.load_active()]
        self.refused = getattr(self, "refused", 0) + 1
        raise discord.DiscordServerError(SimpleNamespace(status=500, reason="down"), "down")


async def test_a_saved_move_discord_would_not_answer_is_posted_in_the_channel() -> None:
    registry, store = await count_table()
    poster = FakePoster()
    registry.poster = poster
    session = registry.get(CHANNEL)
    assert session is not None
    version, previous = session.version, 4000
    session.message_id = previous
    click = clicker(registry, store, ALICE)
    click.response = RefusingResponse(store)
    await GameButton(CHANNEL, version, "add", "2").callback(click)
    assert click.response.stored_versions[0] == version + 1  # the move was saved
    # The table reached the channel as a plain message and is now the live one.
    [posted] = poster.posts
    assert posted.version == version + 1 and posted.content.startswith("Alice +2")
    assert session.message_id == poster.next_id
    assert poster.stripped == [previous]
    # The answer tried was what the game tells the mover alone, refused: never "unchanged".
    assert click.response.refused == 1
    await registry.close()


async def test_lobby_buttons_of_an_older_message_are_out_of_date() -> None:
    registry, store = await count_table()  # the lobby filled up and the game was dealt
    session = registry.get(CHANNEL)
    assert session is not None
    version = session.version
    lobby_version = version - 1
    for action, member in (("leave", BOB), ("cancel", ALICE), ("join", BOB), ("start", ALICE)):
        click = clicker(registry, store, member)
        click.permissions = SimpleNamespace(manage_messages=True)
        await GameButton(CHANNEL, lobby_version, action).callback(click)
        assert click.response.sent == [(t("error.stale_button", "en"), {"ephemeral": True})]
    assert registry.get(CHANNEL) is session and session.version == version
    assert session.computer_seats == []
    await registry.close()


async def test_a_saved_notice_discord_would_not_answer_is_posted_in_the_channel() -> None:
    store = MemoryStore()
    games = GameCatalog()
    games.register(CountAdapter())
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    registry = SessionRegistry(store=store, settings=settings, games=games)
    poster = FakePoster()
    registry.poster = poster
    lobby = await registry.open_lobby(CHANNEL, 1, "count", ALICE, players=2)
    assert lobby.post is not None
    click = clicker(registry, store, ALICE)
    click.permissions = SimpleNamespace(manage_messages=False)
    click.response = RefusingResponse(store)
    await GameButton(CHANNEL, lobby.post.version, "cancel").callback(click)
    assert registry.get(CHANNEL) is None and await store.load_active() == []
    [posted] = poster.posts
    closed = t("lobby.cancelled_by", "en", member=f"<@{ALICE.id}>")
    assert posted.content == closed and posted.controls == ()
    assert click.response.refused == 2  # the answer, then "it was saved"
    await registry.close()


async def test_an_answer_cut_short_by_the_bot_shutting_down_is_no_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At a stop, answers still in flight meet a closed HTTP session: a WARNING each (the
    move was saved and its table is posted again at the restart), not an ERROR with a
    traceback; the same failure while the bot runs is an ERROR."""
    closed = {"now": True}
    client = SimpleNamespace(is_closed=lambda: closed["now"], sessions=SimpleNamespace(
        get=lambda channel_id: None, poster=None
    ))  # fmt: skip
    sent: list[str] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, text: str, **_: Any) -> None:
            sent.append(text)

    interaction: Any = SimpleNamespace(
        client=client, locale="en-US", guild_locale=None, channel_id=1, guild_id=2,
        response=Response(), followup=None,
    )  # fmt: skip

    async def cut() -> None:
        raise RuntimeError("Session is closed")

    caplog.set_level(logging.WARNING)
    await guarded(interaction, cut, what="/uno play")
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "shutting down" in caplog.records[0].getMessage() and sent == []
    closed["now"] = False
    caplog.clear()
    await guarded(interaction, cut, what="/uno play")
    assert [r.levelname for r in caplog.records] == ["ERROR"]
    assert sent == [t("error.unexpected", "en")]
