"""Frame sources: the Pi camera, an OpenCV device or video file, a recorded folder.

Every source is a context manager; iterating an open source yields
:class:`~scanner.types.Frame` values (BGR uint8 images, a timestamp in seconds
and a running index) until the source ends or :meth:`FrameSource.stop` is
called.  A camera that fails raises :class:`SourceError`; wrap the opener in a
:class:`ResilientSource` to reopen it with backoff instead.

``open_source(spec)`` understands ``auto``, ``picamera``, ``opencv:N``, a video
file path, and ``replay:DIR``.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from scanner.sources_base import FrameSource, SourceError, StoppableSource, check_image
from scanner.sources_pi import PicameraSettings, PicameraSource
from scanner.sources_resilient import LIVE, OFFLINE, Backoff, ResilientSource
from scanner.types import Frame

log = logging.getLogger(__name__)

IMAGE_SUFFIXES: tuple[str, ...] = (".jpg", ".jpeg", ".png", ".bmp")
"""File name endings a replay folder's frames may have (case-insensitive)."""

TIMESTAMPS_FILE = "timestamps.txt"
"""Optional file of a replay folder: one seconds value per frame, in frame order (each may name its
image: ``parse_frame_list``)."""

DEFAULT_REPLAY_FPS = 10.0
"""Frame rate a replay folder without ``timestamps.txt`` is played at."""

DEFAULT_DEMO_DIR = Path(__file__).resolve().parent.parent / "webui" / "data" / "demo"
"""The built-in demo replay folder that ``auto`` falls back to (shipped with the web page)."""

DEMO_CALIBRATION = DEFAULT_DEMO_DIR / "calibration.toml"
"""The calibration of the demo's table (card size, seats): use it when playing the demo without one."""

__all__ = [
    "DEFAULT_DEMO_DIR",
    "DEMO_CALIBRATION",
    "LIVE",
    "OFFLINE",
    "Backoff",
    "FrameSource",
    "OpenCVSource",
    "PicameraSettings",
    "PicameraSource",
    "ReplaySource",
    "ResilientSource",
    "SourceError",
    "SourceSpecError",
    "check_image",
    "list_frames",
    "open_source",
    "parse_frame_list",
    "parse_timestamps",
]


# --- Replay folders -------------------------------------------------------------------------------


def list_frames(folder: Path) -> list[Path]:
    """The image files of a replay folder, in name order.

    Raises:
        SourceError: the folder does not exist or holds no image.
    """
    if not folder.is_dir():
        raise SourceError(f"replay folder {str(folder)!r} does not exist or is not a folder")
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise SourceError(f"replay folder {str(folder)!r} holds no image ({', '.join(IMAGE_SUFFIXES)})")
    return files


def parse_timestamps(text: str, frames: int, origin: str = TIMESTAMPS_FILE) -> list[float]:
    """Parse a ``timestamps.txt``: one seconds value per frame, never decreasing.

    Blank lines and lines starting with ``#`` are ignored.

    Raises:
        SourceError: a value is not a finite number, the values decrease, or
            their count differs from ``frames``.
    """
    values: list[float] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            value = float(stripped)
        except ValueError:
            raise SourceError(f"{origin} line {number}: not a number of seconds: {stripped!r}") from None
        if not math.isfinite(value):
            raise SourceError(f"{origin} line {number}: not a finite number of seconds: {stripped!r}")
        if values and value < values[-1]:
            raise SourceError(
                f"{origin} line {number}: {value} is earlier than the previous timestamp {values[-1]}"
            )
        values.append(value)
    if len(values) != frames:
        raise SourceError(f"{origin} has {len(values)} timestamps for {frames} frames")
    return values


