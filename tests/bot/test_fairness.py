"""Fair deals: the commitment, the secret, and checking a revealed deal (bot/fairness.py,
bot/verify.py, ``deckhand verify``)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules.onecard as oc
from bot.cli import USAGE_ERROR, main
from bot.fairness import SHOWN, Secret, commitment, new_secret
from bot.games import GameCatalog
from bot.text.onecard import card_name
from bot.verify import (
    VerifyError,
    options_code,
    parse_options,
    parse_seed,
    replay,
    verify_command,
)
from rules.blackjack import state as blackjack


def test_the_commitment_is_the_sha256_of_game_seed_and_salt_shortened() -> None:
    full = hashlib.sha256(b"deckhand:uno:42:abc").hexdigest()
    assert commitment("uno", 42, "abc") == full[:SHOWN]
    assert len({commitment(*args) for args in [
        ("uno", 42, "abc"), ("uno", 43, "abc"), ("uno", 42, "abd"), ("onecard", 42, "abc"),
    ]}) == 4  # fmt: skip


def test_secrets_are_fresh_and_survive_the_store() -> None:
    first, second = new_secret(), new_secret()
    assert first != second and 0 <= first.seed < 2**63 and len(first.salt) == 16
    assert Secret.from_data(first.to_data()) == first


def test_a_secret_seed_deals_blackjack_fairly_a_members_seed_the_seed_programs_way() -> None:
    fair = blackjack.new(2, seed=7, fair=True)
    faithful = blackjack.new(2, seed=7)
    assert fair.snapshot()["shuffle"] == "fair" and faithful.snapshot()["shuffle"] == "seed"
    assert fair.view(None).hands != faithful.view(None).hands


@pytest.mark.parametrize("game", GameCatalog.discover().names())
def test_the_replay_deals_what_the_bot_dealt(game: str) -> None:
    adapter = GameCatalog.discover().get

    seats = adapter(game).min_seats
    dealt, _ = adapter(game).new(seats, 123456789, {}, [], secret=True)
    shown, lines = replay(game, 123456789, "salt", seats)
    assert shown == commitment(game, 123456789, "salt")
    hands = [adapter(game).hand(dealt.view(s), [f"Seat {n + 1}" for n in range(seats)], "en")
             for s in range(seats)]  # fmt: skip
    text = "\n".join(lines)
    for hand in hands:
        assert hand.body in text
    assert replay(game, 123456790, "salt", seats)[1] != lines  # another seed, another deal


def test_verify_prints_the_commitment_and_the_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "onecard", "123", "abc", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"commitment: {commitment('onecard', 123, 'abc')}\n")
    state = oc.new(3, seed=123)
    for seat in range(3):
        assert state.view(seat).hand is not None
        first = state.view(seat).hand[0]  # type: ignore[index]
        assert f"1:{card_name(first)} " in out


def test_verify_says_in_words_whether_the_commitment_shown_matches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = commitment("uno", 77, "salt")
    argv = ["verify", "uno", "77", "salt", "--players", "2"]
    assert main([*argv, "--commitment", f"`{shown.upper()}`"]) == 0
    assert capsys.readouterr().out.endswith("\nmatch: this is the deal the table committed to\n")
    assert main([*argv, "--commitment", "0" * SHOWN]) == 1  # exit 1: no match
    out = capsys.readouterr().out
    assert out.endswith(
        f"NO MATCH: the first table showed {'0' * SHOWN}, this seed and salt make {shown}\n"
    )
    assert main(argv) == 0 and "match" not in capsys.readouterr().out.split("\n\n")[-1]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["verify", "onecard", "-5", "abc"], "seed"),
        (["verify", "onecard", "１２", "abc"], "seed"),  # fullwidth digits are no seed
        (["verify", "onecard", str(2**63), "abc"], "seed"),
        (["verify", "poker", "1", "abc"], "unknown game"),
        (["verify", "onecard", "1", "abc", "--players", "9"], "2 to 4 seats"),
        (["verify", "onecard", "1", "abc", "--options", "[1]"], "as the final table showed"),
        (["verify", "onecard", "1", "abc", "--options", "{bad"], "as the final table showed"),
        (["verify", "uno", "1", "abc", "--options", "a=b=c"], "as the final table showed"),
    ],
)
def test_verify_refuses_what_names_no_deal_in_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == USAGE_ERROR
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and says in captured.err


def test_parsing_seeds_and_options() -> None:
    assert parse_seed(" 42 ") == 42
    assert parse_options("'{\"stacking\":true}'") == {"stacking": True}  # older reveals
    assert parse_options(None) == {} and parse_options("") == {}
    assert parse_options("stacking,ruleset=seed,bonus_cards=2") == {
        "stacking": True,
        "ruleset": "seed",
        "bonus_cards": 2,
    }
    assert parse_options("쌓기, 규칙_종류=공식") == {"stacking": True, "ruleset": "official"}


@pytest.mark.parametrize("locale", ["en", "ko"])
@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("uno", 3, {"ruleset": "seed", "stacking": True, "jump_in": False, "uno_call": True}),
        ("uno", 2, {"ruleset": "official", "stacking": False}),
        ("gostop", 2, {"bonus_cards": 2}),
        ("gostop", 2, {"bonus_cards": 0, "dealer": 1, "nagari_carry": 2}),  # a Deal again
        ("rummikub", 2, {"hints": True}),
        ("onecard", 4, {}),
    ],
)
def test_the_revealed_options_code_deals_the_same_table_again(
    game: str, players: int, options: dict[str, Any], locale: str
) -> None:
    """The reveal shows the options as a short code in the reader's words; /game verify
    (any language) reads it back to options that deal exactly the same."""
    code = options_code(game, options, locale)
    assert "{" not in code and len(code) <= 40
    if locale == "ko":
        assert not re.search(r"[A-Za-z]", code), code  # Korean words, not option keys
    parsed = parse_options(code)
    assert parsed == {key: value for key, value in options.items() if value is not False}
    assert replay(game, 77, "salt", players, options=parsed) == replay(
        game, 77, "salt", players, options=options
    )
    command = verify_command(game, 77, "salt", players, options=options, locale=locale)
    assert command.startswith("/game verify " if locale == "en" else "/게임 확인 ")
    assert command.endswith(f":{code}" if code else f":{players}")
    with pytest.raises(VerifyError) as refused:
        parse_seed("4x")
    assert refused.value.key == "bad_seed"


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "onecard", "9" * 4301, "abc"],  # past Python's 4,300 digits for int()
        ["verify", "onecard", "0" * 5000 + "1", "abc"],
        ["verify", "uno", "1", "abc", "--options", "bonus_cards=" + "9" * 5000],
        ["verify", "uno", "1", "abc", "--players", "9" * 5000],
    ],
)
def test_verify_refuses_an_enormous_number_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused by its length before it is converted: no traceback, one line, exit 2 (for
    ``--players``, argparse's own refusal, which exits)."""
    try:
        code = main(argv)
    except SystemExit as exited:
        code = exited.code
    assert code == USAGE_ERROR
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and captured.out == ""
    assert captured.err.count("\n") == 1, captured.err


SEED_TEXT = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="0123456789", min_size=1, max_size=6000),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)
OPTIONS_TEXT = st.one_of(
    st.text(max_size=60),
    st.builds(
        lambda name, digits: f"{name}={digits}",
        st.sampled_from(["bonus_cards", "stacking", "x"]),
        st.text(alphabet="-0123456789", min_size=1, max_size=6000),
    ),
)


@settings(max_examples=150, deadline=None)
@given(seed=SEED_TEXT, options=OPTIONS_TEXT, salt=st.text(min_size=1, max_size=40))
def test_verify_over_random_and_enormous_input_refuses_or_deals_never_a_traceback(
    seed: str, options: str, salt: str
) -> None:
    """What ``deckhand verify`` and ``/game verify`` both parse: a deal, or VerifyError."""
    try:
        dealt = parse_seed(seed)
        replay("onecard", dealt, salt, 2, options=parse_options(options))
    except VerifyError:
        return
    assert 0 <= dealt < 2**63
