"""Two named cards that are one card read twice: each read where the other lies.

A card is named at an index corner: a detection's first corner is where its index
was read.  Of two distinct cards that overlap, the lower one shows its index
only outside the upper one, so the corner it was read at lies outside the upper
card's outline; the upper one's corner may lie on the lower card.  Two
detections whose read corners each lie well inside the other's outline
(``FindParams.twin_inside`` of the short side) are therefore one card read at
both its index corners (an outline rebuilt at a size a little off from each
end), or one index read twice:

- named alike, they become one card: the card whose opposite index corners are
  the two read corners, its sides along the better reading's, when that is of a
  card's shape (``FindParams.twin_aspect_tolerance``); else the better reading
  alone.  A card read at both its index corners shows its whole outline: it is
  on top unless the cards over it say otherwise (``scanner.scan._retop``);
- named differently, the two readings of one index disagree: the better one is
  kept and the other is dropped.
"""

from __future__ import annotations

import numpy as np

from scanner.find_geometry import point_depth, side_lengths
from scanner.params import FindParams
from scanner.types import Detection, Quad

__all__ = ["merge_twins"]


def are_twins(a: Detection, b: Detection, p: FindParams) -> bool:
    """Whether ``a`` and ``b``, both named, were read each where the other lies: the first
    corner of each lies at least ``twin_inside`` of its short side inside the other."""
    if a.card is None or b.card is None:
        return False
    qa = np.asarray(a.corners, np.float64)
    qb = np.asarray(b.corners, np.float64)
    short = min(side_lengths(qa)[0], side_lengths(qb)[0])
    margin = p.twin_inside * short
    return point_depth(qa[0], qb) >= margin and point_depth(qb[0], qa) >= margin


def joined(a: Detection, b: Detection, p: FindParams) -> Quad | None:
    """The card whose opposite index corners are the read corners of ``a`` and ``b``, its sides
    along ``a``'s; ``None`` when it is not of a card's shape (its long side within
    ``twin_aspect_tolerance`` of ``card_aspect`` times its short side)."""
    qa = np.asarray(a.corners, np.float64)
    start = qa[0]
    end = np.asarray(b.corners[0], np.float64)
    u = qa[1] - qa[0]
    v = qa[3] - qa[0]
    basis = np.stack([u, v], axis=1)
    if abs(float(np.linalg.det(basis))) < 1e-9:
        return None
    s, t = np.linalg.solve(basis, end - start)
    if s <= 0 or t <= 0:
        return None
    side_u = float(s * np.hypot(*u))
    side_v = float(t * np.hypot(*v))
    short, long = min(side_u, side_v), max(side_u, side_v)
    if short <= 0 or abs(long / short / p.card_aspect - 1.0) > p.twin_aspect_tolerance:
        return None
    corners = (start, start + s * u, end, start + t * v)
    (w, x, y, z) = ((float(c[0]), float(c[1])) for c in corners)
    return (w, x, y, z)


def merge_twins(detections: list[Detection], p: FindParams) -> tuple[list[Detection], set[int]]:
    """``detections`` with each pair of twins (``are_twins``) made one card, best confidence first,
    and the ``id`` of each card made from two readings of one name (read at both its index
    corners: its whole outline shows)."""
    order = sorted(range(len(detections)), key=lambda k: -detections[k].confidence)
    out: dict[int, Detection] = dict(enumerate(detections))
    whole: set[int] = set()
    for k in order:
        if k not in out or out[k].card is None:
            continue
        for j in order:
            if j == k or j not in out or not are_twins(out[k], out[j], p):
                continue
            better, other = out[k], out[j]
            del out[j]
            if better.card == other.card:
                corners = joined(better, other, p)
                if corners is not None:
                    better = Detection(
                        card=better.card,
                        confidence=max(better.confidence, other.confidence),
                        corners=corners,
                        top=True,
                        runner_up=better.runner_up,
                        runner_up_confidence=better.runner_up_confidence,
                    )
                    out[k] = better
                    whole.add(id(better))
    return [out[k] for k in sorted(out)], whole
