"""The easy and hard levels: always legal, repeatable per seed, view-only."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

import rules.uno.ai as uno_ai
from rules.levels import Level
from rules.montecarlo import clone, play_out_counted
from rules.uno import CallUno, Draw, Play, State, new, restore, search
from rules.uno.ai import choose_action
from rules.uno.cards import CARD_CODES, CARD_RANK, DRAW_TWO, WILD_DRAW_FOUR
from rules.uno.search import normal_move, play_out, quick_move, sample_world
from rules.uno.state import CHOOSE_COLOUR, HOUSE_RULES

Rig = Callable[..., State]


def positions(count: int, *, ruleset: str = "official") -> Iterator[State]:
    """Seeded games stopped part-way, every house rule combination among them."""
    for seed in range(count):
        house = {rule: bool(seed >> i & 1) for i, rule in enumerate(HOUSE_RULES)}
        state = new(2 + seed % 4, seed=seed, options={"ruleset": ruleset, **house})
        moves = random.Random(seed).randrange(40)
        for _ in range(moves):
            if state.is_over:
                break
            seat = state.turn
            state.apply(seat, choose_action(state.view(seat), Level.EASY, random.Random(seed)))
        if not state.is_over:
            yield state


@pytest.fixture
def quick_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small search budget: legality does not depend on it, and the tests stay fast."""
    monkeypatch.setattr(uno_ai, "HARD_ROLLOUTS", 8)
    monkeypatch.setattr(uno_ai, "HARD_MIN_WORLDS", 2)


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_sampled_worlds_show_the_seat_exactly_its_view(ruleset: str) -> None:
    for state in positions(60, ruleset=ruleset):
        view = state.view(state.turn)
        world = sample_world(view, random.Random(1))()
        assert world.view(state.turn) == view


@pytest.mark.parametrize("level", [Level.EASY, Level.HARD])
@pytest.mark.parametrize("ruleset", ["official", "seed"])
@pytest.mark.usefixtures("quick_hard")
def test_every_level_plays_legally_and_repeatably(level: Level, ruleset: str) -> None:
    for state in positions(40, ruleset=ruleset):
        view = state.view(state.turn)
        action = choose_action(view, level, random.Random(5))
        assert action in view.legal
        assert choose_action(view, level, random.Random(5)) == action
        assert choose_action(view, level) == choose_action(view, level)  # rng=None: fixed seed


def _hide_differently(state: State, seed: int) -> State:
    """The same game with every card ``state.turn`` cannot see dealt again at random."""
    snapshot = state.snapshot()
    seat = state.turn
    others = [s for s in range(state.n) if s != seat]
    hidden = list(snapshot["pile"])  # the discard pile was seen as it was played
    for other in others:
        hidden += snapshot["hands"][other]
    random.Random(seed).shuffle(hidden)
    for other in others:
        count = len(snapshot["hands"][other])
        snapshot["hands"][other], hidden = hidden[:count], hidden[count:]
    snapshot["pile"] = hidden
    return restore(snapshot)


def test_hard_decides_from_the_view_alone() -> None:
    checked = 0
    for state in positions(40):
        view = state.view(state.turn)
        if len({a for a in view.legal if not isinstance(a, Draw)}) < 2:
            continue  # nothing to choose between: no evidence either way
        other = _hide_differently(state, seed=99)
        assert other.hands != state.hands  # the hidden cards really differ...
        assert other.view(state.turn) == view  # ...where the seat cannot see
        assert choose_action(other.view(state.turn), Level.HARD, random.Random(3)) == (
            choose_action(view, Level.HARD, random.Random(3))
        )
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_the_rollout_player_is_the_normal_player_on_the_ints(ruleset: str) -> None:
    # The hard player's play-outs model its opponents as the normal player exactly: every
    # seat that may act, in positions across the house rules, as the games go on.
    checked = 0
    for state in positions(80, ruleset=ruleset):
        rng = random.Random(state.n)
        for _ in range(60):
            if state.is_over:
                break
            for seat in range(state.n):
                view = state.view(seat)
                if view.legal:
                    assert normal_move(state, seat) == choose_action(view), view
                    checked += 1
            level = Level.EASY if rng.random() < 0.5 else Level.NORMAL
            state.apply(state.turn, choose_action(state.view(state.turn), level, rng))
    assert checked > 1_000


