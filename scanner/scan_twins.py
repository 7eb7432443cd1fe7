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

Two readings of one name whose read corners lie only a little inside each other
(``FindParams.twin_inside_joined``) are one card as well when the card between the
two read corners has a card's shape: a card named at both its index corners and
laid out too large from each (a frame's card size taken from cards nearer the
camera) reaches just past the other read corner.  Of two distinct cards of one
name (an Octoplus deck holds several of each), the lower one's read corner lies
outside the upper one.

A card not named whose outline starts at the read index corner of a card named
from that corner (laid out at the frame's card size), its sides along the named
card's (``FindParams.outline_corner``, ``outline_turn``), is another outline of
that card (the finder's, at another size): it is dropped, so that one card is one
detection, and the named card counts as found whole when that outline was.
"""

from __future__ import annotations

import numpy as np

from scanner.find_geometry import FloatArray, point_depth, side_lengths
from scanner.params import FindParams
from scanner.types import Detection, Quad

__all__ = ["drop_outlines", "merge_twins"]


def are_twins(a: Detection, b: Detection, p: FindParams) -> bool:
    """Whether ``a`` and ``b``, both named, were read each where the other lies: the first
    corner of each lies at least ``twin_inside`` of its short side inside the other, or, named
    alike, ``twin_inside_joined`` inside with the card between the read corners of a card's
    shape (``joined``)."""
    if a.card is None or b.card is None:
        return False
    if _off_box(a.corners[0], b.corners) or _off_box(b.corners[0], a.corners):
        return False  # a read corner outside the other outline: its depth is below 0, so no twins
    qa = np.asarray(a.corners, np.float64)
    qb = np.asarray(b.corners, np.float64)
    short = min(side_lengths(qa)[0], side_lengths(qb)[0])
    depth = min(point_depth(qa[0], qb), point_depth(qb[0], qa))
    if depth >= p.twin_inside * short:
        return True
    return a.card == b.card and depth >= p.twin_inside_joined * short and joined(a, b, p) is not None


def _off_box(point: tuple[float, float], corners: Quad) -> bool:
    """Whether ``point`` lies more than a pixel outside the bounding box of ``corners``: then it
    lies outside their outline (a test in plain floats, before the polygon's depth is measured)."""
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    x, y = point
    return x < min(xs) - 1.0 or x > max(xs) + 1.0 or y < min(ys) - 1.0 or y > max(ys) + 1.0


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


def _direction(vector: FloatArray) -> float:
    """The direction of ``vector`` in degrees, 0..360."""
    return float(np.degrees(np.arctan2(vector[1], vector[0]))) % 360.0


def _turn(a: float, b: float) -> float:
    """The angle between two directions (degrees), 0..180."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


def is_outline_of(unnamed: Detection, named: Detection, p: FindParams) -> bool:
    """Whether ``unnamed`` (a card not named) is another outline of the card ``named``: one of its
    corners lies within ``outline_corner`` of the short side of ``named``'s read index corner,
    and the two sides leaving that corner run along ``named``'s two sides leaving its read
    corner, each within ``outline_turn`` degrees."""
    if unnamed.card is not None or named.card is None:
        return False
    qn = np.asarray(named.corners, np.float64)
    qu = np.asarray(unnamed.corners, np.float64)
    short = min(side_lengths(qn)[0], side_lengths(qu)[0])
    gaps = np.hypot(*(qu - qn[0]).T)
    k = int(np.argmin(gaps))
    if float(gaps[k]) > p.outline_corner * short:
        return False
    arms = [_direction(qn[1] - qn[0]), _direction(qn[3] - qn[0])]
    own = [_direction(qu[(k + 1) % 4] - qu[k]), _direction(qu[(k - 1) % 4] - qu[k])]
    return all(min(_turn(arm, other) for other in own) <= p.outline_turn for arm in arms)


def drop_outlines(
    detections: list[Detection], whole: set[int], p: FindParams
) -> tuple[list[Detection], set[int]]:
    """``detections`` without the cards not named that are another outline of a card named from
    a corner (``is_outline_of``; a named card whose ``id`` is not in ``whole``), and the ``id`` of
    each such named card one of whose outlines so dropped was found whole (its ``id`` in
    ``whole``): the finder saw that card's outline.

    A card found whole and named has an outline of its own: an unnamed outline at its corner is
    another card (the card under it in a neat pile)."""
    named = [d for d in detections if d.card is not None and id(d) not in whole]
    kept: list[Detection] = []
    heirs: set[int] = set()
    for d in detections:
        owners = [n for n in named if is_outline_of(d, n, p)]
        if not owners:
            kept.append(d)
        elif id(d) in whole:
            heirs |= {id(n) for n in owners}
    return kept, heirs
