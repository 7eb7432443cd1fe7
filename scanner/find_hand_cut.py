"""Cards a hand or an arm lies over: the whole card from the sides that are in view.

A hand over part of a card cuts the card's visible region along the hand's
outline: the region's simplified outline is not a quad, so it is no lone card.
As for a card the frame cuts off (``scanner.find_cut``), the region's straight
edges that lie on the card's sides still give the card: grouped by direction
into two families about square to each other, two sides of each give its four
corners, two of one and one of the other give the fourth side a whole side of
the card away.  Here the edges that run along neither family (the hand's
outline, which is curved or slanted across the card) are left out instead of
the edges along the frame's border.

A card is kept only when its region fills at least ``hand_min_seen`` of it (so
its index corners likely show, and the visible part of a lower card of a pile,
which the cards over it cut to a smaller part, is not taken for a whole card),
the card holds the region, and the region is no whole card
(then it is a lone card).  The candidates are only candidates: ``hand_cut_lone``
keeps those of card size and aspect (``aspect_tolerance``) that hold no lone
card's centre, whose sides in view show as edges (``in_view_support``) and
whose border strip is paper.  Anything that cuts a card's region short of a
quad (a hand, an arm, glare, a broken edge) is completed the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import cv2
import numpy as np

from scanner.find_check import paper_border, side_support
from scanner.find_cut import CutCard, quad_from_families, side_families
from scanner.find_geometry import Arr, FloatArray, holds, is_card_quad, poly_mask
from scanner.find_work import Work
from scanner.params import FindParams

__all__ = ["hand_cut_cards", "hand_cut_lone", "in_view_support"]


def _long_edges(polygon: FloatArray, p: FindParams) -> list[tuple[FloatArray, FloatArray]]:
    """The polygon's edges at least ``cut_min_side`` of its longest edge long, as (start, end)."""
    edges = [(polygon[k], polygon[(k + 1) % len(polygon)]) for k in range(len(polygon))]
    longest = max(float(np.linalg.norm(b - a)) for a, b in edges)
    return [(a, b) for a, b in edges if float(np.linalg.norm(b - a)) >= p.cut_min_side * longest]


def _card_sides(
    sides: list[tuple[FloatArray, FloatArray]], p: FindParams
) -> tuple[list[tuple[FloatArray, FloatArray]], list[tuple[FloatArray, FloatArray]]] | None:
    """The edges along the longest one and those square to it (each within ``cut_square``
    degrees); the edges along neither (a hand's outline) are left out."""
    lengths = [float(np.linalg.norm(b - a)) for a, b in sides]
    longest = sides[int(np.argmax(lengths))]
    d = (longest[1] - longest[0]) / max(lengths[int(np.argmax(lengths))], 1e-9)
    limit = np.sin(np.radians(p.cut_square))
    along, across = [], []
    for a, b in sides:
        u = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        cross = abs(float(d[0] * u[1] - d[1] * u[0]))
        if cross <= limit:
            along.append((a, b))
        elif cross >= np.cos(np.radians(p.cut_square)):
            across.append((a, b))
    if not along or not across:
        return None
    return side_families(along + across, p)


