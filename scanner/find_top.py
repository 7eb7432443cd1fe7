"""Which of the cards found lies on top: where two cards overlap, the upper one's outline shows.

Where card A lies over card B, A's sides run across B's face as an edge (a thin
shadow or at least a step in tone) while B's sides under A are hidden, so that
only A's face print (pips, lines at any angle) crosses where they run.  A side
"shows" at a sample point when the grey gradient there (within a pixel across
the side) is strong enough and points across the side.  Of two overlapping
cards, the one whose sides show clearly less inside the other is not on top.

Once the cards are named, more cues decide (``top_flags``): print shows only on
the upper card, so a card whose index was read inside another card's outline
lies over that card (unless each was read inside the other), and of two named
cards the one whose face print shows where they overlap lies over the other
(``scanner.find_top_print``); the sides, the weakest sign, never overrule a
chain of those (A over B over C: C does not lie over A), and an outline not
identified that is clearly smaller than the named cards (print, or a part of a
card outlined alone) lies over none of them.  A top card that was
not identified often has an outline that takes in the cards peeking out under
it, so its outline is fitted again to the strongest outline of a card's size
nearby (``refit_outline``) before it is read once more; where that names nothing,
the outline is fitted over the whole pile the card lies in (``refit_in_pile``):
of a pile only the card on top shows its whole outline, the others are cut by
the cards over them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.faces import INDEX_BOX
from scanner.find_geometry import Arr, FloatArray, side_angle, side_lengths, spaced
from scanner.find_work import Work
from scanner.params import FindParams

_ACROSS = np.array([-1.0, 0.0, 1.0])[:, None, None]
"""Offsets (pixels, along the outward normal) at which a side is sampled."""


def inside_by(points: FloatArray, quad: FloatArray, margin: float) -> Arr:
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
        keep &= inside_by(pts, within, p.top_inset)
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


def overlapping(quads: list[FloatArray], p: FindParams) -> list[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i < j``, of outlines overlapping by more than ``top_min_overlap`` of
    the smaller one: the only pairs where one card can lie over the other."""
    polys = [q.astype(np.float32) for q in quads]
    areas = [float(cv2.contourArea(q)) for q in polys]
    pairs: list[tuple[int, int]] = []
    for i in range(len(quads)):
        for j in range(i + 1, len(quads)):
            inter, _ = cv2.intersectConvexConvex(polys[i], polys[j])
            if inter > p.top_min_overlap * min(areas[i], areas[j]):
                pairs.append((i, j))
    return pairs


def order_above(
    quads: list[FloatArray], work: Work, p: FindParams, pairs: list[tuple[int, int]] | None = None
) -> Arr:
    """``above[i, j]``: card ``i`` lies over card ``j``, its sides showing clearly more (by
    ``top_margin``) inside ``j`` than ``j``'s inside it.  A pair where one card has no side point
    inside the other (its outline holds the other's: two outlines of one card) stays undecided.
    Only ``pairs`` (``overlapping``'s by default) are compared."""
    n = len(quads)
    above = np.zeros((n, n), bool)
    for i, j in overlapping(quads, p) if pairs is None else pairs:
        vi = side_visibility(quads[i], work, quads[j], p)
        vj = side_visibility(quads[j], work, quads[i], p)
        if vi is None or vj is None:
            continue
        if vi >= vj + p.top_margin:
            above[i, j] = True
        elif vj >= vi + p.top_margin:
            above[j, i] = True
    return above


def index_box(quad: FloatArray) -> FloatArray:
    """The corners of the index box at ``quad``'s first corner (``quad``: TL TR BR BL of the card
    as its face reads upright), as a 4x2 array in ``quad``'s pixels."""
    x0, y0, x1, y1 = INDEX_BOX
    tl, tr, br, bl = (np.asarray(quad[k], np.float64) for k in range(4))
    out = []
    for u, v in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        upper = tl + u * (tr - tl)
        lower = bl + u * (br - bl)
        out.append(upper + v * (lower - upper))
    return np.array(out)


