"""The Raspberry Pi camera for calibration: focus once, let exposure and white balance settle, record them.

``settle_and_record`` opens the camera through picamera2 (imported only here,
and only when called), runs one autofocus cycle where the module has autofocus
(Camera Module 3), lets auto exposure and white balance settle, then reads
``ExposureTime``, ``AnalogueGain``, ``ColourGains`` and ``LensPosition`` from the
frame metadata and captures one frame for the picture check.  The values go to
the calibration file's ``[camera]`` section; ``lock_controls`` turns them back
into the picamera2 controls that hold them fixed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration.config import CameraSettings
from scanner.sources_base import SourceError
from scanner.types import Image

log = logging.getLogger(__name__)

AF_MANUAL = 0
"""libcamera's ``AfModeEnum.Manual``."""
AF_AUTO = 1
"""libcamera's ``AfModeEnum.Auto`` (one focus cycle on request)."""


@dataclass(frozen=True)
class Settled:
    """What the camera settled at, and one frame taken with those values (BGR)."""

    settings: CameraSettings
    image: Image
    focused: bool | None
    """True or False: the autofocus cycle's outcome; ``None``: the module has no autofocus."""


def _module() -> Any:
    try:
        import picamera2
    except ImportError as exc:
        raise SourceError(f"picamera: picamera2 is not installed ({exc})") from None
    return picamera2


def settle_and_record(
    width: int = 1280,
    height: int = 720,
    *,
    settle_s: float = 1.0,
    camera_num: int = 0,
    picamera2: Any = None,
    sleep: Callable[[float], None] | None = None,
) -> Settled:
    """Focus once (where possible), settle exposure and white balance, and record the values.

    ``picamera2`` is the module to use (default: the installed one); ``sleep`` waits
    while the camera settles (default ``time.sleep``).

    Raises:
        SourceError: picamera2 is missing, no camera answers, or it reports no exposure values.
    """
    module = picamera2 if picamera2 is not None else _module()
    try:
        camera = module.Picamera2(camera_num)
    except Exception as exc:
        raise SourceError(f"picamera: no camera {camera_num} ({exc})") from None
    try:
        config = camera.create_video_configuration(main={"size": (width, height), "format": "RGB888"})
        camera.configure(config)
        camera.start()
        focused: bool | None = None
        if "AfMode" in getattr(camera, "camera_controls", {}):
            camera.set_controls({"AfMode": AF_AUTO})
            focused = bool(camera.autofocus_cycle())
            log.info("picamera: autofocus cycle %s", "succeeded" if focused else "failed")
        (sleep or time.sleep)(settle_s)
        metadata = camera.capture_metadata()
        raw = camera.capture_array("main")
    except SourceError:
        raise
    except Exception as exc:
        raise SourceError(f"picamera: cannot settle the camera ({type(exc).__name__}: {exc})") from None
    finally:
        try:
            camera.close()
        except Exception as exc:  # closing must not hide the first failure
            log.warning("picamera: error while closing: %s", exc)
    try:
        gains = metadata["ColourGains"]
        settings = CameraSettings(
            width=width,
            height=height,
            exposure_time_us=int(metadata["ExposureTime"]),
            analogue_gain=max(1.0, float(metadata["AnalogueGain"])),
            colour_gains=(float(gains[0]), float(gains[1])),
            lens_position=float(metadata["LensPosition"])
            if focused is not None and "LensPosition" in metadata
            else None,
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SourceError(f"picamera: the frame metadata lacks exposure values ({exc!r})") from None
    image = np.ascontiguousarray(np.asarray(raw, dtype=np.uint8)[:, :, :3])
    return Settled(settings, image, focused)


def lock_controls(settings: CameraSettings) -> dict[str, object]:
    """The picamera2 controls that hold the recorded values fixed (empty when none were recorded)."""
    controls: dict[str, object] = {}
    if settings.exposure_time_us is not None:
        controls.update(AeEnable=False, ExposureTime=settings.exposure_time_us)
        if settings.analogue_gain is not None:
            controls["AnalogueGain"] = settings.analogue_gain
    if settings.colour_gains is not None:
        controls.update(AwbEnable=False, ColourGains=settings.colour_gains)
    if settings.lens_position is not None:
        controls.update(AfMode=AF_MANUAL, LensPosition=settings.lens_position)
    return controls
