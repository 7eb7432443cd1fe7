"""Frame sources: replay folders, timestamps, video files, reopening a failing camera, specs."""

from __future__ import annotations

import logging
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from scanner import sources
from scanner.sources import (
    LIVE,
    OFFLINE,
    Backoff,
    OpenCVSource,
    PicameraSettings,
    PicameraSource,
    ReplaySource,
    ResilientSource,
    SourceError,
    SourceSpecError,
    open_source,
    parse_frame_list,
    parse_timestamps,
)
from scanner.types import Frame


def _write_frames(folder: Path, count: int, size: tuple[int, int] = (48, 64)) -> list[np.ndarray]:
    folder.mkdir(parents=True, exist_ok=True)
    images = []
    for i in range(count):
        image = np.full((size[0], size[1], 3), 20 * i + 10, np.uint8)
        image[:, :, 2] = 200  # red channel: checks the B,G,R order survives
        cv2.imwrite(str(folder / f"frame{i:03d}.png"), image)
        images.append(image)
    return images


# --- timestamps.txt ----------------------------------------------------------------------------------


def test_timestamps_are_one_value_per_line_with_comments_and_blanks_ignored() -> None:
    assert parse_timestamps("# seconds\n0\n0.5\n\n2.25\n", 3) == [0.0, 0.5, 2.25]


def test_timestamps_name_the_line_of_a_value_that_is_not_a_number() -> None:
    with pytest.raises(SourceError, match=r"line 2: not a number of seconds: 'abc'"):
        parse_timestamps("0\nabc\n", 2)


def test_timestamps_must_not_go_back_in_time() -> None:
    with pytest.raises(SourceError, match=r"line 3: 0.5 is earlier than the previous timestamp 1.0"):
        parse_timestamps("0\n1\n0.5\n", 3)


def test_timestamps_must_match_the_number_of_frames() -> None:
    with pytest.raises(SourceError, match="2 timestamps for 3 frames"):
        parse_timestamps("0\n1\n", 3)


def test_timestamps_reject_infinite_values() -> None:
    with pytest.raises(SourceError, match="not a finite number"):
        parse_timestamps("0\ninf\n", 2)


def test_timestamps_naming_their_images_list_the_frames_and_may_show_an_image_again() -> None:
    files = [Path("a.jpg"), Path("b.jpg")]
    frames, stamps = parse_frame_list("# t image\n0 a.jpg\n0.1 b.jpg\n\n0.2\ta.jpg\n0.3 b.jpg\n", files)
    assert [p.name for p in frames] == ["a.jpg", "b.jpg", "a.jpg", "b.jpg"]
    assert stamps == [0.0, 0.1, 0.2, 0.3]


def test_bare_timestamps_go_with_the_images_in_order() -> None:
    files = [Path("a.jpg"), Path("b.jpg")]
    assert parse_frame_list("0\n0.5\n", files) == (files, [0.0, 0.5])
    with pytest.raises(SourceError, match="1 timestamps for 2 frames"):
        parse_frame_list("0\n", files)


def test_timestamps_naming_an_unknown_image_or_only_some_images_are_refused() -> None:
    files = [Path("a.jpg"), Path("b.jpg")]
    with pytest.raises(SourceError, match=r"line 2: no image 'c.jpg' in the folder"):
        parse_frame_list("0 a.jpg\n1 c.jpg\n", files)
    with pytest.raises(SourceError, match="either every line names its image or none does"):
        parse_frame_list("0 a.jpg\n1\n", files)
    with pytest.raises(SourceError, match=r"line 2: 0.5 is earlier"):
        parse_frame_list("1 a.jpg\n0.5 b.jpg\n", files)


# --- replay folders ----------------------------------------------------------------------------------


def test_replay_yields_the_images_in_name_order_at_ten_fps_by_default(tmp_path: Path) -> None:
    images = _write_frames(tmp_path, 3)
    with ReplaySource(tmp_path) as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    for frame, image in zip(frames, images, strict=True):
        assert frame.image.dtype == np.uint8
        assert np.array_equal(frame.image, image)


