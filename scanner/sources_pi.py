"""The Raspberry Pi camera as a frame source (picamera2 is imported only when opened)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from scanner.sources_base import SourceError, StoppableSource, check_image
from scanner.types import Frame

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PicameraSettings:
    """How the Pi camera is set up: frame size, settling time, capture watchdog and recorded controls.

    ``controls`` are picamera2 controls recorded by calibration (fixed exposure,
    gains, white balance, lens position): they are set over the values the
    camera settled on, so a calibrated table looks the same at every start.
    """

    width: int = 1280
    height: int = 720
    settle_s: float = 1.0
    timeout_s: float = 2.0
    camera_num: int = 0
    controls: tuple[tuple[str, object], ...] = ()

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            if not 16 <= value <= 8192:
                raise ValueError(f"PicameraSettings.{name} must be 16..8192 pixels, got {value!r}")
        for name in ("settle_s", "timeout_s"):
            value = getattr(self, name)
            if not 0 <= value <= 60:
                raise ValueError(f"PicameraSettings.{name} must be 0..60 seconds, got {value!r}")
        if self.camera_num < 0:
            raise ValueError(f"PicameraSettings.camera_num must be >= 0, got {self.camera_num!r}")


class PicameraSource(StoppableSource):
    """The Raspberry Pi camera through picamera2 (imported only when opened).

    The stream is ``RGB888``, which is B,G,R in memory: OpenCV's order.  After
    opening, auto exposure and white balance settle for ``settle_s`` and are
    then locked at the values the camera reports, so colours hold still between
    frames.  Each capture waits at most ``timeout_s``: a camera that does not
    answer in time is treated as dead (:class:`SourceError`).

    Raises (on ``__enter__``):
        SourceError: picamera2 is not installed or no camera answers.
    """

    def __init__(
        self, settings: PicameraSettings | None = None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__()
        self.settings = settings or PicameraSettings()
        self.name = "picamera"
        self._clock = clock
        self._camera: Any = None

    def __enter__(self) -> PicameraSource:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise SourceError(f"picamera: picamera2 is not installed ({exc})") from None
        s = self.settings
        try:
            camera = Picamera2(s.camera_num)
        except Exception as exc:
            raise SourceError(f"picamera: no camera {s.camera_num} ({exc})") from None
        self._camera = camera
        try:
            config = camera.create_video_configuration(main={"size": (s.width, s.height), "format": "RGB888"})
            camera.configure(config)
            camera.start()
            time.sleep(s.settle_s)
            metadata = camera.capture_metadata(wait=s.timeout_s)
            locked = {
                "AeEnable": False,
                "AwbEnable": False,
                "ExposureTime": int(metadata["ExposureTime"]),
                "AnalogueGain": float(metadata["AnalogueGain"]),
                "ColourGains": tuple(float(g) for g in metadata["ColourGains"]),
            }
            locked.update(dict(s.controls))
            camera.set_controls(locked)
            log.info("picamera: exposure, white balance and focus locked at %s", locked)
        except Exception as exc:
            self.close()
            raise SourceError(f"picamera: cannot start the camera ({exc})") from None
        return self

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.close()
            except Exception as exc:  # closing a dead camera must not hide the original failure
                log.warning("picamera: error while closing: %s", exc)
            self._camera = None

    def __iter__(self) -> Iterator[Frame]:
        if self._camera is None:
            raise SourceError("picamera: iterate the source inside its 'with' block")
        index = 0
        while not self.stopped:
            try:
                with self._camera.captured_request(wait=self.settings.timeout_s) as request:
                    raw = request.make_array("main")
                    image = check_image(np.array(raw, copy=True) if isinstance(raw, np.ndarray) else raw)
            except Exception as exc:
                raise SourceError(
                    f"picamera: no frame within {self.settings.timeout_s} s ({type(exc).__name__}: {exc})"
                ) from None
            if image is None:
                log.warning("picamera: skipping malformed frame %d", index)
            else:
                yield Frame(image=image, timestamp=self._clock(), index=index)
            index += 1
