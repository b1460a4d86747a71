"""Rule 27: ``deckhand gostop score`` — the worked totals and bad input."""

import io
import json
from pathlib import Path

import pytest

from bot.cli import main
from rules.gostop.cards import DECK, Kind

PLAIN_PI = [c.code for c in DECK if c.kind is Kind.JUNK]


def run_cli(
    game: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    code = main(["gostop", "score", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def game(winner: list[str], loser: list[str], **extra: object) -> dict[str, object]:
    win = {"captured": winner, "go": 0, "shakes": 0, "bombs": 0}
    lose = {"captured": loser, "go": 0}
    for key in ("go", "shakes", "bombs"):
        if f"winner_{key}" in extra:
            win[key] = extra.pop(f"winner_{key}")
    if "loser_go" in extra:
        lose["go"] = extra.pop("loser_go")
    return {"winner": win, "loser": lose, "nagari_carry": extra.pop("nagari_carry", 0)}


@pytest.mark.parametrize(
    "case",
    [
        (PLAIN_PI[:16], [], {}, 7, []),
        (PLAIN_PI[:16], [*PLAIN_PI[16:21], "11쌍피"], {}, 14, ["pi-bak"]),
        (["1광", "3광", "12광", *PLAIN_PI[:15]], [], {}, 16, ["gwang-bak"]),
        (["2열", "4열", "8열", "5열", "6열", "7열", "10열"], [], {}, 16, ["meong-tta"]),
        (PLAIN_PI[:16], [], {"winner_go": 3}, 20, []),
        (PLAIN_PI[:19], [], {"winner_go": 3, "loser_go": 1}, 52, ["go-bak"]),
        (PLAIN_PI[:16], [], {"winner_shakes": 1, "winner_bombs": 1, "nagari_carry": 1}, 56, []),
        # Rule 21: the loser's 국진 stays an animal on a tie (pi 6 → pi-bak), and is an animal
        # when that scores its owner more, though as 쌍피 it would have spared them pi-bak.
        (PLAIN_PI[:16], [*PLAIN_PI[16:22], "9열"], {}, 14, ["pi-bak"]),
        (PLAIN_PI[:16], ["2열", "4열", "5열", "6열", "9열", *PLAIN_PI[16:22]], {}, 14, ["pi-bak"]),
    ],
)
def test_rule_27_worked_totals_through_the_cli(
    case: tuple[list[str], list[str], dict[str, int], int, list[str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    winner, loser, extra, total, baks = case
    code, out, err = run_cli(game(winner, loser, **dict(extra)), tmp_path, capsys)
    assert (code, err) == (0, "")
    sheet = json.loads(out)
    assert set(sheet) == {"base", "go_bonus", "multiplier", "total", "breakdown", "baks"}
    assert set(sheet["breakdown"]) == {"bright", "animal", "ribbon", "pi", "godori", "dan"}
    assert sheet["total"] == total
    assert sheet["baks"] == baks
    assert sheet["total"] == (sheet["base"] + sheet["go_bonus"]) * sheet["multiplier"]
    assert sheet["base"] == sum(sheet["breakdown"].values())


def test_rule_27_three_goes_sheet_in_full(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(game(PLAIN_PI[:19], [], winner_go=3, loser_go=1), tmp_path, capsys)
    assert code == 0
    assert json.loads(out) == {
        "base": 10,
        "go_bonus": 3,
        "multiplier": 4,
        "total": 52,
        "breakdown": {"bright": 0, "animal": 0, "ribbon": 0, "pi": 10, "godori": 0, "dan": 0},
        "baks": ["go-bak"],
    }


NINE_POINTS = ["1광", "3광", "8광", "12광", "2띠", "5띠", "6띠", "9띠", "10띠", "12띠"]


def test_rule_27_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # 4 brights with the rain bright (4), 6 ribbons (2) and 청단 (3): 9.
    text = json.dumps(game(NINE_POINTS, ["11광"]), ensure_ascii=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["gostop", "score", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 9


def test_rule_27_reads_stdin_as_bytes_with_a_bom(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bytes are read as UTF-8 whatever the terminal's encoding says.
    raw = b"\xef\xbb\xbf" + json.dumps(game(NINE_POINTS, ["11광"])).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="latin-1"))
    assert main(["gostop", "score", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 9


def test_rule_27_accepts_a_utf8_bom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(game(PLAIN_PI[:16], [])).encode())
    assert main(["gostop", "score", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["total"] == 7


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        (b"\xff\xfe{}", "UTF-8"),
        (b'{"winner": {"captured": [], "go": 1' + b"0" * 5000 + b"}}", "JSON"),
        (b"[" * 100_000, "JSON"),
        (b"{" * 100_000, "JSON"),
        (b"", "JSON"),
        (b'{"winner": {"captured": ["\\u2028"]}, "loser": {"captured": []}}', "captured"),
    ],
)
def test_rule_27_any_bytes_are_one_line_and_exit_2(
    raw: bytes, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "odd.json"
    path.write_bytes(raw)
    assert main(["gostop", "score", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n") and needle in err


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (game(["1광", "13광"], []), "13광"),
        (game(["1광", "1광"], []), "twice"),
        (game(["1광"], ["jan-bright"]), "twice"),
        (game(["1광"], [], winner_go=-1), "go"),
        (game(PLAIN_PI[:16], [], winner_go=10), "winner.go"),
        (game(PLAIN_PI[:16], [], loser_go=10), "loser.go"),
        (game(["1광"], [], winner_shakes=2, winner_bombs=2), "shakes"),
        (game(["1광"], [], nagari_carry="x"), "nagari_carry"),
        ({"winner": {"captured": "1광"}, "loser": {"captured": []}}, "list"),
        ({"winner": {"captured": []}}, "loser"),
        ({"winner": {"captured": PLAIN_PI[:16]}, "loser": {}}, "loser.captured"),
        ({"winner": {"go": 0}, "loser": {"captured": []}}, "winner.captured"),
        # A winner stops at 7 or more (rule 22); below that no score sheet is possible.
        (game([], []), "7"),
        (game(PLAIN_PI[:15], []), "6 points"),
        (game(["1광", "3광", "8광"], [], winner_go=1), "7"),
        ([1, 2], "object"),
        ({"winner": {"captured": []}, "loser": {"captured": []}, "extra": 1}, "extra"),
    ],
)
def test_rule_27_bad_input_is_one_line_and_exit_2(
    data: object, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(data, tmp_path, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and needle in err


def test_rule_27_not_json_and_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{nope", encoding="utf-8")
    assert main(["gostop", "score", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["gostop", "score", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_gostop_without_a_tool_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["gostop"])
    assert info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1