def test_replay_uses_timestamps_file_when_present(tmp_path: Path) -> None:
    _write_frames(tmp_path, 3)
    (tmp_path / "timestamps.txt").write_text("10\n10.1\n14\n")
    with ReplaySource(tmp_path) as source:
        assert [f.timestamp for f in source] == [10.0, 10.1, 14.0]


def test_replay_shows_the_images_its_timestamps_name_one_frame_per_line(tmp_path: Path) -> None:
    images = _write_frames(tmp_path, 2)
    (tmp_path / "timestamps.txt").write_text("1 frame000.png\n2 frame001.png\n3 frame000.png\n")
    with ReplaySource(tmp_path) as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.timestamp for f in frames] == [1.0, 2.0, 3.0]
    for frame, image in zip(frames, [images[0], images[1], images[0]], strict=True):
        assert np.array_equal(frame.image, image)


def test_replay_skips_a_corrupt_image_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _write_frames(tmp_path, 3)
    (tmp_path / "frame001.png").write_bytes(b"\x89PNG not really an image")
    with caplog.at_level(logging.WARNING, logger="scanner.sources"), ReplaySource(tmp_path) as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 2]
    assert "frame001.png" in caplog.text


def test_replay_of_a_missing_folder_raises_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(SourceError, match="does not exist"), ReplaySource(missing):
        pass


def test_replay_of_a_folder_without_images_raises(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(SourceError, match="holds no image"), ReplaySource(tmp_path):
        pass


class _FakeTime:
    """A clock that a replay's sleeps move on, recording each sleep and, if given, ``during()``
    at each."""

    def __init__(self, now: float = 0.0, during: Callable[[], object] | None = None) -> None:
        self.now = now
        self.slept: list[float] = []
        self.seen: list[object] = []
        self.during = during

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        if self.during is not None:
            self.seen.append(self.during())
        self.now += seconds


def test_replay_in_real_time_sleeps_until_each_frame_is_due(tmp_path: Path) -> None:
    _write_frames(tmp_path, 3)
    (tmp_path / "timestamps.txt").write_text("5\n6\n8\n")
    time_ = _FakeTime(100.0)
    with ReplaySource(tmp_path, realtime=True, speed=2.0, sleep=time_.sleep, clock=time_.clock) as source:
        list(source)
    assert time_.slept == pytest.approx([0.5, 1.0])  # (6 - 5) / 2, then (8 - 6) / 2


def test_replay_in_real_time_says_it_is_pausing_while_it_waits(tmp_path: Path) -> None:
    _write_frames(tmp_path, 2)
    (tmp_path / "timestamps.txt").write_text("0\n30\n")
    time_ = _FakeTime(during=lambda: source.pausing)
    source = ReplaySource(tmp_path, realtime=True, sleep=time_.sleep, clock=time_.clock)
    with source:
        pausing_at_frames = [source.pausing for _ in source]
    assert time_.seen == [True]
    assert pausing_at_frames == [False, False]


def test_stop_ends_a_real_time_wait_at_once(tmp_path: Path) -> None:
    _write_frames(tmp_path, 2)
    (tmp_path / "timestamps.txt").write_text("0\n60\n")
    with ReplaySource(tmp_path, realtime=True) as source:
        frames = iter(source)
        next(frames)
        threading.Timer(0.2, source.stop).start()
        started = time.monotonic()
        assert list(frames) == []
    assert time.monotonic() - started < 30.0  # not the minute the recording waits for
    assert not source.pausing


def test_replay_as_fast_as_possible_never_sleeps(tmp_path: Path) -> None:
    _write_frames(tmp_path, 2)
    (tmp_path / "timestamps.txt").write_text("0\n100\n")

    def sleep(seconds: float) -> None:
        raise AssertionError("slept")

    with ReplaySource(tmp_path, sleep=sleep) as source:
        assert len(list(source)) == 2


def test_replay_loop_starts_over_with_timestamps_running_on(tmp_path: Path) -> None:
    _write_frames(tmp_path, 2)
    with ReplaySource(tmp_path, loop=True) as source:
        frames: list[Frame] = []
        for frame in source:
            frames.append(frame)
            if len(frames) == 5:
                source.stop()
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])


def test_replay_rejects_a_non_positive_speed(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="speed"):
        ReplaySource(tmp_path, speed=0)


# --- OpenCV video files ------------------------------------------------------------------------------


