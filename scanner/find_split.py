"""Split touching and overlapping cards (piles, fans, hands) into single cards.

Every card that shows at least one corner can be rebuilt from it: a card corner
is a near-right-angle convex corner of an outline (of a cluster of touching
cards, or of the visible part of one card where a fine edge separates it from
the card over it), its two arms run along the card's sides, and the card's size
is known (calibration) or estimated (from the lone cards of the frame, else
from the longest side seen).  Each corner gives a card-size parallelogram both
ways round; a hypothesis is scored by how much of it lies on card pixels and
how much of its outline shows as an edge.  Hypotheses are then chosen greedily,
best first, while each explains card pixels no chosen card explains, at most
one per corner and never twice the same card.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.find_geometry import (
    Arr,
    FloatArray,
    fit_line,
    intersect,
    side_lengths,
)
from scanner.find_work import Work
from scanner.params import FindParams

_GRID_S = np.linspace(0.06, 0.94, 8)
_GRID_T = np.linspace(0.04, 0.96, 11)
_SIDE_T = np.linspace(0.04, 0.96, 24)


@dataclass(frozen=True)
class Corner:
    """A card corner candidate: its point and the unit directions and visible lengths of its arms."""

    point: FloatArray
    arm1: FloatArray
    arm2: FloatArray
    length1: float
    length2: float
    full1: bool = False
    """Whether arm 1 ends at another card corner, so that its length is a whole side."""
    full2: bool = False


@dataclass(frozen=True)
class Hypothesis:
    """A card rebuilt from a corner, with its evidence."""

    quad: FloatArray
    corner: int
    on_card: float
    support: float

    @property
    def score(self) -> float:
        """Higher is better: outline evidence weighted by lying on card pixels."""
        return self.on_card * self.support


@dataclass(frozen=True)
class SizeGuess:
    """Where the finder rebuilt cards from corners at a card size it guessed (the longest side
    seen): no lone card, known size nor whole outline told it the size."""

    corners: tuple[Corner, ...]
    """The card corners of the clusters of card pixels no lone card explains."""
    cards: Arr
    """Card pixels (a 0/255 mask at work scale, holes that hold print filled)."""
    short: float
    """The card short side guessed (work pixels)."""


def corners_of(contour: Arr, p: FindParams) -> list[Corner]:
    """The near-right-angle convex corners of an outline, with arms fitted to its points."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    n = len(pts)
    if n < 12:
        return []
    poly = cv2.approxPolyDP(contour, p.corner_epsilon, True).reshape(-1, 2)
    if len(poly) < 3:
        return []
    idx = vertex_places(contour, poly)
    orientation = 1.0 if cv2.contourArea(contour, oriented=True) > 0 else -1.0
    m = len(idx)
    good = [_is_corner_vertex(pts, idx, k, orientation, p) for k in range(m)]
    out: list[Corner] = []
    for k in range(m):
        if not good[k]:
            continue
        i_prev, i, i_next = idx[k - 1], idx[k], idx[(k + 1) % m]
        v = pts[i]
        u = pts[i_prev] - v
        w = pts[i_next] - v
        lu, lw = float(np.linalg.norm(u)), float(np.linalg.norm(w))
        line_u = _arm_line(pts, i, i_prev, n)
        line_w = _arm_line(pts, i, i_next, n)
        if line_u is None or line_w is None:
            continue
        apex = intersect(line_u, line_w)
        if apex is None or np.linalg.norm(apex - v) > 0.25 * min(lu, lw) + 3.0:
            continue
        du = line_u[1] if line_u[1] @ u > 0 else -line_u[1]
        dw = line_w[1] if line_w[1] @ w > 0 else -line_w[1]
        l1 = float(np.linalg.norm(pts[i_prev] - apex))
        l2 = float(np.linalg.norm(pts[i_next] - apex))
        out.append(Corner(apex, du, dw, l1, l2, full1=good[k - 1], full2=good[(k + 1) % m]))
        if p.square_corners:
            # The longer arm's direction is the surer one: square the corner on it.
            if l1 >= l2:
                out.append(Corner(apex, du, _perpendicular(du, dw), l1, l2, full1=good[k - 1]))
            else:
                out.append(Corner(apex, _perpendicular(dw, du), dw, l1, l2, full2=good[(k + 1) % m]))
    return out


def vertex_places(contour: Arr, poly: Arr) -> list[int]:
    """Where each vertex of ``poly`` (points of ``contour``, as ``cv2.approxPolyDP`` gives them)
    first lies on ``contour``: indices into its points."""
    flat = contour.reshape(-1, 2).astype(np.int64)
    keys = flat[:, 0] * 65536 + flat[:, 1]
    order = np.argsort(keys, kind="stable")
    wanted = poly.reshape(-1, 2).astype(np.int64)
    found = np.searchsorted(keys[order], wanted[:, 0] * 65536 + wanted[:, 1])
    return [int(k) for k in order[found]]


