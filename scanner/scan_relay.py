"""A named card of a pile laid out again from the index corner it was read at.

The identifier names a found card from the index at its first corner: that corner is
where the card is, as surely as anything in a frame.  The rest of the outline is the
finder's, and in a pile the finder may have rebuilt it at a size taken from other
cards, or along the sides of the card under it (a neat pile, whose cards lie a few
degrees apart): the card is named right on an outline that lies nearer another card.
Its own outline shows: the top card's sides run as edges along their whole length.

So each named card marked on top that overlaps another outline (``scanner.find_top.overlapping``:
only there can an outline take in another card) is tried again as the outlines of a
card's shape whose first corner is its read corner, at sizes ``FindParams.relay_sizes``
of its own and turned up to ``relay_turn`` degrees from its sides, and (``relay_far_turn``)
where none of those is taken, as those starting at any one of its four corners turned up
to that many degrees, taken on ``relay_far_gain`` (an outline
found may share only one corner with its card, its sides running well off the card's: a
neat pile's cards lie a few degrees apart, and its outline can run along a card under
it); the one whose outline shows best as edges (``scanner.find_split.outline_shown`` on
``Work.edges``) replaces the card's outline when it shows ``relay_gain`` more of its
length than the card's own and lies ``relay_moved`` of the short side from it.  The name, the
confidence and the read corner are kept.  A frame of separate cards never pays for it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from scanner.find_geometry import FloatArray, as_quad, side_lengths, spaced
from scanner.find_split import outline_shown
from scanner.find_top import outline_distance, overlapping
from scanner.find_work import Work
from scanner.params import FindParams
from scanner.types import Detection

__all__ = ["anchored_outlines", "relay_named"]

_ORDER = {c: np.argsort([c, c ^ 1, (c + 2) % 4, 3 - c]) for c in range(4)}
"""Per anchor corner, the order that puts an outline built from it back into its quad's order."""


def anchored_outlines(
    quad: FloatArray, p: FindParams, turn: float | None = None, first: int = 0
) -> FloatArray:
    """The outlines (an (N, 4, 2) stack, ``quad``'s pixels, each in ``quad``'s corner order) of
    a card's shape (``card_aspect``) whose corner ``first`` (default the first: the read index
    corner) is ``quad``'s and whose sides run as ``quad``'s (the short side from corner 0 to 1)
    turned by up to ``turn`` (default ``relay_turn``) degrees, of short sides ``relay_sizes`` of
    ``quad``'s own in steps of ``relay_size_step``."""
    turn = p.relay_turn if turn is None else turn
    start = np.asarray(quad[first], np.float64)
    across = np.asarray(quad[first ^ 1], np.float64) - start
    down = np.asarray(quad[3 - first], np.float64) - start
    hand = 1.0 if across[0] * down[1] - across[1] * down[0] >= 0 else -1.0
    base = math.atan2(float(across[1]), float(across[0]))
    own = side_lengths(np.asarray(quad, np.float64))[0]
    low, high = p.relay_sizes
    shorts = own * spaced(low, high, round((high - low) / p.relay_size_step) + 1)
    steps = int(turn // p.relay_turn_step)
    out: list[FloatArray] = []
    for k in range(-steps, steps + 1):
        angle = base + math.radians(k * p.relay_turn_step)
        u = np.array([math.cos(angle), math.sin(angle)])
        v = hand * np.array([-u[1], u[0]])
        for short in shorts:
            w, h = u * short, v * short * p.card_aspect
            rect = np.array([start, start + w, start + w + h, start + h])
            out.append(rect[_ORDER[first]])
    return np.stack(out)


def relay_named(
    detections: list[Detection], work: Work, p: FindParams, whole: set[int] | None = None
) -> list[Detection]:
    """``detections`` with each named card marked ``top`` that overlaps another outline laid out
    again from its read corner where an outline so laid shows clearly better (see the module
    docstring); given ``whole`` (the ``id`` of the cards whose whole outline was found), only
    those: a card named from a corner alone was laid out by ``scanner.scan_covered`` already.
    An outline from another corner is taken only within ``relay_far_reach`` of the card's own."""
    if p.relay_gain <= 0 or len(detections) < 2:
        return detections
    quads = [np.asarray(d.corners, np.float64) * work.scale for d in detections]
    pairs = overlapping(quads, p)
    tried = sorted(
        {
            k
            for pair in pairs
            for k in pair
            if detections[k].card is not None
            and detections[k].top
            and (whole is None or id(detections[k]) in whole)
        }
    )
    if not tried:
        return detections
    out = list(detections)
    for k in tried:
        quad = quads[k]
        rect, own = _laid_out(quad, anchored_outlines(quad, p), work, p, p.relay_gain)
        if rect is None and p.relay_far_turn > 0 and own + p.relay_far_gain <= 1.0:
            # (an outline showing nearly whole cannot be bettered by the gain asked)
            more = np.concatenate([anchored_outlines(quad, p, p.relay_far_turn, c) for c in range(4)])
            rect, _ = _laid_out(quad, more, work, p, p.relay_far_gain)
            reach = p.relay_far_reach
            if (
                rect is not None
                and reach is not None
                and outline_distance(rect, quad) > reach * side_lengths(quad)[0]
            ):
                rect = None  # an outline far off its own may run along the card under it
        if rect is not None:
            out[k] = replace(detections[k], corners=as_quad(rect / work.scale))
    return out


def _laid_out(
    quad: FloatArray, stack: FloatArray, work: Work, p: FindParams, gain: float
) -> tuple[FloatArray | None, float]:
    """The outline of ``stack`` that shows best as edges, when it shows ``gain`` more of its length
    than ``quad`` and lies ``relay_moved`` of its short side from it, else ``None``; and the share
    of ``quad``'s own length shown."""
    shown = outline_shown(np.concatenate([quad[None], stack]), work.edges)
    best = int(np.argmax(shown[1:]))
    rect: FloatArray = stack[best]
    own = float(shown[0])
    if shown[1 + best] - own < gain or outline_distance(rect, quad) < p.relay_moved * side_lengths(quad)[0]:
        return None, own
    return rect, own
