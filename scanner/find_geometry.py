"""Quad geometry of the card finder: canonical corner order, card-shape tests, line fits.

Quads are 4x2 float arrays of ``(x, y)`` points.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from scanner.params import FindParams
from scanner.types import Quad

FloatArray = npt.NDArray[np.float64]
Arr = npt.NDArray[Any]
"""An OpenCV result (its stubs type arrays loosely)."""
Line = tuple[FloatArray, FloatArray]
"""A line as (a point on it, its unit direction)."""


@lru_cache(maxsize=1024)
def spaced(start: float, stop: float, count: int) -> FloatArray:
    """``np.linspace(start, stop, count)``, made once per arguments (read-only): the finder
    samples sides of a few lengths again and again."""
    out = np.linspace(start, stop, count)
    out.flags.writeable = False
    return out


def order_corners(points: FloatArray) -> FloatArray:
    """Order four corners canonically: clockwise in the image, side 0-1 a short side.

    Of the two short sides, the one whose midpoint is higher in the image (smaller
    y; on a tie, further left) comes first.  ``points`` is a 4x2 array; a new 4x2
    array is returned.
    """
    # four points: plain float arithmetic is several times faster than array calls
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2).tolist()
    cx = (pts[0][0] + pts[1][0] + pts[2][0] + pts[3][0]) / 4.0
    cy = (pts[0][1] + pts[1][1] + pts[2][1] + pts[3][1]) / 4.0
    pts.sort(key=lambda q: math.atan2(q[1] - cy, q[0] - cx))  # clockwise on screen (y points down)
    side = [_distance(pts[k], pts[(k + 1) % 4]) for k in range(4)]
    if side[0] + side[2] > side[1] + side[3]:
        pts = pts[1:] + pts[:1]  # make 0-1 (and 2-3) the short sides
    mid01 = ((pts[0][0] + pts[1][0]) / 2.0, (pts[0][1] + pts[1][1]) / 2.0)
    mid23 = ((pts[2][0] + pts[3][0]) / 2.0, (pts[2][1] + pts[3][1]) / 2.0)
    if (mid23[1], mid23[0]) < (mid01[1], mid01[0]):
        pts = pts[2:] + pts[:2]
    return np.array(pts, dtype=np.float64)


def _distance(a: list[float], b: list[float]) -> float:
    dx, dy = a[0] - b[0], a[1] - b[1]
    return math.sqrt(dx * dx + dy * dy)


def as_quad(points: FloatArray) -> Quad:
    """A 4x2 array as the ``Quad`` value type."""
    p = [(float(x), float(y)) for x, y in np.asarray(points, dtype=np.float64).reshape(4, 2)]
    return (p[0], p[1], p[2], p[3])


def side_lengths(quad: FloatArray) -> tuple[float, float]:
    """Mean short and mean long side of a quad (opposite sides averaged)."""
    pts = np.asarray(quad, dtype=np.float64).reshape(4, 2).tolist()
    d = [_distance(pts[k], pts[(k + 1) % 4]) for k in range(4)]
    a = (d[0] + d[2]) / 2.0
    b = (d[1] + d[3]) / 2.0
    return (min(a, b), max(a, b))


def point_depth(point: FloatArray, quad: FloatArray) -> float:
    """How far ``point`` lies inside the polygon ``quad`` (pixels; negative outside, 0 on it)."""
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return float(cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), True))


def holds(quad: FloatArray, point: FloatArray) -> bool:
    """Whether ``point`` lies inside or on the polygon ``quad``."""
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return bool(cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0)


def side_angle(start: FloatArray, end: FloatArray) -> float:
    """The direction (radians, -pi to pi) of the side from ``start`` to ``end``."""
    d = end - start
    return math.atan2(float(d[1]), float(d[0]))


def line_turn(a: float, b: float) -> float:
    """The angle between two undirected lines of angles ``a`` and ``b`` (radians), 0 to pi/2."""
    return abs((a - b + math.pi / 2) % math.pi - math.pi / 2)


def corner_angles(quad: FloatArray) -> FloatArray:
    """The interior angle at each corner, in degrees."""
    return np.array(_corner_angles(np.asarray(quad, dtype=np.float64).reshape(4, 2).tolist()))


def _corner_angles(pts: list[list[float]]) -> list[float]:
    out = []
    for k in range(4):
        (px, py), (x, y), (nx, ny) = pts[k - 1], pts[k], pts[(k + 1) % 4]
        ax, ay, bx, by = px - x, py - y, nx - x, ny - y
        norms = math.sqrt(ax * ax + ay * ay) * math.sqrt(bx * bx + by * by) + 1e-9
        cos = (ax * bx + ay * by) / norms
        out.append(math.degrees(math.acos(min(1.0, max(-1.0, cos)))))
    return out


def is_card_quad(quad: FloatArray, p: FindParams, tolerance: float | None = None) -> bool:
    """Convex, of card aspect within ``tolerance`` (``aspect_tolerance`` by default), every
    corner angle within range."""
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return False
    short, long = side_lengths(quad)  # the mean sides do not depend on the corner order
    if short <= 0:
        return False
    tol = p.aspect_tolerance if tolerance is None else tolerance
    if abs(long / short - p.card_aspect) > tol * p.card_aspect:
        return False
    angles = _corner_angles(np.asarray(quad, dtype=np.float64).reshape(4, 2).tolist())
    return all(p.min_corner_angle <= a <= p.max_corner_angle for a in angles)


def quad_distance(a: FloatArray, b: FloatArray) -> float:
    """Mean distance from each corner of ``a`` to the nearest corner of ``b`` (any corner order)."""
    # sixteen distances: plain float arithmetic, the same values as the array expression
    # ``np.sqrt(((a[:, None] - b[None]) ** 2).sum(axis=2)).min(axis=1).mean()`` at a quarter of its cost
    others = np.asarray(b, dtype=np.float64).reshape(-1, 2).tolist()
    corners = np.asarray(a, dtype=np.float64).reshape(-1, 2).tolist()
    total = 0.0
    for ax, ay in corners:
        nearest = math.inf
        for bx, by in others:
            dx, dy = ax - bx, ay - by
            d = math.sqrt(dx * dx + dy * dy)
            if d < nearest:
                nearest = d
        total += nearest
    return total / len(corners)


def intersect(line1: Line, line2: Line) -> FloatArray | None:
    """Intersection of two lines; None when they are nearly parallel."""
    (p1, d1), (p2, d2) = line1, line2
    det = d1[0] * -d2[1] - d1[1] * -d2[0]
    if abs(det) < 1e-6:
        return None
    rhs = p2 - p1
    s = (rhs[0] * -d2[1] - rhs[1] * -d2[0]) / det
    return np.asarray(p1 + d1 * s, dtype=np.float64)


def fit_line(points: FloatArray) -> Line:
    """A robust (Huber) line through at least two points."""
    fit = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(-1)
    return (np.array([fit[2], fit[3]], np.float64), np.array([fit[0], fit[1]], np.float64))


def _corners_from_lines(quad: FloatArray, lines: list[Line | None], max_move: float) -> FloatArray:
    """``quad`` with each corner moved to where its two sides' lines meet, unless a line is
    missing, the lines are nearly parallel or the corner would move more than ``max_move``."""
    out = quad.copy()
    # plain floats: the arithmetic of ``intersect`` on two-element arrays, without their overhead
    flat = [None if line is None else (*line[0].tolist(), *line[1].tolist()) for line in lines]
    for i in range(4):
        first, second = flat[i - 1], flat[i]
        if first is None or second is None:
            continue
        px, py, dx, dy = first
        qx, qy, ex, ey = second
        det = dx * -ey - dy * -ex
        if abs(det) < 1e-6:
            continue
        rx, ry = qx - px, qy - py
        s = (rx * -ey - ry * -ex) / det
        x, y = px + dx * s, py + dy * s
        if math.sqrt((x - out[i, 0]) ** 2 + (y - out[i, 1]) ** 2) <= max_move:
            out[i] = (x, y)
    return out


def fit_sides(points: FloatArray, quad: FloatArray) -> FloatArray:
    """Fit a line to the outline ``points`` along each side of ``quad`` and intersect them.

    Rounded card corners and a simplified polygon's shortcuts leave the quad's
    vertices off the true corners; the straight middles of the sides do not.
    """
    ends = quad[[1, 2, 3, 0]]
    lengths = np.sqrt(((ends - quad) ** 2).sum(axis=1))
    if lengths.min() < 4:
        return quad
    # the four sides at once: each point's place along each side and its distance from it
    d = (ends - quad) / lengths[:, None]
    rel = points[None, :, :] - quad[:, None, :]
    t = (rel @ d[:, :, None])[:, :, 0] / lengths[:, None]
    dist = np.abs(rel[:, :, 0] * d[:, None, 1] - rel[:, :, 1] * d[:, None, 0])
    near = (t > 0.15) & (t < 0.85) & (dist < 2.0 + 0.04 * lengths[:, None])
    lines: list[Line | None] = []
    for i in range(4):
        side = points[near[i]]
        lines.append(fit_line(side) if len(side) >= 3 else None)
    short, _ = side_lengths(quad)
    return _corners_from_lines(quad, lines, 0.2 * short)


def poly_mask(quad: FloatArray, shape: tuple[int, ...]) -> Arr:
    """A 0/255 mask of ``shape`` with the (convex) quad filled."""
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(m, np.round(quad).astype(np.int32), 255)
    return m


def refine(quad: FloatArray, grey: Arr, radius: int, min_points: float, min_step: float) -> FloatArray:
    """Snap each side of a quad to the strongest light-to-dark step within ``radius`` pixels.

    A side where fewer than ``min_points`` of the probes find a step of at least
    ``min_step`` grey levels (hidden, off the frame) keeps its place.
    """
    if radius == 0:
        return quad
    h, w = grey.shape[:2]
    cx, cy = quad.mean(axis=0).tolist()
    offsets = np.arange(-radius, radius + 1, dtype=np.float64)
    corners = quad.tolist()
    counts: list[int] = []
    bases: list[FloatArray] = []
    normals: list[tuple[float, float]] = []
    for i in range(4):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
        dx, dy = bx - ax, by - ay
        length = math.sqrt(dx * dx + dy * dy)
        if length < 4:
            counts.append(0)
            continue
        nx, ny = -dy / length, dx / length
        if nx * (cx - (ax + bx) / 2.0) + ny * (cy - (ay + by) / 2.0) > 0:
            nx, ny = -nx, -ny  # point outwards
        count = max(6, int(length / 6))
        t = spaced(0.12, 0.88, count)
        bases.append(np.array([ax, ay]) + np.array([dx, dy]) * t[:, None])
        normals.extend([(nx, ny)] * count)
        counts.append(count)
    if not bases:
        return quad
    # every side's probes sampled in one call
    base = np.concatenate(bases)
    normal = np.array(normals, dtype=np.float64)
    # x and y of every probe point (a row per probe, a column per offset), as remap takes them
    px = (base[:, :1] + normal[:, :1] * offsets).astype(np.float32)
    py = (base[:, 1:] + normal[:, 1:] * offsets).astype(np.float32)
    vals = cv2.remap(grey, px, py, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.int16)
    step = np.abs(vals[:, :-2] - vals[:, 2:])
    best = step.argmax(axis=1)
    strength = step[np.arange(len(step)), best]
    # a probe's points run straight along its normal, so its first and last are its extremes
    inside = (px[:, 0] >= 0) & (px[:, -1] >= 0) & (px[:, 0] < w) & (px[:, -1] < w)
    inside &= (py[:, 0] >= 0) & (py[:, -1] >= 0) & (py[:, 0] < h) & (py[:, -1] < h)
    good = (strength >= min_step) & inside
    found = base + normal * offsets[best + 1][:, None]
    lines: list[Line | None] = []
    start = 0
    for count in counts:
        rows = slice(start, start + count)
        start += count
        if count == 0 or np.count_nonzero(good[rows]) < max(3, min_points * count):
            lines.append(None)
            continue
        lines.append(fit_line(found[rows][good[rows]]))
    return _corners_from_lines(quad, lines, 2.5 * radius)
