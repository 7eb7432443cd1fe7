"""Find every card in a camera frame and mark the top card of each pile.

The finder works on a *work image*: the frame scaled down so its long side is
``FindParams.work_long_side``.  Its steps:

1. **Card pixels.**  In Lab, a card pixel is lighter than the local table (a
   median estimate of the table's lightness over a large window, so uneven light
   does not matter) and has little colour (cards are white, tables are coloured
   or textured).  Strong edges (Canny) are cut out of that mask, which separates
   cards that touch or overlap wherever the upper card's outline shows.
2. **Lone cards.**  A region whose outline simplifies to a convex quad of card
   aspect (tolerant to perspective) that it fills is one card.
3. **Merged regions** (piles, fans, a hand over a card) are split by card
   hypotheses: at each near-right-angle corner of the region's outline, a
   card-size parallelogram along the corner's two arms (both ways round).  The
   card size is ``FindParams.card_size_px`` when calibration knows it, else the
   median of the lone cards of the frame, else the longest arm seen.  Hypotheses
   that lie on card pixels are chosen greedily while each explains new area.
4. **Top card.**  Where two cards overlap, the upper card's outline is visible
   across the lower one while the lower card's outline is hidden under the upper
   one: the card with the weaker edge there is not on top.
5. **Corners** are refined on the full-resolution frame by fitting a line to the
   strongest edge across each side, and ordered canonically (see
   ``order_corners``).

``warp_card`` cuts a found card out as a portrait image of
``card_width x card_height`` pixels.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from scanner.params import FindParams
from scanner.types import Image, Quad

log = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float64]
Arr = npt.NDArray[Any]
"""An OpenCV result (its stubs type them loosely)."""


@dataclass(frozen=True)
class FoundCard:
    """A card located in a frame.

    ``corners`` are in frame pixels, ordered canonically (``order_corners``);
    ``top`` is True unless another card lies over part of this one; ``score``
    (0..1) says how well the card's outline and face were seen.
    """

    corners: Quad
    top: bool
    score: float


# ---------------------------------------------------------------------------
# geometry helpers


def order_corners(points: FloatArray) -> FloatArray:
    """Order four corners canonically: clockwise in the image, side 0-1 a short side.

    Of the two short sides, the one whose midpoint is higher in the image (smaller
    y; on a tie, further left) comes first, starting from its left end as seen
    from the card's centre.  ``points`` is a 4x2 array; a new 4x2 array is
    returned.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y points down)
    side = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    if side[0] + side[2] > side[1] + side[3]:
        pts = np.roll(pts, -1, axis=0)  # make 0-1 (and 2-3) the short sides
    mid01 = (pts[0] + pts[1]) / 2.0
    mid23 = (pts[2] + pts[3]) / 2.0
    if (mid23[1], mid23[0]) < (mid01[1], mid01[0]):
        pts = np.roll(pts, -2, axis=0)
    return pts


def _as_quad(points: FloatArray) -> Quad:
    p = [(float(x), float(y)) for x, y in np.asarray(points, dtype=np.float64).reshape(4, 2)]
    return (p[0], p[1], p[2], p[3])


def _side_lengths(quad: FloatArray) -> tuple[float, float]:
    """Mean short and mean long side of a quad whose sides 0-1 / 2-3 are opposite."""
    d = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    a = (d[0] + d[2]) / 2.0
    b = (d[1] + d[3]) / 2.0
    return (float(min(a, b)), float(max(a, b)))


def _corner_angles(quad: FloatArray) -> FloatArray:
    prev = np.roll(quad, 1, axis=0) - quad
    nxt = np.roll(quad, -1, axis=0) - quad
    cos = (prev * nxt).sum(axis=1) / (np.linalg.norm(prev, axis=1) * np.linalg.norm(nxt, axis=1) + 1e-9)
    return np.asarray(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))), dtype=np.float64)


