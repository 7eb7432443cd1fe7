"""Is the picture good enough to read cards?  Sharpness, brightness and glare, with advice.

``assess(image)`` measures a frame (on its grey version, scaled to a fixed
width so the figures do not depend on the resolution):

- sharpness: at the strongest edges (the top 2% of the gradient), the mean
  absolute Laplacian (its largest value nearby) over the mean gradient.  For an
  edge blurred over ``s`` pixels this is about ``1 / s`` whatever the edge's
  contrast, so it judges focus and motion, not how much the table shows (low:
  out of focus or moving);
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
        work_width: a wider frame is scaled down to this width before measuring.
        min_sharpness: smallest edge sharpness (about one over the blur width in pixels).
        edge_share: the share of pixels with the strongest gradient whose sharpness is measured.
        min_mean, max_mean: range of the mean grey level.
        min_p99: the brightest hundredth (the cards) is at least this bright.
        max_p5: ... and the darkest twentieth at most this bright (some contrast is left).
        clip_level: a grey level at or above which a pixel counts as clipped.
        max_clipped: largest share of clipped pixels.

    Raises:
        ValueError: (on construction) a limit out of range.
    """

    work_width: int = 640
    min_sharpness: float = 0.11
    edge_share: float = 0.02
    min_mean: float = 50.0
    max_mean: float = 200.0
    min_p99: float = 150.0
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
        if not 0 < self.edge_share < 1:
            raise ValueError(f"QualityLimits.edge_share must be in (0, 1), got {self.edge_share}")
        if self.min_sharpness < 0:
            raise ValueError(f"QualityLimits.min_sharpness must not be negative, got {self.min_sharpness}")


@dataclass(frozen=True)
class QualityReport:
    """The measures of one frame and the advice for each limit it fails (empty: good to go)."""

    sharpness: float
    mean: float
    p5: float
    p99: float
    clipped: float
    advice: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when no limit failed."""
        return not self.advice

    def summary(self) -> str:
        """One line with every measure."""
        return (
            f"sharpness {self.sharpness:.2f}, brightness mean {self.mean:.0f} "
            f"(5% {self.p5:.0f}, 99% {self.p99:.0f}), clipped {100 * self.clipped:.2f}%"
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
    if w > width:
        grey = cv2.resize(grey, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    return np.asarray(grey, dtype=np.uint8)


def _edge_sharpness(grey: Image, share: float) -> float:
    g = grey.astype(np.float32)
    magnitude = np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    laplacian = cv2.dilate(np.abs(cv2.Laplacian(g, cv2.CV_32F)), np.ones((3, 3), np.uint8))
    edges = magnitude >= np.percentile(magnitude, 100.0 * (1.0 - share))
    strength = float(magnitude[edges].mean())
    return float(laplacian[edges].mean()) / strength if strength > 0 else 0.0


def assess(image: Image, limits: QualityLimits | None = None) -> QualityReport:
    """Measure ``image`` (BGR or grey uint8) and advise on every limit it fails.

    Raises:
        ValueError: ``image`` is not a uint8 grey or BGR image of at least 16x16.
    """
    lim = limits or QualityLimits()
    grey = _grey(image, lim.work_width)
    sharpness = _edge_sharpness(grey, lim.edge_share)
    mean = float(grey.mean())
    p5, p99 = (float(v) for v in np.percentile(grey, (5, 99)))
    clipped = float((grey >= lim.clip_level).mean())
    advice: list[str] = []
    if sharpness < lim.min_sharpness:
        advice.append(
            f"the picture is blurred (sharpness {sharpness:.2f} < {lim.min_sharpness:g}): focus the camera "
            "on the table (or let it autofocus once), keep it from shaking, and check the lens is clean"
        )
    if mean < lim.min_mean or p99 < lim.min_p99:
        advice.append(
            f"the picture is too dark (mean {mean:.0f}, brightest 1% from {p99:.0f}): turn on more light "
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
    return QualityReport(sharpness, mean, p5, p99, clipped, tuple(advice))
