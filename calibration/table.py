"""The table: the play area in the frame, its top-down view, and a card's size in pixels.

``find_play_area`` finds the play area (a cloth or mat of one colour, or the
table top, around the middle of the frame) as a quad TL, TR, BR, BL in frame
pixels:

1. On a work image (``TableParams.work_width`` wide), the play area's colour is
   the median Lab colour of a ring around the frame centre (a card may lie in the
   middle itself).
2. Pixels near that colour (distance below an Otsu threshold of the distance
   map, within ``max_colour_distance``) are the cloth; closing fills the holes
   cards and hands make.
3. The largest such region, with every other part of at least ``min_part`` of
   the frame (an arm across the cloth cuts it in parts), is simplified to its
   convex hull, then to the four-sided polygon that keeps most of it.

``measure_card`` measures the card laid in the middle of the play area: the
light, colourless blob nearest the centre, its minimum-area rectangle's sides.
``top_down`` gives the homography from the frame to a top-down view of the play
area.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from scanner.types import Image, Point, Quad

Arr = npt.NDArray[Any]


class TableError(ValueError):
    """The play area or the middle card could not be found; the message says what was seen."""


@dataclass(frozen=True)
class TableParams:
    """The tunable numbers of table calibration.

    Attributes:
        work_width: the frame is scaled to this width for finding the area.
        ring_inner, ring_outer: the ring sampling the cloth's colour (fractions of the short side).
        max_colour_distance: largest Lab distance of a cloth pixel from the cloth colour.
        close_fraction: closing kernel size as a fraction of the work width (fills cards on the cloth).
        min_area: the play area covers at least this share of the frame.
        card_lightness: a card pixel is this much lighter (L of Lab) than the cloth.
        card_chroma: ... and has at most this much colour (|a|, |b| of Lab from neutral).
        min_card_area, max_card_area: the middle card's area as a share of the play area.
        card_aspect_tolerance: relative tolerance of the card's long/short ratio (88/63).
        refits: times the cloth's colour is refitted as a smooth surface over the cloth found so far.
        min_part: a part of the cloth cut off by an arm counts when it covers this share of the frame.
        refine_radius: search (work pixels) across each side for the cloth's edge at full resolution.
        min_edge: smallest Lab step across the edge that counts.
        card_edge_radius: search (frame pixels) across each side of the middle card for its edge.

    Raises:
        ValueError: (on construction) a value out of range.
    """

    work_width: int = 640
    ring_inner: float = 0.22
    ring_outer: float = 0.42
    max_colour_distance: float = 40.0
    close_fraction: float = 0.03
    min_area: float = 0.1
    card_lightness: float = 25.0
    card_chroma: float = 30.0
    min_card_area: float = 0.002
    max_card_area: float = 0.3
    card_aspect_tolerance: float = 0.2
    refits: int = 2
    min_part: float = 0.03
    refine_radius: float = 6.0
    min_edge: float = 12.0
    card_edge_radius: float = 5.0

    def __post_init__(self) -> None:
        if not 64 <= self.work_width <= 4096:
            raise ValueError(f"TableParams.work_width must be 64..4096, got {self.work_width!r}")
        if not 0 <= self.ring_inner < self.ring_outer <= 0.5:
            raise ValueError(
                "TableParams ring must satisfy 0 <= inner < outer <= 0.5, "
                f"got {self.ring_inner}, {self.ring_outer}"
            )
        if not 0 < self.min_area < 1 or not 0 < self.min_card_area < self.max_card_area < 1:
            raise ValueError(f"TableParams area limits out of range: {self}")


def _lab(image: Image, width: int) -> tuple[Arr, float]:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise TableError(f"expected a BGR uint8 frame, got {getattr(image, 'shape', type(image).__name__)}")
    h, w = image.shape[:2]
    scale = width / w
    small = cv2.resize(image, (width, max(16, round(h * scale))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab, scale


def order_quad(points: Arr) -> Quad:
    """Four points ordered TL, TR, BR, BL (clockwise in the image from the top left)."""
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]
    start = int(np.argmin(pts[:, 0] + pts[:, 1]))
    pts = np.roll(pts, -start, axis=0)
    return tuple((float(x), float(y)) for x, y in pts)  # type: ignore[return-value]


def _four_sides(hull: Arr) -> Arr | None:
    """The four-vertex simplification of a convex hull (growing tolerance until four corners are left)."""
    perimeter = cv2.arcLength(hull, True)
    for fraction in np.linspace(0.005, 0.1, 40):
        poly = cv2.approxPolyDP(hull, float(fraction * perimeter), True)
        if len(poly) == 4:
            return np.asarray(poly.reshape(4, 2), dtype=np.float64)
        if len(poly) < 4:
            break
    return None


def _whole_frame(image: Image) -> Quad:
    h, w = image.shape[:2]
    return ((0.0, 0.0), (float(w - 1), 0.0), (float(w - 1), float(h - 1)), (0.0, float(h - 1)))


def cloth_colour(lab: Arr, p: TableParams) -> Arr:
    """The median Lab colour of the ring around the work image's centre."""
    h, w = lab.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    r = np.hypot(xx - w / 2.0, yy - h / 2.0) / min(h, w)
    ring = (r >= p.ring_inner) & (r <= p.ring_outer)
    out: Arr = np.median(lab[ring], axis=0)
    return out


