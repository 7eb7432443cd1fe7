"""Find every card in a camera frame and mark the top card of each pile.

The finder works on a *work image* (``scanner.find_work``): the frame scaled
down so its long side is ``FindParams.work_long_side``, its card pixels and
its edges.  Then:

1. **Lone cards.**  A region whose outline simplifies to a convex quad of card
   aspect (tolerant to perspective) that it fills is one card.  Regions come
   from three cuts of the frame: card pixels with fine edges cut out, a global
   lightness split, and the regions enclosed by edges, strong and faint (which
   find a card on a light table, where it is hardly lighter than the table).
   A quad outlined by edges must also look like a card (``scanner.find_check``:
   a paper border strip, every side not cut off by the frame showing as an
   edge); such a checked quad may be off the card's aspect by
   ``lone_aspect_tolerance`` (a slanted view).  A checked region that the
   frame's border cuts, and whose outline is therefore no quad, is completed
   to the whole card from its sides in view (``scanner.find_cut``).  A card seen at a slant,
   whose outline is nearly square, is taken by stricter checks (``FindParams.slanted``) and
   marked ``FoundCard.slanted``.  Learning from labelled photos also completes cut-off cards
   whose outline simplified to a failing quad (``FindParams.recut``).
   A frame in which no card is found at all is looked at once more with the table's light
   divided out (``scanner.find_work.flat_work``, ``FindParams.flat_fallback``): a shadow
   band across a light table no longer cuts a card's faint outline.  When that look finds
   nothing either, it is taken again with the faint edges at lower thresholds
   (``FindParams.flat_faint_factor``).
2. **Touching and overlapping cards** (piles, fans, hands, a hand over a card)
   are rebuilt from their visible corners (``scanner.find_split``).
3. **Top card.**  Where two cards overlap, the upper card's outline shows across
   the lower one (a thin shadow) while the lower card's outline is hidden under
   the upper one: the card with the weaker edge there is not on top.
4. **Corners** are refined on the full-resolution frame by fitting a line to the
   strongest edge across each side, and ordered canonically (``order_corners``).

``warp_card`` cuts a found card out as a portrait image of
``card_width x card_height`` pixels.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scanner.find_check import looks_like_card, overshoot, slanted_quad
from scanner.find_cut import cut_cards
from scanner.find_geometry import (
    Arr,
    FloatArray,
    as_quad,
    fit_sides,
    holds,
    is_card_quad,
    order_corners,
    poly_mask,
    quad_distance,
    refine,
    side_lengths,
)
from scanner.find_hand_cut import hand_cut_lone
from scanner.find_lines import line_cards
from scanner.find_split import (
    Corner,
    SizeGuess,
    candidate_sizes,
    choose,
    corners_of,
    hypotheses,
    whole_card_size,
)
from scanner.find_top import mark_tops, side_visibility
from scanner.find_work import Faint, Work, flat_work, make_faint, make_work
from scanner.params import FindParams
from scanner.types import Image, Quad

__all__ = [
    "FoundCard",
    "card_matrix",
    "find_cards",
    "find_separate",
    "order_corners",
    "other_way",
    "refine_in_frame",
    "warp_card",
    "warp_card_box",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FoundCard:
    """A card located in a frame.

    ``corners`` are in frame pixels, ordered canonically (``order_corners``);
    ``top`` is True unless another card lies over part of this one; ``score``
    (0..1) says how much of the card's outline showed as an edge; ``slanted`` is True for a card
    outlined only as one seen at a slant (``FindParams.slanted``), whose index reads coarsely.
    """

    corners: Quad
    top: bool
    score: float
    slanted: bool = False


def _lone_quad(contour: Arr, p: FindParams, tolerance: float | None = None) -> FloatArray | None:
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (p.poly_epsilon * 0.5, p.poly_epsilon, p.poly_epsilon * 1.5):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            area = cv2.contourArea(approx)
            fills = area > 0 and cv2.contourArea(contour) / area >= p.min_fill
            if fills and is_card_quad(quad, p, tolerance):
                return fit_sides(_dense(contour), quad)
            return None
        if len(approx) < 4:
            return None
    return None


def _looks_like_card(quad: FloatArray, work: Work, p: FindParams) -> bool:
    """Whether a quad outlined by edges is a card: mostly card pixels inside, or else
    mostly colourless, light, and not much darker than the table around it."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    pad = max(4, int(0.1 * max(w, h)))
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(work.grey.shape[1], x + w + pad), min(work.grey.shape[0], y + h + pad)
    offset = np.array([x0, y0], np.float64)
    shape = (y1 - y0, x1 - x0)
    centre = quad.mean(axis=0)
    inner = poly_mask(centre + (quad - centre) * 0.9 - offset, shape) > 0
    outer = (poly_mask(centre + (quad - centre) * 1.15 - offset, shape) > 0) & ~(
        poly_mask(quad - offset, shape) > 0
    )
    if not outer.any() or not inner.any():
        return False
    grey = work.grey[y0:y1, x0:x1]
    if float((work.mask[y0:y1, x0:x1][inner] > 0).mean()) >= 0.5:
        return True
    if float((work.colourless[y0:y1, x0:x1][inner] > 0).mean()) < p.min_colourless:
        return False
    level = float(np.median(grey[inner]))
    return (
        level >= work.light_level * p.min_lightness and level >= float(np.median(grey[outer])) - p.max_darker
    )