def parse_frame_list(
    text: str, files: Sequence[Path], origin: str = TIMESTAMPS_FILE
) -> tuple[list[Path], list[float]]:
    """Parse a ``timestamps.txt`` against a replay folder's image ``files``: the frames in order and
    their timestamps.

    Each line is a seconds value, or a seconds value and the name of the image shown at that time
    (``0.400 frame_0003.jpg``).  Bare values go with the images in name order, one per image;
    named lines list the frames themselves, so one image may be shown as several frames (a still
    view stored once).  Either every line names its image or none does.  Blank lines and lines
    starting with ``#`` are ignored.

    Raises:
        SourceError: what ``parse_timestamps`` raises, a name that is no image of the folder, or
            lines of both kinds.
    """
    values: list[str] = []
    names: list[tuple[int, str | None]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            values.append("")
            continue
        value, *rest = stripped.split(None, 1)
        values.append(value)
        names.append((number, rest[0].strip() if rest else None))
    named = [(number, name) for number, name in names if name is not None]
    if not named:
        return list(files), parse_timestamps("\n".join(values), len(files), origin)
    if len(named) != len(names):
        raise SourceError(f"{origin}: either every line names its image or none does")
    by_name = {path.name: path for path in files}
    frames: list[Path] = []
    for number, name in named:
        if name not in by_name:
            raise SourceError(f"{origin} line {number}: no image {name!r} in the folder")
        frames.append(by_name[name])
    return frames, parse_timestamps("\n".join(values), len(frames), origin)


class ReplaySource(StoppableSource):
    """A folder of recorded frames played back in name order, or in the order ``timestamps.txt`` names them.

    Timestamps come from ``timestamps.txt`` if present (``parse_frame_list``: its lines may name
    the image of each frame, one image standing for several frames), else frames are
    ``1 / fps`` apart.  With ``realtime`` the source sleeps so frames arrive at
    their recorded pace (divided by ``speed``), and says so by ``pausing`` (a long gap in a
    recording is a still table, not a lost camera); ``stop`` ends such a sleep at once.  Without
    ``realtime`` frames come as fast as they are read.  ``loop`` starts again from the first
    frame at the end, with timestamps continuing.  An unreadable image is skipped with a warning;
    its index is not reused, so a frame's index is its position in the folder, or its line in a
    ``timestamps.txt`` that names the images (plus the number of frames times the number of
    completed loops).

    Raises (on ``__enter__``):
        SourceError: no such folder, no image in it, or a bad ``timestamps.txt``.
    """

    def __init__(
        self,
        folder: Path | str,
        *,
        realtime: bool = False,
        speed: float = 1.0,
        loop: bool = False,
        fps: float = DEFAULT_REPLAY_FPS,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        if not speed > 0 or not math.isfinite(speed):
            raise ValueError(f"replay speed must be a positive number, got {speed!r}")
        if not fps > 0 or not math.isfinite(fps):
            raise ValueError(f"replay fps must be a positive number, got {fps!r}")
        self.folder = Path(folder)
        self.name = f"replay:{self.folder}"
        self.realtime = realtime
        self.speed = speed
        self.loop = loop
        self.fps = fps
        self._sleep = sleep or self._stop.wait
        self._clock = clock
        self.files: list[Path] = []
        self.timestamps: list[float] = []
        self.pausing = False
        """True while the source waits for a recorded frame's time (``realtime`` only)."""

    def __enter__(self) -> ReplaySource:
        self.files = list_frames(self.folder)
        stamps = self.folder / TIMESTAMPS_FILE
        if stamps.is_file():
            self.files, self.timestamps = parse_frame_list(
                stamps.read_text(encoding="utf-8"), self.files, str(stamps)
            )
        else:
            self.timestamps = [i / self.fps for i in range(len(self.files))]
        return self

    def __iter__(self) -> Iterator[Frame]:
        import cv2

        if not self.files:
            raise SourceError(f"{self.name}: iterate the source inside its 'with' block")
        count = len(self.files)
        period = self.timestamps[-1] - self.timestamps[0] + (1.0 / self.fps)
        started = self._clock()
        cycle = 0
        while not self.stopped:
            for position, (path, stamp) in enumerate(zip(self.files, self.timestamps, strict=True)):
                if self.stopped:
                    return
                timestamp = stamp + cycle * period
                if self.realtime:
                    due = started + (timestamp - self.timestamps[0]) / self.speed
                    delay = due - self._clock()
                    if delay > 0:
                        self.pausing = True
                        try:
                            self._sleep(delay)
                        finally:
                            self.pausing = False
                        if self.stopped:
                            return
                image = check_image(cv2.imread(str(path), cv2.IMREAD_COLOR))
                if image is None:
                    log.warning("%s: skipping unreadable frame %s", self.name, path.name)
                    continue
                yield Frame(image=image, timestamp=timestamp, index=cycle * count + position)
            if not self.loop:
                return
            cycle += 1


# --- OpenCV devices and video files ---------------------------------------------------------------


class OpenCVSource(StoppableSource):
    """An OpenCV capture device (``device`` an int) or a video file (a path).

    A device that stops delivering frames raises :class:`SourceError`; a video
    file simply ends.  Frame timestamps are the monotonic clock for devices and
    the file's position for files.

    Raises (on ``__enter__``):
        SourceError: the device or file cannot be opened.
    """

    def __init__(self, device: int | str, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.device = device
        self.name = f"opencv:{device}" if isinstance(device, int) else str(device)
        self._clock = clock
        self._capture: Any = None

    @property
    def is_file(self) -> bool:
        return not isinstance(self.device, int)

    def __enter__(self) -> OpenCVSource:
        import cv2

        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"{self.name}: cannot open the OpenCV capture")
        self._capture = capture
        return self

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def __iter__(self) -> Iterator[Frame]:
        import cv2

        if self._capture is None:
            raise SourceError(f"{self.name}: iterate the source inside its 'with' block")
        index = 0
        while not self.stopped:
            ok, raw = self._capture.read()
            if not ok:
                if self.is_file:
                    return
                raise SourceError(f"{self.name}: the device stopped delivering frames")
            if self.is_file:
                timestamp = float(self._capture.get(cv2.CAP_PROP_POS_MSEC)) / 1000.0
            else:
                timestamp = self._clock()
            image = check_image(raw)
            if image is None:
                log.warning("%s: skipping malformed frame %d", self.name, index)
            else:
                yield Frame(image=image, timestamp=timestamp, index=index)
            index += 1


# --- Choosing a source ----------------------------------------------------------------------------


class SourceSpecError(ValueError):
    """A source specification that is none of ``auto|picamera|opencv:N|replay:DIR|FILE``."""


def picamera_available() -> bool:
    """True when picamera2 imports and reports at least one camera."""
    try:
        from picamera2 import Picamera2
    except ImportError:
        return False
    try:
        return bool(Picamera2.global_camera_info())
    except Exception:
        return False


def opencv_device_available(device: int = 0) -> bool:
    """True when OpenCV device ``device`` opens and delivers one frame."""
    import cv2

    capture = cv2.VideoCapture(device)
    try:
        if not capture.isOpened():
            return False
        ok, image = capture.read()
        return bool(ok) and check_image(image) is not None
    finally:
        capture.release()


def open_source(
    spec: str,
    *,
    realtime: bool = True,
    loop: bool = False,
    demo_dir: Path | None = None,
    picamera: PicameraSettings | None = None,
) -> FrameSource:
    """The source a specification names (not yet opened: use it in a ``with``).

    ``picamera`` and ``opencv:N`` come wrapped in a :class:`ResilientSource`;
    ``replay:DIR`` (or a bare folder path) is a :class:`ReplaySource` with the
    given pacing; any other existing file is a video file.  ``auto`` picks the
    Pi camera if there is one, else OpenCV device 0 if it delivers a frame, else
    the demo replay folder (``demo_dir``, by default :data:`DEFAULT_DEMO_DIR`)
    at the given pacing (real time by default), once (played again it would show the
    same cards twice).

    Raises:
        SourceSpecError: the specification names nothing usable.
    """
    text = spec.strip()
    if text == "auto":
        if picamera_available():
            log.info("source auto: using the Pi camera")
            return open_source("picamera", picamera=picamera)
        if opencv_device_available(0):
            log.info("source auto: using OpenCV device 0")
            return open_source("opencv:0")
        folder = demo_dir or DEFAULT_DEMO_DIR
        log.info("source auto: no camera found; the demo folder %s stands in", folder)
        return ReplaySource(folder, realtime=realtime)
    if text == "picamera":
        return ResilientSource(lambda: PicameraSource(picamera), name="picamera")
    if text.startswith("opencv:"):
        number = text.removeprefix("opencv:")
        if not number.isdigit():
            raise SourceSpecError(f"source {spec!r}: expected opencv:N with N a device number")
        device = int(number)
        return ResilientSource(lambda: OpenCVSource(device), name=f"opencv:{device}")
    if text.startswith("replay:"):
        folder_text = text.removeprefix("replay:")
        if not folder_text:
            raise SourceSpecError(f"source {spec!r}: expected replay:DIR")
        return ReplaySource(Path(folder_text), realtime=realtime, loop=loop)
    path = Path(text)
    if path.is_dir():
        return ReplaySource(path, realtime=realtime, loop=loop)
    if path.is_file():
        return OpenCVSource(str(path))
    raise SourceSpecError(
        f"source {spec!r}: expected auto, picamera, opencv:N, replay:DIR or an existing video file"
    )
