"""Recorded games through the whole pipeline: the real scanner, the watcher, the proposals and the rules."""

from __future__ import annotations

import pytest
from recorded_games import GAMES, PLAYED, QUIET, expected, normalised

from scorer.notation import parse_log
from webui.commands.replay import ReplayRun, replay_folder


def replay_with_scanner(name: str) -> ReplayRun:
    """The folder through the real scanner, set up by the folder's calibration file (card size, seats)."""
    folder = GAMES / name
    game_name, players, _, _ = expected(name)
    return replay_folder(folder, game_name, players, calibration=str(folder / "calibration.toml"))


@pytest.mark.slow
@pytest.mark.parametrize("name", PLAYED)
def test_recorded_game_through_the_scanner_gives_the_expected_sheet(name: str) -> None:
    _, _, events, sheet = expected(name)
    run = replay_with_scanner(name)
    assert normalised(list(run.game.events)) == normalised(events), [f.reason for f in run.flagged]
    assert run.game.score_sheet().to_json() == sheet


@pytest.mark.slow
@pytest.mark.parametrize("name", QUIET)
def test_quiet_folder_through_the_scanner_yields_no_event(name: str) -> None:
    run = replay_with_scanner(name)
    assert run.game.events == ()
    assert run.flagged == []


@pytest.mark.slow
def test_the_pages_demo_through_the_scanner_with_its_calibration_gives_its_log() -> None:
    from scanner.sources import DEFAULT_DEMO_DIR, DEMO_CALIBRATION

    game = parse_log((DEFAULT_DEMO_DIR / "expected.log").read_text(encoding="utf-8"))
    run = replay_folder(DEFAULT_DEMO_DIR, "octoplus", 3, calibration=str(DEMO_CALIBRATION))
    assert normalised(list(run.game.events)) == normalised(list(game.events))