def test_video_file_yields_its_frames_and_ends(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(4):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    with open_source(str(path)) as source:
        assert isinstance(source, OpenCVSource)
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2, 3]
    assert frames[0].image.shape == (48, 64, 3)


def test_opencv_device_that_cannot_open_raises(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot open"), OpenCVSource(str(tmp_path / "missing.avi")):
        pass


# --- reopening a failing camera ----------------------------------------------------------------------


class FakeCamera:
    """A camera that delivers ``frames`` frames then fails, or fails to open."""

    def __init__(self, frames: int, *, fail_open: bool = False) -> None:
        self.frames = frames
        self.fail_open = fail_open
        self.name = "fake"
        self.closed = False

    def __enter__(self) -> FakeCamera:
        if self.fail_open:
            raise SourceError("fake: no camera")
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.closed = True

    def __iter__(self) -> Iterator[Frame]:
        for i in range(self.frames):
            yield Frame(image=np.zeros((4, 4, 3), np.uint8), timestamp=float(i), index=i)
        raise SourceError("fake: unplugged")

    def stop(self) -> None:
        pass


def test_resilient_source_reopens_a_failed_camera_with_growing_backoff() -> None:
    cameras = [FakeCamera(2), FakeCamera(0, fail_open=True), FakeCamera(0, fail_open=True), FakeCamera(3)]
    opened: list[FakeCamera] = []
    waits: list[float] = []
    statuses: list[str] = []

    def opener() -> FakeCamera:
        camera = cameras[len(opened)]
        opened.append(camera)
        return camera

    def wait(seconds: float) -> None:
        waits.append(seconds)
        statuses.append(source.status)
        if len(opened) == len(cameras):
            source.stop()

    source = ResilientSource(opener, backoff=Backoff(initial_s=0.5, factor=2.0, cap_s=1.5), wait=wait)
    with source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]  # indices run on across reopenings
    assert waits == [0.5, 1.0, 1.5, 0.5]  # grows, is capped, and resets after frames arrived
    assert statuses == [OFFLINE] * 4
    assert all(camera.closed for camera in cameras if not camera.fail_open)
    assert source.last_error == "fake: unplugged"


def test_resilient_source_is_live_while_frames_arrive() -> None:
    source = ResilientSource(lambda: FakeCamera(5), wait=lambda s: None)
    seen = []
    with source:
        for _ in source:
            seen.append(source.status)
            if len(seen) == 3:
                source.stop()
    assert source.status == LIVE
    assert seen == [LIVE, LIVE, LIVE]


def test_resilient_source_ends_when_the_wrapped_source_ends(tmp_path: Path) -> None:
    _write_frames(tmp_path, 2)
    with ResilientSource(lambda: ReplaySource(tmp_path)) as source:
        assert len(list(source)) == 2


def test_backoff_grows_by_its_factor_up_to_its_cap() -> None:
    backoff = Backoff(initial_s=1.0, factor=3.0, cap_s=20.0)
    assert [backoff.delay(n) for n in range(1, 6)] == [1.0, 3.0, 9.0, 20.0, 20.0]


def test_backoff_rejects_an_initial_delay_above_its_cap() -> None:
    with pytest.raises(ValueError, match="initial_s"):
        Backoff(initial_s=5.0, cap_s=1.0)


# --- picamera2, with a stand-in module ---------------------------------------------------------------


class _FakeRequest:
    def __init__(self, array: Any) -> None:
        self.array = array
        self.released = False

    def make_array(self, name: str) -> Any:
        assert name == "main"
        return self.array


