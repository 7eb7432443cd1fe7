"""Hands and arms in a frame: the pixels of skin, counted as unknown where a card is fitted.

A hand or arm over a pile hides part of the top card's outline and draws an outline of its
own across the card; light skin on a dark table even counts as card pixels, so that the card
is outlined with the arm over it.  Fitting a card's outline to the edges there
(``scanner.find_top.refit_under_hand``) takes the hand's pixels as unknown.

Skin is told apart by colour alone, relative to the frame: warm (a hue from orange to
yellow in Lab), with some chroma but less than printed red ink, away from the table's
colour (wood is warm too) and warmer than the paper (a warm light makes paper warm), in
blobs of some size.  Where the table is as warm as the skin (a light hand on wood) little
or nothing is found, and the fit works as without it.
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.find_geometry import Arr
from scanner.params import FindParams

__all__ = ["skin_mask"]


_SAMPLE = 3
"""The table's and the paper's colours are medians over every third row and column."""


def _median_chroma(a: Arr, b: Arr, where: Arr) -> tuple[float, float]:
    """The median (a, b) of the pixels ``where`` is true (every ``_SAMPLE``-th row and column),
    (0, 0) when there are none."""
    a, b, where = (x[::_SAMPLE, ::_SAMPLE] for x in (a, b, where))
    if not where.any():
        return 0.0, 0.0
    return float(np.median(a[where])), float(np.median(b[where]))


def _far(a: Arr, b: Arr, ca: float, cb: float, distance: float) -> Arr:
    """Where (a, b) lies at least ``distance`` from (ca, cb)."""
    da, db = a - np.float32(ca), b - np.float32(cb)
    return np.asarray(da * da + db * db >= np.float32(distance * distance))


def skin_mask(lab: Arr, cards: Arr, p: FindParams) -> Arr:
    """The pixels of hands and arms (uint8 0/255) of a work image in Lab (``lab``, OpenCV's 8-bit
    encoding), ``cards`` its card pixels (``Work.union``): see the module docstring and the
    ``skin_*`` parameters."""
    light, a8, b8 = cv2.split(lab)
    a = a8.astype(np.float32) - np.float32(128.0)
    b = b8.astype(np.float32) - np.float32(128.0)
    square = a * a + b * b
    low, high = np.radians(p.skin_hue)
    # the hue between low and high: (a, b) turned past low and not yet past high
    warm = (b * np.float32(np.cos(low)) - a * np.float32(np.sin(low)) >= 0) & (
        a * np.float32(np.sin(high)) - b * np.float32(np.cos(high)) >= 0
    )
    warm &= (square >= np.float32(p.skin_min_chroma**2)) & (square <= np.float32(p.skin_max_chroma**2))
    if not warm.any():
        return np.zeros(light.shape, np.uint8)
    # the table: the pixels well away from the cards
    away = cv2.dilate(cards, np.ones((15, 15), np.uint8)) == 0
    warm &= _far(a, b, *_median_chroma(a, b, away), p.skin_table_distance)
    # the paper: the lightest card pixels (a hand lying on dark felt counts as card pixels)
    on_cards = cards > 0
    if on_cards.any():
        sample = light[::_SAMPLE, ::_SAMPLE][on_cards[::_SAMPLE, ::_SAMPLE]]
        level = np.percentile(sample, 100.0 * (1.0 - p.skin_paper_lightest)) if sample.size else 0
        lighter = on_cards & (light >= level)
        pa, pb = _median_chroma(a, b, lighter)
        warm &= _far(a, b, pa, pb, p.skin_paper_distance)
        warm &= (a >= np.float32(pa + p.skin_warmer[0])) & (b >= np.float32(pb + p.skin_warmer[1]))
    mask = cv2.morphologyEx(warm.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    smallest = p.skin_min_blob * light.shape[0] * light.shape[1]
    keep = np.zeros(count, np.uint8)
    keep[1:] = (stats[1:, cv2.CC_STAT_AREA] >= smallest).astype(np.uint8) * 255
    return np.asarray(keep[labels], np.uint8)