def test_normal_is_unchanged_by_level_and_rng() -> None:
    for state in positions(30):
        view = state.view(state.turn)
        assert choose_action(view, Level.NORMAL, random.Random(1)) == choose_action(view)


def test_easy_forgets_uno_now_and_then_where_normal_never_does(rig: Rig) -> None:
    state = rig([["red_1", "red_2"], ["blue_1", "blue_2", "blue_3"]], "red_5", uno_call=True)
    view = state.view(0)
    assert choose_action(view) == CallUno()
    said = [
        choose_action(view, Level.EASY, random.Random(seed)) == CallUno() for seed in range(200)
    ]
    # EASY_FORGETS_UNO of 200 casual players forget: far from none, far from all.
    assert 200 * uno_ai.EASY_FORGETS_UNO / 2 < said.count(False) < 200 * uno_ai.EASY_FORGETS_UNO * 2


def test_easy_spends_a_wild_early_naming_the_first_colour_it_sees(rig: Rig) -> None:
    state = rig([["none_W", "blue_3", "red_9", "red_8"], ["yellow_1", "yellow_2"]], "red_5")
    view = state.view(0)
    assert CARD_CODES[state.hands[0][choose_action(view).index]] == "red_9"  # type: ignore[attr-defined]
    wilds = 0
    for seed in range(100):
        action = choose_action(view, Level.EASY, random.Random(seed))
        assert isinstance(action, (Play, Draw))
        if isinstance(action, Play) and action.index == 0:
            wilds += 1
            assert action.colour == 2  # blue: the first coloured card, not red held twice
    assert 10 < wilds < 90


def test_copies_of_a_world_replay_alike_and_share_nothing_they_change() -> None:
    state = next(positions(5))
    fresh = sample_world(state.view(state.turn), random.Random(2))
    first, second = fresh(), fresh()
    assert first.hands is not second.hands and first.hands[0] is not second.hands[0]
    assert first.pile is not second.pile and first.rng is not second.rng
    for world in (first, second):
        while not world.is_over:
            world.apply(world.turn, quick_move(world, world.turn))
    assert first.snapshot()["log"] == second.snapshot()["log"]
    assert first.result == second.result
    assert fresh().log == []  # the sampled world itself was never played on


def _plain_positions(count: int) -> Iterator[State]:
    """Official games without house rules stopped part-way, two to ten players, and from
    each one every move its player may make (so after a draw, with a W+4 pending, ...)."""
    for seed in range(count):
        state = new(2 + seed % 9, seed=seed)  # ten players hold 70 cards: short piles
        rng = random.Random(seed)
        for _ in range(rng.randrange(120)):
            if state.is_over:
                break
            state.apply(state.turn, choose_action(state.view(state.turn), Level.EASY, rng))
        if state.is_over:
            continue
        yield state
        for action in state.legal_actions(state.turn):
            moved = clone(state, seed)
            moved.apply(state.turn, action)
            yield moved


def test_the_fast_play_out_ends_every_game_as_the_engine_does() -> None:
    # The hard player's play-out of a plain official game runs on the lists alone: it must
    # make the same moves from the same cards as the engine driven by the normal player.
    checked = same_cards = 0
    for state in _plain_positions(200):
        if state.phase == CHOOSE_COLOUR or state._reveal is not None:
            continue  # a first wild's colour, a challenged hand shown: the engine plays on
        for seat in range(state.n):
            engine, fast = clone(state, seat), clone(state, seat)
            assert play_out(fast, seat) == play_out_counted(engine, seat, normal_move)
            checked += 1
            if CARD_RANK[engine.discard[-1]] not in (DRAW_TWO, WILD_DRAW_FOUR):
                # Every card where the engine left it (a game won on a +2 or a W+4 goes on
                # to rule 10's draw, which the play-out, already knowing its result, skips).
                assert (fast.hands, fast.pile, fast.discard) == (
                    engine.hands,
                    engine.pile,
                    engine.discard,
                )
                same_cards += 1
    assert checked > 1_000 and same_cards > 800


