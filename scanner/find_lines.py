"""Lone cards from straight lines: for a card whose outline is broken into pieces.

On a white table a card's sides show only as faint, broken edges (a shadow
here, a step in tone there): no region is enclosed by them, but each side
still lies on one long straight line.  Long straight runs of the faint edges
(``cv2.HoughLinesP``) are merged into lines; two pairs of nearly parallel
lines, the pairs about square to each other, bound a candidate card.  The
frame's own borders count as lines too: a card the frame cuts off is bounded
by one of them, and is extended beyond it to its whole size (by the card's
aspect) when enough of it is in view that an index corner is.

The candidates are only candidates: ``scanner.find`` keeps those that look
like a card (``scanner.find_check``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.find_geometry import Arr, FloatArray, intersect, is_card_quad, line_turn, order_corners
from scanner.find_work import Work
from scanner.params import FindParams


@dataclass(frozen=True)
class _Line:
    point: FloatArray
    direction: FloatArray
    angle: float
    """Direction angle in [0, pi)."""
    length: float
    """Total length of the edge runs on it (work pixels)."""
    border: bool
    """One of the frame's borders."""


@dataclass(frozen=True)
class LineCard:
    """A candidate card bounded by four lines: ``seen`` is the part in view (work pixels), ``quad``
    the whole card (``seen`` itself unless the frame cuts the card off)."""

    quad: FloatArray
    seen: FloatArray
    cut: bool


def _lines(work: Work, faint: Arr, p: FindParams) -> list[_Line]:
    h, w = work.grey.shape[:2]
    shortest = p.line_min_length * min(h, w)
    segments = cv2.HoughLinesP(
        faint, 1, math.pi / 180, p.line_votes, minLineLength=shortest, maxLineGap=p.line_gap
    )
    lines: list[_Line] = []
    if segments is not None:
        segs = segments.reshape(-1, 4).astype(np.float64)
        lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
        angles = np.arctan2(segs[:, 3] - segs[:, 1], segs[:, 2] - segs[:, 0]) % math.pi
        used = np.zeros(len(segs), bool)
        for i in np.argsort(-lengths):
            if used[i]:
                continue
            d = np.array([math.cos(angles[i]), math.sin(angles[i])])
            normal = np.array([-d[1], d[0]])
            a = segs[i, :2]
            turn = np.abs((angles - angles[i] + math.pi / 2) % math.pi - math.pi / 2)
            mids = (segs[:, :2] + segs[:, 2:]) / 2.0
            off = np.abs((mids - a) @ normal)
            same = ~used & (turn <= math.radians(p.line_merge_angle)) & (off <= p.line_merge_distance)
            used |= same
            pts = np.concatenate([segs[same, :2], segs[same, 2:]])
            fit = cv2.fitLine(pts.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).reshape(-1)
            direction = np.array([fit[0], fit[1]], np.float64)
            angle = math.atan2(direction[1], direction[0]) % math.pi
            point = np.array([fit[2], fit[3]], np.float64)
            lines.append(_Line(point, direction, angle, float(lengths[same].sum()), False))
    lines.sort(key=lambda line: -line.length)
    lines = lines[: p.max_lines]
    for x, y, dx, dy in (
        (0.0, 0.0, 1.0, 0.0),
        (0.0, h - 1.0, 1.0, 0.0),
        (0.0, 0.0, 0.0, 1.0),
        (w - 1.0, 0.0, 0.0, 1.0),
    ):
        d = np.array([dx, dy], np.float64)
        lines.append(_Line(np.array([x, y], np.float64), d, math.atan2(dy, dx) % math.pi, 0.0, True))
    return lines


