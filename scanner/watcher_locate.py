"""Finding a card on the pile from what changed since the last still view.

When a card lands on a pile, the pixels that changed between the two still
views are that card (minus whatever looks the same as before: white on white).
The largest changed region in the pile area, fitted with a rotated rectangle of
a card's shape (of the calibrated card size when known), is where the new card
lies; the scanner then only has to read the card there.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

import cv2
import numpy as np

from scanner.types import Detection, Image, Point, Quad
from scanner.watcher_image import Mask, SmallView, changed
from scanner.watcher_params import WatcherParams

CARD_ASPECT = 88.0 / 63.0
"""Long side over short side of a playing card."""

Reader = Callable[[Image, Quad], Detection]
"""Identifies the card lying at given corners of a frame (the scanner's warp and identification)."""


def portrait_quad(centre: Point, long_side: float, short_side: float, angle_deg: float) -> Quad:
    """The corners TL, TR, BR, BL of a card-shaped rectangle whose long side runs along ``angle_deg``
    (degrees from the image's vertical), clockwise in the image."""
    t = math.radians(angle_deg)
    up = (math.sin(t), -math.cos(t))  # toward the card's top edge
    right = (math.cos(t), math.sin(t))
    hx, hy = right[0] * short_side / 2, right[1] * short_side / 2
    vx, vy = up[0] * long_side / 2, up[1] * long_side / 2
    cx, cy = centre
    return (
        (cx - hx + vx, cy - hy + vy),
        (cx + hx + vx, cy + hy + vy),
        (cx + hx - vx, cy + hy - vy),
        (cx - hx - vx, cy - hy - vy),
    )


def pile_change(ref: SmallView, view: SmallView, params: WatcherParams, area: Mask) -> Mask:
    """Pixels of the pile area that changed between two still views, small gaps closed."""
    diff = changed(ref.grey, view.grey, params) & area
    closed = cv2.morphologyEx(diff.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    result: Mask = closed > 0
    return result


def _fit(
    points: np.ndarray, scale: float, params: WatcherParams, card_size_px: tuple[float, float] | None
) -> Quad | None:
    """A card-shaped quad (frame pixels) fitted to changed ``points`` of the small image, or ``None``
    when they are not of a card's size (calibrated) or shape."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(points.astype(np.float32))
    long_side, short_side = max(w, h), min(w, h)
    if short_side < 2:
        return None
    # minAreaRect's angle belongs to its "width" side; turn it into the long side's angle from vertical.
    long_angle = angle + 90.0 if w >= h else angle
    if card_size_px is not None:
        short_side, long_side = card_size_px[0] * scale, card_size_px[1] * scale
        found = max(w, h)
        if not params.locate_min_size * long_side <= found <= params.locate_max_size * long_side:
            return None
    elif abs(long_side / short_side / CARD_ASPECT - 1.0) > params.locate_aspect_tolerance:
        return None
    quad = portrait_quad((cx, cy), long_side, short_side, long_angle)
    a, b, c, d = ((x / scale, y / scale) for x, y in quad)
    return (a, b, c, d)


def locate_card(
    ref: SmallView,
    view: SmallView,
    params: WatcherParams,
    area: Mask,
    card_size_px: tuple[float, float] | None = None,
) -> Quad | None:
    """Where a card landed in ``area`` (a mask of the small image) between ``ref`` and ``view``.

    Returns the card's corners in frame pixels (TL, TR, BR, BL, long side
    "vertical"), or ``None`` when no changed region of a card's size is found.
    ``card_size_px`` is a card's (short, long) side in frame pixels.
    """
    change = pile_change(ref, view, params, area)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(change.astype(np.uint8), connectivity=8)
    if count <= 1:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == biggest)
    return _fit(np.column_stack([xs, ys]), view.scale, params, card_size_px)


def locate_cards(
    ref: SmallView,
    view: SmallView,
    params: WatcherParams,
    area: Mask,
    card_size_px: tuple[float, float] | None = None,
) -> list[Quad]:
    """Every card-sized region of ``area`` (a mask of the small image) that changed between ``ref``
    and ``view``, as card corners in frame pixels (cards laid apart, such as a hand shown)."""
    change = pile_change(ref, view, params, area)
    count, labels = cv2.connectedComponents(change.astype(np.uint8), connectivity=8)
    quads = []
    for label in range(1, count):
        ys, xs = np.nonzero(labels == label)
        quad = _fit(np.column_stack([xs, ys]), view.scale, params, card_size_px)
        if quad is not None:
            quads.append(quad)
    return quads


class _ScannerParts(Protocol):
    """What :func:`reader_of` needs of a ``scanner.scan.Scanner``."""

    templates: Any
    params: Any


def reader_of(scanner: _ScannerParts) -> Reader:
    """The watcher's reader for a scanner: warp the frame at the given corners and identify the card
    (as the scanner does for a card it found itself).  No templates: nothing is identified."""

    def read(image: Image, quad: Quad) -> Detection:
        from scanner.find import warp_card
        from scanner.identify import identify

        if scanner.templates is None:
            return Detection(None, 0.0, quad, True)
        warped = warp_card(image, quad, scanner.params.find)
        found = identify(warped, scanner.templates, scanner.params.identify)
        corners = (quad[2], quad[3], quad[0], quad[1]) if found.turned else quad
        return Detection(
            found.card, found.confidence, corners, True, found.runner_up, found.runner_up_confidence
        )

    return read