def test_other_games_play_out_through_the_engine_at_its_cost() -> None:
    # Under house rules a play-out moves through the engine, each move counted as the
    # several plain ones it costs, so a decision takes about as long as in a plain game.
    checked = 0
    for state in positions(40):
        if state.options == new(state.n).options:
            continue  # a plain game: the test above
        engine, other = clone(state, 3), clone(state, 3)
        result, made = play_out_counted(engine, 0, normal_move)
        assert play_out(other, 0) == (result, made * search.ENGINE_MOVE)
        assert other.log == engine.log and other.is_over
        checked += 1
    assert checked > 30


@pytest.mark.parametrize("drawn", ["none_W+4", "none_W", "red_9", "blue_9"])
@pytest.mark.parametrize("other", [["green_1", "green_2"], ["green_1", "green_2", "green_3"]])
def test_the_fast_play_out_plays_a_drawn_card_as_the_normal_player(
    rig: Rig, drawn: str, other: list[str]
) -> None:
    # After a draw: a wild is kept unless the next player is about to win, and a W+4 is
    # never a bluff (seat 0 holds red, the colour in play).
    state = rig([["red_1", "red_2", "blue_3"], other], "red_5", pile=[drawn])
    state.apply(0, Draw())
    for seed in range(20):
        engine, fast = clone(state, seed), clone(state, seed)
        assert play_out(fast, 0) == play_out_counted(engine, 0, normal_move)


@pytest.mark.parametrize("last", ["none_W", "red_7", "red_+2"])
def test_hard_goes_out_without_searching(
    rig: Rig, last: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rule 10: playing the last card wins whatever the others hold; a last wild's four
    # colours used to be searched in over a thousand worlds, every one of them a win.
    def no_worlds(*args: object) -> None:
        raise AssertionError("a world was sampled")

    monkeypatch.setattr(uno_ai, "sample_world", no_worlds)
    state = rig([[last], ["blue_1", "blue_2"]], "red_5")
    action = choose_action(state.view(0), Level.HARD, random.Random(1))
    assert action == choose_action(state.view(0))
    state.apply(0, action)
    assert state.is_over and state.result is not None and state.result.ranking[0] == 0


def test_sampled_worlds_deal_every_unseen_card_alike() -> None:
    # Each card the seat cannot see lands in the other hand or the pile in proportion to
    # their sizes, whatever its place in the deck; the discard pile is the one it saw.
    state = new(2, seed=4)
    for _ in range(30):  # far enough for a discard pile to sample
        state.apply(state.turn, choose_action(state.view(state.turn)))
    # Without what the table saw the other player lack (test_unfit.py has that case).
    view = replace(state.view(state.turn), unfit=())
    seen = {*view.hand, view.top}
    other = 1 - state.turn
    rng = random.Random(8)
    worlds = 3_000
    landed: dict[int, list[int]] = {}
    for _ in range(worlds):
        world = sample_world(view, rng)()
        assert [CARD_CODES[c] for c in world.discard] == [CARD_CODES[c] for c in state.discard]
        for place, cards in enumerate((world.hands[other], world.pile)):
            for card in cards:
                landed.setdefault(card, [0, 0])[place] += 1
    sizes = (view.hand_counts[other], view.draw_pile)
    unseen = sum(sizes)
    assert min(sizes) > 3 and len(landed) == unseen
    for card, counts in landed.items():
        if CARD_CODES[card] in seen:
            continue  # a copy of a card the seat holds: fewer of those are unseen
        for place, size in enumerate(sizes):
            expected = worlds * size / unseen
            assert abs(counts[place] - expected) < 5 * (expected + 1) ** 0.5, (card, place)
