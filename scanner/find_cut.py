"""Cards the frame cuts off: the whole card from the sides that are in view.

A card lying partly beyond the frame's border outlines a region whose
boundary runs along the border where the card leaves the frame: its
simplified outline is not a quad, so it is no lone card.  Its sides in view
still lie on the card's sides.  Grouped by direction into two families (the
card's long and short sides, about square to each other), they give:

- two sides of each family: the card is their four intersections (the frame
  cuts one or two of its corners off);
- two sides of one family and one of the other: the card's fourth side is
  parallel to the one in view, as far from it as the card's aspect says
  (the distance between the pair being a whole side of the card), on the side
  of the region; of the two readings (the pair the card's long sides or its
  short sides) the shorter one that still holds the region is taken.

The card is kept only when at least ``cut_min_seen`` of it is in view (so an
index corner likely is) and the region fills the part of it in view.  The
candidates are only candidates: ``scanner.find`` checks them as it checks
every quad outlined by edges (``scanner.find_check``), on the part in view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.find_check import slanted_outline
from scanner.find_geometry import (
    Arr,
    FloatArray,
    fit_line,
    intersect,
    is_card_quad,
    line_turn,
    order_corners,
    side_angle,
)
from scanner.params import FindParams

__all__ = ["CutCard", "cut_cards", "quad_from_families", "side_families"]


@dataclass(frozen=True)
class CutCard:
    """A card the frame cuts off: ``quad`` is the whole card (corners ordered canonically),
    ``seen`` the part in view (a polygon of three to eight corners), both in the pixels of the
    outline they come from."""

    quad: FloatArray
    seen: FloatArray


def _on_border(points: FloatArray, w: int, h: int, m: float) -> Arr:
    """Per point, a bit mask of the frame borders it lies on (1 left, 2 right, 4 top, 8 bottom)."""
    x, y = points[:, 0], points[:, 1]
    return np.asarray(
        (x <= m) * 1 + (x >= w - 1 - m) * 2 + (y <= m) * 4 + (y >= h - 1 - m) * 8, dtype=np.intp
    )


def _sides_in_view(polygon: FloatArray, w: int, h: int, p: FindParams) -> list[tuple[FloatArray, FloatArray]]:
    """The polygon's edges that do not run along the frame's border and are long enough to be
    a card's side (at least ``cut_min_side`` of the longest such edge), as (start, end)."""
    borders = _on_border(polygon, w, h, p.frame_margin)
    edges = []
    for k in range(len(polygon)):
        j = (k + 1) % len(polygon)
        if borders[k] & borders[j]:
            continue  # both ends on one border: the frame cuts the card here
        edges.append((polygon[k], polygon[j]))
    if not edges:
        return []
    longest = max(float(np.linalg.norm(b - a)) for a, b in edges)
    return [(a, b) for a, b in edges if float(np.linalg.norm(b - a)) >= p.cut_min_side * longest]


def side_families(
    sides: list[tuple[FloatArray, FloatArray]], p: FindParams
) -> tuple[list[tuple[FloatArray, FloatArray]], list[tuple[FloatArray, FloatArray]]] | None:
    """The sides split by direction: those along the longest side (within ``cut_square``
    degrees) and the others, which must run along the longest of them and turn at least
    ``min_corner_angle`` from the first (a photo stretched across makes a slanted card's corners
    oblique); ``None`` when they do not."""
    lengths = [float(np.linalg.norm(b - a)) for a, b in sides]
    base = side_angle(*sides[int(np.argmax(lengths))])
    limit = math.radians(p.cut_square)
    along = [s for s in sides if line_turn(side_angle(*s), base) <= limit]
    across = [s for s in sides if line_turn(side_angle(*s), base) > limit]
    if not across:
        return along, across
    other = side_angle(*max(across, key=lambda s: float(np.linalg.norm(s[1] - s[0]))))
    if line_turn(other, base) < math.radians(min(p.min_corner_angle, 180.0 - p.max_corner_angle)):
        return None
    if any(line_turn(side_angle(*s), other) > limit for s in across):
        return None
    return along, across


def _two_lines(
    family: list[tuple[FloatArray, FloatArray]], dense: FloatArray
) -> list[tuple[FloatArray, FloatArray]]:
    """The family's sides as at most two lines (point, unit direction): the outermost two, or one
    when they all lie on one line (within two pixels); each fitted to the outline's pixels along
    the middle of its side (``dense``)."""
    a, b = family[0]
    d = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
    normal = np.array([-d[1], d[0]])
    offsets = [float(((s + e) / 2.0 - a) @ normal) for s, e in family]
    lo, hi = int(np.argmin(offsets)), int(np.argmax(offsets))
    picks = [lo] if offsets[hi] - offsets[lo] <= 2.0 else [lo, hi]
    out = []
    for k in picks:
        s, e = family[k]
        length = max(float(np.linalg.norm(e - s)), 1e-9)
        unit = (e - s) / length
        rel = dense - s
        t = rel @ unit / length
        dist = np.abs(rel[:, 0] * unit[1] - rel[:, 1] * unit[0])
        near = dense[(t > 0.15) & (t < 0.85) & (dist < 2.0 + 0.04 * length)]
        out.append(fit_line(near) if len(near) >= 3 else (s, unit))
    return out


def _line_corners(
    first: list[tuple[FloatArray, FloatArray]], second: list[tuple[FloatArray, FloatArray]]
) -> FloatArray | None:
    """The four intersections of two pairs of lines, ordered canonically."""
    pts = [intersect(u, v) for u in first for v in second]
    if any(pt is None for pt in pts):
        return None
    return order_corners(np.array(pts, dtype=np.float64))