def index_over(
    quads: list[FloatArray], named: list[bool], p: FindParams, pairs: list[tuple[int, int]] | None = None
) -> Arr:
    """``over[i, j]``: the named card ``i`` was read at an index box lying (``top_index_share`` of
    its corners, ``top_inset`` inside) within card ``j``'s outline: print shows only on the upper
    card, so ``i`` lies over ``j`` there (and, both being flat, wherever they overlap).  Only
    ``pairs`` (``overlapping``'s by default) are looked at."""
    n = len(quads)
    over = np.zeros((n, n), bool)
    for a, b in overlapping(quads, p) if pairs is None else pairs:
        for i, j in ((a, b), (b, a)):
            if named[i] and inside_by(index_box(quads[i]), quads[j], p.top_inset).mean() >= p.top_index_share:
                over[i, j] = True
    return over


def _smaller_than_named(quads: list[FloatArray], named: list[bool], p: FindParams) -> Arr:
    """Per outline, whether it is not identified and clearly smaller than the named cards (a
    side below ``top_small`` of theirs, the median short and long side of the named cards'
    outlines): an outline of print or of a part of a card, which lies over no named card."""
    sizes = [side_lengths(q) for q, n in zip(quads, named, strict=True) if n]
    out = np.zeros(len(quads), bool)
    if not sizes:
        return out
    short = float(np.median([s for s, _ in sizes]))
    long_ = float(np.median([s for _, s in sizes]))
    for k, (quad, n) in enumerate(zip(quads, named, strict=True)):
        if not n:
            s, lo = side_lengths(quad)
            out[k] = s < p.top_small * short or lo < p.top_small * long_
    return out


def _chains(over: Arr) -> Arr:
    """The transitive closure of ``over`` (``over[i, j]``: ``i`` lies over ``j``)."""
    reach = over.copy()
    for k in range(len(reach)):
        reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
    return reach


def top_flags(
    quads: list[FloatArray],
    named: list[bool],
    whole: list[bool],
    marked: list[bool],
    work: Work,
    p: FindParams,
    printed: Arr | None = None,
    pairs: list[tuple[int, int]] | None = None,
    indexed: Arr | None = None,
    hands: list[float] | None = None,
) -> list[bool]:
    """For each card (``quads`` in work pixels, TL TR BR BL as read), whether it lies on top.

    ``named``: the card was identified; ``whole``: its whole outline was found (not only a corner
    it was named from); ``marked``: it was marked ``top`` before.  Which of two overlapping cards
    lies over the other is ``order_above``'s answer unless ``printed`` (``printed[i, j]``: the
    print where they overlap is ``i``'s, ``scanner.find_top_print.print_over``) or, stronger
    still, ``index_over`` says otherwise; with ``top_corner_sides``, ``order_above`` never puts
    a card named from a corner over a card named whole (past its corner the first's outline is
    a guess).  A card that another lies over is not on top; otherwise a named card found whole
    is on top; a card named from a corner is on top when it lies over another card or was
    marked (read at both its index corners) or, with ``top_lone_named``, overlaps no other
    outline; a card not identified keeps its mark.  ``pairs``: ``overlapping``'s answer, when
    already known; ``indexed``: ``index_over``'s, when already worked out (and checked against
    the print, ``scanner.find_top_print.index_shown``); ``hands``: the share of each card's area a
    hand or arm covers (``hand_share``), when known: with ``top_hand_sides``, the sides never put
    a card not identified that a hand covers so much over an identified card found whole or
    marked.
    """
    if pairs is None:
        pairs = overlapping(quads, p)
    paired = {k for pair in pairs for k in pair}
    # a named card overlapping no other outline: nothing found lies over it
    lone = [
        n and (w or p.top_lone_named) and k not in paired
        for k, (n, w) in enumerate(zip(named, whole, strict=True))
    ]
    if not pairs:
        # no card lies over another: a named card found whole (or, with ``top_lone_named``, from a
        # corner) is on top, every other keeps its mark
        return [True if alone else m for alone, m in zip(lone, marked, strict=True)]
    sides = order_above(quads, work, p, pairs)
    is_named, is_whole = np.asarray(named, bool), np.asarray(whole, bool)
    if p.top_corner_sides:
        # an outline laid out from a corner is a guess past it: its sides do not put it over a
        # card named on its whole outline
        sides[np.ix_(is_named & ~is_whole, is_named & is_whole)] = False
    if hands is not None and p.top_hand_sides > 0.0:
        # a hand over a pile outlined as a card: its sides run across the top card under it
        handy = ~is_named & (np.asarray(hands, np.float64) >= p.top_hand_sides)
        sides[np.ix_(handy, is_named & (is_whole | np.asarray(marked, bool)))] = False
    by_index = index_over(quads, named, p, pairs) if indexed is None else indexed.copy()
    by_index &= ~by_index.T  # each read inside the other: the index boxes do not tell
    strong = by_index if printed is None else (printed & ~by_index.T) | by_index
    # the sides are the weakest sign: one that runs against a chain of index or print signs
    # (i over k over ... over j, and the sides say j over i) is dropped
    chained = _chains(strong)
    above = (sides & ~chained.T) | strong
    small = _smaller_than_named(quads, named, p)
    above[np.ix_(small, is_named)] = False
    flags: list[bool] = []
    for i in range(len(quads)):
        if above[:, i].any():
            flags.append(False)
        elif not named[i]:
            flags.append(marked[i])
        elif whole[i] or lone[i]:
            flags.append(True)
        else:
            flags.append(bool(above[i, :].any()) or marked[i])
    return flags


