"""Recorded games replay to their expected logs and score sheets; quiet folders yield no event.

Each folder of ``tests/fixtures/games/`` (written by ``tools/record_games.py``)
is replayed here with the rendered truth in place of the scanner, which checks
the watcher, the proposals and the rules on real frames whatever the scanner's
state; ``test_replay_scanner.py`` replays them through the real scanner.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recorded_games import GAMES, PLAYED, QUIET, expected, normalised

from scanner.sources import DEFAULT_DEMO_DIR, SourceError, list_frames, parse_frame_list
from scorer.errors import NotationError
from scorer.events import Reveal
from scorer.notation import parse_log
from webui.cli import main
from webui.commands.replay import ReplayRun, TruthDetector, read_people, replay_folder


def replay_with_truth(name: str) -> ReplayRun:
    folder = GAMES / name
    game_name, players, _, _ = expected(name)
    truth = TruthDetector(folder)
    return replay_folder(folder, game_name, players, detect=truth, on_frame=truth.at)


@pytest.mark.parametrize("name", PLAYED)
def test_recorded_game_with_the_rendered_truth_gives_the_expected_log_and_sheet(name: str) -> None:
    _, _, events, sheet = expected(name)
    run = replay_with_truth(name)
    assert run.flagged == []
    assert run.unanswered == []
    assert normalised(list(run.game.events)) == normalised(events)
    assert run.game.score_sheet().to_json() == sheet


@pytest.mark.parametrize("name", QUIET)
def test_quiet_folder_with_the_rendered_truth_yields_no_event(name: str) -> None:
    run = replay_with_truth(name)
    assert run.observations == []
    assert run.game.events == ()


def test_the_pages_demo_replays_to_its_expected_log() -> None:
    game = parse_log((DEFAULT_DEMO_DIR / "expected.log").read_text(encoding="utf-8"))
    truth = TruthDetector(DEFAULT_DEMO_DIR)
    run = replay_folder(DEFAULT_DEMO_DIR, "octoplus", 3, detect=truth, on_frame=truth.at)
    assert run.flagged == []
    assert normalised(list(run.game.events)) == normalised(list(game.events))


def test_the_pages_demo_is_a_whole_round_of_a_minute_or_more_and_stays_small() -> None:
    game = parse_log((DEFAULT_DEMO_DIR / "expected.log").read_text(encoding="utf-8"))
    _, stamps = frame_list(DEFAULT_DEMO_DIR)
    assert len(game.score_sheet().rounds) == 1  # the round was played out and scored
    assert sum(isinstance(e, Reveal) for e in game.events) == len(game.players) - 1
    assert stamps[-1] - stamps[0] >= 60.0
    assert sum(p.stat().st_size for p in DEFAULT_DEMO_DIR.iterdir() if p.is_file()) < 450_000


def frame_list(folder: Path) -> tuple[list[Path], list[float]]:
    return parse_frame_list((folder / "timestamps.txt").read_text(), list_frames(folder))


def test_every_recorded_folder_has_truth_per_frame_and_shows_each_image() -> None:
    for name in PLAYED + QUIET:
        folder = GAMES / name
        frames, _ = frame_list(folder)
        truth = json.loads((folder / "frames.json").read_text())
        assert len(frames) == len(truth) > 0, name
        assert set(frames) == set(folder.glob("frame_*.jpg")), name


def test_recorded_frames_showing_one_image_show_one_view_and_never_follow_each_other() -> None:
    for folder in [*(GAMES / name for name in PLAYED + QUIET), DEFAULT_DEMO_DIR]:
        frames, _ = frame_list(folder)
        truth = json.loads((folder / "frames.json").read_text())
        first: dict[Path, dict[str, object]] = {}
        for i, (file, seen) in enumerate(zip(frames, truth, strict=True)):
            shown = first.setdefault(file, seen)
            assert (shown["cards"], shown["hands"]) == (seen["cards"], seen["hands"]), (folder, i)
            assert i == 0 or frames[i - 1] != file, (folder, i)  # the camera noise differs frame to frame


def test_recorded_games_stay_small() -> None:
    total = sum(p.stat().st_size for p in GAMES.rglob("*") if p.is_file())
    assert total < 1_050_000


# --- the command ---------------------------------------------------------------------------------------


def test_replay_command_prints_the_log_lines_and_the_sheet_as_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = GAMES / "oktris-4p-deal"
    code = main(["replay", str(folder), "--game", "oktris", "--players", "4", "--truth", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    _, _, events, sheet = expected("oktris-4p-deal")
    assert {k: v for k, v in out.items() if k != "events"} == sheet
    assert out["events"][0] == "1: trick 5H 7S 7D 2C @scanner"
    assert len(out["events"]) == len(events)


def test_replay_command_prints_a_readable_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    folder = GAMES / "octoplus-3p-round"
    assert main(["replay", str(folder), "--game", "octoplus", "--players", "3", "--truth"]) == 0
    out = capsys.readouterr().out
    assert "3: give 1 to 3 @manual" in out
    assert "0 [void 8]" in out


def test_replay_command_names_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(tmp_path / "nothing"), "--game", "oktris", "--players", "2", "--truth"])
    assert code == 1
    assert "nothing" in capsys.readouterr().err


def replay_oktris_deal_with(calibration: Path, capsys: pytest.CaptureFixture[str]) -> object:
    """The totals ``octotable replay --truth --json`` prints for the Oktris deal with ``calibration``."""
    folder = GAMES / "oktris-4p-deal"
    args = ["replay", str(folder), "--game", "oktris", "--players", "4", "--truth"]
    assert main([*args, "--calibration", str(calibration), "--json"]) == 0
    return json.loads(capsys.readouterr().out)["totals"]


def test_replay_command_takes_seat_zones_and_card_size_from_a_calibration_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    totals = replay_oktris_deal_with(GAMES / "oktris-4p-deal" / "calibration.toml", capsys)
    assert totals == expected("oktris-4p-deal")[3]["totals"]


def test_replay_command_with_a_calibration_for_other_seats_warns_and_uses_equal_angles(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    totals = replay_oktris_deal_with(GAMES / "octoplus-3p-round" / "calibration.toml", capsys)
    assert "3 seats but the game has 4 players" in caplog.text
    assert totals == expected("oktris-4p-deal")[3]["totals"]


def test_replay_command_without_the_calibration_file_warns_and_uses_the_defaults(
    caplog: pytest.LogCaptureFixture,
) -> None:
    folder = GAMES / "card-nudged"
    args = [
        "replay",
        str(folder),
        "--game",
        "octoplus",
        "--players",
        "3",
        "--truth",
        "--calibration",
        "nowhere.toml",
    ]
    assert main(args) == 0
    assert "nowhere.toml" in caplog.text
    assert "default calibration" in caplog.text


def test_people_file_lines_must_be_events(tmp_path: Path) -> None:
    (tmp_path / "people.txt").write_text("# comment\ngive 1 to 2\ngive one to 2\n")
    with pytest.raises(NotationError, match="line 3"):
        read_people(tmp_path, ("A", "B", "C"))


def test_truth_detector_needs_the_truth_file(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"frames\.json"):
        TruthDetector(tmp_path)
