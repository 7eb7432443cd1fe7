"""Value types shared by every part of the scanner.

Images are numpy arrays in OpenCV's order: height x width x 3, uint8, B,G,R.
Points are ``(x, y)`` pixel coordinates of the full camera frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from scorer.cards import Card

Image = npt.NDArray[np.uint8]
"""A BGR (or single-channel grey) uint8 image."""

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
"""Four corners of a card: clockwise in the image, starting at the card's top left
as the card's face reads upright where that is known."""


@dataclass(frozen=True)
class Frame:
    """One camera frame: a BGR uint8 image, its capture time in seconds and its index."""

    image: Image
    timestamp: float
    index: int


@dataclass(frozen=True)
class Detection:
    """One card found in a frame.

    ``card`` is ``None`` when a card was found but not identified with enough
    confidence; ``runner_up`` is the second-best candidate, if any.  ``top``
    marks the card lying on top of a pile (or a card lying alone).
    """

    card: Card | None
    confidence: float
    corners: Quad
    top: bool = True
    runner_up: Card | None = None
    runner_up_confidence: float = 0.0

    @property
    def centre(self) -> Point:
        """The mean of the four corners."""
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / 4.0, sum(ys) / 4.0)