def _whole(seen: FloatArray, cut_side: int, p: FindParams) -> FloatArray | None:
    """The whole card of which ``seen`` is the part in view, its side ``cut_side`` on the frame's
    border: its two sides that the border cuts are extended by the card's aspect.  ``None`` when
    less than ``cut_min_seen`` of the card is in view or the shape cannot be a card's."""
    k = cut_side
    a, b = seen[k], seen[(k + 1) % 4]  # on the border
    c, d = seen[(k + 2) % 4], seen[(k + 3) % 4]  # the whole side opposite, from c to d
    whole_side = float(np.linalg.norm(d - c))
    shown = (float(np.linalg.norm(b - c)) + float(np.linalg.norm(a - d))) / 2.0
    if whole_side <= 0:
        return None
    best: tuple[float, float] | None = None
    for length in (whole_side * p.card_aspect, whole_side / p.card_aspect):
        fraction = shown / length
        if p.cut_min_seen <= fraction <= 1.0 + p.aspect_tolerance and (best is None or fraction > best[1]):
            best = (length, fraction)
    if best is None:
        return None
    length = best[0]
    out = seen.copy()
    for near, far, idx in ((c, b, (k + 1) % 4), (d, a, k)):
        run = far - near
        norm = float(np.linalg.norm(run))
        if norm <= 0:
            return None
        out[idx] = near + run / norm * max(length, norm)
    return out


def line_cards(work: Work, faint: Arr, p: FindParams) -> list[LineCard]:
    """Candidate cards bounded by two pairs of the strongest straight lines of the ``faint`` edges,
    best supported first (at most ``max_line_cards``)."""
    h, w = work.grey.shape[:2]
    area = float(h * w)
    min_area, max_area = p.min_card_area * area, p.max_card_area * area
    min_gap = math.sqrt(min_area / p.card_aspect)
    outside = p.line_outside * min(w, h)
    lines = _lines(work, faint, p)
    pairs: list[tuple[_Line, _Line]] = []
    for i, first in enumerate(lines):
        for second in lines[i + 1 :]:
            if first.border and second.border:
                continue
            if line_turn(first.angle, second.angle) > math.radians(p.line_parallel):
                continue
            normal = np.array([-first.direction[1], first.direction[0]])
            if abs(float((second.point - first.point) @ normal)) >= min_gap:
                pairs.append((first, second))
    out: list[tuple[float, LineCard]] = []
    for i, (l1, l2) in enumerate(pairs):
        for l3, l4 in pairs[i + 1 :]:
            if line_turn(l1.angle, l3.angle) < math.radians(90.0 - p.line_square):
                continue
            if sum(line.border for line in (l1, l2, l3, l4)) > 1:
                continue
            corners = [
                intersect((u.point, u.direction), (v.point, v.direction))
                for u, v in ((l1, l3), (l3, l2), (l2, l4), (l4, l1))
            ]
            if any(c is None for c in corners):
                continue
            seen = order_corners(np.array(corners, dtype=np.float64))
            if not np.all((seen >= -1.0 - outside) & (seen <= np.array([w, h]) + outside)):
                continue
            seen_area = float(cv2.contourArea(seen.astype(np.float32)))
            if seen_area < min_area * 0.5 or seen_area > max_area:
                continue
            border = next((line for line in (l1, l2, l3, l4) if line.border), None)
            if border is None:
                if not is_card_quad(seen, p, p.lone_aspect_tolerance):
                    continue
                quad, cut = seen, False
            else:
                side = _border_side(seen, w, h, p)
                whole = None if side is None else _whole(seen, side, p)
                if whole is None or not is_card_quad(whole, p, p.lone_aspect_tolerance):
                    continue
                quad, cut = whole, True
            support = sum(line.length for line in (l1, l2, l3, l4))
            out.append((support, LineCard(quad, seen, cut)))
    out.sort(key=lambda item: -item[0])
    return [card for _s, card in out[: p.max_line_cards]]


def _border_side(quad: FloatArray, w: int, h: int, p: FindParams) -> int | None:
    """The side of ``quad`` lying along the frame's border, if exactly one does."""
    m = p.frame_margin
    found = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        for axis, edge in ((0, 0.0), (0, w - 1.0), (1, 0.0), (1, h - 1.0)):
            if abs(a[axis] - edge) <= m and abs(b[axis] - edge) <= m:
                found.append(k)
    return found[0] if len(found) == 1 else None
