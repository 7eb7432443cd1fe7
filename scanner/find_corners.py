"""Card corners that may carry a corner index: the proposals of covered-card reading.

A covered card whose corner index shows also shows that corner of the card: two
of its sides meeting at a near right angle, on the outline of the visible part
of the card (where a fine edge cuts it from the card over it;
``scanner.find_split.corners_of`` finds such corners with their two arms) or as
two straight edges ending at one point where the corner lies on another card
(a thin shadow line on white; found by a probabilistic Hough transform of the
work image's edges).  The outline of a whole cluster of touching cards gives its
corners too (``CoveredParams.outline_corners``): a covered card's corner lying on
the table shows there even where no fine edge cuts the card from the one over it.
Where a fan or a hand row only steps by a few pixels, each card's index corner
ends a straight run of that outline: the ends of the runs may be proposed too
(``CoveredParams.min_run``), one arm along the run, the other at right angles into
the cards.  Proposals may be laid on the card edges along their arms to a fraction
of a pixel (``CoveredParams.refine_samples``), and are ordered longest arm first
(``CoveredParams.longest_first``): reads are bounded per frame.  Inside a hand row the
side of a card lying on the one before shows as a straight edge inside the cluster; where it
runs into the cluster's outline lies that card's index corner (``CoveredParams.junction_reach``):
such junctions come after all other proposals.  Where two cards of a row or a fan are named a
gap for one card apart, the card between them lies half way from one to the other
(``gap_corners``, ``CoveredParams.gap_reads``): its corner is proposed there.

A card's index lies at its top-left corner (and turned half round at its
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
from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from scanner.find_geometry import FloatArray, fit_line
from scanner.find_split import corners_of, vertex_places
from scanner.find_work import Work
from scanner.params import CoveredParams, FindParams
from scanner.types import Image

__all__ = [
    "CornerProposal",
    "GapCard",
    "between",
    "card_quad",
    "corner_proposals",
    "gap_corners",
    "laid_on_edges",
    "row_run",
]


@dataclass(frozen=True)
class CornerProposal:
    """A possible index corner of a card, in work pixels.

    ``across`` (unit) runs along the card's short side and ``down`` (unit) along its
    long side, in a right-handed frame (``across`` x ``down`` > 0 in image axes), at right
    angles unless laid on the edges of a card seen at a slant; ``length_across`` and
    ``length_down`` are how far the outline follows each (0: not known, the arm across a
    straight run of the outline).
    """

    point: FloatArray
    across: FloatArray
    down: FloatArray
    length_across: float
    length_down: float
    junction: bool = False
    """Found where an edge inside a cluster meets its outline (``CoveredParams.junction_reach``):
    a weaker sign of a corner, read only at a size chosen by others."""


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
    """The right-handed corners of the outlines of the visible parts of cards (``work.split``),
    of the clusters of touching cards (``work.union``) and of pairs of straight card edges,
    and the ends of the clusters' straight runs, near duplicates removed, as
    ``CoveredParams`` chooses (see the module docstring).

    Outlines smaller than ``find.min_part_area`` of the smallest card give none.  With
    ``where`` (a 0/255 mask at work scale) only outlines reaching into it and edges inside
    it are looked at.
    """
    area = float(work.grey.shape[0] * work.grey.shape[1])
    least = find.min_part_area * find.min_card_area * area
    parts, _ = cv2.findContours(work.split, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    parts = [c for c in parts if cv2.contourArea(c) >= least and _reaches(c, where)]
    outer: list[np.ndarray] = []
    if covered.outline_corners or covered.min_run > 0:
        clusters, _ = cv2.findContours(work.union, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        outer = [c for c in clusters if cv2.contourArea(c) >= least and _reaches(c, where)]
    found: list[CornerProposal] = []
    for contour in [*parts, *(outer if covered.outline_corners else [])]:
        for c in corners_of(contour, find):
            if _cross(c.arm1, c.arm2) > 0:
                found.append(_squared(c.point, c.arm1, c.arm2, c.length1, c.length2))
            else:
                found.append(_squared(c.point, c.arm2, c.arm1, c.length2, c.length1))
    found += _segment_corners(work, covered, where)
    if covered.min_run > 0:
        for contour in outer:
            found += _run_ends(contour, work.union, covered)
    out = _distinct(found, covered)
    if covered.refine_samples > 0:
        out = laid_on_edges(out, work.grey, covered)
    if covered.longest_first:
        out.sort(key=lambda q: -max(q.length_across, q.length_down))
    if covered.junction_reach > 0:
        # after all others: a junction is a weaker sign of a corner than an outline's corner
        junctions = _junction_corners(work, covered, where)
        if covered.junction_refine > 0 and junctions:
            profiled = replace(covered, refine_samples=covered.junction_refine)
            laid = laid_on_edges(junctions, work.grey, profiled)
            junctions = [replace(q, junction=True) for q in laid]
        out = _distinct([*out, *junctions], covered, keep=len(out), angle=covered.junction_duplicate_angle)
    return out


def _edge_places(
    grey: npt.NDArray[np.float32],
    point: FloatArray,
    arm: FloatArray,
    side: FloatArray,
    length: FloatArray,
    p: CoveredParams,
) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """Where the card edge along each arm lies: for corners ``point`` (n, 2) with unit ``arm`` and
    ``side`` (towards the card) and arm lengths ``length``, lightness profiles along ``side`` at
    ``refine_samples`` places along the arm, ``refine_radius`` work pixels each way, give the
    steepest rise towards the card to a fraction of a pixel.  Returns the places along the arm
    (n, k), the edge's offset along ``side`` there (n, k) and whether the rise reaches
    ``refine_edge`` (n, k)."""
    n, k = len(point), p.refine_samples
    t = (0.15 + 0.7 * (np.arange(k) + 0.5) / k)[None, :] * length[:, None]
    step = 0.5
    offsets = np.arange(-p.refine_radius, p.refine_radius + step / 2, step)
    pts = (
        point[:, None, None, :]
        + t[:, :, None, None] * arm[:, None, None, :]
        + offsets[None, None, :, None] * side[:, None, None, :]
    ).astype(np.float32)
    profile = cv2.remap(
        grey,
        pts[..., 0].reshape(n * k, -1),
        pts[..., 1].reshape(n * k, -1),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    profile = np.asarray(profile, np.float64).reshape(n, k, -1)
    rise = profile[:, :, 2:] - profile[:, :, :-2]  # centred on offsets[1:-1]
    best = np.argmax(rise, axis=2)
    last = rise.shape[2] - 1
    b = np.clip(best, 1, last - 1)[..., None]
    left = np.take_along_axis(rise, b - 1, axis=2)[..., 0]
    centre = np.take_along_axis(rise, b, axis=2)[..., 0]
    right = np.take_along_axis(rise, b + 1, axis=2)[..., 0]
    curve = left - 2.0 * centre + right
    inner = (best > 0) & (best < last) & (curve < 0)
    sub = np.where(inner, 0.5 * (left - right) / np.where(inner, curve, -1.0), 0.0)
    place = offsets[1:-1][best] + sub * step
    ok = inner & (np.take_along_axis(rise, best[..., None], axis=2)[..., 0] >= p.refine_edge)
    return t, place, ok & (length[:, None] > 0)


def laid_on_edges(
    proposals: list[CornerProposal],
    grey: Image | npt.NDArray[np.float32],
    p: CoveredParams,
    reach: float = 1.0,
) -> list[CornerProposal]:
    """The proposals laid on the card edges along their arms (``_edge_places``; ``p.refine_samples``
    profiles an arm, over ``reach`` of its length from the corner: a side turned a few degrees from
    its arm leaves the profiles' reach far from the corner), in their order.  ``grey`` is the work
    image's lightness, as uint8 or already as float32.

    The longer arm's edge places, fitted by a line, give its direction and the corner's offset
    across it; the other arm's (``refine_length`` work pixels of it where its length is not
    known) give the corner's offset along the first.  An arm whose edge shows at fewer than
    half the places, or a turn of more than ``refine_angle`` degrees, leaves that part as it was.
    """
    if not proposals:
        return proposals
    grey32 = np.asarray(grey, np.float32)  # no copy when the caller converted it already
    point = np.array([q.point for q in proposals])
    first_across = np.array([q.length_across >= q.length_down for q in proposals])
    across = np.array([q.across for q in proposals])
    down = np.array([q.down for q in proposals])
    arm = np.where(first_across[:, None], across, down)
    side = np.where(first_across[:, None], down, across)
    length = reach * np.array([max(q.length_across, q.length_down) for q in proposals])
    other = reach * np.array([min(q.length_across, q.length_down) for q in proposals])
    other = np.where(other > 0, other, p.refine_length)
    t, place, ok = _edge_places(grey32, point, arm, side, length, p)
    slope, offset, good = _edge_lines(t, place, ok, p)
    slope, offset = np.where(good, slope, 0.0), np.where(good, offset, 0.0)
    arm = arm + slope[:, None] * side
    arm /= np.linalg.norm(arm, axis=1)[:, None]
    turned = np.stack([-arm[:, 1], arm[:, 0]], axis=1)
    side = np.where(((turned * side).sum(axis=1) > 0)[:, None], turned, -turned)
    point = point + offset[:, None] * side
    # the other arm's edge: the corner's place along the first arm and, where that arm is long
    # enough to show it, its own direction (a card seen at a slant has no right-angled corners)
    t, place, ok = _edge_places(grey32, point, side, arm, other, p)
    slope, offset, good = _edge_lines(t, place, ok, p)
    point = point + np.where(good, offset, 0.0)[:, None] * arm
    slant = good & (other >= p.refine_slant_length)
    side = side + np.where(slant, slope, 0.0)[:, None] * arm
    side /= np.linalg.norm(side, axis=1)[:, None]
    out: list[CornerProposal] = []
    for i, q in enumerate(proposals):
        a, d = (arm[i], side[i]) if first_across[i] else (side[i], arm[i])
        out.append(CornerProposal(point[i], a, d, q.length_across, q.length_down))
    return out


def _line_fit(t: FloatArray, place: FloatArray, use: np.ndarray) -> tuple[FloatArray, FloatArray]:
    """Per row, the least-squares line ``place = offset + slope * t`` through the ``use``d points."""
    w = use.astype(np.float64)
    sw, st, sp = w.sum(axis=1), (w * t).sum(axis=1), (w * place).sum(axis=1)
    stt, stp = (w * t * t).sum(axis=1), (w * t * place).sum(axis=1)
    det = sw * stt - st * st
    ok = det > 1e-9
    slope = np.where(ok, (sw * stp - st * sp) / np.where(ok, det, 1.0), 0.0)
    offset = np.where(sw > 0, (sp - slope * st) / np.maximum(sw, 1e-9), 0.0)
    return slope, offset


def _edge_lines(
    t: FloatArray, place: FloatArray, ok: np.ndarray, p: CoveredParams
) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """Per row of edge places (``_edge_places``), the line ``place = offset + slope * t`` through
    those that showed (robust: points far off the first line dropped once), and whether it
    holds: at least half the places showed and it turns at most ``refine_angle`` degrees and
    moves at most ``refine_radius``."""
    count = ok.sum(axis=1)
    slope, offset = _line_fit(t, place, ok)
    residual = np.abs(place - (offset[:, None] + slope[:, None] * t))
    masked = np.where(ok, residual, np.inf)
    # the median of the places that showed (their count varies by row)
    ranked = np.sort(masked, axis=1)
    middle = np.take_along_axis(ranked, np.maximum(count - 1, 0)[:, None] // 2, axis=1)[:, 0]
    keep = ok & (residual <= np.maximum(1.0, 2.0 * middle)[:, None])
    again = (keep.sum(axis=1) >= 3) & (keep.sum(axis=1) < count)
    slope2, offset2 = _line_fit(t, place, keep)
    slope, offset = np.where(again, slope2, slope), np.where(again, offset2, offset)
    good = (
        (count >= max(3, p.refine_samples // 2))
        & (np.abs(slope) <= math.tan(math.radians(p.refine_angle)))
        & (np.abs(offset) <= p.refine_radius)
    )
    return slope, offset, good


def _reaches(contour: np.ndarray, where: Image | None) -> bool:
    """Whether an outline reaches into ``where`` (everywhere when it is ``None``)."""
    if where is None:
        return True
    pts = contour.reshape(-1, 2)
    return bool(where[pts[:, 1], pts[:, 0]].any())


def _run_ends(contour: np.ndarray, mask: Image, p: CoveredParams) -> list[CornerProposal]:
    """Corners at both ends of each straight run of an outline: one arm along the run, the other
    at right angles into the card pixels (``mask``)."""
    poly = cv2.approxPolyDP(contour, p.run_epsilon, True).reshape(-1, 2)
    m = len(poly)
    if m < 3:
        return []
    flat = contour.reshape(-1, 2)
    n = len(flat)
    idx = vertex_places(contour, poly)
    pts = flat.astype(np.float64)
    h, w = mask.shape[:2]
    out: list[CornerProposal] = []
    for k in range(m):
        i, j = idx[k], idx[(k + 1) % m]
        length = float(np.hypot(*(pts[j] - pts[i])))
        if length < p.min_run:
            continue
        span = (i + np.arange((j - i) % n + 1)) % n
        trim = len(span) // 6
        chosen = pts[span[trim : len(span) - trim]] if len(span) > 2 * trim + 2 else pts[span]
        if len(chosen) < 3:
            continue
        centre, d = fit_line(chosen)
        if d @ (pts[j] - pts[i]) < 0:
            d = -d
        normal = np.array([-d[1], d[0]])
        probe = centre + 3.0 * normal
        px, py = round(float(probe[0])), round(float(probe[1]))
        if not (0 <= px < w and 0 <= py < h and mask[py, px] > 0):
            normal = -normal
        start = centre + ((pts[i] - centre) @ d) * d
        end = centre + ((pts[j] - centre) @ d) * d
        for point, arm in ((start, d), (end, -d)):
            if _cross(arm, normal) > 0:
                out.append(CornerProposal(point, arm, normal, length, 0.0))
            else:
                out.append(CornerProposal(point, normal, arm, 0.0, length))
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


def _junction_corners(work: Work, p: CoveredParams, where: Image | None) -> list[CornerProposal]:
    """Corners where a straight edge inside a cluster of touching cards (``work.edges`` off the
    cluster's outline) runs into that outline within ``junction_reach`` work pixels: in a hand
    row or a fan, a card lying on the one before it shows its side as such an edge, and its
    index corner lies where that side meets the row's outline (no corner of the outline there,
    only a small step or none).  Each junction is proposed twice, the edge taken for the card's
    long side and for its short side, both squared on the edge."""
    union = np.zeros_like(work.union)
    cv2.drawContours(union, list(work.union_outlines), -1, 255, cv2.FILLED)  # print is no way out
    inner = cv2.erode(union, np.ones((5, 5), np.uint8))
    edges = cv2.bitwise_and(work.edges, inner)
    if where is not None:
        edges = cv2.bitwise_and(edges, where)
    lines = cv2.HoughLinesP(
        edges,
        1.0,
        math.pi / 180.0,
        p.line_votes,
        minLineLength=p.junction_length,
        maxLineGap=p.line_gap,
    )
    if lines is None:
        return []
    seg = lines.reshape(-1, 4).astype(np.float64)
    h, w = union.shape[:2]
    steps = np.arange(1.0, p.junction_reach + 0.5)
    out: list[CornerProposal] = []
    for end, other in ((seg[:, :2], seg[:, 2:]), (seg[:, 2:], seg[:, :2])):
        length = np.hypot(*(end - other).T)
        outward = (end - other) / np.maximum(length, 1e-9)[:, None]
        pts = end[:, None, :] + steps[None, :, None] * outward[:, None, :]
        xs, ys = np.round(pts[..., 0]).astype(np.intp), np.round(pts[..., 1]).astype(np.intp)
        inside_frame = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
        off = ~inside_frame | (union[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)] == 0)
        first = np.argmax(off, axis=1)
        hit = off.any(axis=1) & inside_frame[np.arange(len(seg)), first]
        for k in np.flatnonzero(hit):
            point = end[k] + (steps[first[k]] - 0.5) * outward[k]
            down = -outward[k]
            along = float(length[k])
            out.append(CornerProposal(point, np.array([down[1], -down[0]]), down, 0.0, along, junction=True))
            out.append(CornerProposal(point, down, np.array([-down[1], down[0]]), along, 0.0, junction=True))
    out.sort(key=lambda q: -max(q.length_across, q.length_down))
    return out


def _squared(point: FloatArray, across: FloatArray, down: FloatArray, la: float, ld: float) -> CornerProposal:
    """The corner squared on its longer arm (the surer direction), right-handed."""
    if la >= ld:
        down = np.array([-across[1], across[0]])
    else:
        across = np.array([down[1], -down[0]])
    return CornerProposal(point, across, down, la, ld)


def _distinct(
    proposals: list[CornerProposal], p: CoveredParams, keep: int = 0, angle: float | None = None
) -> list[CornerProposal]:
    """``proposals`` in order without those that repeat an earlier one: a point within
    ``duplicate_point`` and an ``across`` within ``angle`` degrees (``duplicate_angle`` if not
    given; the first ``keep`` are all kept)."""
    if len(proposals) < 2:
        return proposals
    points = np.array([q.point for q in proposals])
    across = np.array([q.across for q in proposals])
    gap = np.hypot(points[:, None, 0] - points[None, :, 0], points[:, None, 1] - points[None, :, 1])
    turn = p.duplicate_angle if angle is None else angle
    same = (gap <= p.duplicate_point) & (across @ across.T >= math.cos(math.radians(turn)))
    kept = np.zeros(len(proposals), bool)
    for i in range(len(proposals)):
        kept[i] = i < keep or not bool((same[i] & kept).any())
    return [q for q, k in zip(proposals, kept, strict=True) if k]


def _across(quad: FloatArray) -> FloatArray:
    """The sum of the two short sides of ``quad`` (TL TR BR BL), each from left to right: twice
    the card's mean short side, along it."""
    return np.asarray((quad[1] - quad[0]) + (quad[2] - quad[3]), np.float64)