def _edge_grid(a: Arr, b: Arr, edge: Arr, shape: tuple[int, int]) -> Arr:
    """How many edge points fall on each whole-pixel cell of the turned grid (``a`` across the
    sides these edges run along, ``b`` along them); a side seen over two cells counts half at
    each neighbour across it.  Whole and half points, in ``float32``: every sum of them made
    here stays exact."""
    cells = np.bincount(a[edge] * shape[1] + b[edge], minlength=shape[0] * shape[1])
    grid = cells.reshape(shape).astype(np.float32)
    spread = grid.copy()
    spread[1:] += 0.5 * grid[:-1]
    spread[:-1] += 0.5 * grid[1:]
    return spread


def _running_sums(across_u: Arr, across_v: Arr) -> tuple[Arr, Arr]:
    """The running sums ``_RectangleSearch`` takes: of ``across_u`` (edges running along v, by
    cell) along v, and of ``across_v`` (edges running along u) along u, each with a leading zero
    row; made once per grid for every rectangle size tried on it.  Edge counts (``float32``,
    ``_edge_grid``) are summed by OpenCV's integral image, exact for whole and half points and
    many times faster than NumPy's running sums along a row; shares of a cell (``float64``,
    ``_edge_runs``' hand) are summed in order."""
    if across_u.dtype == np.float32:
        along_v = cv2.integral(across_u, sdepth=cv2.CV_32F)
        along_u = cv2.integral(across_v, sdepth=cv2.CV_32F)
        return along_v[1:, :] - along_v[:-1, :], along_u[:, 1:] - along_u[:, :-1]
    size_u, size_v = across_u.shape
    run_v = np.zeros((size_u, size_v + 1))
    run_v[:, 1:] = np.cumsum(across_u, axis=1)
    run_u = np.zeros((size_u + 1, size_v))
    run_u[1:, :] = np.cumsum(across_v, axis=0)
    return run_v, run_u


