"""Is the picture good enough to read cards?  Sharpness, brightness and glare, with advice.

``assess(image)`` measures a frame (on its grey version, scaled to a fixed
width so the figures do not depend on the resolution):

- sharpness: the variance of the Laplacian (low: out of focus or moving);
- brightness: the mean and the 5th and 95th percentiles of the grey levels
  (too dark: noise swamps the ink; too bright: white cards merge);
- glare: the share of clipped pixels (a lamp reflected on the table or cards).

Each measure is compared with a limit of ``QualityLimits`` and every failed
limit adds a line of advice.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner.types import Image


@dataclass(frozen=True)
class QualityLimits:
    """The limits a usable picture stays within.

    Attributes:
        work_width: the frame is scaled to this width before measuring.
        min_sharpness: smallest variance of the Laplacian (grey levels²).
        min_mean, max_mean: range of the mean grey level.
        min_p95: the brightest twentieth (the cards) is at least this bright.
        max_p5: ... and the darkest twentieth at most this bright (some contrast is left).
        clip_level: a grey level at or above which a pixel counts as clipped.
        max_clipped: largest share of clipped pixels.

    Raises:
        ValueError: (on construction) a limit out of range.
    """

    work_width: int = 640
    min_sharpness: float = 55.0
    min_mean: float = 50.0
    max_mean: float = 200.0
    min_p95: float = 120.0
    max_p5: float = 170.0
    clip_level: int = 254
    max_clipped: float = 0.02

    def __post_init__(self) -> None:
        if not 64 <= self.work_width <= 4096:
            raise ValueError(f"QualityLimits.work_width must be 64..4096, got {self.work_width!r}")
        if not 0 <= self.min_mean < self.max_mean <= 255:
            raise ValueError(
                f"QualityLimits needs 0 <= min_mean < max_mean <= 255, got {self.min_mean}, {self.max_mean}"
            )
        if not 0 < self.clip_level <= 255 or not 0 <= self.max_clipped <= 1:
            raise ValueError(
                f"QualityLimits clip_level/max_clipped out of range: {self.clip_level}, {self.max_clipped}"
            )
        if self.min_sharpness < 0:
            raise ValueError(f"QualityLimits.min_sharpness must not be negative, got {self.min_sharpness}")


@dataclass(frozen=True)
class QualityReport:
    """The measures of one frame and the advice for each limit it fails (empty: good to go)."""

    sharpness: float
    mean: float
    p5: float
    p95: float
    clipped: float
    advice: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when no limit failed."""
        return not self.advice

    def summary(self) -> str:
        """One line with every measure."""
        return (
            f"sharpness {self.sharpness:.0f}, brightness mean {self.mean:.0f} "
            f"(5% {self.p5:.0f}, 95% {self.p95:.0f}), clipped {100 * self.clipped:.2f}%"
        )


def _grey(image: Image, width: int) -> Image:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise ValueError(
            f"expected a uint8 grey or BGR image, got {getattr(image, 'shape', type(image).__name__)}"
        )
    if image.ndim == 3 and image.shape[2] != 3:
        raise ValueError(f"expected 3 colour channels (B, G, R), got shape {image.shape}")
    if min(image.shape[:2]) < 16:
        raise ValueError(f"image too small to assess: shape {image.shape}")
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h, w = grey.shape[:2]
    if w != width:
        grey = cv2.resize(grey, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    return np.asarray(grey, dtype=np.uint8)


def assess(image: Image, limits: QualityLimits | None = None) -> QualityReport:
    """Measure ``image`` (BGR or grey uint8) and advise on every limit it fails.

    Raises:
        ValueError: ``image`` is not a uint8 grey or BGR image of at least 16x16.
    """
    lim = limits or QualityLimits()
    grey = _grey(image, lim.work_width)
    sharpness = float(cv2.Laplacian(grey, cv2.CV_64F).var())
    mean = float(grey.mean())
    p5, p95 = (float(v) for v in np.percentile(grey, (5, 95)))
    clipped = float((grey >= lim.clip_level).mean())
    advice: list[str] = []
    if sharpness < lim.min_sharpness:
        advice.append(
            f"the picture is blurred (sharpness {sharpness:.0f} < {lim.min_sharpness:g}): focus the camera "
            "on the table (or let it autofocus once), keep it from shaking, and check the lens is clean"
        )
    if mean < lim.min_mean or p95 < lim.min_p95:
        advice.append(
            f"the picture is too dark (mean {mean:.0f}, brightest 5% from {p95:.0f}): turn on more light "
            "over the table or allow a longer exposure"
        )
    if mean > lim.max_mean or p5 > lim.max_p5:
        advice.append(
            f"the picture is too bright (mean {mean:.0f}, darkest 5% up to {p5:.0f}): lower the exposure or "
            "use a darker table cloth so white cards stand out"
        )
    if clipped > lim.max_clipped:
        advice.append(
            f"glare: {100 * clipped:.1f}% of the picture is clipped white "
            f"(limit {100 * lim.max_clipped:g}%): "
            "move or shade the lamp so it does not reflect into the camera, or lower the exposure"
        )
    return QualityReport(sharpness, mean, p5, p95, clipped, tuple(advice))