def _direction(quad: FloatArray) -> float:
    """The direction (radians) of the short sides of ``quad`` (TL TR BR BL), from TL to TR."""
    d = _across(quad)
    return math.atan2(float(d[1]), float(d[0]))


def _rotation(angle: float) -> FloatArray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


def between(a: FloatArray, b: FloatArray, fraction: float) -> FloatArray:
    """The card ``fraction`` of the way from the card ``a`` to the card ``b`` (both TL TR BR BL,
    the same corner first): the rigid motion taking ``a`` onto ``b`` (the turn between their
    sides, then the shift of their centres) taken ``fraction`` of the way about the point it
    leaves in place (a fan's pivot; a row's plain shift when the turn is nil), its size
    ``fraction`` of the way from ``a``'s to ``b``'s."""
    turn = (_direction(b) - _direction(a) + math.pi) % (2.0 * math.pi) - math.pi
    rotate = _rotation(turn)
    centre_a, centre_b = a.mean(axis=0), b.mean(axis=0)
    shift = centre_b - rotate @ centre_a
    half = math.sin(turn / 2.0)
    # the part of the shift a part of the turn about the fixed point needs (the fraction itself
    # when the turn is nil)
    k = fraction if abs(half) < 1e-9 else math.sin(fraction * turn / 2.0) / half
    moved = a @ _rotation(fraction * turn).T + k * (_rotation((fraction - 1.0) * turn / 2.0) @ shift)
    size_a, size_b = float(np.hypot(*(a[1] - a[0]))), float(np.hypot(*(b[1] - b[0])))
    grow = (1.0 - fraction) + fraction * size_b / max(size_a, 1e-9)
    corner = moved[0]
    return np.asarray(corner + (moved - corner) * grow, np.float64)