def _is_card_quad(quad: FloatArray, p: FindParams) -> bool:
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return False
    short, long = _side_lengths(order_corners(quad))
    if short <= 0:
        return False
    aspect = long / short
    if abs(aspect - p.card_aspect) > p.aspect_tolerance * p.card_aspect:
        return False
    angles = _corner_angles(quad)
    return bool(np.all(angles >= p.min_corner_angle) and np.all(angles <= p.max_corner_angle))


# ---------------------------------------------------------------------------
# work image and card pixels


@dataclass(frozen=True)
class _Work:
    scale: float  # work pixels per frame pixel
    grey: Arr  # L of Lab, work size
    mask: Arr  # card pixels (0/255)
    split: Arr  # card pixels with strong edges cut out
    bright: Arr  # light colourless pixels by a global (Otsu) split, edges cut out
    regions: Arr  # everything but strong edges: regions enclosed by edges
    colourless: Arr  # pixels of little colour (0/255)
    light_level: float  # lightness of the frame's lightest tenth
    grad: Arr  # gradient magnitude of grey (float32)


def _work(image: Image, p: FindParams) -> _Work:
    h, w = image.shape[:2]
    scale = min(1.0, p.work_long_side / max(h, w))
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small: Arr = image if scale == 1.0 else cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    grey, a, b = cv2.split(lab)
    neutral = np.full_like(a, 128)
    chroma = cv2.max(cv2.absdiff(a, neutral), cv2.absdiff(b, neutral))

    tiny_size = (max(1, size[0] // p.background_scale), max(1, size[1] // p.background_scale))
    tiny = cv2.resize(grey, tiny_size, interpolation=cv2.INTER_AREA)
    k = max(3, int(max(tiny_size) * p.background_kernel) | 1)
    k = min(k, (min(tiny_size) * 2 - 1) | 1) if min(tiny_size) > 1 else 1
    background = cv2.medianBlur(tiny, k) if k >= 3 else tiny
    background = cv2.resize(background, size, interpolation=cv2.INTER_LINEAR)

    rel = cv2.subtract(grey.astype(np.int16), background.astype(np.int16))
    colourless = (chroma <= p.max_chroma).astype(np.uint8) * 255
    white = (rel >= p.white_margin) & (colourless > 0)
    mask: Arr = white.astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))

    # Fine edges (a thin shadow where a card lies on a card) split the card mask;
    # edges of a denoised image (speckle and table texture gone) outline lone cards.
    kernel = np.ones((3, 3), np.uint8)
    smooth = cv2.GaussianBlur(grey, (3, 3), 0)
    fine = cv2.dilate(cv2.Canny(smooth, p.split_canny_low, p.split_canny_high), kernel)
    split = cv2.bitwise_and(mask, cv2.bitwise_not(fine))
    blurred = cv2.medianBlur(grey, p.denoise_kernel) if p.denoise_kernel > 1 else grey
    edges = cv2.dilate(cv2.Canny(blurred, p.canny_low, p.canny_high), kernel)
    not_edges = cv2.bitwise_not(edges)
    # A global lightness split catches cards too large for the local table estimate.
    _t, bright = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    bright = cv2.bitwise_and(bright, colourless)
    bright = cv2.bitwise_and(cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), not_edges)

    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    grad = cv2.magnitude(gx, gy)
    return _Work(
        scale=scale,
        grey=grey,
        mask=mask,
        split=split,
        bright=bright,
        regions=not_edges,
        colourless=colourless,
        light_level=float(np.percentile(tiny, 90)),
        grad=grad,
    )


# ---------------------------------------------------------------------------
# lone cards and merged regions


def _lone_quad(contour: Arr, p: FindParams) -> FloatArray | None:
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (p.poly_epsilon * 0.5, p.poly_epsilon, p.poly_epsilon * 1.5):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            area = cv2.contourArea(approx)
            if area > 0 and cv2.contourArea(contour) / area >= p.min_fill and _is_card_quad(quad, p):
                return _fit_sides(contour.reshape(-1, 2).astype(np.float64), quad)
            return None
        if len(approx) < 4:
            return None
    return None


