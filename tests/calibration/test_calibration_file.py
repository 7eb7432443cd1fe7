"""The calibration file: versioned TOML, every problem named, defaults when it cannot be used."""

from __future__ import annotations

from pathlib import Path

import pytest

from calibration.config import (
    Calibration,
    CalibrationError,
    CameraSettings,
    DeckSettings,
    TableSettings,
    default_calibration,
    file_in,
    load,
    load_or_default,
    save,
)
from calibration.seats import SeatZones
from scorer.cards import DeckKind

GOOD = """\
version = 1

[camera]
width = 1280
height = 720
exposure_time_us = 12000
analogue_gain = 1.5
colour_gains = [1.8, 1.5]

[table]
corners = [[100, 50], [1180, 60], [1170, 690], [110, 680]]
card_size_px = [120.5, 168.0]

[seats]
players = 3
centre = [640, 360]
angles = [0, 120, 240]

[deck]
kind = "octoplus"
templates = "my-deck"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "calibration.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_complete_file_is_read_with_every_value(tmp_path: Path) -> None:
    cal = load(write(tmp_path, GOOD))
    assert cal.camera == CameraSettings(1280, 720, 12000, 1.5, (1.8, 1.5), None)
    assert cal.table.corners == ((100.0, 50.0), (1180.0, 60.0), (1170.0, 690.0), (110.0, 680.0))
    assert cal.table.card_size_px == (120.5, 168.0)
    assert cal.seats == SeatZones((640.0, 360.0), (0.0, 120.0, 240.0))
    assert cal.deck.kind is DeckKind.OCTOPLUS
    assert cal.deck.templates == tmp_path / "my-deck"


def test_saving_then_loading_gives_the_same_calibration(tmp_path: Path) -> None:
    cal = Calibration(
        camera=CameraSettings(1640, 1232, 20000, 2.0, (1.5, 1.25), 3.5),
        table=TableSettings(((10.0, 20.0), (1600.0, 25.0), (1620.0, 1200.0), (5.0, 1190.0)), (150.25, 210.5)),
        seats=SeatZones((800.0, 600.0), (10.0, 100.0, 200.0, 280.0)),
        deck=DeckSettings(DeckKind.OKTRIS, tmp_path / "templates"),
    )
    path = save(cal, tmp_path / "sub" / "cal.toml")
    assert load(path) == cal
    assert 'templates = "../templates"' not in path.read_text()


def test_template_folder_beside_the_file_is_written_relative(tmp_path: Path) -> None:
    cal = Calibration(deck=DeckSettings(DeckKind.OKTRIS, tmp_path / "templates"))
    path = save(cal, tmp_path / "cal.toml")
    assert 'templates = "templates"' in path.read_text()


@pytest.mark.parametrize(
    ("version_line", "expected"),
    [
        ("", "has no version"),
        ("version = 0", "version 0, an old format"),
        ("version = 2", "newer than this octotable reads"),
        ('version = "1"', "has version '1'"),
    ],
)
def test_a_missing_old_or_newer_version_is_rejected_with_a_clear_message(
    tmp_path: Path, version_line: str, expected: str
) -> None:
    path = write(tmp_path, version_line + "\n[seats]\nplayers = 4\n")
    with pytest.raises(CalibrationError) as info:
        load(path)
    assert expected in str(info.value)
    assert str(path) in str(info.value)
    assert "octotable calibrate" in str(info.value)


def test_a_corrupt_file_is_rejected_naming_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "version = 1\n[table\ncorners = [[1, 2]\n")
    with pytest.raises(CalibrationError, match="is not valid TOML") as info:
        load(path)
    assert info.value.source == str(path)


def test_a_file_that_is_not_text_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "calibration.toml"
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(CalibrationError, match="cannot be read"):
        load(path)


def test_every_problem_of_a_file_is_listed_at_once(tmp_path: Path) -> None:
    text = GOOD.replace("width = 1280", "width = 5").replace("players = 3", "players = 3\nplayer = 4")
    text = text.replace('kind = "octoplus"', 'kind = "poker"')
    with pytest.raises(CalibrationError) as info:
        load(write(tmp_path, text))
    problems = info.value.problems
    assert any("camera.width" in p and "5" in p for p in problems)
    assert any("unknown key seats.'player'" in p for p in problems)
    assert any("deck.kind" in p and "poker" in p for p in problems)
    assert len(problems) == 3


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "[[100, 50], [1180, 60], [1170, 690], [110, 680]]",
            "[[100, 50], [110, 680], [1170, 690], [1180, 60]]",
            "convex",
        ),
        ("[[100, 50], [1180, 60], [1170, 690], [110, 680]]", "[[100, 50], [1180, 60]]", "four points"),
        (
            "[[100, 50], [1180, 60], [1170, 690], [110, 680]]",
            "[[100, 50], [1180, 60], [1170, 2690], [110, 680]]",
            "outside",
        ),
        (
            "[[100, 50], [1180, 60], [1170, 690], [110, 680]]",
            "[[100, 50], [130, 50], [130, 80], [100, 80]]",
            "under 5%",
        ),
        ("card_size_px = [120.5, 168.0]", "card_size_px = [168.0, 120.5]", "short side first"),
        ("card_size_px = [120.5, 168.0]", "card_size_px = [20, 168.0]", "not card-shaped"),
        ("angles = [0, 120, 240]", "angles = [0, 120]", "lists 2 seats but seats.players is 3"),
        ("angles = [0, 120, 240]", "angles = [0, 240, 120]", "does not follow seat 2"),
        ("angles = [0, 120, 240]", "angles = [0, 2, 240]", "apart"),
        ("players = 3", "players = 9", "seats.players"),
        ("analogue_gain = 1.5", "analogue_gain = -1", "camera.analogue_gain"),
        ("exposure_time_us = 12000", "exposure_time_us = 0.5", "camera.exposure_time_us"),
        ('templates = "my-deck"', "templates = 3", "deck.templates"),
    ],
)
def test_a_bad_value_is_named_with_the_value(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new)
    with pytest.raises(CalibrationError, match="calibration file") as info:
        load(write(tmp_path, text))
    assert any(expected in p for p in info.value.problems), info.value.problems


def test_an_empty_version_1_file_means_the_defaults(tmp_path: Path) -> None:
    assert load(write(tmp_path, "version = 1\n")) == Calibration()


def test_a_missing_file_gives_the_defaults_and_says_why(tmp_path: Path) -> None:
    loaded = load_or_default(tmp_path / "nowhere.toml", players=3)
    assert loaded.is_default
    assert loaded.calibration == default_calibration(3)
    assert loaded.problem is not None
    assert "nowhere.toml" in loaded.problem and "does not exist" in loaded.problem
    assert "default calibration" in loaded.problem


def test_an_old_file_gives_the_defaults_and_says_why(tmp_path: Path) -> None:
    loaded = load_or_default(write(tmp_path, "version = 0\n"))
    assert loaded.calibration == default_calibration(4)
    assert loaded.problem is not None and "old format" in loaded.problem


def test_no_file_asked_for_means_the_defaults_without_a_problem() -> None:
    loaded = load_or_default(None, players=5)
    assert not loaded.is_default
    assert loaded.calibration.seats.players == 5


def test_saving_replaces_the_file_whole(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    save(default_calibration(2), path)
    assert load(path) == default_calibration(2)
    assert not (tmp_path / "calibration.toml.tmp").exists()


def test_the_data_folders_file_is_found_only_once_it_exists(tmp_path: Path) -> None:
    assert file_in(tmp_path) is None
    save(default_calibration(3), tmp_path / "calibration.toml")
    assert file_in(tmp_path) == tmp_path / "calibration.toml"