def row_run(quad: FloatArray, cards: Image, reach: float, margin: float) -> bool:
    """Whether the outline of the card pixels ``cards`` runs on straight past the index corner of
    ``quad`` (work pixels, TL TR BR BL, the index corner first) along its short side, for
    ``reach`` of the short side: card pixels ``margin`` work pixels to the side of the card's
    body, none to the other (a hand row's cards lying one step along their short sides: the
    cards under the named one show a strip beyond its long side, their short sides in line with
    its own, their index corners on that line)."""
    across = quad[1] - quad[0]
    short = float(np.hypot(*across))
    if short <= 0.0:
        return False
    out, down = -_unit(across), _unit(quad[3] - quad[0])
    h, w = cards.shape[:2]
    for k in (1, 2, 3):
        point = quad[0] + out * (reach * short * k / 3.0)
        inside = np.round(point + margin * down).astype(int)
        outside = np.round(point - margin * down).astype(int)
        if not all(0 <= x < w and 0 <= y < h for x, y in (inside, outside)):
            return False
        if cards[inside[1], inside[0]] == 0 or cards[outside[1], outside[0]] != 0:
            return False
    return True


def _unit(v: FloatArray) -> FloatArray:
    return np.asarray(v / max(float(np.hypot(*v)), 1e-9), np.float64)