def _cloth_mask(lab: Arr, model: Arr, p: TableParams) -> Arr:
    """Pixels whose colour is near the cloth's model (Otsu threshold of the distance, capped)."""
    distance = np.linalg.norm((lab - model) * np.array([0.5, 1.0, 1.0], dtype=np.float32), axis=2)
    scaled = np.clip(distance * (255.0 / (2 * p.max_colour_distance)), 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    limit = min(float(otsu), 127.0)
    out: Arr = (scaled <= limit).astype(np.uint8)
    return out


def _fit_colour(lab: Arr, mask: Arr, fallback: Arr) -> Arr:
    """A smooth (quadratic in x and y) model of the cloth's colour over the mask: uneven light, vignette."""
    h, w = mask.shape
    ys, xs = np.nonzero(mask)
    if len(xs) < 50:
        return fallback
    step = max(1, len(xs) // 5000)
    xs, ys = xs[::step], ys[::step]

    def basis(x: Arr, y: Arr) -> Arr:
        u, v = x / w - 0.5, y / h - 0.5
        return np.stack([np.ones_like(u), u, v, u * u, v * v, u * v], axis=-1)

    coef, *_ = np.linalg.lstsq(basis(xs.astype(np.float64), ys.astype(np.float64)), lab[ys, xs], rcond=None)
    # the model is smooth: evaluate it on a coarse grid and interpolate
    ch, cw = max(2, h // 8), max(2, w // 8)
    gy, gx = np.mgrid[0:ch, 0:cw].astype(np.float64)
    coarse = (basis((gx + 0.5) * w / cw - 0.5, (gy + 0.5) * h / ch - 0.5) @ coef).astype(np.float32)
    out: Arr = np.asarray(cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR), dtype=np.float32)
    return out


def find_play_area(image: Image, params: TableParams | None = None) -> Quad:
    """The play area's corners TL, TR, BR, BL in frame pixels.

    When the cloth fills the whole frame the answer is the frame's corners.

    Raises:
        TableError: ``image`` is not a BGR frame, or the cloth around the centre
            covers less than ``min_area`` of the frame or has no four-sided outline.
    """
    p = params or TableParams()
    lab, scale = _lab(image, p.work_width)
    h, w = lab.shape[:2]
    colour = cloth_colour(lab, p)
    model = np.broadcast_to(colour, lab.shape)
    mask = np.zeros((h, w), dtype=np.uint8)
    for _ in range(p.refits + 1):
        mask = _cloth_mask(lab, model, p)
        model = _fit_colour(lab, mask, model)
    k = max(3, int(p.close_fraction * w) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel), dtype=np.uint8)
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), dtype=np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if count <= 1:
        raise TableError(
            f"no cloth of one colour around the frame centre (cloth colour Lab {colour.round(0)})"
        )
    areas = stats[1:, cv2.CC_STAT_AREA]
    best = 1 + int(np.argmax(areas))
    share = float(areas[best - 1]) / float(h * w)
    if share < p.min_area:
        raise TableError(
            f"the cloth around the centre covers only {100 * share:.0f}% of the frame (at least "
            f"{100 * p.min_area:.0f}% expected): drag the play area's corners by hand"
        )
    # an arm across the cloth cuts it in parts: every large part belongs to it
    parts = [1 + i for i, area in enumerate(areas) if area >= p.min_part * h * w or 1 + i == best]
    region = np.isin(labels, parts).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.vstack(contours))
    quad = _four_sides(hull)
    if quad is None:
        raise TableError("the cloth's outline has no four sides: drag the play area's corners by hand")
    frame = np.asarray(_whole_frame(image))
    corners = np.clip(_refine_sides(image, quad / scale, p), 0, frame.max(axis=0))
    # a side lying along the frame border is the frame's own edge: snap it there
    margin = 2.0 / scale
    corners[:, 0] = np.where(corners[:, 0] < margin, 0.0, corners[:, 0])
    corners[:, 1] = np.where(corners[:, 1] < margin, 0.0, corners[:, 1])
    corners[:, 0] = np.where(corners[:, 0] > frame[:, 0].max() - margin, frame[:, 0].max(), corners[:, 0])
    corners[:, 1] = np.where(corners[:, 1] > frame[:, 1].max() - margin, frame[:, 1].max(), corners[:, 1])
    return order_quad(corners)


