"""Every state an engine reaches restores to itself, for every game.

At every decision of seeded random games (every player count, house rules and options mixed,
seats leaving now and then) the snapshot goes through JSON and back: ``restore`` must accept
it and snapshot it back identically, and the restored state must show every seat the same
view. The bot stores exactly this JSON after every move and restores it after a restart, so a
state refused here is a table stuck after a restart.

The seeds are fixed, so a failure names its game and seed and fails the same way every run.
Before a seat that played its last card lost its record of what the table saw, these seeds
failed: One Card 115, 151 and 153, Uno 4, 26 and 62 (their records kept a count of 0).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import rules.blackjack as bj
import rules.gostop as gs
import rules.onecard as oc
import rules.rummikub as rk
from bot.games import AnyAdapter, GameCatalog
from rules import uno
from rules.engine import IllegalAction
from rules.rummikub.ai import choose_action as rummikub_move
from rules.uno.state import HOUSE_RULES, RULESETS
from tests.rules.rummikub.test_properties import random_edit

LEAVE_CHANCE = 0.01  # a seat leaves (or is handed to a computer) at about one decision in 100


@dataclass(frozen=True)
class Game:
    """How to deal a random game and make one random decision in it."""

    deal: Callable[[random.Random, int], Any]
    restore: Callable[[dict[str, Any]], Any]
    step: Callable[[Any, random.Random], None]
    games: int  # seeds 0 to games - 1
    per_test: int  # games in one test, so the suite's workers share the long ones
    max_decisions: int


def apply_any(state: Any, pick: random.Random) -> None:
    """The seat to act (or, where the game lets others act out of turn, another) plays a
    random legal action; now and then a seat leaves instead."""
    seats = range(getattr(state, "players", None) or getattr(state, "n", 2))
    current = state.current_seat
    if pick.random() < LEAVE_CHANCE and hasattr(state, "forfeit"):
        try:
            state.forfeit(pick.choice(seats))
        except IllegalAction:  # already out
            pass
        else:
            return
    actors = [current]
    if pick.random() < 0.2:  # Uno's jump-in, calls and catches are out of turn
        actors = [s for s in seats if state.legal_actions(s)] or actors
    seat = pick.choice(actors)
    legal = list(state.legal_actions(seat))
    state.apply(seat, pick.choice(legal))


def deal_uno(pick: random.Random, seed: int) -> uno.UnoState:
    options: dict[str, Any] = {"ruleset": pick.choice(RULESETS)}
    options |= {rule: pick.random() < 0.5 for rule in HOUSE_RULES}
    return uno.new(pick.randint(uno.MIN_PLAYERS, uno.MAX_PLAYERS), seed=seed, options=options)


def deal_blackjack(pick: random.Random, seed: int) -> bj.State:
    players = pick.randint(bj.MIN_PLAYERS, bj.MAX_PLAYERS)
    computers = [s for s in range(players) if pick.random() < 0.3]
    options = {"computers": computers, "computer_level": pick.choice(["easy", "normal", "hard"])}
    if pick.random() < 0.5:  # a casino table (Blackjack rules 16-22): split hands, doubles
        options |= {"ruleset": "casino", "soft17": pick.choice(["stand", "hit"])}
    kind = pick.randrange(3)  # the seed program's deal, a fair deal, a fair deal from a seed
    if kind == 0:
        return bj.new(players, seed=seed, options=options)
    if kind == 1:
        return bj.new(players, options=options)
    return bj.new(players, seed=seed, options=options, fair=True)


def step_blackjack(state: bj.State, pick: random.Random) -> None:
    seat = state.current_seat
    assert seat is not None
    if pick.random() < LEAVE_CHANCE * 5:
        state.hand_to_computer(pick.randrange(state.players))
        return
    state.apply(seat, pick.choice(list(state.legal_actions(seat))))


def deal_gostop(pick: random.Random, seed: int) -> gs.GostopState:
    options: dict[str, int] = {
        "bonus_cards": pick.choice([0, 2, 3]),
        "nagari_carry": pick.choice([0, 0, 1, 3]),
    }
    if pick.random() < 0.5:
        options["dealer"] = pick.randrange(2)
    return gs.new(2, seed=seed, options=options)


def step_rummikub(state: rk.State, pick: random.Random) -> None:
    seat = state.current_seat
    assert seat is not None
    if pick.random() < LEAVE_CHANCE:
        state.forfeit(pick.choice([s for s in range(state.players) if not state.out[s]]))
        return
    roll = pick.random()
    if roll < 0.4:  # staged edits, often refused: the staged states are snapshotted too
        with contextlib.suppress(IllegalAction):
            state.apply(seat, random_edit(state, pick))
        return
    if roll < 0.45:
        state.apply(seat, rk.TimeOut())
        return
    if roll < 0.75:
        state.apply(seat, rummikub_move(state.view(seat)))
        return
    state.apply(seat, pick.choice(list(state.legal_actions(seat))))


# Games whose deals mix their options, or whose turns need a step of their own; every other
# game of the catalog is played as :func:`plainly` deals it.
TUNED: dict[str, Game] = {
    "blackjack": Game(deal_blackjack, bj.restore, step_blackjack, 800, 800, 100),
    "onecard": Game(
        lambda pick, seed: oc.new(pick.randint(2, 4), seed=seed),
        oc.restore,
        apply_any,
        300,
        150,
        2_000,
    ),
    # The whole log is in every snapshot, so a long Uno game costs its length squared.
    "uno": Game(deal_uno, uno.restore, apply_any, 80, 20, 600),
    "gostop": Game(deal_gostop, gs.restore, apply_any, 300, 300, 200),
    "rummikub": Game(
        # Hints on or off (Rummikub rule 16): the option is in the snapshot as well.
        lambda pick, seed: rk.new(
            pick.randint(2, 4), seed=seed, options={"hints": pick.random() < 0.5}
        ),
        rk.restore,
        step_rummikub,
        24,
        12,
        400,
    ),
}


def plainly(adapter: AnyAdapter) -> Game:
    """A game dealt by its adapter with its default options to any number of seats, and
    played by :func:`apply_any`."""

    def deal(pick: random.Random, seed: int) -> Any:
        state, _ = adapter.new(pick.randint(adapter.min_seats, adapter.max_seats), seed, {}, [])
        return state

    return Game(deal, adapter.restore, apply_any, 100, 50, 1_000)


GAMES: dict[str, Game] = {game.name: plainly(game) for game in GameCatalog.discover()} | TUNED
SEED_RANGES = [
    (name, start, min(start + game.per_test, game.games))
    for name, game in sorted(GAMES.items())
    for start in range(0, game.games, game.per_test)
]


def assert_restores_to_itself(game: Game, state: Any, where: str) -> None:
    """The state's JSON snapshot restores, snapshots back identically and shows the same."""
    data = json.loads(json.dumps(state.snapshot()))
    twin = game.restore(data)
    assert twin.snapshot() == data, where
    seat = state.current_seat
    assert twin.current_seat == seat, where
    if seat is not None:
        assert twin.view(seat) == state.view(seat), where
        assert list(twin.legal_actions(seat)) == list(state.legal_actions(seat)), where


def play_and_restore_everywhere(game: Game, seed: int) -> None:
    pick = random.Random(seed)
    state = game.deal(pick, seed)
    for decision in range(game.max_decisions):
        assert_restores_to_itself(game, state, f"seed {seed}, decision {decision}")
        if state.is_over:
            return
        game.step(state, pick)
    assert_restores_to_itself(game, state, f"seed {seed}, after {game.max_decisions}")


@pytest.mark.parametrize(("name", "start", "stop"), SEED_RANGES)
def test_every_state_restores_to_itself(name: str, start: int, stop: int) -> None:
    for seed in range(start, stop):
        play_and_restore_everywhere(GAMES[name], seed)
