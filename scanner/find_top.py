"""Which of the cards found lies on top: where two cards overlap, the upper one's outline shows.

Where card A lies over card B, A's sides run across B's face as an edge (a thin
shadow or at least a step in tone) while B's sides under A are hidden, so that
only A's face print (pips, lines at any angle) crosses where they run.  A side
"shows" at a sample point when the grey gradient there (within a pixel across
the side) is strong enough and points across the side.  Of two overlapping
cards, the one whose sides show clearly less inside the other is not on top.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from scanner.find_geometry import Arr, FloatArray, spaced
from scanner.find_work import Work
from scanner.params import FindParams

_ACROSS = np.array([-1.0, 0.0, 1.0])[:, None, None]
"""Offsets (pixels, along the outward normal) at which a side is sampled."""


def _inside(points: FloatArray, quad: FloatArray, margin: float) -> Arr:
    """Which points lie inside the convex ``quad`` by at least ``margin`` pixels."""
    centre = quad.mean(axis=0)
    keep = np.ones(len(points), bool)
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        d = b - a
        length = float(np.hypot(d[0], d[1])) or 1.0
        side = (d[0] * (points[:, 1] - a[1]) - d[1] * (points[:, 0] - a[0])) / length
        ref = d[0] * (centre[1] - a[1]) - d[1] * (centre[0] - a[0])
        keep &= side * np.sign(ref) >= margin
    return keep


def side_visibility(quad: FloatArray, work: Work, within: FloatArray | None, p: FindParams) -> float | None:
    """Fraction of the sample points along ``quad``'s sides (only those inside ``within``, if
    given) where the side shows as an edge; ``None`` when fewer than ``top_min_samples`` remain."""
    pts_list: list[FloatArray] = []
    normals: list[tuple[float, float]] = []
    corners = quad.tolist()  # per side, plain floats: four sides do not pay for array calls
    for k in range(4):
        (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 4]
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        if length < 2:
            continue
        count = max(4, int(length / 1.5))
        t = spaced(0.05, 0.95, count)[:, None]
        pts_list.append(np.array([ax, ay]) + np.array([dx, dy]) * t)
        normals.extend([(-dy / length, dx / length)] * count)
    if not pts_list:
        return None
    pts = np.concatenate(pts_list)
    nrm = np.array(normals, dtype=np.float64)
    h, w = work.grey.shape[:2]
    keep = (pts[:, 0] >= 2) & (pts[:, 1] >= 2) & (pts[:, 0] < w - 2) & (pts[:, 1] < h - 2)
    if within is not None:
        keep &= _inside(pts, within, p.top_inset)
    pts, nrm = pts[keep], nrm[keep]
    if len(pts) < p.top_min_samples:
        return None
    # the samples a pixel either side of the side and on it, all gathered at once
    q = pts[None, :, :] + nrm[None, :, :] * _ACROSS
    xs = np.clip(np.round(q[..., 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.round(q[..., 1]).astype(np.intp), 0, h - 1)
    gx = work.gx[ys, xs]
    gy = work.gy[ys, xs]
    across = np.abs(gx * nrm[:, 0] + gy * nrm[:, 1])
    total = np.hypot(gx, gy)
    shows = ((across >= p.top_min_gradient) & (across >= p.top_alignment * total)).any(axis=0)
    return float(shows.mean())


def compare_tops(quads: list[FloatArray], work: Work, p: FindParams) -> tuple[list[bool], list[bool]]:
    """For each card, whether no other card lies over part of it, and whether it lies over
    part of another card (its sides showed clearly more than that card's where they overlap)."""
    top = [True] * len(quads)
    over = [False] * len(quads)
    polys = [q.astype(np.float32) for q in quads]
    areas = [float(cv2.contourArea(q)) for q in polys]
    for i in range(len(quads)):
        for j in range(i + 1, len(quads)):
            inter, _ = cv2.intersectConvexConvex(polys[i], polys[j])
            if inter <= p.top_min_overlap * min(areas[i], areas[j]):
                continue
            vi = side_visibility(quads[i], work, quads[j], p)
            vj = side_visibility(quads[j], work, quads[i], p)
            if vi is None and vj is None:
                continue
            si = 0.0 if vi is None else vi
            sj = 0.0 if vj is None else vj
            if si >= sj + p.top_margin:
                top[j] = False
                over[i] = True
            elif sj >= si + p.top_margin:
                top[i] = False
                over[j] = True
    return top, over


def mark_tops(quads: list[FloatArray], work: Work, p: FindParams) -> list[bool]:
    """For each card, whether no other card lies over part of it."""
    return compare_tops(quads, work, p)[0]