def gap_corners(cards: list[FloatArray], p: CoveredParams, whole: int = 0) -> list[GapCard]:
    """The index corners of cards missing between two named ``cards`` (work pixels, TL TR BR BL,
    an index corner first) of a row or a fan, with their short sides and whole cards (work pixels).

    Two cards pair when their sides run within ``gap_turn`` degrees of each other (either card
    turned half round), their short sides are within ``gap_size`` of each other and the gap
    between their index corners runs along their short sides (``gap_along``).  A pair
    ``gap_step_min`` to ``gap_step_max`` of the short side apart lies next to each other in the
    row: its gap is a step of the row.  A pair ``gap_min`` to ``gap_max`` apart leaves room for
    one card half way between them (``between``); after those, a pair with a step of either of
    its cards (their median) going into its gap ``k`` times (3 to ``gap_most``, within
    ``gap_fit``) leaves room for ``k - 1`` cards, laid out evenly between them.  Each card is
    proposed at both its index corners.  With ``gap_beyond``, every step proposes the cards one
    step past either of its cards, after all the gaps.  The first ``whole`` cards were named whole
    (their print shows at both ends, ``GapCard.shown``)."""
    along = math.cos(math.radians(p.gap_turn))
    pairs: list[tuple[int, int, FloatArray, FloatArray, float, tuple[bool, bool]]] = []
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            b = cards[j]
            across_a = _across(a)
            for b_turned, turned_b in ((False, b), (True, np.roll(b, -2, axis=0))):
                across_b = _across(turned_b)
                cos = float(across_a @ across_b) / max(float(np.hypot(*across_a) * np.hypot(*across_b)), 1e-9)
                if cos < along:
                    continue
                short_a = float(np.hypot(*across_a)) / 2.0
                short_b = float(np.hypot(*across_b)) / 2.0
                if max(short_a, short_b) > (1.0 + p.gap_size) * min(short_a, short_b):
                    continue
                short = (short_a + short_b) / 2.0
                for a_turned, first, second in (
                    (False, a, turned_b),
                    (True, np.roll(a, -2, axis=0), np.roll(turned_b, -2, axis=0)),
                ):
                    gap = second[0] - first[0]
                    length = float(np.hypot(*gap))
                    side = _unit(first[1] - first[0]) + _unit(second[1] - second[0])
                    if abs(float(gap @ side)) < p.gap_along * length * float(np.hypot(*side)):
                        continue
                    # a card named from a corner shows its print at the end it was named at
                    a_end, b_end = not a_turned, a_turned == b_turned
                    shown = (
                        (i < whole or a_end) and (j < whole or b_end),
                        (i < whole or not a_end) and (j < whole or not b_end),
                    )
                    pairs.append((i, j, first, second, length / short, shown))
    steps: dict[int, list[float]] = {}
    for i, j, _, _, apart, _ in pairs:
        if p.gap_step_min <= apart <= p.gap_step_max:
            steps.setdefault(i, []).append(apart)
            steps.setdefault(j, []).append(apart)
    out: list[GapCard] = []
    several: list[GapCard] = []
    beyond: list[GapCard] = []
    for i, j, first, second, apart, shown in pairs:
        known = steps.get(i, []) + steps.get(j, [])
        if p.gap_step_min <= apart <= p.gap_step_max:
            if p.gap_beyond:
                beyond += [_laid(between(first, second, f), shown) for f in (-1.0, 2.0)]
            continue
        if p.gap_min <= apart <= p.gap_max:
            out.append(_laid(between(first, second, 0.5), shown))
        if known:
            count = apart / float(np.median(known))
            room = round(count)
            if 3 <= room <= p.gap_most and abs(count - room) <= p.gap_fit:
                several += [_laid(between(first, second, k / room), shown) for k in range(1, room)]
    return out + several + beyond


class GapCard(NamedTuple):
    """A card ``gap_corners`` proposes between or beside two named cards: its index corner, its
    short side and the whole card laid out between theirs (work pixels, TL TR BR BL, the index
    corner first: the two cards' outline, perspective and all, moved and turned part of the way);
    ``shown``: whether the row's print shows at its index corner's end and at the other end: a
    card named from a corner shows at the end it was named at (its other index lies under the
    card beside it), a card named whole at both; a card between shows at an end where both do."""

    proposal: CornerProposal
    short: float
    quad: FloatArray
    shown: tuple[bool, bool]


def _laid(quad: FloatArray, shown: tuple[bool, bool]) -> GapCard:
    """The index corner (the first) of the card ``quad`` as a proposal, its short side and the card
    (``GapCard.shown``: ``shown``)."""
    across = (quad[1] - quad[0]) + (quad[2] - quad[3])
    short = float(np.hypot(*across)) / 2.0
    across = _unit(across)
    return GapCard(
        CornerProposal(quad[0], across, np.array([-across[1], across[0]]), 0.0, 0.0), short, quad, shown
    )