class _RectangleSearch:
    """The rectangles of one grid (``_running_sums`` of its edges, and with ``hidden`` those of
    the share of each cell under a hand) whose four sides hold the most edge points.

    A rectangle's four sides, each a difference of running sums at its two ends, add up to sums
    at its four corners alone: with ``C`` the sum and ``D`` the difference of the running sums
    along v and along u, the rectangle from cell (u0, v0) to (u1, v1) holds ``C[u1, v1] -
    C[u0, v0] + D[u0, v1] - D[u1, v0]``.  ``C`` and ``D`` are made once per grid, so each size
    costs three passes over the placements, not five.  Edge counts are whole and half points,
    which sum exactly in ``float32``, so the order of the sums changes no result.
    """

    def __init__(self, runs: tuple[Arr, Arr], hidden: tuple[Arr, Arr] | None = None) -> None:
        run_v, run_u = runs
        self.size_u, self.size_v = run_v.shape[0], run_u.shape[1]
        self.corners = (
            run_v[:, : self.size_v] + run_u[: self.size_u, :],
            run_v[:, : self.size_v] - run_u[: self.size_u, :],
        )
        self.hidden = hidden
        self._buffer = np.empty(self.size_u * self.size_v, run_v.dtype)

    def best(self, wide: int, tall: int, min_known: float = 1.0) -> tuple[float, int, int]:
        """The rectangle ``wide`` cells along u by ``tall`` along v whose four sides hold the
        most edge points: the share of its outline's length they cover, and its lowest cell (u,
        v).  With ``hidden``, the share of the length off the hand, for the rectangles with at
        least ``min_known`` of their length off it; -1 when no rectangle of that size fits."""
        if wide >= self.size_u or tall >= self.size_v:
            return -1.0, 0, 0
        length = 2.0 * (wide + tall)
        nu, nv = self.size_u - wide, self.size_v - tall
        c, d = self.corners
        total = np.subtract(c[wide:, tall:], c[:nu, :nv], out=self._buffer[: nu * nv].reshape(nu, nv))
        total += d[:nu, tall:]
        total -= d[wide:, :nv]
        if self.hidden is None:
            k = int(total.argmax())
            u0, v0 = divmod(k, nv)
            return total.item(k) / length, u0, v0
        known = length - _side_sums(self.hidden[0], self.hidden[1], wide, tall)
        share = np.where(known >= min_known * length, total / np.maximum(known, 1.0), -1.0)
        k = int(np.argmax(share))
        u0, v0 = divmod(k, nv)
        return float(share[u0, v0]), u0, v0


def _side_sums(run_v: FloatArray, run_u: FloatArray, wide: int, tall: int) -> FloatArray:
    """Per lowest cell (u0, v0), the sum over the four sides of the rectangle ``wide`` by
    ``tall`` cells from there, of a grid given by its running sums (``_running_sums``), side by
    side (the shares under a hand are not whole numbers: ``_RectangleSearch``'s sums at the
    corners would round them otherwise)."""
    size_u, size_v = run_u.shape[0] - 1, run_u.shape[1]
    side_v = run_v[:, tall:] - run_v[:, : size_v + 1 - tall]  # [u0, v0]: a side along v from v0
    side_u = run_u[wide:, :] - run_u[: size_u + 1 - wide, :]  # [u0, v0]: a side along u from u0
    nu, nv = size_u - wide, size_v - tall
    return np.asarray(
        side_v[:nu, :nv] + side_v[wide : wide + nu, :nv] + side_u[:nu, :nv] + side_u[:nu, tall : tall + nv]
    )


def refit_outline(
    quad: FloatArray, work: Work, p: FindParams, short: float | None, around: bool = False
) -> FloatArray | None:
    """The outline of a card's size (short side ``short`` work pixels, or a range of sizes from
    ``quad``'s own when ``None``) whose four sides show best as edges along their whole length
    within ``quad`` grown by ``top_refit_grow``, turned at most ``top_refit_turn`` degrees from
    ``quad`` (with ``around``, turned any way: ``quad``'s sides may be a card's and a hand's);
    a 4x2 array in work pixels, or ``None`` when nothing near ``quad`` can hold one."""
    own_short, _ = side_lengths(quad)
    if own_short < 4:
        return None
    grown = _grown(quad, p.top_refit_grow * own_short)
    directions = _turned_any_way(quad, p) if around else [side_angle(quad[0], quad[1])]
    best = _fit_within(grown, directions, _widths(own_short, short, p), work, p)
    return None if best is None else best[1]


