"""A card of a pile or fan that no outline covers, fitted over its cluster of cards.

Where two cards lie a little apart (a fan of two, a pile whose top card was dropped
off-centre), their card pixels make one region that is no quad, and the finder may
outline only the card under (read at its index corner, which peeks out) and not the
card over it.  The detections then leave part of the cluster of touching cards
(``Work.union``) uncovered: a card's worth of card pixels that no outline holds.

So, per cluster holding a card named from a corner alone (its whole outline not found: a
cluster whose cards were all outlined whole is left alone), when the card pixels that no
detection's outline covers come to ``FindParams.top_uncovered_share`` of a card's area or
more, the outline of the frame's card size whose sides show best as edges over the whole
cluster (``scanner.find_top`` fits, turned about the directions of the cluster's outlines)
is read; a card named there joins the detections, marked top (the top flags are worked out
again over all of them afterwards), unless it lies within ``top_refit_moved`` of an outline
read already or names the card of a named outline holding its centre (that card read again
a little off).  At most ``top_uncovered_max`` clusters a frame are fitted; a frame of
separate cards found whole pays for none of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from scanner.find_geometry import FloatArray, holds, side_angle, side_lengths
from scanner.find_top import fit_card, outline_distance
from scanner.find_work import Work
from scanner.params import FindParams
from scanner.types import Detection

__all__ = ["uncovered_cards"]


def _uncovered(outline: np.ndarray, quads: list[FloatArray]) -> int:
    """How many pixels of the cluster ``outline`` (filled) none of ``quads`` holds."""
    x, y, w, h = cv2.boundingRect(outline)
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [outline], -1, 1, -1, offset=(-x, -y))
    for quad in quads:
        cv2.fillConvexPoly(mask, np.round(quad - (x, y)).astype(np.int32), 0)
    return int(np.count_nonzero(mask))


def uncovered_cards(
    detections: list[Detection],
    work: Work,
    p: FindParams,
    short: float | None,
    read: Callable[[FloatArray], Detection | None],
    whole: set[int],
) -> list[Detection]:
    """``detections`` and the cards named over the clusters they leave uncovered (see the module
    docstring); ``short``: the frame's card short side in work pixels (``None``: unknown, no
    cluster is fitted); ``read``: the card read on an outline in work pixels, or ``None``;
    ``whole``: the ``id`` of the detections whose whole outline was found (the others were
    named from a corner alone)."""
    cornered = [d.card is not None and id(d) not in whole for d in detections]
    if short is None or p.top_uncovered_max == 0 or not any(cornered):
        return detections
    quads = [np.asarray(d.corners, np.float64) * work.scale for d in detections]
    card_area = short * short * p.card_aspect
    out = list(detections)
    fitted = 0
    for outline in work.union_outlines:
        if fitted >= p.top_uncovered_max:
            break
        if cv2.contourArea(outline) < p.top_uncovered_share * card_area:
            continue
        members = [
            k
            for k, q in enumerate(quads)
            if cv2.pointPolygonTest(outline, (float(q[:, 0].mean()), float(q[:, 1].mean())), False) >= 0
        ]
        if not any(cornered[k] for k in members):
            continue  # every card of it outlined whole, or none named
        if _uncovered(outline, [quads[k] for k in members]) < p.top_uncovered_share * card_area:
            continue
        fitted += 1
        hull = cv2.convexHull(outline).reshape(-1, 2).astype(np.float64)
        angles: list[float] = []
        for k in members:
            a = side_angle(quads[k][0], quads[k][1])
            if all(
                abs(math.remainder(a - b, math.pi / 2)) > math.radians(p.top_refit_turn_step) for b in angles
            ):
                angles.append(a)
        best = fit_card(hull, angles, short, work, p)
        if best is None:
            continue
        rect = best[1]
        if any(outline_distance(rect, q) < p.top_refit_moved * side_lengths(rect)[0] for q in quads):
            continue  # an outline read already
        again = read(rect)
        centre = rect.mean(axis=0) / work.scale
        if again is None or any(
            d.card == again.card and holds(np.asarray(d.corners, np.float64), centre) for d in out
        ):
            continue  # nothing read, or a named card read again a little off its outline
        out.append(again)
    return out
