"""The GameStore contract, run on every backend (see conftest.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store._common import decode, encode
from bot.store.base import ActiveGame, GameStore, GuildSettings, SeatResult, VersionConflict
from tests.bot.store.conftest import Opener

GUILD = 111
OTHER_GUILD = 222
ALICE, BOB, CAROL = 1001, 1002, 1003


def game(channel: int = 10, version: int = 1, **data: Any) -> ActiveGame:
    return ActiveGame(
        channel_id=channel,
        guild_id=GUILD,
        game="onecard",
        version=version,
        data={"seats": [ALICE, None], "hand": ["♠A", "JKB"], "deadline": 1.5, **data},
    )


def seats(*outcomes: tuple[int | None, str]) -> list[SeatResult]:
    return [
        SeatResult(seat=i, member_id=member, outcome=outcome, score=10 * i, rank=i + 1)
        for i, (member, outcome) in enumerate(outcomes)
    ]


async def test_create_then_load_active_returns_an_equal_game(store: GameStore) -> None:
    assert await store.load_active() == []
    await store.create(game(10))
    await store.create(game(20, turn=3))
    loaded = await store.load_active()
    assert sorted(loaded, key=lambda g: g.channel_id) == [game(10), game(20, turn=3)]


async def test_a_loaded_game_carries_its_json_and_a_given_json_is_what_is_stored(
    store: GameStore,
) -> None:
    # The session encodes a snapshot once and hands the text along; the store keeps that
    # text, and what it loads carries the JSON it read (the session's rollback copy).
    first = game(10)
    await store.create(ActiveGame(10, GUILD, "onecard", 1, first.data, encode(first.data)))
    [loaded] = await store.load_active()
    assert loaded.text is not None and decode(loaded.text) == first.data == loaded.data
    later = game(10, version=2, turn=4)
    await store.save(
        ActiveGame(10, GUILD, "onecard", 2, later.data, encode(later.data)), expected_version=1
    )
    [loaded] = await store.load_active()
    assert loaded.data == later.data and decode(loaded.text or "") == later.data


async def test_create_refuses_a_channel_that_has_a_game(store: GameStore) -> None:
    await store.create(game(10, version=1))
    with pytest.raises(VersionConflict):
        await store.create(game(10, version=5))
    assert [g.version for g in await store.load_active()] == [1]


async def test_save_replaces_at_the_expected_version(store: GameStore) -> None:
    await store.create(game(10, version=1))
    await store.save(game(10, version=2, turn=1), expected_version=1)
    await store.save(game(10, version=3, turn=2), expected_version=2)
    assert await store.load_active() == [game(10, version=3, turn=2)]


async def test_save_at_a_stale_version_conflicts_and_changes_nothing(store: GameStore) -> None:
    await store.create(game(10, version=1))
    await store.save(game(10, version=2, turn=1), expected_version=1)
    with pytest.raises(VersionConflict):
        await store.save(game(10, version=2, turn=99), expected_version=1)
    assert await store.load_active() == [game(10, version=2, turn=1)]


async def test_save_of_a_missing_game_conflicts(store: GameStore) -> None:
    with pytest.raises(VersionConflict):
        await store.save(game(10, version=2), expected_version=1)
    assert await store.load_active() == []


async def test_save_must_move_the_version_forward(store: GameStore) -> None:
    await store.create(game(10, version=4))
    with pytest.raises(ValueError, match="forward"):
        await store.save(game(10, version=4), expected_version=4)


async def test_two_writers_of_one_version_only_one_wins(store: GameStore) -> None:
    await store.create(game(10, version=1))
    outcomes = await asyncio.gather(
        store.save(game(10, version=2, writer="a"), expected_version=1),
        store.save(game(10, version=2, writer="b"), expected_version=1),
        return_exceptions=True,
    )
    assert sum(isinstance(o, VersionConflict) for o in outcomes) == 1
    assert sum(o is None for o in outcomes) == 1
    (stored,) = await store.load_active()
    assert stored.data["writer"] in {"a", "b"}


async def test_data_that_is_not_json_safe_is_refused(store: GameStore) -> None:
    with pytest.raises((TypeError, ValueError)):
        await store.create(game(10, bad=object()))


async def test_loaded_data_is_a_copy(store: GameStore) -> None:
    original = game(10)
    await store.create(original)
    (loaded,) = await store.load_active()
    loaded.data["hand"].append("♥2")
    original.data["hand"].append("♥3")
    (again,) = await store.load_active()
    assert again.data["hand"] == ["♠A", "JKB"]


async def test_delete_at_the_expected_version(store: GameStore) -> None:
    await store.create(game(10, version=3))
    with pytest.raises(VersionConflict):
        await store.delete(10, expected_version=2)
    assert len(await store.load_active()) == 1
    await store.delete(10, expected_version=3)
    assert await store.load_active() == []
    with pytest.raises(VersionConflict):
        await store.delete(10, expected_version=3)


async def test_finish_drops_the_game_and_counts_the_result(store: GameStore) -> None:
    await store.create(game(10, version=7))
    await store.finish(
        10,
        expected_version=7,
        game="onecard",
        guild_id=GUILD,
        seats=seats((ALICE, "win"), (BOB, "lose"), (None, "lose")),
    )
    assert await store.load_active() == []
    alice = await store.member_stats(GUILD, ALICE)
    assert alice.member_id == ALICE
    assert alice.games == {"onecard": {"played": 1, "win": 1, "lose": 0, "draw": 0, "points": 0}}
    bob = await store.member_stats(GUILD, BOB)
    assert bob.games == {"onecard": {"played": 1, "win": 0, "lose": 1, "draw": 0, "points": 10}}


async def test_finish_at_a_stale_version_records_nothing(store: GameStore) -> None:
    await store.create(game(10, version=7))
    with pytest.raises(VersionConflict):
        await store.finish(
            10, expected_version=6, game="onecard", guild_id=GUILD, seats=seats((ALICE, "win"))
        )
    assert len(await store.load_active()) == 1
    assert (await store.member_stats(GUILD, ALICE)).games == {}
    assert await store.game_results(GUILD, "onecard") == []


async def test_finish_keeps_the_finished_table_in_the_same_write(store: GameStore) -> None:
    await store.create(game(10, version=7))
    kept = game(10, version=8, finished_at=12.5, state=None)
    await store.finish(
        10,
        expected_version=7,
        game="onecard",
        guild_id=GUILD,
        seats=seats((ALICE, "win")),
        keep=kept,
    )
    assert await store.load_active() == [kept]
    assert (await store.member_stats(GUILD, ALICE)).games["onecard"]["win"] == 1
    # The kept record is the channel's like any other: "Deal again" replaces it at its version.
    await store.save(game(10, version=9, turn=1), expected_version=8)
    assert await store.load_active() == [game(10, version=9, turn=1)]


async def test_a_game_over_at_its_deal_is_recorded_and_kept_in_one_write(store: GameStore) -> None:
    # Never stored live: the result and the finished table go in where nothing was.
    kept = game(10, version=4, finished_at=12.5, state=None)
    await store.finish(
        10,
        expected_version=None,
        game="onecard",
        guild_id=GUILD,
        seats=seats((ALICE, "win")),
        keep=kept,
    )
    assert await store.load_active() == [kept]
    assert (await store.member_stats(GUILD, ALICE)).games["onecard"]["win"] == 1


async def test_a_finish_expecting_an_empty_channel_refuses_a_held_one(store: GameStore) -> None:
    await store.create(game(10, version=7))
    with pytest.raises(VersionConflict):
        await store.finish(
            10,
            expected_version=None,
            game="onecard",
            guild_id=GUILD,
            seats=seats((ALICE, "win")),
            keep=game(10, version=8, finished_at=12.5, state=None),
        )
    assert await store.load_active() == [game(10, version=7)]
    assert (await store.member_stats(GUILD, ALICE)).games == {}


async def test_a_finish_that_cannot_keep_its_table_records_nothing(store: GameStore) -> None:
    await store.create(game(10, version=7))
    with pytest.raises(ValueError):  # not JSON-safe: refused like any record
        await store.finish(
            10,
            expected_version=7,
            game="onecard",
            guild_id=GUILD,
            seats=seats((ALICE, "win")),
            keep=game(10, version=8, bad=float("nan")),
        )
    assert await store.load_active() == [game(10, version=7)]
    assert (await store.member_stats(GUILD, ALICE)).games == {}


async def test_finish_refuses_an_unknown_outcome(store: GameStore) -> None:
    await store.create(game(10, version=1))
    with pytest.raises(ValueError, match="outcome"):
        await store.finish(
            10, expected_version=1, game="onecard", guild_id=GUILD, seats=seats((ALICE, "won"))
        )
    assert len(await store.load_active()) == 1


async def _play(
    store: GameStore, channel: int, name: str, guild: int, *outcomes: tuple[int | None, str]
) -> None:
    await store.create(ActiveGame(channel, guild, name, 1, {}))
    await store.finish(
        channel, expected_version=1, game=name, guild_id=guild, seats=seats(*outcomes)
    )


async def test_stats_count_per_game_and_per_guild(store: GameStore) -> None:
    await _play(store, 1, "onecard", GUILD, (ALICE, "win"), (BOB, "lose"))
    await _play(store, 1, "onecard", GUILD, (ALICE, "lose"), (BOB, "win"))
    await _play(store, 2, "blackjack", GUILD, (ALICE, "draw"), (CAROL, "win"))
    await _play(store, 3, "uno", OTHER_GUILD, (ALICE, "win"), (BOB, "lose"))
    stats = await store.member_stats(GUILD, ALICE)
    assert stats.games == {
        "blackjack": {"played": 1, "win": 0, "lose": 0, "draw": 1, "points": 0},
        "onecard": {"played": 2, "win": 1, "lose": 1, "draw": 0, "points": 0},
    }
    other = await store.member_stats(OTHER_GUILD, ALICE)
    assert other.games == {"uno": {"played": 1, "win": 1, "lose": 0, "draw": 0, "points": 0}}
    assert (await store.member_stats(GUILD, 9999)).games == {}


async def test_points_add_up_in_a_members_stats(store: GameStore) -> None:
    # Scores are points in Uno, Go-Stop and Rummikub (Rummikub's losers score below 0).
    for channel, results in enumerate(
        [
            [(ALICE, "win", 30), (BOB, "lose", -30)],
            [(ALICE, "lose", -5), (BOB, "win", 5), (None, "lose", 0)],
            [(CAROL, "win", 50), (BOB, "lose", -50)],
        ],
        start=1,
    ):
        await store.create(ActiveGame(channel, GUILD, "rummikub", 1, {}))
        await store.finish(
            channel,
            expected_version=1,
            game="rummikub",
            guild_id=GUILD,
            seats=[
                SeatResult(seat=i, member_id=m, outcome=o, score=p, rank=i + 1)
                for i, (m, o, p) in enumerate(results)
            ],
        )
    bob = await store.member_stats(GUILD, BOB)
    assert bob.games["rummikub"] == {"played": 3, "win": 1, "lose": 2, "draw": 0, "points": -75}
    alice = await store.member_stats(GUILD, ALICE)
    assert alice.games["rummikub"]["points"] == 25


async def test_seeded_games_are_practice_never_counted(store: GameStore) -> None:
    await _play(store, 1, "blackjack", GUILD, (ALICE, "win"), (BOB, "lose"))
    for channel in (2, 3):  # the same seeded deal, replayed to win at will
        await store.create(ActiveGame(channel, GUILD, "blackjack", 1, {}))
        await store.finish(
            channel,
            expected_version=1,
            game="blackjack",
            guild_id=GUILD,
            seats=seats((ALICE, "lose"), (BOB, "win")),
            seeded=True,
        )
    bob = await store.member_stats(GUILD, BOB)
    assert bob.games == {"blackjack": {"played": 1, "win": 0, "lose": 1, "draw": 0, "points": 10}}
    assert bob.practice == {"blackjack": 2}
    counted = await store.game_results(GUILD, "blackjack")  # what ratings are made of
    assert [[(r.member_id, r.outcome) for r in g.seats] for g in counted] == [
        [(ALICE, "win"), (BOB, "lose")]
    ]


async def test_guild_settings_default_then_saved(store: GameStore) -> None:
    assert await store.guild_settings(GUILD) == GuildSettings(guild_id=GUILD)
    chosen = GuildSettings(
        guild_id=GUILD,
        turn_seconds=60,
        language="ko",
        moderator_role_id=555,
        allowed_games=("onecard", "uno"),
        seeding="moderators",
        lobby_minutes=30,
    )
    await store.save_guild_settings(chosen)
    assert await store.guild_settings(GUILD) == chosen
    assert await store.guild_settings(OTHER_GUILD) == GuildSettings(guild_id=OTHER_GUILD)
    cleared = GuildSettings(guild_id=GUILD, allowed_games=())
    await store.save_guild_settings(cleared)
    assert await store.guild_settings(GUILD) == cleared


async def test_data_survives_a_restart(reopen: Opener) -> None:
    first = await reopen()
    await first.create(game(10, version=1))
    await first.save(game(10, version=2, turn=1), expected_version=1)
    await first.save_guild_settings(GuildSettings(guild_id=GUILD, turn_seconds=30))
    await _play(first, 20, "uno", GUILD, (ALICE, "win"))
    await first.close()

    second = await reopen()
    assert await second.load_active() == [game(10, version=2, turn=1)]
    assert (await second.guild_settings(GUILD)).turn_seconds == 30
    assert (await second.member_stats(GUILD, ALICE)).games["uno"]["win"] == 1
    await second.save(game(10, version=3), expected_version=2)


async def test_reopening_applies_migrations_once(reopen: Opener) -> None:
    for _ in range(3):
        store = await reopen()
        await store.close()
    store = await reopen()
    await store.create(game(10))
    assert len(await store.load_active()) == 1


async def test_set_aside_frees_the_channel_and_keeps_the_record_as_it_was(
    reopen: Opener,
) -> None:
    store = await reopen()
    await store.create(game(10, version=4, turn=1))
    await store.create(game(20))
    await store.set_aside(10, expected_version=4, reason="what the table saw does not fit")
    assert [g.channel_id for g in await store.load_active()] == [20]
    await store.create(game(10, version=5))  # the channel takes a new game
    [kept] = await store.set_aside_games()
    assert kept.game == game(10, version=4, turn=1) and kept.reason.startswith("what the table")
    [kept_after_restart] = await (await reopen()).set_aside_games()
    assert kept_after_restart == kept


async def test_set_aside_at_a_stale_version_conflicts_and_changes_nothing(
    store: GameStore,
) -> None:
    await store.create(game(10, version=2))
    with pytest.raises(VersionConflict):
        await store.set_aside(10, expected_version=1, reason="damaged")
    with pytest.raises(VersionConflict):
        await store.set_aside(30, expected_version=1, reason="damaged")
    assert [g.version for g in await store.load_active()] == [2]
    assert await store.set_aside_games() == []


async def test_game_results_are_every_counted_game_in_order_with_its_seats(
    store: GameStore,
) -> None:
    for channel, (game, seeded, outcomes) in enumerate(
        [
            ("onecard", False, [(ALICE, "win"), (BOB, "lose")]),
            ("onecard", True, [(ALICE, "lose"), (BOB, "win")]),  # practice: not counted
            ("uno", False, [(BOB, "win"), (None, "lose")]),
            ("onecard", False, [(CAROL, "lose"), (None, "win"), (ALICE, "lose")]),
        ],
        start=1,
    ):
        await store.create(game_of(channel, game))
        await store.finish(
            channel, expected_version=1, game=game, guild_id=GUILD, seats=seats(*outcomes),
            seeded=seeded,
        )  # fmt: skip
    found = await store.game_results(GUILD, "onecard")
    assert [[(s.member_id, s.outcome, s.seat) for s in r.seats] for r in found] == [
        [(ALICE, "win", 0), (BOB, "lose", 1)],
        [(CAROL, "lose", 0), (None, "win", 1), (ALICE, "lose", 2)],
    ]
    assert await store.game_results(OTHER_GUILD, "onecard") == []


def game_of(channel: int, name: str) -> ActiveGame:
    return ActiveGame(channel_id=channel, guild_id=GUILD, game=name, version=1, data={})