def _line_through(points: Arr) -> tuple[Arr, Arr]:
    line = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
    return np.array(line[2:], dtype=np.float64), np.array(line[:2], dtype=np.float64)


def _refine_sides(image: Image, quad: Arr, p: TableParams) -> Arr:
    """Move each side of ``quad`` (frame pixels) onto the strongest colour edge within ``refine_radius``.

    A side along the frame border, or one where too few probes find an edge, is kept.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    radius = p.refine_radius * image.shape[1] / p.work_width
    return fit_edges(lab, quad, radius, p.min_edge, (0.1, 0.9))


def fit_edges(channels: Arr, quad: Arr, radius: float, min_edge: float, span: tuple[float, float]) -> Arr:
    """``quad`` with each side moved onto the strongest edge of ``channels`` (H x W x C float) nearby.

    Each side is probed at 40 points over ``span`` (fractions of its length),
    ``radius`` pixels both ways across it; the strongest step (at least
    ``min_edge``, located to a fraction of a pixel) is a point of the side, and
    a line is fitted through them.  Corners are where neighbouring lines cross;
    a corner next to a side with fewer than 10 edge points, or one that would
    move further than ``2 * radius``, is kept.
    """
    h, w = channels.shape[:2]
    lines: list[tuple[Arr, Arr] | None] = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.linalg.norm(b - a))
        along = (b - a) / max(length, 1e-9)
        normal = np.array([-along[1], along[0]])
        offsets = np.arange(-radius, radius + 1.0)
        found = []
        for t in np.linspace(span[0], span[1], 40):
            base = a + (b - a) * t
            pts = base[None, :] + offsets[:, None] * normal[None, :]
            xs, ys = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
            if xs.min() < 0 or ys.min() < 0 or xs.max() >= w or ys.max() >= h:
                continue
            profile = channels[ys, xs].reshape(len(offsets), -1)
            step = np.linalg.norm(profile[2:] - profile[:-2], axis=1)
            k = int(np.argmax(step))
            if step[k] < min_edge:
                continue
            shift = 0.0
            if 0 < k < len(step) - 1:
                left, mid, right = step[k - 1], step[k], step[k + 1]
                denominator = left - 2 * mid + right
                if denominator < 0:
                    shift = float(np.clip(0.5 * (left - right) / denominator, -0.5, 0.5))
            found.append(base + (offsets[k + 1] + shift) * normal)
        lines.append(_line_through(np.array(found)) if len(found) >= 10 else None)
    out = quad.copy()
    for i in range(4):
        before, after = lines[(i - 1) % 4], lines[i]
        if before is None or after is None:
            continue
        (p1, d1), (p2, d2) = before, after
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            continue
        t = np.linalg.solve(m, p2 - p1)
        corner = p1 + d1 * t[0]
        if np.linalg.norm(corner - quad[i]) <= 2 * radius:
            out[i] = corner
    return out


def area_centre(corners: Quad) -> Point:
    """The centre of a quad: where its diagonals cross (the middle of the play area in perspective)."""
    (x1, y1), _, (x3, y3), _ = corners
    (x2, y2), (x4, y4) = corners[1], corners[3]
    d = (x1 - x3) * (y2 - y4) - (y1 - y3) * (x2 - x4)
    if abs(d) < 1e-9:
        return (sum(c[0] for c in corners) / 4.0, sum(c[1] for c in corners) / 4.0)
    a = x1 * y3 - y1 * x3
    b = x2 * y4 - y2 * x4
    return ((a * (x2 - x4) - (x1 - x3) * b) / d, (a * (y2 - y4) - (y1 - y3) * b) / d)


@dataclass(frozen=True)
class TopDown:
    """The homography from frame pixels to a top-down view of the play area of ``size`` (width, height)."""

    matrix: tuple[tuple[float, float, float], ...]
    size: tuple[int, int]

    def warp(self, image: Image) -> Image:
        """The top-down view of ``image``."""
        out = cv2.warpPerspective(image, np.array(self.matrix), self.size, flags=cv2.INTER_LINEAR)
        return np.asarray(out, dtype=np.uint8)

    def to_view(self, point: Point) -> Point:
        """Where a frame point lies in the top-down view."""
        q = cv2.perspectiveTransform(np.array([[point]], dtype=np.float64), np.array(self.matrix))[0, 0]
        return (float(q[0]), float(q[1]))


def top_down(corners: Quad) -> TopDown:
    """The frame-to-top-down homography of a play area (its view as wide and tall as its mean sides).

    Raises:
        TableError: the corners are degenerate (a side shorter than 8 pixels).
    """
    tl, tr, br, bl = (np.array(c, dtype=np.float64) for c in corners)
    width = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2.0
    height = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2.0
    if min(width, height) < 8:
        raise TableError(f"play area {corners!r} is degenerate ({width:.0f} x {height:.0f} px)")
    w, h = round(width), round(height)
    src = np.array([tl, tr, br, bl], dtype=np.float32)
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    rows = tuple((float(r[0]), float(r[1]), float(r[2])) for r in m)
    return TopDown(rows, (w, h))


def _quad_mask(corners: Quad, shape: tuple[int, int], scale: float) -> Arr:
    mask = np.zeros(shape, dtype=np.uint8)
    pts = np.round(np.array(corners) * scale).astype(np.int32)
    cv2.fillConvexPoly(mask, pts, 1)
    return mask


def measure_card(
    image: Image, corners: Quad | None = None, params: TableParams | None = None
) -> tuple[float, float]:
    """The side lengths ``(short, long)`` in frame pixels of the card lying nearest the play area's centre.

    ``corners`` is the play area (default: the whole frame).

    Raises:
        TableError: ``image`` is not a BGR frame, or no card-shaped light blob lies on the play area.
    """
    p = params or TableParams()
    area = corners if corners is not None else _whole_frame(image)
    lab, scale = _lab(image, p.work_width)
    h, w = lab.shape[:2]
    inside = _quad_mask(area, (h, w), scale)
    inside = cv2.erode(inside, np.ones((5, 5), np.uint8))
    cloth = np.median(lab[inside > 0], axis=0)
    light = lab[:, :, 0] > cloth[0] + p.card_lightness
    grey = np.maximum(np.abs(lab[:, :, 1] - 128), np.abs(lab[:, :, 2] - 128)) < p.card_chroma
    mask = (light & grey & (inside > 0)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    area_px = float(inside.sum())
    centre = np.array(area_centre(area)) * scale
    best: tuple[float, tuple[tuple[float, float], tuple[float, float], float]] | None = None
    seen = 0
    for contour in contours:
        share = cv2.contourArea(contour) / area_px
        if not p.min_card_area <= share <= p.max_card_area:
            continue
        seen += 1
        # measure on the full-resolution outline for accuracy
        rect = cv2.minAreaRect(contour.astype(np.float32) / scale)
        (cx, cy), (a, b), _ = rect
        short, long = min(a, b), max(a, b)
        if short <= 0 or abs(long / short - 88.0 / 63.0) > p.card_aspect_tolerance * 88.0 / 63.0:
            continue
        dist = math.dist((cx * scale, cy * scale), (float(centre[0]), float(centre[1])))
        if best is None or dist < best[0]:
            best = (dist, ((cx, cy), (a, b), rect[2]))
    if best is None:
        raise TableError(
            f"no card found in the middle of the play area ({seen} light blob(s) of card size, "
            "none card-shaped): "
            "lay one card face up in the middle, alone, and try again"
        )
    return _refine_size(image, best[1], p)


def _refine_size(
    image: Image, rect: tuple[tuple[float, float], tuple[float, float], float], p: TableParams
) -> tuple[float, float]:
    """The card's sides measured at full resolution: its work-image rectangle's sides moved onto the
    card's edges (probing the middle of each side, clear of the rounded corners), then the mean
    length of opposite sides."""
    box = cv2.boxPoints(rect).astype(np.float64)
    (cx, cy), (a, b), _ = rect
    reach = max(a, b) * 0.8 + 8
    h, w = image.shape[:2]
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    x1, y1 = min(w, int(cx + reach) + 1), min(h, int(cy + reach) + 1)
    lab = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    quad = fit_edges(lab, box - (x0, y0), p.card_edge_radius, p.min_edge, (0.25, 0.75))
    first = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    second = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    short, long = float(min(first, second)), float(max(first, second))
    if abs(short / min(a, b) - 1) > 0.15 or abs(long / max(a, b) - 1) > 0.15:
        return (min(a, b), max(a, b))
    return (short, long)
