"""Which of two named cards lies over the other, told by the print where they overlap.

Where two cards overlap, only the upper card's face shows: the pixels there
follow the upper card's print (its frame, numeral, pips) and not the lower
card's.  Once both cards are named, each one's template face is laid onto the
frame along its outline and compared with the frame where the two outlines
overlap (normalised correlation of the grey values); the card whose face agrees
clearly better (``FindParams.top_print_margin``) lies over the other.

The sides alone can be fooled where the print of the upper card runs along the
side of the card under it (an Octoplus face's printed frame lies about as far in
from its side as a fan's next card is shifted), and the index box alone decides
only where the index was read inside the other card; the print of the whole
overlap decides in both cases.  A pair whose overlap is small, or where neither
template has print to compare (``top_print_min_spread``), stays undecided.
"""

from __future__ import annotations

import logging

import cv2
import numpy as np

from scanner.find_geometry import Arr, FloatArray
from scanner.find_top import index_box, inside_by
from scanner.find_work import Work
from scanner.identify_colour import grey
from scanner.params import FindParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card

__all__ = ["index_ink", "index_shown", "print_over"]

log = logging.getLogger(__name__)


def _laid(face: Image, quad: FloatArray, origin: tuple[int, int], size: tuple[int, int]) -> FloatArray:
    """The grey ``face`` (a canonical card, TL TR BR BL upright) laid onto the frame along
    ``quad`` (work pixels), seen through the window at ``origin`` of ``size`` (w, h)."""
    w = face.shape[1]
    short = float(np.linalg.norm(quad[1] - quad[0]))
    long_ = float(np.linalg.norm(quad[3] - quad[0]))
    # shrink the face near the card's size first: a perspective warp does not average
    sw, sh = max(8, round(short)), max(8, round(long_))
    small = cv2.resize(face, (sw, sh), interpolation=cv2.INTER_AREA) if sw < w else face
    fw, fh = small.shape[1], small.shape[0]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    dst = (quad - np.array(origin, np.float64)).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    laid = cv2.warpPerspective(small, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(laid, np.float64)


def _detail(image: FloatArray, short: float, p: FindParams) -> FloatArray:
    """``image`` less its slow shading (a blur over ``top_print_shading`` of a card's short
    side ``short``): print, not light falling off or glare."""
    sigma = max(1.0, p.top_print_shading * short)
    return np.asarray(image - cv2.GaussianBlur(image, (0, 0), sigma), np.float64)


def _correlation(a: FloatArray, b: FloatArray) -> float:
    """Normalised correlation of two equal-length samples (0 when either is flat)."""
    a = a - a.mean()
    b = b - b.mean()
    norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / norm if norm > 1e-9 else 0.0


def print_over(
    quads: list[FloatArray],
    cards: list[Card | None],
    templates: Templates,
    work: Work,
    p: FindParams,
    pairs: list[tuple[int, int]],
) -> Arr:
    """``over[i, j]``: of the overlapping ``pairs`` of named cards (``quads`` in work pixels, TL
    TR BR BL as the face reads upright), card ``i``'s template face agrees with the frame where
    the two overlap better than card ``j``'s by ``top_print_margin``: ``i`` lies over ``j``.

    The overlap is the two outlines' intersection eroded by ``top_print_inset`` of the smaller
    card's short side, and is compared only when it covers ``top_print_min_overlap`` of the
    smaller card and at least one face laid there has a spread of ``top_print_min_spread`` grey
    levels (print to compare, not blank paper)."""
    n = len(quads)
    over = np.zeros((n, n), bool)
    h, w = work.grey.shape[:2]
    faces: dict[Card, Image] = {}
    for i, j in pairs:
        ci, cj = cards[i], cards[j]
        if ci is None or cj is None or ci == cj:
            continue
        area, inter = cv2.intersectConvexConvex(quads[i].astype(np.float32), quads[j].astype(np.float32))
        if inter is None or len(inter) < 3:
            continue
        smaller = min(float(cv2.contourArea(quads[k].astype(np.float32))) for k in (i, j))
        if area < p.top_print_min_overlap * smaller:
            continue
        poly = inter.reshape(-1, 2).astype(np.float64)
        x0, y0 = np.maximum(np.floor(poly.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(poly.max(axis=0)).astype(int) + 1, (w, h))
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round(poly - (x0, y0)).astype(np.int32), 1)
        short = min(min(np.linalg.norm(np.roll(quads[k], -1, axis=0) - quads[k], axis=1)) for k in (i, j))
        inset = max(1, round(p.top_print_inset * float(short)))
        mask = cv2.erode(mask, np.ones((2 * inset + 1, 2 * inset + 1), np.uint8))
        for k, card in enumerate(cards):
            if card is not None and k not in (i, j):  # a third card may lie over both there
                cv2.fillConvexPoly(mask, np.round(quads[k] - (x0, y0)).astype(np.int32), 0)
        sel = mask > 0
        if sel.sum() < p.top_min_samples:
            continue
        frame = _detail(work.grey[y0:y1, x0:x1].astype(np.float64), short, p)[sel]
        scores: list[float] = []
        spread = 0.0
        for k, card in ((i, ci), (j, cj)):
            if card not in faces:
                faces[card] = grey(templates.faces[card][0])
            laid = _laid(faces[card], quads[k], (int(x0), int(y0)), (int(x1 - x0), int(y1 - y0)))
            laid = _detail(laid, short, p)[sel]
            spread = max(spread, float(laid.std()))
            scores.append(_correlation(frame, laid))
        log.debug("print of %s (%d) / %s (%d) where they overlap: %.3f / %.3f", ci, i, cj, j, *scores)
        if spread < p.top_print_min_spread:
            continue
        if scores[0] >= max(scores[1] + p.top_print_margin, p.top_print_min_score):
            over[i, j] = True
        elif scores[1] >= max(scores[0] + p.top_print_margin, p.top_print_min_score):
            over[j, i] = True
    return over


def _slope(frame: FloatArray, laid: FloatArray) -> float:
    """How strongly ``frame`` follows ``laid`` (least-squares slope of the one on the other): 1
    where the laid print shows as it is, about 0 where something else lies over it."""
    laid = laid - laid.mean()
    spread = float((laid * laid).sum())
    return float((laid * (frame - frame.mean())).sum()) / spread if spread > 1e-9 else 0.0


def index_ink(
    quad: FloatArray,
    other: FloatArray,
    face: Image,
    work: Work,
    p: FindParams,
    third: list[FloatArray] | tuple[FloatArray, ...] = (),
) -> float | None:
    """How much of the print of the index box at ``quad``'s first corner (its template ``face``,
    grey, laid along ``quad``; work pixels) shows where that box lies inside the ``other`` card's
    outline: the slope of the frame on the laid print there (``top_inset`` in from that outline)
    over its slope in the box's part outside the other outline (the print laid up to
    ``top_index_shift`` pixels either way, where that part follows it best), both without the
    pixels within ``top_inset`` of the ``third`` outlines (other named cards: one may lie over
    the box).  About 1 where the index print runs on over the other card (the card lies over it
    there), about 0 where the other card's own pixels cover it.  ``None`` where the print cannot
    tell: the box does not straddle the other card's side (too few pixels either side,
    ``top_min_samples``), the template has no print (a spread of ``top_print_min_spread``) on
    the box's part outside, or that part does not follow the print (normalised correlation under
    ``top_print_min_score``); where the print is seen outside and the template has none inside,
    0 (none of it shows there) with ``top_index_blank``, else ``None``."""
    box = index_box(quad)
    h, w = work.grey.shape[:2]
    x0, y0 = np.maximum(np.floor(box.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(box.max(axis=0)).astype(int) + 2, (w, h))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    origin = np.array([x0, y0], np.float64)
    in_box = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(in_box, np.round(box - origin).astype(np.int32), 1)
    ys, xs = np.nonzero(in_box)
    points = np.stack([xs + x0, ys + y0], axis=1).astype(np.float64)
    inside = inside_by(points, other, p.top_inset)
    outside = ~inside_by(points, other, -p.top_inset)
    for quad_k in third:
        clear = ~inside_by(points, quad_k, -p.top_inset)
        inside &= clear
        outside &= clear
    if inside.sum() < p.top_min_samples or outside.sum() < p.top_min_samples:
        return None
    seen = work.grey[y0:y1, x0:x1].astype(np.float64)[ys, xs]
    # the print laid a few pixels either way (an outline is seldom exact to the pixel): the
    # shift where the box's part outside the other card follows it best
    m = p.top_index_shift
    window = _laid(face, quad, (int(x0) - m, int(y0) - m), (int(x1 - x0) + 2 * m, int(y1 - y0) + 2 * m))
    shifts = [(dx, dy) for dy in range(-m, m + 1) for dx in range(-m, m + 1)]
    fits = [_correlation(seen[outside], window[ys + m - dy, xs + m - dx][outside]) for dx, dy in shifts]
    best = int(np.argmax(fits))
    dx, dy = shifts[best]
    laid = window[ys + m - dy, xs + m - dx]
    if fits[best] < p.top_print_min_score or laid[outside].std() < p.top_print_min_spread:
        return None  # the print not seen outside, or no print there to compare
    if laid[inside].std() < p.top_print_min_spread:
        # the print seen outside, none where the box lies inside: nothing of it shows there
        return 0.0 if p.top_index_blank else None
    reference = _slope(seen[outside], laid[outside])
    if reference <= 0.0:
        return None
    return _slope(seen[inside], laid[inside]) / reference


def index_shown(
    quads: list[FloatArray],
    cards: list[Card | None],
    templates: Templates,
    work: Work,
    p: FindParams,
    over: Arr,
) -> Arr:
    """``over`` (``find_top.index_over``'s answer: card ``i`` read at an index box lying within
    card ``j``'s outline) less the pairs where that box straddles ``j``'s side and the print of
    ``i``'s index where it lies inside ``j``'s outline shows less than ``top_index_ink`` of its
    contrast outside (``index_ink``): ``j``'s own pixels cover it there, so the box half under
    ``j``'s outline is no sign that ``i`` lies over ``j``."""
    out = over.copy()
    if p.top_index_ink <= 0.0:
        return out
    faces: dict[Card, Image] = {}
    for i, j in zip(*np.nonzero(over), strict=True):
        card = cards[i]
        if card is None:
            continue
        if card not in faces:
            faces[card] = grey(templates.faces[card][0])
        third = [q for k, q in enumerate(quads) if k not in (i, j) and cards[k] is not None]
        shown = index_ink(quads[i], quads[j], faces[card], work, p, third)
        log.debug("index of %s (%d) inside %d: print shown %s", card, i, j, shown)
        if shown is not None and shown < p.top_index_ink:
            out[i, j] = False
    return out