def _dedupe(quads: list[FloatArray], p: FindParams) -> list[FloatArray]:
    out: list[FloatArray] = []
    for q in quads:
        short, _ = side_lengths(q)
        if all(quad_distance(q, o) >= p.duplicate_distance * short for o in out):
            out.append(q)
    return out


def _outlines(work: Work, p: FindParams) -> dict[str, list[Arr]]:
    """The outlines of every cut of the work image, found once for both passes.

    Chains are kept compressed (straight runs as their ends) and filled in where
    used.  Of the regions enclosed by edges (a textured table has thousands) only
    those of card size are outlined.
    """
    out: dict[str, list[Arr]] = {}
    for name, binary in (
        ("mask", work.mask),
        ("union", None),
        ("split", work.split),
    ):
        if binary is None:
            out[name] = list(work.union_outlines)  # outlined with the work image already
            continue
        contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out[name] = list(contours)
    area = float(work.grey.shape[0] * work.grey.shape[1])
    min_area, max_area = p.min_card_area * area, p.max_card_area * area
    if work.rough is None:
        out["bright"] = list(cv2.findContours(work.bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])
        out["regions"] = _region_outlines(work.regions, min_area, max_area, p)
        return out
    # outlined on the shrunk image, back in work pixels (outlines too small for a card left out)
    shrink, bright, regions = work.rough
    size = work.grey.shape[1::-1]
    kept = 0.7 * min_area / shrink**2
    rough_bright = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    rough_regions = _region_outlines(regions, min_area / shrink**2, max_area / shrink**2, p)
    grow = p.shrunk_grow
    rough_bright = [c for c in rough_bright if cv2.contourArea(c) >= kept]
    out["bright"] = [_scaled_outline(c, shrink, grow, size) for c in rough_bright]
    out["regions"] = [_scaled_outline(c, shrink, grow, size) for c in rough_regions]
    out[_ROUGH] = []
    return out


def _scaled_outline(contour: Arr, shrink: int, grow: int, size: tuple[int, int]) -> Arr:
    """An outline found on an image shrunk ``shrink`` times, in the pixels of the work image of
    ``size`` (width, height): each point goes to the outer pixel of its block (the block's first
    pixel left of or above the outline's centre, its last right of or below it), then ``grow``
    pixels further out, inside the image."""
    pts = contour.reshape(-1, 2)
    centre = pts.mean(axis=0)
    outer = (pts >= centre).astype(np.int32)
    scaled = pts * shrink + outer * (shrink - 1) + (2 * outer - 1) * grow
    np.clip(scaled, 0, np.array(size, np.int32) - 1, out=scaled)
    return np.asarray(scaled.reshape(-1, 1, 2), dtype=np.int32)


