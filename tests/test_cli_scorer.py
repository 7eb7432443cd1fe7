"""``octotable simulate`` and ``octotable score`` through the command line entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.notation import parse_log
from webui.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_prints_a_log_that_replays_to_the_printed_sheet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "simulate", "--game", "octoplus", "--players", "3", "--seed", "4")
    assert code == 0
    assert out.startswith("# octotable game log\ngame octoplus\n")
    game = parse_log(out)
    assert game.finished
    total_line = next(line for line in out.splitlines() if line.startswith("# Total"))
    assert total_line.split()[2:] == [str(t) for t in game.score_sheet().totals]
    log = tmp_path / "game.log"
    log.write_text(out, encoding="utf-8")
    code, table, _ = run(capsys, "score", str(log))
    assert code == 0
    assert table.splitlines()[0].split() == ["Round", "Player", "1", "Player", "2", "Player", "3"]
    assert "Game over:" in table


def test_simulate_json_is_the_score_sheet_and_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("simulate", "--game", "oktris", "--players", "4", "--seed", "9", "--json")
    code, out, _ = run(capsys, *argv)
    again = run(capsys, *argv)[1]
    assert code == 0 and out == again
    sheet = json.loads(out)
    assert set(sheet) == {"game", "players", "rounds", "totals", "finished", "winners"}
    assert sheet["game"] == "oktris" and sheet["finished"] is True
    assert [sum(column) for column in zip(*sheet["rounds"], strict=True)] == sheet["totals"]
    assert max(sheet["totals"]) >= 88


def test_simulate_takes_house_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "simulate",
        "--players",
        "2",
        "--seed",
        "1",
        "--option",
        "max_rounds=1",
        "--option",
        "end_total=10000",
        "--json",
    )
    assert code == 0
    assert len(json.loads(out)["rounds"]) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--players", "9"), "2 to 8 players"),
        (("--option", "max_rounds=lots"), "max_rounds"),
        (("--option", "nonsense"), "NAME=VALUE"),
    ],
)
def test_simulate_rejects_bad_settings_with_exit_code_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, "simulate", *argv)
    assert code == 2 and out == ""
    assert message in err


LOG = """\
game oktris
players Ana Ben
option target 20
trick 8C 2C   # Ana
trick 3D 4H   # all red: next trick low -> 3D (Ana) wins
adjust Ben 3 "missed a trick"
"""


def test_score_prints_the_sheet_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "short.log"
    log.write_text(LOG, encoding="utf-8")
    code, out, _ = run(capsys, "score", str(log), "--json")
    assert code == 0
    assert json.loads(out) == {
        "game": "oktris",
        "players": ["Ana", "Ben"],
        "rounds": [],
        "totals": [4, 3],
        "finished": False,
        "winners": [],
    }


def test_score_table_marks_rules_and_adjustments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "short.log"
    log.write_text(LOG, encoding="utf-8")
    code, out, _ = run(capsys, "score", str(log))
    assert code == 0
    assert "adjustment (event 3) Ben +3: missed a trick" in out
    total = next(line for line in out.splitlines() if line.startswith("Total"))
    assert total.split() == ["Total", "4", "3"]
    assert "Game in progress: 0 deals scored." in out
    so_far = next(line for line in out.splitlines() if "(so far)" in line)
    assert so_far.split() == ["1", "(so", "far)", "4", "0"]
    code, out, _ = run(capsys, "simulate", "--game", "oktris", "--players", "2", "--seed", "3")
    assert code == 0
    assert "[run 2×2]" in out


def test_score_of_a_bad_log_names_the_line_and_prints_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "bad.log"
    log.write_text(LOG + "trick 8C 5H\n", encoding="utf-8")
    code, out, err = run(capsys, "score", str(log))
    assert code == 1 and out == ""
    assert "line 7" in err and "already played" in err


def test_score_of_a_missing_file_fails_cleanly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "score", str(tmp_path / "nope.log"))
    assert code == 1 and out == ""
    assert "cannot read" in err


def test_score_without_a_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["score"])
    assert info.value.code == 2
    assert capsys.readouterr().out == ""