def _grown(quad: FloatArray, by: float) -> FloatArray:
    """``quad`` grown about its centre so that its corners lie ``by`` work pixels further out on
    average."""
    centre = quad.mean(axis=0)
    radius = float(np.linalg.norm(quad - centre, axis=1).mean())
    grown: FloatArray = centre + (quad - centre) * (1.0 + by / max(radius, 1e-9))
    return grown


def _turned_any_way(quad: FloatArray, p: FindParams) -> list[float]:
    """Base directions (radians) from ``quad``'s first side over a quarter turn, spaced so that
    each one's turns (``top_refit_turn`` either way) meet the next's."""
    spacing = 2.0 * p.top_refit_turn + p.top_refit_turn_step
    base = side_angle(quad[0], quad[1])
    return [base + math.radians(k * spacing) for k in range(math.ceil(90.0 / spacing))]


def hand_share(quad: FloatArray, work: Work) -> float:
    """The share of ``quad``'s area (work pixels) that a hand or arm covers (``Work.skin``; 0
    without one)."""
    skin = work.skin
    if skin is None:
        return 0.0
    h, w = skin.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, (w, h))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return 0.0
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad - (x0, y0)).astype(np.int32), 1)
    sel = inside > 0
    if not sel.any():
        return 0.0
    return float(np.count_nonzero(skin[y0:y1, x0:x1][sel]) / np.count_nonzero(sel))


def refit_under_hand(quad: FloatArray, work: Work, p: FindParams) -> FloatArray | None:
    """The outline of a card whose four sides show best as edges off the hand (``top_skin``),
    within ``quad`` grown by ``top_skin_grow`` of its short side, turned any way, at the sizes
    ``refit_outline`` tries from ``quad``'s own when the card size is not known: ``quad`` is the
    outline of a card and the hand or arm over it (light skin on a dark table counts as card
    pixels), whose size and sides are neither the card's nor the frame's (a camera at a slant
    shows the cards near it larger); ``None`` when nothing there can hold one."""
    own_short, _ = side_lengths(quad)
    if own_short < 4:
        return None
    grown = _grown(quad, p.top_skin_grow * own_short)
    best = _fit_within(grown, _turned_any_way(quad, p), _widths(own_short, None, p), work, p, off_hand=True)
    return None if best is None else best[1]


def refits_by_size(quad: FloatArray, work: Work, p: FindParams, short: float | None) -> list[FloatArray]:
    """Per card size, the outline whose four sides show best as edges within ``quad`` grown by
    ``top_refit_read_grow`` of its short side, turned at most ``top_refit_turn`` degrees from it
    (work pixels, smallest first): about ``short`` (``top_refit_size_band``) when the card size
    is known, else over ``top_refit_read_sizes`` of ``quad``'s own short side in steps of
    ``top_refit_read_step``.  The best-shown outline of a dim pile is seldom its top card's:
    the print frames and the cards peeking out under it hold as many edges, and smaller
    card-shaped ones score higher, so the sizes are handed over to be read one by one
    (``Scanner._refit_read``)."""
    own_short, _ = side_lengths(quad)
    if own_short < 4:
        return []
    if short is None:
        low, high = p.top_refit_read_sizes
        widths = np.arange(low, high + 1e-9, p.top_refit_read_step) * own_short
    else:
        widths = _widths(own_short, short, p)
    grown = _grown(quad, p.top_refit_read_grow * own_short)
    fits = _fits_by_size(grown, [side_angle(quad[0], quad[1])], widths, work, p)
    if fits is None:
        return []
    return [rect for _, (_, rect) in sorted(fits[1].items())]