def _region_outlines(regions: Arr, min_area: float, max_area: float, p: FindParams) -> list[Arr]:
    """The outer boundaries of the regions of card size in a 0/255 region map (their holes come
    second in the two-level hierarchy and are left out)."""
    contours, hierarchy = cv2.findContours(regions, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out: list[Arr] = []
    if hierarchy is None:
        return out
    for c, link in zip(contours, hierarchy[0], strict=True):
        if link[3] != -1:
            continue
        _x, _y, w, h = cv2.boundingRect(c)
        if w * h < 0.7 * min_area:
            continue
        inside = cv2.contourArea(c)
        if p.min_fill * 0.5 * min_area <= inside <= max_area:
            out.append(c)
    return out


def _dense(contour: Arr) -> FloatArray:
    """Every pixel of a chain compressed by ``CHAIN_APPROX_SIMPLE`` (its runs are straight
    horizontal, vertical or diagonal steps between the points kept), as an Nx2 array."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    if len(pts) < 2:
        return pts
    nxt = np.concatenate([pts[1:], pts[:1]])  # np.roll(pts, -1, axis=0), without its overhead
    steps = np.maximum(np.abs(nxt - pts).max(axis=1), 1).astype(np.intp)
    index = np.repeat(np.arange(len(pts)), steps)
    start = np.concatenate([[0], np.cumsum(steps)[:-1]])
    t = (np.arange(int(steps.sum())) - np.repeat(start, steps)) / np.repeat(steps, steps)
    return np.asarray(pts[index] + (nxt[index] - pts[index]) * t[:, None])


_PASSES = (("mask", False), ("union", False), ("split", False), ("bright", True), ("regions", True))
"""The cuts that outline lone cards, and whether a quad outlined by each must pass the card checks."""

_ROUGH = "rough"
"""The key whose presence in the outlines of ``_outlines`` marks those of ``_ROUGH_CUTS`` as found
on the work image shrunk (``Work.rough``)."""
_ROUGH_CUTS = ("bright", "regions")


def _full_cuts(work: Work, outlines: dict[str, list[Arr]], p: FindParams) -> None:
    """Replace the rough outlines of ``_ROUGH_CUTS`` in ``outlines`` by those of the work image's
    own ``bright`` and ``regions`` (made now)."""
    area = float(work.grey.shape[0] * work.grey.shape[1])
    outlines["bright"] = list(cv2.findContours(work.bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0])
    outlines["regions"] = _region_outlines(work.regions, p.min_card_area * area, p.max_card_area * area, p)
    del outlines[_ROUGH]


def _lone_cards(
    work: Work,
    outlines: dict[str, list[Arr]],
    p: FindParams,
    passes: tuple[tuple[str, bool], ...] = _PASSES,
    faint: Arr | None = None,
    slanted: list[FloatArray] | None = None,
    rough_only: bool = False,
) -> list[FloatArray] | None:
    """The lone cards of ``passes``; each outlined only as a card seen at a slant joins
    ``slanted`` (when given).  With ``rough_only``, ``None`` where the work image's own denoised
    cuts would be made (a rough outline that the cards found do not explain)."""
    area = float(work.grey.shape[0] * work.grey.shape[1])
    min_area, max_area = p.min_card_area * area, p.max_card_area * area
    lone: list[FloatArray] = []
    polygons: list[tuple[Arr, float]] = []  # of ``lone``, for ``_explained``
    for name, verify in passes:
        if name in _ROUGH_CUTS and _ROUGH in outlines:
            # rough outlines: the work image's own are made only when some rough outline could
            # be a card that the cards found so far do not explain
            if not any(
                min_area * 0.7 <= cv2.contourArea(c) <= max_area and not _explained(c, lone, 1.3, polygons)
                for cut in _ROUGH_CUTS
                for c in outlines[cut]
            ):
                continue
            if rough_only:
                return None
            _full_cuts(work, outlines, p)
        for c in outlines[name]:
            if not min_area * 0.7 <= cv2.contourArea(c) <= max_area or _explained(c, lone, 1.3, polygons):
                continue
            quad = _lone_quad(c, p, p.lone_aspect_tolerance if verify else None)
            at_slant = False
            if quad is None and verify and p.slanted:
                quad = slanted_quad(c, _dense(c), work, p)  # a card seen at a slant, nearly square
                at_slant = quad is not None
            if quad is None and verify and p.complete_cut:
                # a card the frame cuts off: the whole card, if its part in view looks like one
                quad = _cut_lone(c, work, p, faint)
            if quad is None or not min_area <= cv2.contourArea(quad.astype(np.float32)) <= max_area:
                continue
            if verify and not (_looks_like_card(quad, work, p) and looks_like_card(quad, work, p, faint)):
                # a card the frame cuts off whose outline still simplified to a quad (a cut
                # corner lost in the simplification): the whole card, if its part in view is one
                quad = _cut_lone(c, work, p, faint) if p.complete_cut and p.recut else None
                if quad is None or not min_area <= cv2.contourArea(quad.astype(np.float32)) <= max_area:
                    continue
            if name != "split" and _several_cards(quad, work, p):
                continue
            lone.append(quad)
            polygons.append(_polygon(quad))
            if at_slant and slanted is not None:
                slanted.append(quad)
    return _dedupe(lone, p)


def _cut_lone(contour: Arr, work: Work, p: FindParams, faint: Arr | None) -> FloatArray | None:
    """The whole card of a region the frame's border cuts (``scanner.find_cut``), when the part
    in view looks like a card and holds no row of cards; else ``None``."""
    for cut in cut_cards(contour, _dense(contour), work.grey.shape, p):
        quad = cut.quad
        if not (_looks_like_card(quad, work, p) and looks_like_card(quad, work, p, faint, in_view=True)):
            continue
        if not _several_cards(quad, work, p):
            return quad
    return None


def _lone_by_lines(work: Work, faint: Arr, p: FindParams) -> list[FloatArray]:
    """Lone cards bounded by straight lines (``scanner.find_lines``), for frames where no region
    outlined a card and no card rebuilt from corners shows its outline well: each must look like
    a card in the part in view, its sides must end at its corners, and none may overlap another."""
    found: list[FloatArray] = []
    for card in line_cards(work, faint, p):
        if not (_looks_like_card(card.seen, work, p) and looks_like_card(card.seen, work, p, faint)):
            continue
        if overshoot(card.seen, work, faint, p) >= p.max_overshoot:
            continue
        if any(_overlap(card.quad, other) for other in found):
            continue
        found.append(card.quad)
    return found


def _doubtful(quad: FloatArray, shown: float | None, work: Work, p: FindParams) -> bool:
    """Whether a lone card may be a scrap of the table, no reason not to look at the faint edges:
    it shows less than ``faint_below`` of its outline (``shown``, its ``side_visibility``), or
    (``faint_at_border``) it touches the frame's border."""
    if (shown or 0.0) < p.faint_below:
        return True
    h, w = work.grey.shape[:2]
    m = p.frame_margin
    return p.faint_at_border and bool(
        (quad.min(axis=0) <= m).any() or quad[:, 0].max() >= w - 1 - m or quad[:, 1].max() >= h - 1 - m
    )


def _of_one_size(
    quads: list[FloatArray], shown: Callable[[FloatArray], float | None], p: FindParams
) -> list[FloatArray]:
    """The cards of one deck on one table are about one size: a quad smaller than
    ``min_relative_area`` of the card whose outline shows best is print or a scrap, not a card.

    ``shown`` gives a quad's ``side_visibility`` (its whole outline); it is asked only when a
    quad is that much smaller than the largest (else every quad is kept, whichever shows best).
    """
    if len(quads) < 2:
        return quads
    areas = [float(cv2.contourArea(q.astype(np.float32))) for q in quads]
    if min(areas) >= p.min_relative_area * max(areas):
        return quads
    best = areas[int(np.argmax([shown(q) or 0.0 for q in quads]))]
    return [q for q, a in zip(quads, areas, strict=True) if a >= p.min_relative_area * best]


def _overlap(a: FloatArray, b: FloatArray) -> bool:
    """Whether either quad holds the other's centre."""
    return holds(a, b.mean(axis=0)) or holds(b, a.mean(axis=0))


def _lone_in_clusters(
    image: Image, work: Work, outlines: dict[str, list[Arr]], lone: list[FloatArray], p: FindParams
) -> list[FloatArray]:
    """Whole cards inside clusters of touching cards, cut out at full resolution.

    The card on top of a pile shows its whole outline, a thin edge where it lies
    on the cards below; at work scale the print near its border (indices) joins
    that edge and the card's region leaks into the cards below, at full
    resolution it does not.  Only the clusters that no lone card explains are
    looked at.  Returns the cards found, in work pixels.
    """
    area = float(work.grey.shape[0] * work.grey.shape[1])
    min_area, max_area = p.min_card_area * area, p.max_card_area * area
    found: list[FloatArray] = []
    h, w = image.shape[:2]
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    opening = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (p.full_open, p.full_open))
    for c in outlines["union"]:
        if cv2.contourArea(c) < min_area or _explained(c, lone, 1.15):
            continue
        bx, by, bw, bh = cv2.boundingRect(c)
        x0, y0 = max(0, math.floor((bx - 2) / work.scale)), max(0, math.floor((by - 2) / work.scale))
        x1, y1 = min(w, math.ceil((bx + bw + 2) / work.scale)), min(h, math.ceil((by + bh + 2) / work.scale))
        roi = image[y0:y1, x0:x1]
        grey = roi if roi.ndim == 2 else cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
        smooth = cv2.GaussianBlur(grey, (0, 0), p.full_blur)
        edges = cv2.Canny(smooth, p.full_canny_low, p.full_canny_high)
        wx0, wy0 = x0 * work.scale, y0 * work.scale
        to_roi = np.array([[1 / work.scale, 0, -x0], [0, 1 / work.scale, -y0]], np.float64)
        cards = cv2.warpAffine(work.union, to_roi, (x1 - x0, y1 - y0), flags=cv2.INTER_NEAREST)
        region = cv2.bitwise_and(cards, cv2.bitwise_not(cv2.dilate(edges, cross)))
        # thin leaks past a gap in an outline break open
        region = cv2.morphologyEx(region, cv2.MORPH_OPEN, opening)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        scale2 = work.scale * work.scale
        for part in contours:
            if not min_area * 0.7 <= cv2.contourArea(part) * scale2 <= max_area:
                continue
            quad = _lone_quad(part, p)
            if quad is None:
                continue
            quad = quad * work.scale + np.array([wx0, wy0])
            short, _ = side_lengths(quad)
            if _off_cards(quad, work, 3.0 / max(short, 1.0)) < p.min_outside:
                continue  # a frame printed on a card's face, not a card
            if all(quad_distance(quad, o) >= p.duplicate_distance * short for o in lone + found):
                found.append(quad)
    return found


