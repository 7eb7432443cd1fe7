"""Frames for calibration: from a camera or replay source, or from an image file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from scanner.sources import open_source
from scanner.sources_base import SourceError
from scanner.types import Image


def read_image(path: str | Path) -> Image:
    """A BGR frame from an image file.

    Raises:
        SourceError: the file does not exist or cannot be decoded.
    """
    file = Path(path)
    if not file.is_file():
        raise SourceError(f"image {str(file)!r} does not exist")
    image = cv2.imread(str(file), cv2.IMREAD_COLOR)
    if image is None:
        raise SourceError(f"image {str(file)!r} cannot be decoded")
    return np.asarray(image, dtype=np.uint8)


def frames(spec: str) -> Iterator[Image]:
    """Every frame of the source ``spec`` (``auto``, ``picamera``, ``opencv:N``, ``replay:DIR``, a folder).

    Replay folders are read as fast as they decode.

    Raises:
        SourceError: the source cannot be opened or fails (``SourceSpecError`` for a bad spec).
    """
    with open_source(spec, realtime=False) as source:
        for frame in source:
            yield frame.image


def grab(spec: str, settle: int = 0) -> Image:
    """One frame of ``spec`` after skipping ``settle`` frames (exposure and white balance settling).

    Raises:
        SourceError: the source cannot be opened, fails, or ends before the frame.
    """
    for number, image in enumerate(frames(spec)):
        if number >= settle:
            return image
    raise SourceError(f"source {spec!r} ended before frame {settle + 1}")
