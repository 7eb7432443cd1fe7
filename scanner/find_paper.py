"""A card's paper grown out from its print: outlines for a card whose sides hardly show.

A card held up before a white wall shows its side on the wall as a step of a few grey
levels: no edge, no region of its own.  Its print does show (pips and the corner index,
dark or red on white), and the paper round the print is the card's: this step looks for
the print's glyphs, takes the paper colour beside each one and grows the connected pixels
of that colour (within a few Lab levels, ``FindParams.paper_tolerances``) out from there.
The paper stops where the wall turns lighter or the hand and the face darker; each region
so grown whose hull is a card's shape becomes a candidate outline, its sides fitted to the
region's outline.

The step is a fallback (``FindParams.paper_fallback``): ``scanner.scan.Scanner`` takes it
only in a frame in which no card is named, and names a card from its candidates only when
some of them (``paper_agree``) name it and none names another (``scanner.scan``).
Everything is done at work scale; sizes are fractions of the work image.
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.find_geometry import Arr, FloatArray, fit_sides, order_corners
from scanner.find_work import Work
from scanner.params import FindParams

__all__ = ["paper_quads"]

_RING = np.ones((5, 5), np.uint8)
"""The paper beside a glyph: the pixels within two of it."""


def _odd(size: float) -> int:
    return max(3, int(size) | 1)


def _dense(contour: Arr) -> FloatArray:
    """Every pixel of a chain compressed by ``CHAIN_APPROX_SIMPLE`` (straight runs between the
    points kept), as an Nx2 array."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    if len(pts) < 2:
        return pts
    nxt = np.concatenate([pts[1:], pts[:1]])
    steps = np.maximum(np.abs(nxt - pts).max(axis=1), 1).astype(np.intp)
    index = np.repeat(np.arange(len(pts)), steps)
    start = np.concatenate([[0], np.cumsum(steps)[:-1]])
    t = (np.arange(int(steps.sum())) - np.repeat(start, steps)) / np.repeat(steps, steps)
    return np.asarray(pts[index] + (nxt[index] - pts[index]) * t[:, None])


def _glyphs(grey: Arr, p: FindParams) -> tuple[Arr, Arr, list[int]]:
    """The print of the (denoised) lightness ``grey``: its mask, its spots' labels, and the
    labels of the spots of a glyph's size, the largest first (at most ``paper_max_seeds``)."""
    h, w = grey.shape
    window = cv2.getStructuringElement(cv2.MORPH_RECT, (_odd(p.paper_ink_window * max(h, w)),) * 2)
    ink = np.asarray(
        (cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, window) > p.paper_ink_margin).astype(np.uint8)
    )
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    low, high = p.paper_glyph_area
    glyphs = [i for i in range(1, n) if low * h * w <= area[i] <= high * h * w]
    return ink, labels, sorted(glyphs, key=lambda i: -area[i])[: p.paper_max_seeds]


def _seeds(lab: Arr, ink: Arr, labels: Arr, glyphs: list[int], p: FindParams) -> list[tuple[int, int]]:
    """Where to grow paper from: beside each glyph of print (a dark spot on lighter ground, of a
    glyph's size), the pixel nearest the median colour (``lab``, denoised) of the ground round
    that glyph, when that colour is light and colourless enough to be paper."""
    n = int(labels.max()) + 1
    # the ground round each glyph: its label spread by the ring, off the print
    spread = cv2.dilate(labels.astype(np.float32), _RING)
    ring = (ink == 0) & (spread > 0)
    owner = spread[ring].astype(np.intp)
    ys, xs = np.nonzero(ring)
    colours = lab[ys, xs].astype(np.int16)
    order = np.argsort(owner, kind="stable")
    owner, ys, xs, colours = owner[order], ys[order], xs[order], colours[order]
    bounds = np.searchsorted(owner, np.arange(n + 1))
    seeds: list[tuple[int, int]] = []
    for i in glyphs:
        start, end = int(bounds[i]), int(bounds[i + 1])
        if end - start < 4:
            continue
        ground = colours[start:end]
        paper = np.median(ground, axis=0)
        if paper[0] < p.paper_min_light or np.abs(paper[1:] - 128.0).max() > p.max_chroma:
            continue
        nearest = int(np.argmin(np.abs(ground - paper).max(axis=1)))
        seeds.append((int(xs[start + nearest]), int(ys[start + nearest])))
    return seeds


