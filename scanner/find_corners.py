"""Card corners that may carry a corner index: the proposals of covered-card reading.

A covered card whose corner index shows also shows that corner of the card: two
of its sides meeting at a near right angle, on the outline of the visible part
of the card (where a fine edge cuts it from the card over it;
``scanner.find_split.corners_of`` finds such corners with their two arms) or as
two straight edges ending at one point where the corner lies on another card
(a thin shadow line on white; found by a probabilistic Hough transform of the
work image's edges).  A card's index lies at its top-left corner (and turned half round at its
bottom-right one), where, in the card's own frame (x along the short side, y
along the long side, as in the warped card), the arms run along +x and +y.
That frame is right-handed in the image (x right, y down), so of a corner's two
arms exactly one order is right-handed: its first arm is the card's short side
when the corner is an index corner.  The other two corners of a card give the
long side first; read as index corners they show blank paper, and a corner is
never read mirrored.

``card_quad`` lays a card of a given size out from such a corner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.find_geometry import FloatArray
from scanner.find_split import corners_of
from scanner.find_work import Work
from scanner.params import CoveredParams, FindParams
from scanner.types import Image

__all__ = ["CornerProposal", "card_quad", "corner_proposals"]


@dataclass(frozen=True)
class CornerProposal:
    """A possible index corner of a card, in work pixels.

    ``across`` (unit) runs along the card's short side and ``down`` (unit) along its
    long side, in a right-handed frame (``across`` x ``down`` > 0 in image axes);
    ``length_across`` and ``length_down`` are how far the outline follows each.
    """

    point: FloatArray
    across: FloatArray
    down: FloatArray
    length_across: float
    length_down: float


def _cross(a: FloatArray, b: FloatArray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def card_quad(proposal: CornerProposal, short: float, aspect: float) -> FloatArray:
    """The card of short side ``short`` (and long side ``short * aspect``) whose top-left
    corner is ``proposal``: TL, TR, BR, BL of the upright card, a (4, 2) array."""
    across = proposal.across * short
    down = proposal.down * short * aspect
    p = proposal.point
    return np.array([p, p + across, p + across + down, p + down], dtype=np.float64)


def corner_proposals(
    work: Work, find: FindParams, covered: CoveredParams, where: Image | None = None
) -> list[CornerProposal]:
    """The right-handed corners of the outlines of the visible parts of cards (``work.split``)
    and of pairs of straight card edges, near duplicates removed.

    Outlines smaller than ``find.min_part_area`` of the smallest card give none.  With
    ``where`` (a 0/255 mask at work scale) only outlines reaching into it and edges inside
    it are looked at.
    """
    area = float(work.grey.shape[0] * work.grey.shape[1])
    least = find.min_part_area * find.min_card_area * area
    out: list[CornerProposal] = []
    contours, _ = cv2.findContours(work.split, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    for contour in contours:
        if cv2.contourArea(contour) < least:
            continue
        if where is not None:
            pts = contour.reshape(-1, 2)
            if not where[pts[:, 1], pts[:, 0]].any():
                continue
        for c in corners_of(contour, find):
            if _cross(c.arm1, c.arm2) > 0:
                proposal = _squared(c.point, c.arm1, c.arm2, c.length1, c.length2)
            else:
                proposal = _squared(c.point, c.arm2, c.arm1, c.length2, c.length1)
            if not _seen(proposal, out, covered):
                out.append(proposal)
    for proposal in _segment_corners(work, covered, where):
        if not _seen(proposal, out, covered):
            out.append(proposal)
    return out


def _segment_corners(work: Work, p: CoveredParams, where: Image | None) -> list[CornerProposal]:
    """Corners where two straight edges of the card pixels (``work.edges``, inside ``where`` if
    given) meet at a near right angle, each ending there: a card's corner seen as the end of
    its two sides even where it lies on another card (no corner of an outline there, only the
    thin edges of its sides)."""
    edges = cv2.bitwise_and(work.edges, cv2.dilate(work.union, np.ones((3, 3), np.uint8)))
    if where is not None:
        edges = cv2.bitwise_and(edges, where)
    lines = cv2.HoughLinesP(
        edges, 1.0, math.pi / 180.0, p.line_votes, minLineLength=p.line_length, maxLineGap=p.line_gap
    )
    if lines is None or len(lines) < 2:
        return []
    seg = lines.reshape(-1, 4).astype(np.float64)
    a, b = seg[:, :2], seg[:, 2:]
    length = np.hypot(*(b - a).T)
    d = (b - a) / np.maximum(length, 1e-9)[:, None]
    # every pair of near-perpendicular segments: where their lines cross
    i, j = np.triu_indices(len(seg), 1)
    perpendicular = np.abs((d[i] * d[j]).sum(axis=1)) <= math.sin(math.radians(p.line_angle))
    i, j = i[perpendicular], j[perpendicular]
    if len(i) == 0:
        return []
    det = d[i, 0] * d[j, 1] - d[i, 1] * d[j, 0]
    diff = a[j] - a[i]
    t = (diff[:, 0] * d[j, 1] - diff[:, 1] * d[j, 0]) / det
    cross = a[i] + d[i] * t[:, None]
    # the crossing lies at (or just past) an end of both segments, each running away from it
    arms = []
    ok = np.ones(len(i), bool)
    for s in (i, j):
        to_a = np.hypot(*(a[s] - cross).T)
        to_b = np.hypot(*(b[s] - cross).T)
        ok &= (np.minimum(to_a, to_b) <= p.line_join) & (np.maximum(to_a, to_b) >= length[s])
        arms.append((np.where((to_a < to_b)[:, None], d[s], -d[s]), np.maximum(to_a, to_b)))
    out: list[CornerProposal] = []
    (u, lu), (w, lw) = arms
    for k in np.flatnonzero(ok):
        if _cross(u[k], w[k]) > 0:
            out.append(_squared(cross[k], u[k], w[k], float(lu[k]), float(lw[k])))
        else:
            out.append(_squared(cross[k], w[k], u[k], float(lw[k]), float(lu[k])))
    return out


def _squared(point: FloatArray, across: FloatArray, down: FloatArray, la: float, ld: float) -> CornerProposal:
    """The corner squared on its longer arm (the surer direction), right-handed."""
    if la >= ld:
        down = np.array([-across[1], across[0]])
    else:
        across = np.array([down[1], -down[0]])
    return CornerProposal(point, across, down, la, ld)


def _seen(proposal: CornerProposal, others: list[CornerProposal], p: CoveredParams) -> bool:
    """Whether one of ``others`` is the same corner: a near point and a near direction."""
    if not others:
        return False
    points = np.array([o.point for o in others])
    across = np.array([o.across for o in others])
    near = np.hypot(*(points - proposal.point).T) <= p.duplicate_point
    aligned = across @ proposal.across >= math.cos(math.radians(p.duplicate_angle))
    return bool((near & aligned).any())
