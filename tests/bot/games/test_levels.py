"""Every adapter hands the computer's level and the session's own rng to its game's
``choose_action``, and Blackjack, whose engine plays its computer seats, gets the
level as the engine option ``computer_level`` (none at normal: the deal it always made)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import bot.games.blackjack as blackjack_adapter
from bot.games import HARD_SECONDS, GameCatalog
from rules.levels import Level

GAMES = GameCatalog.discover()
adapter_of = GAMES.get
# The games whose computer seats the session plays (Blackjack's engine plays its own).
COMPUTER_GAMES = [game.name for game in GAMES if game.session_plays_computers]


@pytest.mark.parametrize("game", COMPUTER_GAMES)
@pytest.mark.parametrize("level", list(Level))
def test_computer_action_passes_the_level_and_rng_with_the_seats_own_view(
    game: str, level: Level, monkeypatch: pytest.MonkeyPatch
) -> None:
    adapter = adapter_of(game)
    state, _ = adapter.new(2, 7, {}, [1])
    seat = state.current_seat
    asked: list[tuple[Any, Level, random.Random | None]] = []
    chosen = state.legal_actions(seat)[0]

    def record(view: Any, level: Level = Level.NORMAL, rng: random.Random | None = None) -> Any:
        asked.append((view, level, rng))
        return chosen

    monkeypatch.setattr(f"bot.games.{game}.choose_action", record)
    rng = random.Random("the session's own")
    assert adapter.computer_action(state, seat, level, rng) == chosen
    [(view, given_level, given_rng)] = asked
    assert given_level is level and given_rng is rng
    assert view == state.view(seat)  # the seat's own view, never the whole state


@pytest.mark.parametrize("game", GAMES.names())
def test_only_a_hard_player_is_given_time_off_the_event_loop(game: str) -> None:
    adapter = adapter_of(game)
    assert adapter.computer_seconds(Level.HARD) == HARD_SECONDS
    # Rummikub's solver is off the loop at every level (a full table takes a while).
    quick = {"rummikub": HARD_SECONDS}.get(game)
    assert adapter.computer_seconds(Level.EASY) == adapter.computer_seconds(Level.NORMAL) == quick


@pytest.mark.parametrize("level", list(Level))
def test_blackjack_deals_its_computer_seats_at_the_level(
    level: Level, monkeypatch: pytest.MonkeyPatch
) -> None:
    dealt: list[dict[str, Any]] = []
    real_new = blackjack_adapter.engine.new

    def record(players: int, **kwargs: Any) -> Any:
        dealt.append(dict(kwargs["options"]))
        # The engine as it is on this branch knows no level yet: deal its normal game.
        kwargs["options"] = {k: v for k, v in kwargs["options"].items() if k != "computer_level"}
        return real_new(players, **kwargs)

    monkeypatch.setattr(blackjack_adapter.engine, "new", record)
    blackjack_adapter.ADAPTER.new(3, 5, {}, [1, 2], secret=True, level=level)
    expected: dict[str, Any] = {"computers": [1, 2]}
    if level is not Level.NORMAL:
        expected["computer_level"] = level.value
    assert dealt == [expected]


def test_a_normal_blackjack_table_deals_exactly_as_before() -> None:
    """No ``computer_level`` at normal: the engine deals the game it always dealt."""
    engine = blackjack_adapter.engine
    before = engine.new(3, seed=5, options={"computers": [1, 2]}, fair=True)
    after, _ = blackjack_adapter.ADAPTER.new(3, 5, {}, [1, 2], secret=True, level=Level.NORMAL)
    assert before.snapshot() == after.snapshot()