def _outline(region: Arr, p: FindParams, size: tuple[int, int]) -> list[FloatArray] | None:
    """The card quad (work pixels of ``region``'s frame) of a grown region, or ``None`` when its
    hull is no card's shape: of card aspect (``paper_aspect``, times ``card_aspect``), filling its
    smallest box (``paper_min_fill``: a finger may cut a corner) and filled by the region itself
    (``paper_min_solid``: fingers may cut into its sides)."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    hull_area = float(cv2.contourArea(hull))
    frame_area = float(size[0] * size[1])
    if not p.min_card_area * frame_area <= hull_area <= p.max_card_area * frame_area:
        return None
    box = cv2.minAreaRect(hull)
    short, long = sorted(box[1])
    if short < 4.0:
        return None
    aspect = long / short / p.card_aspect
    if not p.paper_aspect[0] <= aspect <= p.paper_aspect[1]:
        return None
    if hull_area < p.paper_min_fill * short * long:
        return None
    if cv2.contourArea(contour) < p.paper_min_solid * hull_area:
        return None
    # the hull's smallest box: the hull spans the fingers over a side, and a held card is seen
    # nearly square on
    boxed = order_corners(np.asarray(cv2.boxPoints(box), np.float64))
    # ... and that box's sides fitted to the region's outline (a card seen a little at a slant;
    # fingers over a side can pull a side off, so both are offered)
    perimeter = cv2.arcLength(hull, True)
    start = boxed
    for eps in (0.02, 0.04):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            start = order_corners(approx.reshape(4, 2).astype(np.float64))
            break
    return [boxed, fit_sides(_dense(contour), start)]


def paper_quads(work: Work, p: FindParams) -> list[FloatArray]:
    """Candidate card outlines (work pixels) grown from the paper round the print, one per glyph
    and tolerance that gives a card's shape (a glyph inside a region grown into a candidate at a
    tolerance is not grown from again at that tolerance).  Empty without the work image's Lab."""
    if work.lab is None:
        return []
    k = p.denoise_kernel
    grey = cv2.medianBlur(work.grey, k) if k > 1 else work.grey
    ink, labels, glyphs = _glyphs(grey, p)
    if not glyphs:
        return []  # no print: an empty table costs no more
    lab = cv2.medianBlur(work.lab, k) if k > 1 else work.lab
    h, w = lab.shape[:2]
    seeds = _seeds(lab, ink, labels, glyphs, p)
    if not seeds:
        return []
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(p.paper_close * max(h, w)),) * 2)
    open_ = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_odd(p.paper_open * max(h, w)),) * 2)
    pad = max(close.shape[0], open_.shape[0])
    max_area = p.max_card_area * h * w
    quads: list[FloatArray] = []
    for tolerance in p.paper_tolerances:
        grown = np.zeros((h + 2, w + 2), np.uint8)
        reach = (tolerance,) * 3
        for x, y in seeds:
            if grown[y + 1, x + 1]:
                continue
            mask = np.zeros((h + 2, w + 2), np.uint8)
            flags = 8 | cv2.FLOODFILL_FIXED_RANGE | cv2.FLOODFILL_MASK_ONLY | (255 << 8)
            filled, _, _, (rx, ry, rw, rh) = cv2.floodFill(lab, mask, (x, y), 0, reach, reach, flags)
            if filled < 0.5 * p.min_card_area * h * w or filled > max_area:
                continue
            # the region's box with room for the closing and opening, in work pixels
            x0, y0 = max(0, rx - pad), max(0, ry - pad)
            x1, y1 = min(w, rx + rw + pad), min(h, ry + rh + pad)
            region = mask[1 + y0 : 1 + y1, 1 + x0 : 1 + x1]
            # print inside the paper closed over, thin bridges to the wall past fingers cut
            region = cv2.morphologyEx(region, cv2.MORPH_CLOSE, close)
            region = cv2.morphologyEx(region, cv2.MORPH_OPEN, open_)
            outlines = _outline(np.ascontiguousarray(region), p, (h, w))
            if outlines is not None:
                grown |= mask  # the glyphs of this card are not grown from again
                quads.extend(q + np.array([x0, y0], np.float64) for q in outlines)
    return quads
