"""The ``deckhand`` command line: usage mistakes are one line on stderr and exit code 2."""

import pytest

from bot.cli import USAGE_ERROR, main


@pytest.mark.parametrize("argv", [[], ["dance"], ["play"], ["play", "poker"]])
def test_usage_mistakes_exit_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("deckhand")


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "blackjack", "1", "9"],
        ["rummikub", "solve"],
        ["rummikub", "solve", "--rack", "R1", "--initial=3"],
        ["gostop", "score"],
    ],
)
def test_usage_stays_one_line_on_a_narrow_terminal(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # argparse wraps its usage to $COLUMNS; the error must not.
    monkeypatch.setenv("COLUMNS", "30")
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"deckhand {argv[0]} {argv[1]}" in err


# One mistake per subcommand: a missing argument, a bad value, and an extra argument, which
# argparse would otherwise report with the top-level usage.
EVERY_SUBCOMMAND = [
    (["run", "extra"], "deckhand run"),
    (["play", "blackjack", "1", "9"], "deckhand play blackjack"),
    (["play", "blackjack", "1", "2", "3"], "deckhand play blackjack"),
    (["play", "onecard", "extra"], "deckhand play onecard"),
    (["play", "onecard", "--seed", "x"], "deckhand play onecard"),
    (["play", "uno"], "deckhand play uno"),
    (["play", "uno", "3", "4"], "deckhand play uno"),
    (["gostop", "score"], "deckhand gostop score"),
    (["gostop", "score", "a.json", "b.json"], "deckhand gostop score"),
    (["rummikub", "check"], "deckhand rummikub check"),
    (["rummikub", "solve"], "deckhand rummikub solve"),
    (["rummikub", "solve", "--initial=3"], "deckhand rummikub solve"),
    (["rummikub", "solve", "--rack", "R1", "extra"], "deckhand rummikub solve"),
    (["play", "blackjack", "1", "2", "3\n4"], "deckhand play blackjack"),
    (["play", "blackjack", "1", "2", "--level", "expert"], "deckhand play blackjack"),
    (["play", "gostop", "--level", "expert"], "deckhand play gostop"),
]


@pytest.mark.parametrize(("argv", "subcommand"), EVERY_SUBCOMMAND)
@pytest.mark.parametrize("columns", ["10", "40"])
def test_every_subcommand_reports_its_own_usage_on_one_line(
    argv: list[str],
    subcommand: str,
    columns: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == USAGE_ERROR
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n") and "\r" not in err
    assert err.startswith(f"{subcommand}: ")
    assert f"(usage: {subcommand} [-h]" in err
