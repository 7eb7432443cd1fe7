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
from scanner.find_work import Work
from scanner.identify_colour import grey
from scanner.params import FindParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card

__all__ = ["print_over"]

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