def _intersect(
    line1: tuple[FloatArray, FloatArray], line2: tuple[FloatArray, FloatArray]
) -> FloatArray | None:
    """Intersection of two lines given as (point, direction); None when nearly parallel."""
    (p1, d1), (p2, d2) = line1, line2
    det = d1[0] * -d2[1] - d1[1] * -d2[0]
    if abs(det) < 1e-6:
        return None
    rhs = p2 - p1
    s = (rhs[0] * -d2[1] - rhs[1] * -d2[0]) / det
    return np.asarray(p1 + d1 * s, dtype=np.float64)


def _fit_line(points: FloatArray) -> tuple[FloatArray, FloatArray]:
    fit = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(-1)
    return (np.array([fit[2], fit[3]], np.float64), np.array([fit[0], fit[1]], np.float64))


def _fit_sides(points: FloatArray, quad: FloatArray) -> FloatArray:
    """Fit a line to the outline points along each side of ``quad`` and intersect them.

    Rounded card corners and the simplified polygon's shortcuts leave the quad's
    vertices off the true corners; the straight middles of the sides do not.
    """
    lines: list[tuple[FloatArray, FloatArray] | None] = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 4:
            return quad
        d = d / length
        rel = points - a
        t = rel @ d / length
        dist = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0])
        near = points[(t > 0.15) & (t < 0.85) & (dist < 2.0 + 0.04 * length)]
        lines.append(_fit_line(near) if len(near) >= 3 else None)
    out = quad.copy()
    for i in range(4):
        prev_line, line = lines[i - 1], lines[i]
        if prev_line is None or line is None:
            continue
        corner = _intersect(prev_line, line)
        if corner is not None and np.linalg.norm(corner - quad[i]) < 0.2 * np.linalg.norm(
            quad[i] - quad[i - 1]
        ):
            out[i] = corner
    return out


def _corner_hypotheses(contour: Arr, size: tuple[float, float] | None, p: FindParams) -> list[FloatArray]:
    """Card parallelograms anchored at the near-right-angle convex corners of an outline."""
    perimeter = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(1.5, 0.008 * perimeter), True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 3:
        return []
    orientation = 1.0 if cv2.contourArea(poly.astype(np.float32), oriented=True) > 0 else -1.0
    corners: list[tuple[FloatArray, FloatArray, FloatArray, float, float]] = []
    for i in range(n):
        v = poly[i]
        u = poly[i - 1] - v
        w = poly[(i + 1) % n] - v
        lu, lw = float(np.linalg.norm(u)), float(np.linalg.norm(w))
        if lu < 1e-6 or lw < 1e-6:
            continue
        cross = u[0] * w[1] - u[1] * w[0]
        if cross * orientation > 0:  # reflex (concave) vertex
            continue
        angle = math.degrees(math.acos(max(-1.0, min(1.0, float(u @ w) / (lu * lw)))))
        if not p.min_corner_angle <= angle <= p.max_corner_angle:
            continue
        corners.append((v, u / lu, w / lw, lu, lw))
    if not corners:
        return []
    if size is None:
        longest = max(max(c[3], c[4]) for c in corners)
        size = (longest / p.card_aspect, longest)
    short, long = size
    out: list[FloatArray] = []
    for v, du, dw, lu, lw in corners:
        for a, b in ((long, short), (short, long)):
            if lu > a * 1.15 or lw > b * 1.15:
                continue
            if max(lu, lw) < 0.2 * short:
                continue
            quad = np.array([v, v + du * a, v + du * a + dw * b, v + dw * b], dtype=np.float64)
            out.append(quad)
    return out


def _poly_mask(quad: FloatArray, shape: tuple[int, ...]) -> Arr:
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(m, np.round(quad).astype(np.int32), 255)
    return m