def _several_cards(quad: FloatArray, work: Work, p: FindParams) -> bool:
    """Whether a card-shaped outline holds a row of cards: its card pixels, cut apart by fine
    edges, fall into large parts side by side (each spanning the quad one way, parts of it the
    other way) and abutting, as overlapping cards of a shown hand do.  A face's printed frame
    does not: its parts nest inside one another, and where a thin end margin breaks, its two
    side margins lie far apart (``row_gap``)."""
    x, y, w, h = cv2.boundingRect(np.round(quad).astype(np.int32))
    H, W = work.split.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    offset = np.array([x0, y0], np.float64)
    inside = poly_mask(quad - offset, (y1 - y0, x1 - x0))
    parts = cv2.bitwise_and(work.split[y0:y1, x0:x1], inside)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(parts, connectivity=4)
    area = float(cv2.contourArea(quad.astype(np.float32)))
    if np.count_nonzero(stats[1:count, cv2.CC_STAT_AREA] >= p.row_part * area) < 2:
        return False  # a row needs two large parts side by side
    e1, e2 = quad[1] - quad[0], quad[3] - quad[0]
    basis = np.linalg.inv(np.stack([e1, e2], axis=1))
    extents: list[tuple[float, float, float, float]] = []
    for k in range(1, count):
        if stats[k, cv2.CC_STAT_AREA] < p.row_part * area:
            continue
        ys, xs = np.nonzero(labels == k)
        uv = basis @ (np.stack([xs, ys]).astype(np.float64) + offset[:, None] - quad[0][:, None])
        lo = uv.min(axis=1)
        hi = uv.max(axis=1)
        extents.append((float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])))
    for i in range(len(extents)):
        for j in range(i + 1, len(extents)):
            for axis in (0, 1):
                a0, a1 = extents[i][2 * axis], extents[i][2 * axis + 1]
                b0, b1 = extents[j][2 * axis], extents[j][2 * axis + 1]
                o0, o1 = extents[i][2 - 2 * axis], extents[i][3 - 2 * axis]
                q0, q1 = extents[j][2 - 2 * axis], extents[j][3 - 2 * axis]
                overlap = min(a1, b1) - max(a0, b0)
                # each part runs from end to end of the quad (a frame printed on a face stops short)
                ends = 1.0 - p.row_span
                spans = max(o0, q0) <= ends and min(o1, q1) >= 1.0 - ends
                spans = spans and min(a1 - a0, b1 - b0) >= p.row_width  # not a face's border strip
                # side by side, abutting: not the two side margins of one face far apart
                beside = -p.row_gap <= overlap < p.row_overlap * min(a1 - a0, b1 - b0)
                if spans and beside:
                    return True
    return False