def hand_cut_cards(
    contour: Arr, dense: FloatArray | Callable[[], FloatArray], p: FindParams
) -> list[CutCard]:
    """The whole cards a region outline (``dense``: every pixel of it, or a call that makes them,
    made only when a simplification of the hull can be a cut card) may be the part in view of,
    one reading per simplification of its hull (coarse to fine); ``seen`` is the region's hull.
    Empty when its card sides do not make a card of card aspect (``aspect_tolerance``), the
    region fills less than ``hand_min_seen`` of that card, reaches out of it, or is the whole card."""
    hull = cv2.convexHull(contour)
    area = float(cv2.contourArea(contour))
    perimeter = cv2.arcLength(hull, True)
    seen = hull.reshape(-1, 2).astype(np.float64)
    points: FloatArray | None = None
    out: list[CutCard] = []
    for scale in (1.0, 0.5):
        polygon = cv2.approxPolyDP(hull, scale * p.poly_epsilon * perimeter, True).reshape(-1, 2)
        if not 5 <= len(polygon) <= 9:
            continue
        if points is None:
            points = dense() if callable(dense) else dense
        quad = _from_polygon(polygon.astype(np.float64), points, p)
        if quad is None:
            continue
        whole = float(cv2.contourArea(quad.astype(np.float32)))
        if whole <= 0 or not p.hand_min_seen <= area / whole <= 0.95 or not _holds(quad, points):
            continue
        if all(float(np.abs(quad - o.quad).max()) > 2.0 for o in out):
            out.append(CutCard(quad=quad, seen=seen))
    return out


def _holds(quad: FloatArray, points: FloatArray) -> bool:
    """Whether the quad, grown by 3% about its centre, holds 95% of ``points``: a card holds its
    part in view."""
    centre = quad.mean(axis=0)
    grown = centre + (quad - centre) * 1.03
    inside = [holds(grown, point) for point in points[::4]]
    return bool(np.mean(inside) >= 0.95)


def _from_polygon(polygon: FloatArray, dense: FloatArray, p: FindParams) -> FloatArray | None:
    sides = _long_edges(polygon, p)
    if len(sides) < 3:
        return None
    quad = quad_from_families(_card_sides(sides, p), dense, p)
    if quad is None or not is_card_quad(quad, p):
        return None
    return quad


def in_view_support(card: CutCard, work: Work, p: FindParams) -> FloatArray:
    """Per side of ``card.quad``, the fraction of it that shows as an edge (``side_support``),
    or NaN for a side that runs mostly outside the region in view (under the hand)."""
    support = side_support(card.quad, work, p)
    h, w = work.grey.shape[:2]
    inside = poly_mask(card.seen, (h, w))
    grown = cv2.dilate(inside, np.ones((5, 5), np.uint8))
    t = np.linspace(0.1, 0.9, p.support_points)[:, None]
    out = support.copy()
    for k in range(4):
        a, b = card.quad[k], card.quad[(k + 1) % 4]
        pts = np.round(a + (b - a) * t).astype(np.intp)
        ok = (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < w) & (pts[:, 1] < h)
        on = np.zeros(len(pts), bool)
        on[ok] = grown[pts[ok, 1], pts[ok, 0]] > 0
        if on.mean() < 0.5:
            out[k] = np.nan
    return out


def hand_cut_lone(
    outlines: list[Arr], lone: list[FloatArray], work: Work, p: FindParams, dense: Callable[[Arr], FloatArray]
) -> list[FloatArray]:
    """The whole cards of the region ``outlines`` that a hand cuts, each holding no centre of a
    card in ``lone`` (nor one of another such card), of card size, with a paper border
    (``min_paper``) and at least three sides in view each showing along ``min_side_support``."""
    area = float(work.grey.shape[0] * work.grey.shape[1])
    min_area, max_area = p.min_card_area * area, p.max_card_area * area
    found: list[FloatArray] = []
    for contour in outlines:
        if not p.hand_min_seen * min_area <= cv2.contourArea(contour) <= max_area:
            continue
        # every pixel of the outline made only for a hull that simplifies to a cut card's polygon
        for card in hand_cut_cards(contour, partial(dense, contour), p):
            quad = card.quad
            if not min_area <= cv2.contourArea(quad.astype(np.float32)) <= max_area:
                continue
            if any(holds(quad, o.mean(axis=0)) or holds(o, quad.mean(axis=0)) for o in lone + found):
                continue
            support = in_view_support(card, work, p)
            shown = support[~np.isnan(support)]
            if len(shown) < 3 or shown.min() < p.min_side_support:
                continue
            if paper_border(quad, work, p) < p.min_paper:
                continue
            found.append(quad)
            break
    return found