def _clip(quad: FloatArray, w: int, h: int) -> FloatArray:
    """The quad clipped to the frame ``[0, w-1] x [0, h-1]`` (Sutherland-Hodgman)."""
    poly = [pt for pt in quad]
    for axis, limit, keep_below in ((0, 0.0, False), (0, w - 1.0, True), (1, 0.0, False), (1, h - 1.0, True)):
        out: list[FloatArray] = []
        for k in range(len(poly)):
            cur, nxt = poly[k], poly[(k + 1) % len(poly)]
            cur_in = cur[axis] <= limit if keep_below else cur[axis] >= limit
            nxt_in = nxt[axis] <= limit if keep_below else nxt[axis] >= limit
            if cur_in:
                out.append(cur)
            if cur_in != nxt_in:
                t = (limit - cur[axis]) / (nxt[axis] - cur[axis])
                out.append(cur + (nxt - cur) * t)
        poly = out
        if not poly:
            break
    return np.array(poly, dtype=np.float64).reshape(-1, 2)


def quad_from_families(
    families: tuple[list[tuple[FloatArray, FloatArray]], list[tuple[FloatArray, FloatArray]]] | None,
    dense: FloatArray,
    p: FindParams,
) -> FloatArray | None:
    """The whole card's corners from its sides in view split by direction (``side_families``):
    two lines of one direction and one or two of the other, the missing side a card's length
    from the one seen (``_extend_side``); ``None`` when the sides do not make a card."""
    if families is None or not families[0] or not families[1]:
        return None
    first, second = (_two_lines(f, dense) for f in families)
    if len(first) == 1 and len(second) == 2:
        first, second = second, first
    if len(first) != 2:
        return None
    if len(second) == 1:
        extended = _extend_side(first, second[0], dense, p)
        if extended is None:
            return None
        second = [second[0], extended]
    return _line_corners(first, second)


def cut_cards(contour: Arr, dense: FloatArray, shape: tuple[int, ...], p: FindParams) -> list[CutCard]:
    """The whole card of a region outline that the frame's border cuts (``dense``: every pixel of
    the outline; ``shape``: the frame's, in the outline's pixels), one reading per simplification
    of the outline (coarse to fine: a corner the border cuts off only a little is lost in a coarse
    one).  Empty when the outline does not touch the border, its sides in view do not make a card
    of card aspect (``lone_aspect_tolerance``), too little of that card is in view
    (``cut_min_seen``) or the region does not fill the part in view (``min_fill``)."""
    h, w = shape[:2]
    hull = cv2.convexHull(contour)
    points = hull.reshape(-1, 2).astype(np.float64)
    if not _on_border(points, w, h, p.frame_margin).any():
        return []
    perimeter = cv2.arcLength(hull, True)
    out: list[CutCard] = []
    for scale in (1.0, 0.5, 0.25):
        polygon = cv2.approxPolyDP(hull, scale * p.poly_epsilon * perimeter, True)
        card = _from_polygon(polygon.reshape(-1, 2).astype(np.float64), contour, dense, (w, h), p)
        if card is not None and all(float(np.abs(card.quad - o.quad).max()) > 2.0 for o in out):
            out.append(card)
    return out


def _from_polygon(
    polygon: FloatArray, contour: Arr, dense: FloatArray, size: tuple[int, int], p: FindParams
) -> CutCard | None:
    """``cut_card`` on one simplification ``polygon`` of the region's hull ``points``."""
    w, h = size
    if not 4 <= len(polygon) <= 8:
        return None
    sides = _sides_in_view(polygon, w, h, p)
    if len(sides) < 3:
        return None
    quad = quad_from_families(side_families(sides, p), dense, p)
    if quad is None or not (
        is_card_quad(quad, p, p.lone_aspect_tolerance) or (p.slanted and slanted_outline(quad, p))
    ):
        return None
    seen = _clip(quad, w, h)
    if len(seen) < 3:
        return None
    whole_area = float(cv2.contourArea(quad.astype(np.float32)))
    seen_area = float(cv2.contourArea(seen.astype(np.float32)))
    if whole_area <= 0 or seen_area / whole_area < p.cut_min_seen or seen_area / whole_area > 0.99:
        return None  # too little of it in view, or not cut off at all (then it is a lone card)
    if float(cv2.contourArea(contour)) < p.min_fill * seen_area:
        return None
    return CutCard(quad=quad, seen=seen)


def _extend_side(
    pair: list[tuple[FloatArray, FloatArray]],
    single: tuple[FloatArray, FloatArray],
    points: FloatArray,
    p: FindParams,
) -> tuple[FloatArray, FloatArray] | None:
    """The card's side opposite ``single`` (a line), the pair of lines being a whole side of the
    card apart; on the side of the region's ``points``, the shorter of the two readings that
    still holds them."""
    (a, d), (b, _) = pair
    normal_pair = np.array([-d[1], d[0]])
    spacing = abs(float((b - a) @ normal_pair))
    start, direction = single
    normal = np.array([-direction[1], direction[0]])
    reach = (points - start) @ normal
    if abs(float(reach.min())) > abs(float(reach.max())):
        normal, reach = -normal, -reach
    shown = float(reach.max())
    for length in sorted((spacing * p.card_aspect, spacing / p.card_aspect)):
        if shown <= length * (1.0 + p.aspect_tolerance) and shown >= p.cut_min_seen * length:
            return start + normal * length, direction
    return None
