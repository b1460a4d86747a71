"""No text a member types reaches an exception: every game's parser and /game verify refuse
hostile option text (Unicode digits and superscripts, JSON, control and bidi characters,
100-character strings) with a clear reason, and a refused move changes nothing.

A crash here was an ERROR with a traceback in the log and "Something went wrong" for the
member; any member could fill the error log at will.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.games import GameCatalog
from bot.verify import VerifyError, parse_options, parse_seed, replay
from rules.engine import IllegalAction

GAMES = GameCatalog.discover()
# Every verb each game's adapter reads (its buttons', menus' and commands' moves).
VERBS = {game.name: game.verbs for game in GAMES}
HOSTILE = st.one_of(
    st.text(max_size=100),
    st.sampled_from(
        [
            "r5@²",
            "²",
            "١٢",  # Arabic-Indic digits: isdigit() is true, int() reads them
            "৩",
            "Ⅻ",
            "⁹",
            '{"evil":1}',
            "\u202e5r",
            "\x00",
            "r" * 100,
            "-1",
            "1e309",
            "9" * 100,
            "3:K9 2:J",
            "999:R1",
            "2:²",
            "R ² ³",
        ]
    ),
)


def deal(game: str) -> object:
    adapter = GAMES.get(game)
    state, _ = adapter.new(adapter.max_seats, 3, {}, [], secret=True)
    return state


@pytest.mark.parametrize("game", sorted(VERBS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=HOSTILE, verb_index=st.integers(0, 20))
@example(text="r5@²", verb_index=0)
def test_every_verb_refuses_hostile_text_with_a_reason(
    game: str, text: str, verb_index: int
) -> None:
    adapter = GAMES.get(game)
    verbs = VERBS[game]
    verb = verbs[verb_index % len(verbs)]
    state = deal(game)
    before = json.dumps(state.snapshot(), sort_keys=True)  # type: ignore[attr-defined]
    try:
        action = adapter.parse(verb, text)
    except IllegalAction as error:
        assert error.reason
        return
    seat = state.current_seat  # type: ignore[attr-defined]
    try:
        state.apply(seat, action)  # type: ignore[attr-defined]
    except IllegalAction as error:
        assert error.reason
        assert json.dumps(state.snapshot(), sort_keys=True) == before  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", sorted(VERBS))
@settings(max_examples=60, deadline=None)
@given(
    options=st.one_of(
        HOSTILE,
        st.dictionaries(
            st.sampled_from(["bonus_cards", "nagari_carry", "dealer", "ruleset", "stacking"]),
            st.one_of(st.integers(), st.floats(allow_nan=True), st.text(max_size=5), st.booleans()),
            max_size=3,
        ).map(json.dumps),
    ),
    seed=HOSTILE,
)
@example(options='{"evil":1}', seed="1")
@example(options='{"bonus_cards":"²"}', seed="1")
@example(options='{"players":99}', seed="²")
@example(options='{"bonus_cards":1e999}', seed="1")
@example(options='{"bonus_cards":Infinity}', seed="1")
@example(options='{"nagari_carry":1000000000}', seed="1")
@example(options='{"nagari_carry":1000000}', seed="1")
def test_game_verify_refuses_hostile_options_and_seeds(game: str, options: str, seed: str) -> None:
    try:
        replay(game, parse_seed(seed), "ab" * 16, None, options=parse_options(options))
    except VerifyError as error:
        assert error.key