def _split_region(
    contour: Arr,
    region: Arr,
    size: tuple[float, float] | None,
    p: FindParams,
) -> list[FloatArray]:
    """Choose card hypotheses that together explain a merged region."""
    hyps = _corner_hypotheses(contour, size, p)
    if not hyps:
        return []
    x, y, w, h = cv2.boundingRect(contour)
    pad = 4
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(region.shape[1], x + w + pad), min(region.shape[0], y + h + pad)
    region_on = region[y0:y1, x0:x1] > 0
    offset = np.array([x0, y0], np.float64)
    scored: list[tuple[float, FloatArray, npt.NDArray[np.bool_]]] = []
    for quad in hyps:
        full_area = cv2.contourArea(quad.astype(np.float32))
        inside = _poly_mask(quad - offset, region_on.shape) > 0
        if full_area <= 0:
            continue
        frac = float((inside & region_on).sum()) / full_area  # parts outside the box count as off
        if frac >= p.min_inside:
            scored.append((frac, quad, inside))
    scored.sort(key=lambda t: -t[0])
    chosen: list[FloatArray] = []
    covered = np.zeros(region_on.shape, bool)
    for _frac, quad, inside in scored:
        short, _long = _side_lengths(order_corners(quad))
        if any(_quad_distance(quad, c) < p.duplicate_distance * short for c in chosen):
            continue
        new = float((inside & region_on & ~covered).sum())
        if new < p.min_new_area * float(inside.sum()):
            continue
        chosen.append(quad)
        covered |= inside
    return chosen


def _quad_distance(a: FloatArray, b: FloatArray) -> float:
    """Mean corner distance between two quads, whatever their corner order."""
    a = order_corners(a)
    b = order_corners(b)
    return min(float(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).mean()) for k in range(4))


# ---------------------------------------------------------------------------
# edge evidence, top cards, refinement


def _side_evidence(quad: FloatArray, grad: Arr, within: FloatArray | None) -> float:
    """Mean gradient along the sides of ``quad`` (only the part inside ``within`` if given); -1 if none."""
    samples: list[FloatArray] = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        count = max(4, int(length / 2))
        t = np.linspace(0.08, 0.92, count)[:, None]
        samples.append(a + (b - a) * t)
    pts = np.concatenate(samples)
    if within is not None:
        poly = within.astype(np.float32).reshape(-1, 1, 2)
        keep = np.array([cv2.pointPolygonTest(poly, (float(x), float(y)), True) > 3.0 for x, y in pts], bool)
        pts = pts[keep]
    h, w = grad.shape[:2]
    pts = pts[(pts[:, 0] >= 2) & (pts[:, 1] >= 2) & (pts[:, 0] < w - 2) & (pts[:, 1] < h - 2)]
    if len(pts) < 4:
        return -1.0
    xs = np.round(pts[:, 0]).astype(np.intp)
    ys = np.round(pts[:, 1]).astype(np.intp)
    local = np.maximum.reduce(
        [grad[ys + dy, xs + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)]  # tolerate 1 px misfit
    )
    return float(np.median(local))


def _mark_tops(quads: list[FloatArray], grad: Arr, p: FindParams) -> list[bool]:
    top = [True] * len(quads)
    polys = [q.astype(np.float32) for q in quads]
    for i in range(len(quads)):
        for j in range(i + 1, len(quads)):
            inter, _ = cv2.intersectConvexConvex(polys[i], polys[j])
            if inter <= 0.02 * min(cv2.contourArea(polys[i]), cv2.contourArea(polys[j])):
                continue
            ei = _side_evidence(quads[i], grad, quads[j])
            ej = _side_evidence(quads[j], grad, quads[i])
            if ei < 0 and ej < 0:
                continue
            if ei >= ej + p.top_margin or ej < 0:
                top[j] = False
            elif ej >= ei + p.top_margin or ei < 0:
                top[i] = False
    return top