def _off_cards(quad: FloatArray, work: Work, grow: float) -> float:
    """Fraction of the outline of ``quad``, grown by ``grow`` (relative), that lies off card pixels."""
    centre = quad.mean(axis=0)
    grown = centre + (quad - centre) * (1.0 + grow)
    t = np.linspace(0.05, 0.95, 16)[:, None]
    pts = np.concatenate([grown[k] + (grown[(k + 1) % 4] - grown[k]) * t for k in range(4)])
    h, w = work.union.shape[:2]
    xs = np.clip(np.round(pts[:, 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.round(pts[:, 1]).astype(np.intp), 0, h - 1)
    return float((work.union[ys, xs] == 0).mean())


def _explained(
    contour: Arr, cards: list[FloatArray], max_ratio: float, polygons: list[tuple[Arr, float]] | None = None
) -> bool:
    """Whether an outline lies on one of ``cards`` (its box centre inside the card) and is at most
    ``max_ratio`` times that card's area: then it is that card, or a part of it.  ``polygons``
    are ``_polygon`` of each of ``cards`` when the caller keeps them (a loop over many outlines)."""
    if not cards:
        return False
    x, y, w, h = cv2.boundingRect(contour)
    centre = (x + w / 2.0, y + h / 2.0)
    area = cv2.contourArea(contour)
    for poly, poly_area in polygons if polygons is not None else map(_polygon, cards):
        if cv2.pointPolygonTest(poly, centre, False) >= 0 and area <= max_ratio * poly_area:
            return True
    return False


def _polygon(quad: FloatArray) -> tuple[Arr, float]:
    """``quad`` as an OpenCV float32 polygon, and its area."""
    poly = quad.astype(np.float32).reshape(-1, 1, 2)
    return poly, float(cv2.contourArea(poly))


def _split_cards(
    work: Work, outlines: dict[str, list[Arr]], lone: list[FloatArray], p: FindParams
) -> list[FloatArray]:
    """Lone cards plus the cards rebuilt from corners where card pixels are left unexplained."""
    area = float(work.grey.shape[0] * work.grey.shape[1])
    min_area = p.min_card_area * area
    corners: list[Corner] = []
    polygons = [_polygon(q) for q in lone]
    for name in ("union", "split"):
        for c in outlines[name]:
            if cv2.contourArea(c) >= p.min_part_area * min_area and not _explained(c, lone, 1.15, polygons):
                corners.extend(corners_of(np.round(_dense(c)).astype(np.int32).reshape(-1, 1, 2), p))
    if not corners:
        return list(lone)  # every cluster of card pixels is explained by lone cards
    max_area = p.max_card_area * area
    # Print enclosed by a card's paper (coloured art, a pip) lies on a card too; a hole that
    # could hold a card is table enclosed by cards.
    cards = work.union.copy()
    contours, hierarchy = cv2.findContours(work.union, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        holes = [
            c
            for c, link in zip(contours, hierarchy[0], strict=True)
            if link[3] != -1 and cv2.contourArea(c) < min_area
        ]
        cv2.drawContours(cards, holes, -1, 255, cv2.FILLED)
    big = [c for c in outlines["union"] if cv2.contourArea(c) >= p.min_part_area * min_area]
    min_short = math.sqrt(min_area / p.card_aspect)
    whole = None
    if p.card_size_px is None and not lone and corners:
        # no lone card to tell the size: the top card of a pile shows its whole outline
        # a card fits in its cluster of cards: no wider than the cluster's narrowest extent
        widest = max(min(cv2.minAreaRect(c)[1]) for c in big) if big else 0.0
        max_short = min(widest, math.sqrt(max_area / p.card_aspect))
        whole = whole_card_size(corners, min_short, max_short, work, cards, p)
    if p.card_size_px is not None:
        shorts = [p.card_size_px[0] * work.scale]
    elif whole is not None:
        shorts = [whole] + [whole * (1.0 + step) for step in p.size_steps]
    else:
        shorts = candidate_sizes(lone, corners, min_short, p)
    shorts = [s for s in shorts if min_area <= s * s * p.card_aspect <= max_area]
    if not lone and p.card_size_px is None and whole is None and shorts:
        # the size is a guess from the longest side seen: other sizes may be tried (``find_ladder``)
        work.guesses.append(SizeGuess(tuple(corners), cards, shorts[0]))
    chosen = list(lone)
    if shorts and corners:
        choose(chosen, hypotheses(corners, shorts, work, cards, p), cards, p)
    return chosen


def find_separate(image: Image, params: FindParams, work: Work) -> list[FoundCard] | None:
    """The cards of a frame of separate cards, as ``find_cards(image, params, work, scores=False)``
    finds them, when every card is a lone card outlined by the card-pixel passes (the work
    image's own denoised cuts not needed, no faint edges), every cluster of card pixels is
    explained by one of them and none is dropped for its size; ``None`` for any other frame
    (nothing found, piles, fans, touching cards, cards hardly lighter than the table), which
    ``find_cards`` looks at in full."""
    return _find(image, params, work, False, separate=True)


def _unexplained(work: Work, outlines: dict[str, list[Arr]], lone: list[FloatArray], p: FindParams) -> bool:
    """Whether some cluster or visible part of card pixels large enough to give a card corner
    (``_split_cards``) is explained by no lone card."""
    area = float(work.grey.shape[0] * work.grey.shape[1])
    least = p.min_part_area * p.min_card_area * area
    polygons = [_polygon(q) for q in lone]
    return any(
        cv2.contourArea(c) >= least and not _explained(c, lone, 1.15, polygons)
        for name in ("union", "split")
        for c in outlines[name]
    )


def find_cards(
    image: Image, params: FindParams, work: Work | None = None, scores: bool = True
) -> list[FoundCard]:
    """Find every card in a BGR (or grey) uint8 frame.

    ``work`` is the frame's work image (``make_work(image, params)``) when the caller
    made it already (to look at it again afterwards), else it is made here.  With
    ``scores`` false every card's ``score`` is 0.0: the outline's visibility is measured only
    where a decision needs it (the cards found are the same).

    Returns the cards found, each with canonically ordered corners in frame
    pixels and its ``top`` flag; an empty list when there is no card.  The image
    is not checked here (``scanner.scan.Scanner`` validates frames); a malformed
    array raises whatever OpenCV raises (``cv2.error``).
    """
    work = make_work(image, params) if work is None else work
    found = _find(image, params, work, scores, separate=False)
    assert found is not None  # only a look at separate cards gives up
    return found


def _find(
    image: Image, params: FindParams, work: Work, scores: bool, separate: bool
) -> list[FoundCard] | None:
    """``find_cards``; with ``separate``, ``find_separate``."""
    # how much of each quad's outline shows, measured once per quad (faint check, size check, score)
    measured: dict[int, tuple[FloatArray, float | None]] = {}

    def shown(quad: FloatArray) -> float | None:
        kept = measured.get(id(quad))
        if kept is None or kept[0] is not quad:
            kept = (quad, side_visibility(quad, work, None, params))
            measured[id(quad)] = kept
        return kept[1]

    outlines = _outlines(work, params)
    slanted: list[FloatArray] = []  # the quads outlined only as cards seen at a slant
    lone_cards = _lone_cards(work, outlines, params, slanted=slanted, rough_only=separate)
    if lone_cards is None:
        return None  # a rough outline that no card explains: not a frame of separate cards alone
    lone = lone_cards
    # no card, or none clearly lighter than its table
    doubtful = not lone or all(_doubtful(q, shown(q), work, params) for q in lone)
    if separate and (doubtful or _unexplained(work, outlines, lone, params)):
        return None
    faint: Faint | None = None
    if doubtful:
        # a card hardly lighter than its table: the regions its faint edges enclose
        faint = make_faint(work, params)
        area = float(work.grey.shape[0] * work.grey.shape[1])
        outlines["faint"] = _region_outlines(
            faint.regions, params.min_card_area * area, params.max_card_area * area, params
        )
        faint_lone = _lone_cards(work, outlines, params, (("faint", True),), faint.edges, slanted)
        lone = _dedupe(lone + (faint_lone or []), params)
    if separate:
        quads = list(lone)  # every cluster explained: nothing to cut out nor to rebuild
    else:
        lone += _lone_in_clusters(image, work, outlines, lone, params)
        if params.complete_hand:  # a card a hand cuts: the whole card from its sides in view
            lone += hand_cut_lone(outlines["split"], lone, work, params, _dense)
        quads = _split_cards(work, outlines, lone, params)
    if faint is not None and not lone and all((shown(q) or 0.0) < params.line_below for q in quads):
        lined = _lone_by_lines(work, faint.edges, params)
        # cards rebuilt from corners on a card bounded by lines are its print
        quads = lined + [q for q in quads if not any(_overlap(q, card) for card in lined)]
    if quads and params.flat_weak_below > 0.0 and params.flat_fallback and faint is not None and not lone:
        # only scraps, none outlined well: a shadow may cut a card's outline into them
        quads = _weak_in_shade(image, work, quads, shown, params)
    if not quads and params.flat_fallback:
        # no card at all: a shadow band may cut every card's outline; look once more with the
        # table's light divided out
        # (``flat_work`` does not read ``flat_fallback``: the parameters without the look are made
        # only when the look is taken)
        flat = flat_work(image, work, params)
        if flat is not None:
            plain = replace(params, flat_fallback=False)
            looked = find_cards(image, plain, flat, scores)
            if looked or params.flat_faint_factor >= 1.0:
                return looked
            # still nothing: a card's side the shadow's edge crosses may show only as a weaker edge
            factor = params.flat_faint_factor
            fainter = replace(
                plain,
                faint_canny_low=params.faint_canny_low * factor,
                faint_canny_high=params.faint_canny_high * factor,
            )
            return find_cards(image, fainter, flat, scores)
    kept = _of_one_size(quads, shown, params)
    if separate and len(kept) < len(quads):
        return None
    quads = kept
    tops = mark_tops(quads, work, params)
    radius = math.ceil(params.refine_radius / work.scale)
    found: list[FoundCard] = []
    for quad, top in zip(quads, tops, strict=True):
        frame_quad = refine_in_frame(quad / work.scale, image, radius, params)
        show = shown(quad) if scores else None
        score = 0.0 if show is None else show
        found.append(
            FoundCard(
                corners=as_quad(order_corners(frame_quad)),
                top=top,
                score=score,
                slanted=any(quad is q for q in slanted),
            )
        )
    log.debug("found %d cards (%d lone)", len(found), len(lone))
    return found


def _weak_in_shade(
    image: Image,
    work: Work,
    quads: list[FloatArray],
    shown: Callable[[FloatArray], float | None],
    p: FindParams,
) -> list[FloatArray]:
    """``quads`` (no lone card among them), with the cards bounded by lines in the frame with the
    table's light divided out (``flat_work``) put in place of the quads they overlap, when every
    quad shows less than ``flat_weak_below`` of its outline (scraps of print and shadow: a shadow
    across a card on a light table cuts its outline, and its edges run on past the card's
    corners) and the light is uneven."""
    if any((shown(q) or 0.0) >= p.flat_weak_below for q in quads):
        return quads
    flat = flat_work(image, work, p)
    if flat is None:
        return quads
    lined = _lone_by_lines(flat, make_faint(flat, p).edges, p)
    return lined + [q for q in quads if not any(_overlap(q, card) for card in lined)]


def refine_in_frame(quad: FloatArray, image: Image, radius: int, p: FindParams) -> FloatArray:
    """Refine a frame-pixel quad on the grey of just the part of the frame around it."""
    h, w = image.shape[:2]
    pad = radius + 3
    x0 = max(0, math.floor(quad[:, 0].min()) - pad)
    y0 = max(0, math.floor(quad[:, 1].min()) - pad)
    x1 = min(w, math.ceil(quad[:, 0].max()) + pad)
    y1 = min(h, math.ceil(quad[:, 1].max()) + pad)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return quad
    roi = image[y0:y1, x0:x1]
    grey = roi if roi.ndim == 2 else cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
    offset = np.array([x0, y0], np.float64)
    return refine(quad - offset, grey, radius, p.refine_min_points, p.refine_min_step) + offset


def warp_card(image: Image, corners: Quad, params: FindParams) -> Image:
    """Cut a card out of ``image`` as a portrait ``card_width x card_height`` image.

    ``corners`` are frame pixels in canonical order (TL, TR, BR, BL of the
    portrait card).  The result has the image's channels (BGR or grey).  With
    ``params.mirrored`` (a camera that delivers mirror images) the cut-out is
    flipped left to right, so the card reads as it is printed.

    Raises:
        ValueError: ``corners`` is not four finite points.
    """
    w, h = params.card_width, params.card_height
    matrix = card_matrix(corners, params)
    warped = cv2.warpPerspective(
        image, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    if params.mirrored:
        warped = cv2.flip(warped, 1)
    return np.asarray(warped, dtype=np.uint8)


def other_way(corners: Quad, params: FindParams) -> Quad | None:
    """The same card with its other sides as the short ones (the corners taken from the next
    one), when ``corners`` are nearly square (long sides under ``params.square_aspect`` times
    the short ones: which way the card lies cannot be told from its outline); else ``None``."""
    short, long = side_lengths(np.asarray(corners, dtype=np.float64))
    if short <= 0 or long >= params.square_aspect * short:
        return None
    return (corners[1], corners[2], corners[3], corners[0])


def card_matrix(corners: Quad, params: FindParams) -> np.ndarray:
    """The perspective matrix from frame pixels to the portrait card's pixels.

    Raises:
        ValueError: ``corners`` is not four finite points.
    """
    src = np.asarray(corners, dtype=np.float32)
    if src.shape != (4, 2) or not np.all(np.isfinite(src)):
        raise ValueError(f"corners must be four finite (x, y) points, got {corners!r}")
    w, h = params.card_width, params.card_height
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)


def warp_card_box(
    image: Image,
    corners: Quad,
    params: FindParams,
    box: tuple[int, int, int, int],
    step: int = 1,
    matrix: np.ndarray | None = None,
) -> Image:
    """The pixels ``[y0:y1:step, x0:x1:step]`` of the portrait card ``warp_card`` cuts out
    (``box`` = ``(x0, y0, x1, y1)``, inside the card), warped on their own: a few parts of a
    card cost a fraction of the whole.  The values equal the whole card's up to the rounding of
    the sampling position (a step of one grey level at a few pixels in ten thousand).
    ``matrix`` is ``card_matrix(corners, params)`` when the caller has it already.

    Raises:
        ValueError: ``corners`` is not four finite points, ``params.mirrored`` is set (the
            whole card is flipped after warping), or ``box`` is empty or reaches beyond the card.
    """
    x0, y0, x1, y1 = box
    if (
        params.mirrored
        or step < 1
        or not (0 <= x0 < x1 <= params.card_width and 0 <= y0 < y1 <= params.card_height)
    ):
        raise ValueError(
            f"a card box must lie inside the {params.card_width}x{params.card_height} card of an "
            f"unmirrored camera, got box {box}, step {step}, mirrored={params.mirrored}"
        )
    shift = np.array([[1.0 / step, 0.0, -x0 / step], [0.0, 1.0 / step, -y0 / step], [0.0, 0.0, 1.0]])
    size = ((x1 - x0 + step - 1) // step, (y1 - y0 + step - 1) // step)
    warped = cv2.warpPerspective(
        image,
        shift @ (card_matrix(corners, params) if matrix is None else matrix),
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(warped, dtype=np.uint8)