def refit_in_pile(
    quad: FloatArray, pile: list[FloatArray], work: Work, p: FindParams, short: float | None
) -> FloatArray | None:
    """Like ``refit_outline``, over the whole pile ``quad`` lies in: the outline of a card's size
    whose four sides show best as edges within the hull of ``pile`` (the outlines overlapping
    ``quad``, ``quad`` among them) grown by ``top_refit_grow``, turned at most ``top_refit_turn``
    degrees from any of them.  Of a pile, only the card on top shows its whole outline: the
    others are cut by the cards over them.  The sizes are ``refit_outline``'s (from the pile's
    largest outline when the card size is not known) and, where the outlines found are parts of
    cards, larger ones up to the short side of the smallest rectangle holding the pile, in steps
    of twice ``top_refit_size_step``.  ``None`` when nothing there can hold a card."""
    own_short = max(side_lengths(q)[0] for q in pile)
    if own_short < 4:
        return None
    points = np.concatenate(pile).astype(np.float32)
    if short is None:
        points = np.concatenate([points, _cluster(quad, work)])
    hull = cv2.convexHull(points).reshape(-1, 2).astype(np.float64)
    grown = _grown(hull, p.top_refit_grow * own_short)
    angles: list[float] = []
    for q in pile:
        a = side_angle(q[0], q[1])
        if all(abs(math.remainder(a - b, math.pi / 2)) > math.radians(p.top_refit_turn_step) for b in angles):
            angles.append(a)
    widths = _widths(own_short, short, p)
    (_, (rw, rh), _) = cv2.minAreaRect(points)
    largest, low = min(rw, rh), float(widths.max())
    if largest > low:
        step = 1.0 + 2.0 * p.top_refit_size_step
        ladder = low * step ** np.arange(1, int(math.log(largest / low) / math.log(step)) + 1)
        widths = np.concatenate([widths, ladder])
    best = _fit_within(grown, angles, widths, work, p, p.top_refit_near_best if short is None else None)
    return None if best is None else best[1]


def fit_card(
    region: FloatArray, directions: list[float], short: float, work: Work, p: FindParams
) -> tuple[float, FloatArray] | None:
    """The outline of a card of short side ``short`` (work pixels, ``top_refit_size_band`` either
    way) within the convex ``region`` whose four sides show best as edges, turned at most
    ``top_refit_turn`` degrees from one of ``directions``: the share of its outline shown (edges
    seen over two cells count at both), and its corners; ``None`` when nothing there can hold
    one."""
    return _fit_within(region, directions, _widths(short, short, p), work, p)


def _cluster(quad: FloatArray, work: Work) -> FloatArray:
    """The outline points (float32, Nx2) of the cluster of touching cards (``work.union``) that
    holds ``quad``'s centre; none when no cluster does."""
    centre = (float(quad[:, 0].mean()), float(quad[:, 1].mean()))
    for outline in work.union_outlines:
        if cv2.pointPolygonTest(outline, centre, False) >= 0:
            return np.asarray(outline.reshape(-1, 2), np.float32)
    return np.zeros((0, 2), np.float32)


def _widths(own_short: float, short: float | None, p: FindParams) -> FloatArray:
    """The card short sides a refit tries: about ``short`` (``top_refit_size_band``), or a range
    of fractions of ``own_short`` (``top_refit_sizes``) when the card size is not known."""
    if short is None:
        low, high = p.top_refit_sizes
        return np.arange(low, high + 1e-9, p.top_refit_size_step) * own_short
    band = p.top_refit_size_band
    return np.arange(1.0 - band, 1.0 + band + 1e-9, p.top_refit_size_step) * short


@dataclass(frozen=True)
class _Pixels:
    """The pixels of a window that a refit looks at: ``x``, ``y`` (frame work pixels),
    ``gx``, ``gy`` (their gradients), ``total`` (its magnitude)."""

    x: FloatArray
    y: FloatArray
    gx: FloatArray
    gy: FloatArray
    total: FloatArray

    def subset(self, keep: Arr) -> _Pixels:
        return _Pixels(self.x[keep], self.y[keep], self.gx[keep], self.gy[keep], self.total[keep])


