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
