"""Pixel helpers of the watcher: the small grey copy, changed pixels, skin, card outlines, overlap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from scanner.types import Image, Quad
from scanner.watcher_params import WatcherParams

Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class SmallView:
    """A frame shrunk for motion and change: grey (blurred) and colour, and the scale used."""

    grey: Image
    colour: Image
    scale: float
    """small pixels per frame pixel"""
    size: tuple[int, int]
    """the full frame's (width, height)"""


def shrink(image: Image, params: WatcherParams) -> SmallView:
    """The small copy of ``image``: halved (by area averaging) while it stays ``params.small_width`` wide.

    Halving exactly (an odd last row or column is dropped) keeps OpenCV on its
    fast path; any other factor costs ten times more.
    """
    height, width = image.shape[:2]
    colour: Image = image
    scale = 1.0
    while colour.shape[1] // 2 >= params.small_width and colour.shape[0] >= 4:
        h, w = colour.shape[:2]
        even = colour[: h - h % 2, : w - w % 2]
        colour = cast(Image, cv2.resize(even, (w // 2, h // 2), interpolation=cv2.INTER_AREA))
        scale /= 2.0
    grey = cast(Image, cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY))
    if params.blur > 1:
        grey = cast(Image, cv2.blur(grey, (params.blur, params.blur)))
    return SmallView(grey=grey, colour=colour, scale=scale, size=(width, height))


def changed(a: Image, b: Image, params: WatcherParams) -> Mask:
    """Pixels whose grey level differs by more than ``params.pixel_threshold``."""
    result: Mask = cv2.absdiff(a, b) > params.pixel_threshold
    return result


def skin(colour: Image, params: WatcherParams) -> Mask:
    """Skin-coloured areas of a small colour image (Cr and Cb within the parameters' ranges).

    Thin lines (such as the pink fringe of red print on white) are opened away:
    only areas at least ``params.skin_open`` pixels across remain.
    """
    ycrcb = cv2.cvtColor(colour, cv2.COLOR_BGR2YCrCb)
    lower = np.array([0, params.skin_cr_min, params.skin_cb_min], np.uint8)
    upper = np.array([255, params.skin_cr_max, params.skin_cb_max], np.uint8)
    mask = cv2.inRange(ycrcb, lower, upper)
    if params.skin_open > 1:
        kernel = np.ones((params.skin_open, params.skin_open), np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    result: Mask = mask > 0
    return result


def unexplained(change: Mask, colour: Image, params: WatcherParams) -> Mask:
    """The changed regions (``change``, no card found there) that do not look like card paper.

    A region at least ``params.paper_share`` of whose pixels are paper (bright, of
    little colour) is a card the scanner missed, not a hand or another object.
    """
    count, labels = cv2.connectedComponents(change.astype(np.uint8), connectivity=8)
    if count <= 1:
        return change
    hsv = cv2.cvtColor(colour, cv2.COLOR_BGR2HSV)
    paper = (hsv[:, :, 1] <= params.paper_max_saturation) & (hsv[:, :, 2] >= params.paper_min_value)
    pixels = np.bincount(labels.ravel(), minlength=count)
    papery = np.bincount(labels.ravel(), weights=paper.ravel().astype(np.float64), minlength=count)
    keep = papery < params.paper_share * np.maximum(pixels, 1)
    keep[0] = False
    result: Mask = keep[labels]
    return result


def grown(quad: Quad, margin: float) -> Quad:
    """``quad`` scaled about its centre by ``1 + margin``."""
    cx = sum(p[0] for p in quad) / 4.0
    cy = sum(p[1] for p in quad) / 4.0
    f = 1.0 + margin
    a, b, c, d = ((cx + (x - cx) * f, cy + (y - cy) * f) for x, y in quad)
    return (a, b, c, d)


def quad_mask(shape: tuple[int, ...], quads: list[Quad], scale: float, margin: float = 0.0) -> Mask:
    """A mask of ``shape`` (small image) covering the given frame-pixel quads, grown by ``margin``."""
    mask = np.zeros(shape[:2], np.uint8)
    for quad in quads:
        q = grown(quad, margin) if margin else quad
        points = np.array([[x * scale, y * scale] for x, y in q], np.float32)
        cv2.fillConvexPoly(mask, np.round(points).astype(np.int32), 1)
    result: Mask = mask.astype(bool)
    return result


def quad_area(quad: Quad) -> float:
    """The area of a quad (shoelace formula), in square frame pixels."""
    total = 0.0
    for i in range(4):
        x1, y1 = quad[i]
        x2, y2 = quad[(i + 1) % 4]
        total += x1 * y2 - x2 * y1
    return abs(total) / 2.0


def iou(a: Quad, b: Quad) -> float:
    """Intersection over union of two convex quads (0 when they do not overlap)."""
    area_a, area_b = quad_area(a), quad_area(b)
    if area_a <= 0 or area_b <= 0:
        return 0.0
    pa = np.array(a, np.float32)
    pb = np.array(b, np.float32)
    # intersectConvexConvex wants both polygons in the same orientation.
    pa = _counter_clockwise(pa)
    pb = _counter_clockwise(pb)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    inter = max(0.0, float(inter))
    union = area_a + area_b - inter
    return inter / union if union > 0 else 0.0


def _counter_clockwise(points: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    x, y = points[:, 0], points[:, 1]
    signed = float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    return points if signed > 0 else points[::-1].copy()