def _edge_runs(
    span: tuple[FloatArray, FloatArray],
    pixels: _Pixels,
    u: FloatArray,
    v: FloatArray,
    p: FindParams,
    hand: Arr | None = None,
) -> tuple[tuple[int, int], tuple[Arr, Arr], tuple[Arr, Arr] | None]:
    """The ``pixels`` on a grid along the unit directions ``u`` and ``v``: its origin (the
    grid's first cell, in whole steps along each) and the running sums of the edges across
    ``u`` and across ``v`` (``_running_sums``); with ``hand`` (per pixel, under a hand or arm),
    its edges left out and the running sums of the share of each cell under the hand (``None``
    without).  The grid spans the window's pixels, whose extremes along any direction are
    those of ``span`` (x, y: the first and last pixel of each row, ``_fits_by_size``), so
    ``pixels`` may be only those that can be edges."""
    cu = span[0] * u[0] + span[1] * u[1]
    cv = span[0] * v[0] + span[1] * v[1]
    lu, lv = math.floor(float(cu.min())), math.floor(float(cv.min()))
    shape = (round(float(cu.max()) - lu) + 1, round(float(cv.max()) - lv) + 1)
    iu = np.round(pixels.x * u[0] + pixels.y * u[1] - lu).astype(np.intp)
    iv = np.round(pixels.x * v[0] + pixels.y * v[1] - lv).astype(np.intp)
    grids = []
    for n in (u, v):
        across = np.abs(pixels.gx * n[0] + pixels.gy * n[1])
        edge = (across >= p.top_min_gradient) & (across >= p.top_alignment * pixels.total)
        if hand is not None:
            edge &= ~hand
        grids.append(_edge_grid(iu, iv, edge, shape))
    runs = _running_sums(grids[0], grids[1])
    if hand is None:
        return (lu, lv), runs, None
    cells = np.bincount(iu * shape[1] + iv, minlength=shape[0] * shape[1]).reshape(shape)
    under = np.bincount(iu[hand] * shape[1] + iv[hand], minlength=shape[0] * shape[1]).reshape(shape)
    share = under / np.maximum(cells, 1)
    return (lu, lv), runs, _running_sums(share, share)


def _hand_pixels(work: Work, sel: Arr, x0: int, y0: int, p: FindParams) -> Arr | None:
    """Per pixel of the window at (``x0``, ``y0``) where ``sel`` is true, whether a hand or arm
    lies there, grown by a pixel (its outline is no card's side); ``None`` without a skin mask
    or where no hand lies in the window."""
    skin = work.skin
    if skin is None:
        return None
    h, w = sel.shape
    window = skin[y0 : y0 + h, x0 : x0 + w]
    if not window.any():
        return None
    grown = cv2.dilate(window, np.ones((3, 3), np.uint8))
    return np.asarray(grown[sel] > 0)


def _fit_within(
    region: FloatArray,
    directions: list[float],
    widths: FloatArray,
    work: Work,
    p: FindParams,
    near_best: float | None = None,
    off_hand: bool = False,
) -> tuple[float, FloatArray] | None:
    """The rectangle of one of the ``widths`` (short sides, card aspect) inside the convex
    ``region`` whose four sides show best as edges, turned at most ``top_refit_turn`` degrees
    from one of ``directions``: the share of its outline shown, and its corners.  With
    ``off_hand``, the share of its length off a hand or arm (``_hand_pixels``), whose pixels
    are unknown: a side under the hand neither shows nor fails to show, the hand's own outline
    is no side."""
    fits = _fits_by_size(region, directions, widths, work, p, off_hand)
    if fits is None:
        return None
    best, by_size = fits
    if best is None or near_best is None:
        return best
    # a card's print holds smaller card-shaped outlines: of the sizes that show
    # nearly as well as the best and holding it, the largest
    held = [
        k
        for k, (shown, rect) in by_size.items()
        if shown >= near_best * best[0] and inside_by(best[1], rect, -p.top_inset).all()
    ]
    return by_size[max(held)] if held else best