def _refine(quad: FloatArray, grey: Arr, radius: int, p: FindParams) -> FloatArray:
    """Snap each side of a frame-pixel quad to the strongest edge within ``radius``.

    Sides without enough edge along them (hidden, off the frame) keep their place.
    """
    if radius == 0:
        return quad
    h, w = grey.shape[:2]
    r = radius
    centre = quad.mean(axis=0)
    lines: list[tuple[FloatArray, FloatArray] | None] = []
    offsets = np.arange(-r, r + 1, dtype=np.float64)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 4:
            lines.append(None)
            continue
        d /= length
        normal = np.array([-d[1], d[0]])
        if normal @ (centre - (a + b) / 2.0) > 0:
            normal = -normal  # point outwards
        count = max(6, int(length / 6))
        t = np.linspace(0.12, 0.88, count)
        base = a[None, :] + (b - a)[None, :] * t[:, None]
        probe = base[:, None, :] + normal[None, None, :] * offsets[None, :, None]
        px = probe[..., 0].astype(np.float32)
        py = probe[..., 1].astype(np.float32)
        vals = cv2.remap(grey, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
        diff = vals[:, :-2] - vals[:, 2:]  # inside minus outside: a light card on its surroundings
        step = np.abs(diff)
        best = step.argmax(axis=1)
        strength = step[np.arange(count), best]
        inside_ok = (px[:, 0] >= 0) & (py[:, 0] >= 0) & (px[:, -1] < w) & (py[:, -1] < h)
        good = (strength >= 12.0) & inside_ok
        if good.sum() < max(3, p.refine_min_points * count):
            lines.append(None)
            continue
        pts = base[good] + normal[None, :] * offsets[best[good] + 1][:, None]
        lines.append(_fit_line(pts))
    out = quad.copy()
    for i in range(4):
        prev_line, line = lines[i - 1], lines[i]
        if prev_line is None or line is None:
            continue
        corner = _intersect(prev_line, line)
        if corner is not None and np.linalg.norm(corner - quad[i]) <= 2.5 * r:
            out[i] = corner
    return out


# ---------------------------------------------------------------------------
# public API


def find_cards(image: Image, params: FindParams) -> list[FoundCard]:
    """Find every card in a BGR (or grey) uint8 frame.

    Returns the cards found, each with canonically ordered corners in frame
    pixels and its ``top`` flag; an empty list when there is no card.  The image
    is not checked here (``scanner.scan.Scanner`` validates frames); a malformed
    array raises whatever OpenCV raises (``cv2.error``).
    """
    work = _work(image, params)
    h, w = work.mask.shape[:2]
    area = float(h * w)
    contours, _ = cv2.findContours(work.split, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = params.min_card_area * area
    max_area = params.max_card_area * area

    lone: list[FloatArray] = []
    merged: list[Arr] = []
    for c in contours:
        a = cv2.contourArea(c)
        if a < min_area * 0.5:
            continue
        quad = _lone_quad(c, params)
        if quad is not None and min_area <= cv2.contourArea(quad.astype(np.float32)) <= max_area:
            lone.append(quad)
        elif a >= min_area * 0.5:
            merged.append(c)

    # The global split and the regions enclosed by edges find lone cards that the
    # local estimate misses (a card filling much of the frame, a light table).
    for binary, mode in ((work.bright, cv2.RETR_EXTERNAL), (work.regions, cv2.RETR_LIST)):
        extra, _ = cv2.findContours(binary, mode, cv2.CHAIN_APPROX_NONE)
        for c in extra:
            a = cv2.contourArea(c)
            if not min_area * 0.7 <= a <= max_area:
                continue
            quad = _lone_quad(c, params)
            if quad is not None and _looks_like_card(quad, work, params):
                lone.append(quad)
    lone = _dedupe(lone, params)

    size: tuple[float, float] | None = None
    if params.card_size_px is not None:
        size = (params.card_size_px[0] * work.scale, params.card_size_px[1] * work.scale)
    elif lone:
        lengths = np.array([_side_lengths(order_corners(q)) for q in lone])
        size = (float(np.median(lengths[:, 0])), float(np.median(lengths[:, 1])))

    quads: list[FloatArray] = list(lone)
    if merged:
        # Split merged regions on the card pixel mask (edges not cut out) so that
        # hypotheses are judged on the cards' whole surface.
        closed = cv2.morphologyEx(work.mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        for c in merged:
            region: Arr = np.zeros((h, w), np.uint8)
            cv2.drawContours(region, [c], -1, 255, thickness=cv2.FILLED)
            region = cv2.bitwise_or(
                cv2.bitwise_and(closed, cv2.dilate(region, np.ones((7, 7), np.uint8))), region
            )
            for quad in _split_region(c, region, size, params):
                qa = cv2.contourArea(quad.astype(np.float32))
                if min_area <= qa <= max_area and _is_card_quad(quad, params):
                    quads.append(quad)

    quads = _dedupe(quads, params)
    tops = _mark_tops(quads, work.grad, params)
    full_grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found: list[FoundCard] = []
    for quad, top in zip(quads, tops, strict=True):
        frame_quad = quad / work.scale
        frame_quad = _refine(frame_quad, full_grey, math.ceil(params.refine_radius / work.scale), params)
        evidence = _side_evidence(quad, work.grad, None)
        score = float(min(1.0, max(0.0, evidence / 200.0)))
        found.append(FoundCard(corners=_as_quad(order_corners(frame_quad)), top=top, score=score))
    log.debug("found %d cards (%d lone, %d merged regions)", len(found), len(lone), len(merged))
    return found


def _looks_like_card(quad: FloatArray, work: _Work, p: FindParams) -> bool:
    """Whether a quad outlined by edges is a card: its inside is mostly colourless and
    light, and not much darker than the table just around it."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    pad = max(4, int(0.1 * max(w, h)))
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(work.grey.shape[1], x + w + pad), min(work.grey.shape[0], y + h + pad)
    offset = np.array([x0, y0], np.float64)
    shape = (y1 - y0, x1 - x0)
    centre = quad.mean(axis=0)
    inner = _poly_mask(centre + (quad - centre) * 0.9 - offset, shape) > 0
    outer = (_poly_mask(centre + (quad - centre) * 1.15 - offset, shape) > 0) & ~(
        _poly_mask(quad - offset, shape) > 0
    )
    if not outer.any() or not inner.any():
        return False
    grey = work.grey[y0:y1, x0:x1]
    if float((work.mask[y0:y1, x0:x1][inner] > 0).mean()) >= 0.5:
        return True
    if float((work.colourless[y0:y1, x0:x1][inner] > 0).mean()) < p.min_colourless:
        return False
    inside_level = float(np.median(grey[inner]))
    return (
        inside_level >= work.light_level * p.min_lightness
        and inside_level >= float(np.median(grey[outer])) - p.max_darker
    )


def _dedupe(quads: list[FloatArray], p: FindParams) -> list[FloatArray]:
    out: list[FloatArray] = []
    for q in quads:
        short, _ = _side_lengths(order_corners(q))
        if all(_quad_distance(q, o) >= p.duplicate_distance * short for o in out):
            out.append(q)
    return out


def warp_card(image: Image, corners: Quad, params: FindParams) -> Image:
    """Cut a card out of ``image`` as a portrait ``card_width x card_height`` image.

    ``corners`` are frame pixels in canonical order (TL, TR, BR, BL of the
    portrait card).  The result has the image's channels (BGR or grey).

    Raises:
        ValueError: ``corners`` is not four finite points.
    """
    src = np.asarray(corners, dtype=np.float32)
    if src.shape != (4, 2) or not np.all(np.isfinite(src)):
        raise ValueError(f"corners must be four finite (x, y) points, got {corners!r}")
    w, h = params.card_width, params.card_height
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(
        image, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(warped, dtype=np.uint8)
