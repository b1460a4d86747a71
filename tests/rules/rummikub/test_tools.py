"""Rule 18: ``deckhand rummikub check`` and ``deckhand rummikub solve`` through the real CLI."""

from __future__ import annotations

import json

import pytest

from bot.cli import USAGE_ERROR, main
from rules.rummikub.sets import check_set
from rules.rummikub.tiles import parse_tiles


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["rummikub", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_rule_18_check_prints_each_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check", "R1 R2 R3", "B5 O5 K5 J", "O7 B7 O7 B7"], capsys)
    assert code == 0 and err == ""
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0] == {
        "set": ["R1", "R2", "R3"],
        "valid": True,
        "kind": "run",
        "value": 6,
        "jokers": [],
        "reason": None,
    }
    assert lines[1]["valid"] and lines[1]["value"] == 20 and lines[1]["jokers"] == ["R5"]
    assert not lines[2]["valid"] and lines[2]["value"] == 0
    assert lines[2]["reason"] == "group has two orange 7s"


def test_rule_18_solve_prints_the_play(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "--rack", "R10 R11 R12 J K7", "--table", "B5 O5 K5|R1 R2 R3"]
    code, out, err = run(argv, capsys)
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert sorted(answer["tiles"]) == ["J", "R10", "R11", "R12"]
    assert answer["value"] == 46
    table = answer["table"]
    assert all(check_set(parse_tiles(" ".join(s))).valid for s in table)
    assert sorted(c for s in table for c in s) == sorted(
        ["B5", "O5", "K5", "R1", "R2", "R3", "R10", "R11", "R12", "J"]
    )


def test_rule_18_solve_initial_and_no_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", "--rack", "R1 R2 R3 K9", "--initial"], capsys)
    assert code == 0
    assert json.loads(out) == {"tiles": [], "value": 0, "table": []}
    code, out, _ = run(["solve", "--rack", "빨10 빨11 빨12", "--initial"], capsys)
    assert json.loads(out)["tiles"] == ["R10", "R11", "R12"]


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "R1 R2 X3"],
        ["check", "R1 R1 R2", "R1 R3 R4"],
        ["check", "J J R1", "J R5 R6"],
        ["solve", "--rack", "R14"],
        ["solve", "--rack", "R1 R1", "--table", "R1 R2 R3"],
        ["solve", "--rack", "J", "--table", "J R1 R2|J B5 O5"],
        ["check", ""],
        ["check", "R1 R2 R3", " , "],
        ["check", "R01 R2 R3"],
        ["check", "R\uff11 R2 R3"],
        ["solve", "--rack", "R\uff11\uff10"],
    ],
)
def test_rule_18_bad_tiles_are_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == USAGE_ERROR
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("deckhand rummikub")


def test_rule_18_an_invalid_table_is_refused_with_its_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It used to be repaired with rack tiles: R1 R2 R3 + R4 R5 came back as R1..R5.
    code, out, err = run(["solve", "--rack", "R1 R2 R3", "--table", "R7 R8 R9|R4 R5"], capsys)
    assert (code, out) == (USAGE_ERROR, "")
    assert err == (
        "deckhand rummikub solve: table set 2 (R4 R5) is not valid:"
        " a set needs at least 3 tiles, this one has 2\n"
    )
