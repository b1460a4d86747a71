"""``deckhand play blackjack SEED PLAYERS``: the seed's transcripts byte for byte (rule 13)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import rules.blackjack as bj
from bot.cli import main
from bot.console.blackjack import HINT, card_name
from rules.cards import parse_card

GOLDEN = Path(__file__).parent / "golden"


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], text: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["play", "blackjack", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("args", "stdin", "golden"),
    [
        (["100", "4"], "", "seed_100_4.txt"),  # the House's 21 ends the game at the deal
        (["2", "4"], "Hit\n", "seed_2_4.txt"),  # Player1 hits and busts
        (["200", "4"], "Hit\nStand\n", "seed_200_4.txt"),  # hits to 21, stands, beats the House
    ],
)
def test_rule_13_seed_transcripts_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    stdin: str,
    golden: str,
) -> None:
    code, out, err = run(monkeypatch, capsys, args, stdin)
    assert code == 0 and err == ""
    assert out == (GOLDEN / golden).read_text(encoding="utf-8")


def test_rule_13_card_names_are_rank_then_suit_letter() -> None:
    assert [card_name(parse_card(c)) for c in ("♣A", "♥10", "♦J", "♠Q", "♣K", "♥2")] == [
        "Ac",
        "10h",
        "Jd",
        "Qs",
        "Kc",
        "2h",
    ]


def test_rule_13_player1_hits_then_stands_with_the_seed_layout(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(monkeypatch, capsys, ["10", "4"], "hit\nStand\n")
    assert code == 0
    blocks = out.split("\n\n")
    deal = blocks[0].splitlines()
    assert re.fullmatch(r"House: HIDDEN, \w+", deal[0])
    assert [line.split(":")[0] for line in deal[1:]] == [f"Player{n}" for n in (1, 2, 3, 4)]
    turn = blocks[1].splitlines()
    assert turn[0] == "--- Player1 turn ---"
    assert turn[2] == "Hit"
    assert turn[3].startswith(turn[1].rsplit(" (", 1)[0] + ", ")
    if "Bust !!" not in turn[3]:
        assert turn[4:] == ["Stand", turn[3]]
    for n, block in zip((2, 3, 4), blocks[2:5], strict=True):
        lines = block.splitlines()
        assert lines[0] == f"--- Player{n} turn ---"
        assert all(line in ("Hit", "Stand") for line in lines[2::2])
    assert blocks[5].startswith("--- House turn ---\nHouse: ")
    results = blocks[6].splitlines()
    assert results[0] == "--- Game Results ---"
    assert all(re.match(r"\[(Win|Lose|Draw)\] Player\d: ", line) for line in results[2:])
    assert out.endswith("\n\n") and "HIDDEN" not in out.split("\n\n", 1)[1]


def test_unknown_input_is_asked_again_and_end_of_input_stands(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, plain, _ = run(monkeypatch, capsys, ["12", "2"], "Stand\n")
    code, out, err = run(monkeypatch, capsys, ["12", "2"], "draw\n\nSTAND\n")
    assert code == 0
    # The hint goes to stderr, once per unknown line, so stdout stays the seed's screen.
    assert out == plain and "(18)\nStand\n" in out
    assert err == f"{HINT}\n{HINT}\n"
    _, silent, err = run(monkeypatch, capsys, ["12", "2"], "")
    assert silent == plain and err == ""


def test_unknown_input_leaves_the_seed_transcript_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(monkeypatch, capsys, ["200", "4"], "hit me\nHit\nwhat\nStand\n")
    assert code == 0
    assert out == (GOLDEN / "seed_200_4.txt").read_text(encoding="utf-8")
    assert err == f"{HINT}\n{HINT}\n"


@pytest.mark.parametrize(
    "args",
    [[], ["100"], ["x", "4"], ["100", "four"], ["100", "0"], ["100", "8"], ["1", "2", "3"]],
)
def test_bad_arguments_are_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exited:
        main(["play", "blackjack", *args])
    out, err = capsys.readouterr()
    assert exited.value.code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("deckhand")


def test_python_m_bot_plays_the_seed_game() -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "bot", "play", "blackjack", "2", "4"],
        input="Hit\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=Path(__file__).resolve().parents[3],
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (GOLDEN / "seed_2_4.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "seed",
    [
        *("1_000", "١٢", "２", "1e3", "0x10", " 12", "12 ", "12\n", "", "+", "-", "--5"),
        *("2147483648", "-2147483649", "4294967296", "9" * 5000),
    ],
)
def test_a_seed_is_a_c_int_in_ascii_digits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], seed: str
) -> None:
    # The seed program reads its seed into a C int: underscores, other scripts' digits and
    # values Python would wrap silently modulo 2**32 are usage errors.
    test_bad_arguments_are_one_line_and_exit_2(monkeypatch, capsys, [seed, "4"])


@pytest.mark.parametrize("players", ["٣", "３", "0_3", "+3 "])
def test_players_are_ascii_digits_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], players: str
) -> None:
    test_bad_arguments_are_one_line_and_exit_2(monkeypatch, capsys, ["100", players])


@pytest.mark.parametrize(
    ("typed", "seed"),
    [("+100", 100), ("007", 7), ("-1", -1), ("-2147483648", -(2**31)), ("2147483647", 2**31 - 1)],
)
def test_a_seed_in_the_c_int_range_plays_that_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, seed: int
) -> None:
    # Negative seeds are the seed program's too: srand() takes them modulo 2**32.
    code, out, err = run(monkeypatch, capsys, [typed, "3"], "")
    assert code == 0 and err == ""
    first = out.split("\n", 1)[0]
    up = card_name(bj.new(3, seed=seed).view(None).house[0])
    assert first == f"House: HIDDEN, {up}"
    assert bj.new(3, seed=seed).snapshot()["rng"] == bj.new(3, seed=seed % 2**32).snapshot()["rng"]