def _fits_by_size(
    region: FloatArray,
    directions: list[float],
    widths: FloatArray,
    work: Work,
    p: FindParams,
    off_hand: bool = False,
) -> tuple[tuple[float, FloatArray] | None, dict[int, tuple[float, FloatArray]]] | None:
    """``_fit_within``'s search: the best rectangle over all ``widths``, and the best of each
    (by its index into ``widths``: the share of its outline shown and its corners); ``None``
    when ``region`` is too small to hold any."""
    h, w = work.grey.shape[:2]
    x0, y0 = np.maximum(np.floor(region.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(region.max(axis=0)).astype(int) + 1, (w, h))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.round(region - (x0, y0)).astype(np.int32), 1)
    sel = inside > 0
    ys, xs = np.nonzero(sel)
    gx = work.gx[y0:y1, x0:x1][sel].astype(np.float64)
    gy = work.gy[y0:y1, x0:x1][sel].astype(np.float64)
    pixels = _Pixels(xs.astype(np.float64) + x0, ys.astype(np.float64) + y0, gx, gy, np.hypot(gx, gy))
    # along any direction, a row's pixels lie in the order of x (each step of the sums is
    # monotonic), so the window's extremes are among the first and last pixel of its rows
    firsts = np.flatnonzero(np.r_[True, ys[1:] != ys[:-1]])
    ends = np.r_[firsts[1:] - 1, len(ys) - 1]
    span = (pixels.x[np.r_[firsts, ends]], pixels.y[np.r_[firsts, ends]])
    hand = _hand_pixels(work, sel, x0, y0, p) if off_hand else None
    if hand is None:
        # a pixel whose gradient is weaker than an edge's along any direction is no edge
        pixels = pixels.subset(pixels.total >= p.top_min_gradient)
    steps = int(p.top_refit_turn // p.top_refit_turn_step)
    best: tuple[float, FloatArray] | None = None
    by_size: dict[int, tuple[float, FloatArray]] = {}
    turns = [math.radians(k * p.top_refit_turn_step) for k in range(-steps, steps + 1)]
    # sizes that round alike give the same rectangle: each is tried once per direction
    rectangles: list[tuple[int, tuple[int, int]]] = []
    for size, width in enumerate(widths):
        for wide, tall in ((width, width * p.card_aspect), (width * p.card_aspect, width)):
            cells = (round(wide), round(tall))
            if all(cells != seen for _, seen in rectangles):
                rectangles.append((size, cells))
    for angle in (base + turn for base in directions for turn in turns):
        u = np.array([math.cos(angle), math.sin(angle)])
        v = np.array([-u[1], u[0]])
        (lu, lv), runs, hidden = _edge_runs(span, pixels, u, v, p, hand)
        search = _RectangleSearch(runs, hidden)
        for size, cells in rectangles:
            shown, u0, v0 = search.best(cells[0], cells[1], p.top_skin_min_known)
            if shown <= 0 or (size in by_size and shown <= by_size[size][0]):
                continue
            a0, a1 = lu + u0, lu + u0 + cells[0]
            b0, b1 = lv + v0, lv + v0 + cells[1]
            rect = np.array([u * a0 + v * b0, u * a1 + v * b0, u * a1 + v * b1, u * a0 + v * b1])
            by_size[size] = (shown, rect)
            if best is None or shown > best[0]:
                best = (shown, rect)
    return best, by_size


def outline_distance(a: FloatArray, b: FloatArray) -> float:
    """Mean distance between the corners of two outlines (4x2), in the corner order that fits
    best (either may start at any corner)."""
    return min(float(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).mean()) for k in range(4))
