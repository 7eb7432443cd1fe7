"""The Pi camera for calibration (through a stand-in for picamera2): focus once, settle, record, lock."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from calibration_fixtures import image, truth

from calibration import picamera_lock
from calibration.config import CameraSettings, load
from calibration.picamera_lock import AF_AUTO, AF_MANUAL, lock_controls, settle_and_record
from scanner.sources_base import SourceError
from webui.cli import main

FRAME = image(truth()["tables"][0]["image"])


class FakeCamera:
    """Answers like picamera2.Picamera2 and records what it was asked."""

    def __init__(self, autofocus: bool, metadata: dict[str, Any]) -> None:
        self.camera_controls = {"AfMode": (0, 2, 0)} if autofocus else {}
        self.metadata = metadata
        self.calls: list[tuple[str, Any]] = []

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append(("configure", config["main"]["size"]))

    def start(self) -> None:
        self.calls.append(("start", None))

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("set_controls", controls))

    def autofocus_cycle(self) -> bool:
        self.calls.append(("autofocus_cycle", None))
        return True

    def capture_metadata(self) -> dict[str, Any]:
        return self.metadata

    def capture_array(self, name: str) -> np.ndarray:
        return np.dstack([FRAME, np.full(FRAME.shape[:2], 255, np.uint8)])  # XBGR8888-like 4 channels

    def close(self) -> None:
        self.calls.append(("close", None))


METADATA = {"ExposureTime": 16000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6), "LensPosition": 3.25}


def fake_module(camera: FakeCamera) -> Any:
    return SimpleNamespace(Picamera2=lambda number: camera)


def test_a_module_with_autofocus_is_focused_once_then_its_settled_values_recorded() -> None:
    camera = FakeCamera(True, METADATA)
    slept: list[float] = []
    settled = settle_and_record(960, 540, picamera2=fake_module(camera), sleep=slept.append)
    assert settled.focused is True
    assert settled.settings == CameraSettings(960, 540, 16000, 2.5, (1.9, 1.6), 3.25)
    assert settled.image.shape == FRAME.shape
    names = [name for name, _ in camera.calls]
    assert names == ["configure", "start", "set_controls", "autofocus_cycle", "close"]
    assert camera.calls[2][1] == {"AfMode": AF_AUTO}
    assert slept == [1.0]


def test_a_module_without_autofocus_records_no_lens_position() -> None:
    camera = FakeCamera(False, METADATA)
    settled = settle_and_record(picamera2=fake_module(camera), sleep=lambda s: None)
    assert settled.focused is None and settled.settings.lens_position is None
    assert "autofocus_cycle" not in [name for name, _ in camera.calls]


def test_missing_exposure_values_are_a_camera_error_and_the_camera_is_closed() -> None:
    camera = FakeCamera(False, {"AnalogueGain": 1.0})
    with pytest.raises(SourceError, match="lacks exposure values"):
        settle_and_record(picamera2=fake_module(camera), sleep=lambda s: None)
    assert camera.calls[-1][0] == "close"


def test_no_camera_is_named() -> None:
    def absent(number: int) -> Any:
        raise RuntimeError("no cameras available")

    with pytest.raises(SourceError, match="no camera 0"):
        settle_and_record(picamera2=SimpleNamespace(Picamera2=absent), sleep=lambda s: None)


def test_the_recorded_values_become_the_controls_that_lock_them() -> None:
    assert lock_controls(CameraSettings(1280, 720, 16000, 2.5, (1.9, 1.6), 3.25)) == {
        "AeEnable": False,
        "ExposureTime": 16000,
        "AnalogueGain": 2.5,
        "AwbEnable": False,
        "ColourGains": (1.9, 1.6),
        "AfMode": AF_MANUAL,
        "LensPosition": 3.25,
    }
    assert lock_controls(CameraSettings()) == {}


def test_calibrate_camera_on_the_pi_camera_records_the_settled_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    camera = FakeCamera(True, METADATA)
    monkeypatch.setattr(picamera_lock, "_module", lambda: fake_module(camera))
    monkeypatch.setattr("time.sleep", lambda s: None)
    path = tmp_path / "c.toml"
    code = main(["calibrate", "camera", "--config", str(path), "--source", "picamera", "--size", "960x540"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "autofocus: focused" in out and "exposure 16000 µs" in out
    assert load(path).camera == CameraSettings(960, 540, 16000, 2.5, (1.9, 1.6), 3.25)