class _FakePicamera2:
    instances: ClassVar[list[_FakePicamera2]] = []
    arrays: ClassVar[list[Any]] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.controls: dict[str, Any] = {}
        self.config: dict[str, Any] = {}
        self.closed = False
        _FakePicamera2.instances.append(self)

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        pass

    def capture_metadata(self, wait: float | None = None) -> dict[str, Any]:
        return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4)}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.update(controls)

    def captured_request(self, wait: float | None = None) -> Any:
        import contextlib

        @contextlib.contextmanager
        def manager() -> Iterator[_FakeRequest]:
            if not _FakePicamera2.arrays:
                raise TimeoutError("timed out")
            yield _FakeRequest(_FakePicamera2.arrays.pop(0))

        return manager()

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[_FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = _FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    _FakePicamera2.instances = []
    _FakePicamera2.arrays = []
    return _FakePicamera2


def test_picamera_locks_exposure_and_white_balance_after_settling(
    fake_picamera2: type[_FakePicamera2],
) -> None:
    with PicameraSource(PicameraSettings(width=640, height=480, settle_s=0.0)):
        camera = fake_picamera2.instances[0]
        assert camera.config["main"] == {"size": (640, 480), "format": "RGB888"}
        assert camera.controls == {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": 12000,
            "AnalogueGain": 2.5,
            "ColourGains": (1.8, 1.4),
        }
    assert camera.closed


def test_picamera_sets_the_recorded_controls_over_the_settled_ones(
    fake_picamera2: type[_FakePicamera2],
) -> None:
    recorded = (("ExposureTime", 8000), ("AfMode", 0), ("LensPosition", 2.5))
    with PicameraSource(PicameraSettings(settle_s=0.0, controls=recorded)):
        camera = fake_picamera2.instances[0]
        assert camera.controls["ExposureTime"] == 8000  # recorded, not the settled 12000
        assert camera.controls["LensPosition"] == 2.5 and camera.controls["AfMode"] == 0
        assert camera.controls["AnalogueGain"] == 2.5 and camera.controls["AwbEnable"] is False


def test_picamera_skips_a_malformed_frame_and_treats_a_timeout_as_a_dead_camera(
    fake_picamera2: type[_FakePicamera2], caplog: pytest.LogCaptureFixture
) -> None:
    good = np.zeros((4, 6, 3), np.uint8)
    fake_picamera2.arrays = [good, np.zeros((4, 6), np.float32), good]
    frames: list[Frame] = []
    with (
        caplog.at_level(logging.WARNING),
        PicameraSource(PicameraSettings(settle_s=0.0)) as source,
        pytest.raises(SourceError, match="no frame within"),
    ):
        for frame in source:
            frames.append(frame)
    assert [f.index for f in frames] == [0, 2]
    assert "malformed frame 1" in caplog.text


def test_picamera_without_picamera2_installed_raises_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError, match="picamera2 is not installed"), PicameraSource():
        pass


@pytest.mark.pi
def test_picamera_delivers_bgr_frames_on_the_pi() -> None:
    if not sources.picamera_available():
        pytest.skip("no Raspberry Pi camera here")
    with PicameraSource(PicameraSettings(width=640, height=480)) as source:
        frame = next(iter(source))
    assert frame.image.shape == (480, 640, 3)
    assert frame.image.dtype == np.uint8


# --- specs -------------------------------------------------------------------------------------------


def test_replay_spec_opens_a_replay_source(tmp_path: Path) -> None:
    source = open_source(f"replay:{tmp_path}", realtime=False)
    assert isinstance(source, ReplaySource)
    assert source.folder == tmp_path
    assert not source.realtime


def test_opencv_spec_is_wrapped_to_reopen_with_backoff() -> None:
    source = open_source("opencv:2")
    assert isinstance(source, ResilientSource)
    assert source.name == "opencv:2"


@pytest.mark.parametrize("spec", ["opencv:x", "replay:", "webcam", "/no/such/file.avi"])
def test_unknown_specs_are_rejected_naming_the_spec(spec: str) -> None:
    with pytest.raises(SourceSpecError, match=f"source {spec!r}"):
        open_source(spec)


def test_auto_falls_back_to_the_demo_folder_without_cameras(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sources, "picamera_available", lambda: False)
    monkeypatch.setattr(sources, "opencv_device_available", lambda device=0: False)
    source = open_source("auto", demo_dir=tmp_path)
    assert isinstance(source, ReplaySource)
    assert source.folder == tmp_path
    assert source.realtime
    assert not source.loop
    # the pacing asked for holds for the demo too (a test plays it as fast as it is read)
    fast = open_source("auto", demo_dir=tmp_path, realtime=False)
    assert isinstance(fast, ReplaySource) and not fast.realtime


def test_auto_prefers_the_pi_camera(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "picamera_available", lambda: True)
    source = open_source("auto")
    assert isinstance(source, ResilientSource)
    assert source.name == "picamera"
