"""What serve and replay take from a calibration file: card size, seat zones, templates, play area."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from calibration.config import Calibration, CameraSettings, DeckSettings, TableSettings, save
from calibration.runtime import picamera_settings, scanner_setup
from calibration.seats import SeatZones
from scanner.params import FindParams
from scanner.scan import Scanner
from scanner.scenes import PlacedCard, Scene, render
from scanner.templates import Templates
from scorer.cards import DeckKind, parse_card

AREA = ((100.0, 50.0), (1180.0, 60.0), (1170.0, 690.0), (110.0, 680.0))


def calibrated(tmp_path: Path, **changes: object) -> Path:
    cal = Calibration(
        camera=CameraSettings(1280, 720),
        table=TableSettings(AREA, (120.0, 168.0)),
        seats=SeatZones((640.0, 370.0), (0.0, 80.0, 180.0, 280.0)),
    )
    for key, value in changes.items():
        cal = Calibration(**{**cal.__dict__, key: value})
    return save(cal, tmp_path / "calibration.toml")


def test_the_card_size_goes_to_the_finder_and_the_seats_to_the_watcher(tmp_path: Path) -> None:
    setup = scanner_setup(calibrated(tmp_path), deck=DeckKind.OKTRIS, players=4)
    assert setup.problems == ()
    assert setup.params.find.card_size_px == (120.0, 168.0)
    assert setup.zones.centre == (640.0, 370.0)
    assert setup.zones.angles == (0.0, 80.0, 180.0, 280.0)
    assert setup.zones.seat_of((20, 330)) == 2
    assert setup.play_area == AREA
    assert setup.params.find.play_area == AREA
    assert setup.templates is None


def test_pixel_values_follow_the_frame_size(tmp_path: Path) -> None:
    setup = scanner_setup(calibrated(tmp_path), deck=DeckKind.OKTRIS, players=4, frame_size=(640, 360))
    assert setup.params.find.card_size_px == pytest.approx((60.0, 84.0))
    assert setup.zones.centre == pytest.approx((320.0, 185.0))
    assert setup.play_area is not None and setup.play_area[2] == pytest.approx((585.0, 345.0))


def test_another_number_of_players_keeps_the_centre_with_equal_angles(tmp_path: Path) -> None:
    setup = scanner_setup(calibrated(tmp_path), deck=DeckKind.OKTRIS, players=3)
    assert setup.zones.angles == (0.0, 120.0, 240.0)
    assert setup.zones.centre == (640.0, 370.0)
    assert any("4 seats but the game has 3 players" in p for p in setup.problems)


def test_a_corrupt_file_gives_the_defaults_and_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "calibration.toml"
    path.write_text("version = 1\n[seats\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        setup = scanner_setup(path, deck=DeckKind.OKTRIS, players=4)
    assert setup.params.find.card_size_px is None
    assert setup.zones.centre == (640.0, 360.0)
    assert len(setup.problems) == 1 and "is not valid TOML" in setup.problems[0]
    assert "is not valid TOML" in caplog.text


def test_the_files_template_folder_is_loaded_for_its_deck(tmp_path: Path) -> None:
    folder = Templates.builtin(DeckKind.OCTOPLUS).save(tmp_path / "deck")
    path = calibrated(tmp_path, deck=DeckSettings(DeckKind.OCTOPLUS, folder))
    setup = scanner_setup(path, deck=DeckKind.OCTOPLUS, players=4)
    assert setup.templates is not None and setup.templates.source == str(folder)
    other = scanner_setup(path, deck=DeckKind.OKTRIS, players=4)
    assert other.templates is None
    assert any("octoplus deck" in p for p in other.problems)


def test_a_missing_template_folder_falls_back_to_the_built_in_templates(tmp_path: Path) -> None:
    path = calibrated(tmp_path, deck=DeckSettings(DeckKind.OKTRIS, tmp_path / "gone"))
    setup = scanner_setup(path, deck=DeckKind.OKTRIS, players=4)
    assert setup.templates is None
    assert any("does not exist" in p and "built-in" in p for p in setup.problems)


def test_templates_given_on_the_command_line_win(tmp_path: Path) -> None:
    folder = Templates.builtin(DeckKind.OKTRIS).save(tmp_path / "cli")
    setup = scanner_setup(None, deck=DeckKind.OKTRIS, players=2, templates_dir=folder)
    assert setup.templates is not None and len(setup.templates) == len(Templates.builtin(DeckKind.OKTRIS))
    assert setup.zones.seat_of((640, 10)) == 2
    assert np.isclose(setup.zones.centre, (640.0, 360.0)).all()


def test_the_scanner_reports_no_card_off_the_calibrated_play_area(tmp_path: Path) -> None:
    cards = tuple(
        PlacedCard(parse_card(label, DeckKind.OKTRIS), centre, 10.0)
        for label, centre in (("7H", (400.0, 360.0)), ("AS", (1190.0, 360.0)))
    )
    frame, _ = render(Scene(cards=cards), np.random.default_rng(2))
    whole = Scanner(DeckKind.OKTRIS).scan(frame)
    assert len(whole.detections) == 2
    setup = scanner_setup(calibrated(tmp_path), deck=DeckKind.OKTRIS, players=4)
    on_cloth = Scanner(DeckKind.OKTRIS, setup.templates, setup.params).scan(frame)
    assert [round(d.centre[0] / 100) for d in on_cloth.detections] == [4]


def test_a_play_area_that_is_not_points_is_refused_by_the_finder() -> None:
    with pytest.raises(ValueError, match=r"find\.play_area"):
        FindParams(play_area=((0.0, 0.0), (1.0, 1.0)))


def test_the_pi_camera_starts_with_the_recorded_size_exposure_and_focus(tmp_path: Path) -> None:
    camera = CameraSettings(
        1640, 1232, exposure_time_us=9000, analogue_gain=1.5, colour_gains=(1.9, 1.3), lens_position=3.0
    )
    settings = picamera_settings(calibrated(tmp_path, camera=camera))
    assert (settings.width, settings.height) == (1640, 1232)
    controls = dict(settings.controls)
    assert controls["ExposureTime"] == 9000 and controls["AeEnable"] is False
    assert controls["ColourGains"] == (1.9, 1.3) and controls["AwbEnable"] is False
    assert controls["LensPosition"] == 3.0


def test_without_a_calibration_the_pi_camera_settles_by_itself(tmp_path: Path) -> None:
    for path in (None, tmp_path / "missing.toml"):
        settings = picamera_settings(path)
        assert settings.controls == () and (settings.width, settings.height) == (1280, 720)
