"""The engine contract's shared pieces."""

import json

import pytest

from rules.engine import (
    GameOver,
    IllegalAction,
    Outcome,
    Result,
    SnapshotError,
    check_snapshot,
    result_data,
    result_from_data,
)


def test_illegal_action_carries_reason_code_and_params() -> None:
    error = IllegalAction("You don't have ♠7", code="not_in_hand", card="♠7")
    assert str(error) == "You don't have ♠7"
    assert error.reason == "You don't have ♠7"
    assert error.code == "not_in_hand"
    assert error.params == {"card": "♠7"}


def test_result_winners_and_game_over_event() -> None:
    result = Result(
        outcomes=(Outcome.LOSE, Outcome.WIN, Outcome.DRAW, Outcome.WIN),
        scores=(0, 21, 18, 20),
        ranking=(1, 3, 2, 0),
    )
    assert result.winners == (1, 3)
    assert GameOver(result).result is result


def test_check_snapshot_accepts_its_own_game_and_schema() -> None:
    check_snapshot({"game": "uno", "schema": 1}, "uno", 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"game": "uno", "schema": 1}, "expected 'onecard'"),
        ({"game": "onecard", "schema": 9}, "not supported"),
        ([1, 2], "JSON object"),
    ],
)
def test_check_snapshot_refuses_other_games_and_schemas(data: object, message: str) -> None:
    with pytest.raises(SnapshotError, match=message):
        check_snapshot(data, "onecard", 1)  # type: ignore[arg-type]


def test_a_result_goes_through_a_snapshot_and_back() -> None:
    result = Result((Outcome.WIN, Outcome.LOSE, Outcome.DRAW), (12, -3, 0), (0, 2, 1))
    data = result_data(result)
    assert data == {
        "outcomes": ["win", "lose", "draw"],
        "scores": [12, -3, 0],
        "ranking": [0, 2, 1],
    }
    assert result_from_data(json.loads(json.dumps(data))) == result
    assert result_data(None) is None and result_from_data(None) is None