def _perpendicular(d: FloatArray, towards: FloatArray) -> FloatArray:
    """The unit vector at right angles to ``d`` on the side of ``towards``."""
    n = np.array([-d[1], d[0]])
    return n if n @ towards >= 0 else -n


def _is_corner_vertex(pts: FloatArray, idx: list[int], k: int, orientation: float, p: FindParams) -> bool:
    """Whether polygon vertex ``k`` is convex, near a right angle, with arms long enough."""
    m = len(idx)
    v = pts[idx[k]]
    u = pts[idx[k - 1]] - v
    w = pts[idx[(k + 1) % m]] - v
    lu, lw = float(np.linalg.norm(u)), float(np.linalg.norm(w))
    if lu < p.min_arm or lw < p.min_arm:
        return False
    if (u[0] * w[1] - u[1] * w[0]) * orientation > 0:
        return False  # reflex vertex: where one card's side meets another's
    angle = math.degrees(math.acos(max(-1.0, min(1.0, float(u @ w) / (lu * lw)))))
    return p.min_corner_angle <= angle <= p.max_corner_angle


def _arm_line(pts: FloatArray, start: int, end: int, n: int) -> tuple[FloatArray, FloatArray] | None:
    """A line fitted to the outline points from index ``start`` to ``end`` (either way round
    the closed outline, the shorter way), leaving out the rounded ends."""
    forward = (end - start) % n
    backward = (start - end) % n
    if forward <= backward:
        span = [(start + j) % n for j in range(forward + 1)]
    else:
        span = [(start - j) % n for j in range(backward + 1)]
    trim = max(1, len(span) // 6)
    chosen = pts[span[trim:-trim]] if len(span) > 2 * trim + 2 else pts[span]
    if len(chosen) < 3:
        return None
    return fit_line(chosen)


def _parallelograms(corners: list[Corner], sizes: FloatArray, p: FindParams) -> tuple[FloatArray, Arr]:
    """Card parallelograms on each corner, both ways round, for sizes (all corners, or per corner
    as a corners x sizes array); (H, 4, 2) quads and the index of the corner of each."""
    if sizes.ndim == 1:
        sizes = np.broadcast_to(sizes, (len(corners), len(sizes)))
    point = np.array([c.point for c in corners])
    arm1 = np.array([c.arm1 for c in corners])
    arm2 = np.array([c.arm2 for c in corners])
    length1 = np.array([c.length1 for c in corners])[:, None, None]
    length2 = np.array([c.length2 for c in corners])[:, None, None]
    full1 = np.array([c.full1 for c in corners])[:, None, None]
    full2 = np.array([c.full2 for c in corners])[:, None, None]
    long = sizes * p.card_aspect
    # (corner, size, way round): arm 1 along the long side, then along the short side
    a = np.stack([long, sizes], axis=2)
    b = np.stack([sizes, long], axis=2)
    slack = 1.0 + p.arm_slack
    fits = (length1 <= a * slack) & (length2 <= b * slack)
    a = np.where(full1 & (np.abs(length1 / a - 1.0) < p.arm_slack), length1, a)
    b = np.where(full2 & (np.abs(length2 / b - 1.0) < p.arm_slack), length2, b)
    ratio = np.maximum(a, b) / np.minimum(a, b)
    fits &= np.abs(ratio - p.card_aspect) <= p.aspect_tolerance * p.card_aspect
    ci, si, wi = np.nonzero(fits)
    along1 = arm1[ci] * a[ci, si, wi][:, None]
    along2 = arm2[ci] * b[ci, si, wi][:, None]
    origin = point[ci]
    stack = np.stack([origin, origin + along1, origin + along1 + along2, origin + along2], axis=1)
    return stack, ci


def parallelograms(corners: list[Corner], sizes: FloatArray, p: FindParams) -> FloatArray:
    """Card parallelograms on each corner, both ways round, for each of ``sizes`` (card short
    sides, work pixels) that its arms fit: a (H, 4, 2) stack."""
    if not corners:
        return np.zeros((0, 4, 2), np.float64)
    return _parallelograms(corners, np.asarray(sizes, np.float64), p)[0]


def hypotheses(
    corners: list[Corner],
    shorts: list[float] | FloatArray,
    work: Work,
    cards: Arr,
    p: FindParams,
    min_support: float = 0.0,
) -> list[Hypothesis]:
    """Card parallelograms on each corner, both ways round, of each candidate size, scored on ``work``
    and on ``cards`` (card pixels, a 0/255 mask at work scale).

    ``shorts`` are the card short sides tried on every corner, or a (corners x sizes)
    array of sizes per corner.  An arm that is a whole side (it ends at a card
    corner) close to the size taken for it keeps its own length, which follows
    perspective.  Only hypotheses whose outline shows along at least
    ``min_support`` of it are returned.
    """
    if not corners:
        return []
    stack, owners = _parallelograms(corners, np.asarray(shorts, np.float64), p)
    support = _outline_fraction(stack, work.edges)
    keep = support >= min_support
    stack, owners, support = stack[keep], owners[keep], support[keep]
    if len(stack) == 0:
        return []
    on_card = _inside_fraction(stack, cards)
    return [
        Hypothesis(q, int(owner), float(oc), float(su))
        for q, owner, oc, su in zip(stack, owners, on_card, support, strict=True)
    ]


def _grid(stack: FloatArray) -> FloatArray:
    """Interior sample points of each parallelogram, (H, S*T, 2)."""
    origin = stack[:, 0, :]
    e1 = stack[:, 1, :] - origin
    e2 = stack[:, 3, :] - origin
    grid_s, grid_t = np.meshgrid(_GRID_S, _GRID_T, indexing="ij")
    s, t = grid_s.ravel(), grid_t.ravel()
    return np.asarray(
        origin[:, None, :] + s[None, :, None] * e1[:, None, :] + t[None, :, None] * e2[:, None, :]
    )


def _outline(stack: FloatArray) -> FloatArray:
    """Sample points along the four sides of each quad, (H, 4*K, 2)."""
    a = stack
    b = np.roll(stack, -1, axis=1)
    t = _SIDE_T[None, None, :, None]
    pts = a[:, :, None, :] + (b - a)[:, :, None, :] * t
    return np.asarray(pts.reshape(stack.shape[0], 4 * _SIDE_T.size, 2))


def _lookup(image: Arr, pts: FloatArray) -> tuple[Arr, Arr]:
    """Values of ``image`` at the points (nearest pixel) and which points lie inside it."""
    h, w = image.shape[:2]
    xs = np.round(pts[..., 0]).astype(np.intp)
    ys = np.round(pts[..., 1]).astype(np.intp)
    inside = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    values = image[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]
    return values, inside


def _inside_fraction(stack: FloatArray, mask: Arr) -> FloatArray:
    values, inside = _lookup(mask, _grid(stack))
    count = np.maximum(inside.sum(axis=1), 1)
    return np.asarray(((values > 0) & inside).sum(axis=1) / count, dtype=np.float64)


def _outline_fraction(stack: FloatArray, edges: Arr) -> FloatArray:
    values, inside = _lookup(edges, _outline(stack))
    count = np.maximum(inside.sum(axis=1), 1)
    return np.asarray(((values > 0) & inside).sum(axis=1) / count, dtype=np.float64)


def choose(
    chosen: list[FloatArray], candidates: list[Hypothesis], cards: Arr, p: FindParams
) -> list[FloatArray]:
    """Add to ``chosen`` (already accepted cards) the hypotheses that explain new card pixels
    (of ``cards``, a 0/255 mask at work scale).

    Returns the cards added.
    """
    covered: Arr = np.zeros(cards.shape[:2], np.uint8)
    for quad in chosen:
        cv2.fillConvexPoly(covered, np.round(quad).astype(np.int32), 255)
    good = [h for h in candidates if h.on_card >= p.min_inside and h.support >= p.min_support]
    if not good:
        return []
    good.sort(key=lambda h: -h.score)
    quads = np.stack([h.quad for h in good])
    shorts = np.minimum(np.hypot(*(quads[:, 1] - quads[:, 0]).T), np.hypot(*(quads[:, 3] - quads[:, 0]).T))
    grid = _grid(quads)
    on_cards, inside = _lookup(cards, grid)
    on_cards = (on_cards > 0) & inside
    inside_count = np.maximum(inside.sum(axis=1), 1)
    xs = np.clip(np.round(grid[..., 0]).astype(np.intp), 0, covered.shape[1] - 1)
    ys = np.clip(np.round(grid[..., 1]).astype(np.intp), 0, covered.shape[0] - 1)
    kept = np.stack(chosen) if chosen else np.zeros((0, 4, 2))
    used_corners: set[int] = set()
    added: list[FloatArray] = []
    for k, hyp in enumerate(good):
        if hyp.corner in used_corners:
            continue
        if len(kept) and bool((_distances(hyp.quad, kept) < p.duplicate_distance * shorts[k]).any()):
            continue
        new = float((on_cards[k] & (covered[ys[k], xs[k]] == 0)).sum()) / float(inside_count[k])
        if new < p.min_new_area:
            continue
        chosen.append(hyp.quad)
        added.append(hyp.quad)
        kept = np.concatenate([kept, hyp.quad[None]])
        used_corners.add(hyp.corner)
        cv2.fillConvexPoly(covered, np.round(hyp.quad).astype(np.int32), 255)
    return added


def _distances(quad: FloatArray, others: FloatArray) -> FloatArray:
    """``quad_distance`` from ``quad`` to each of ``others`` (N, 4, 2): the mean distance from
    each corner of ``quad`` to the nearest corner of the other quad."""
    d = quad[None, :, None, :] - others[:, None, :, :]
    return np.asarray(np.sqrt((d * d).sum(axis=3)).min(axis=2).mean(axis=1), dtype=np.float64)


def candidate_sizes(
    lone: list[FloatArray], corners: list[Corner], min_short: float, p: FindParams
) -> list[float]:
    """Candidate card short sides in work pixels, most likely first.

    The median lone card when there is one; then the sizes that the most whole
    sides seen (arms running from a card corner to a card corner) agree with,
    each side taken as a short or a long side; then the longest arm seen taken
    as a long side.  Sides shorter than ``min_short`` (the short side of the
    smallest card) are ignored.
    """
    tol = p.size_tolerance
    out: list[float] = []

    def add(short: float) -> None:
        if short >= min_short * (1.0 - tol) and all(abs(short / o - 1.0) >= tol for o in out):
            out.append(short)

    if lone:
        median = float(np.median([side_lengths(q)[0] for q in lone]))
        add(median)
        for step in p.size_steps:
            out.append(median * (1.0 + step))  # perspective: nearer cards look larger
    sides = np.array(
        [c.length1 for c in corners if c.full1] + [c.length2 for c in corners if c.full2], np.float64
    )
    shorts = np.concatenate([sides, sides / p.card_aspect])
    if len(shorts):
        as_short = np.abs(sides[None, :] / shorts[:, None] - 1.0) < tol
        as_long = np.abs(sides[None, :] / (shorts[:, None] * p.card_aspect) - 1.0) < tol
        votes = as_short.sum(axis=1) + as_long.sum(axis=1)
        for best in np.lexsort((shorts, votes))[::-1][: 2 * len(shorts)]:
            if len(out) >= p.max_sizes:
                break
            agree = np.concatenate([sides[as_short[best]], sides[as_long[best]] / p.card_aspect])
            add(float(np.median(agree)))
    if corners and len(out) < p.max_sizes + 1:
        add(max(max(c.length1, c.length2) for c in corners) / p.card_aspect)
    return out


def whole_card_size(
    corners: list[Corner], min_short: float, max_short: float, work: Work, cards: Arr, p: FindParams
) -> float | None:
    """The short side of the card that shows its whole outline best, or ``None``.

    Card sizes from ``min_short`` to ``max_short`` in steps of ``size_ladder_step`` are
    tried on every corner; the card on top of a pile shows all four sides as edges,
    a card placed at the wrong size does not.  Of the hypotheses lying on card pixels
    (``whole_inside``) whose outline shows along at least ``whole_support`` of it and
    whose size is at least ``whole_largest`` of the largest such, the best gives the size.
    """
    if not corners or min_short <= 0 or max_short < min_short:
        return None
    count = int(math.log(max_short / min_short) / math.log(1.0 + p.size_ladder_step)) + 1
    ladder = [min_short * (1.0 + p.size_ladder_step) ** k for k in range(count)]
    whole = [
        h for h in hypotheses(corners, ladder, work, cards, p, p.whole_support) if h.on_card >= p.whole_inside
    ]
    if not whole:
        return None
    # A frame printed on a face is a smaller card-shaped outline inside the card: only the
    # hypotheses near the largest size compete, the best of them gives the size.
    sizes = [
        min(float(np.hypot(*(h.quad[1] - h.quad[0]))), float(np.hypot(*(h.quad[3] - h.quad[0]))))
        for h in whole
    ]
    largest = max(sizes)
    return max((h.score, s) for h, s in zip(whole, sizes, strict=True) if s >= largest * p.whole_largest)[1]


def outline_shown(quads: FloatArray, edges: Arr) -> FloatArray:
    """For each quad of a (H, 4, 2) stack: the fraction of its outline's sample points that lie on
    ``edges`` (a 0/255 mask at work scale); points off the image count as not shown."""
    return _outline_fraction(quads, edges)


def on_cards(quads: FloatArray, cards: Arr) -> FloatArray:
    """For each quad of a (H, 4, 2) stack: the fraction of its interior samples (inside the image)
    that lie on card pixels (``cards``, a 0/255 mask at work scale)."""
    return _inside_fraction(quads, cards)
