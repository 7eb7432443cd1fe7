"""Whether a quad found in a frame looks like a card, and not like print, a shadow or a wall.

A card is paper: just inside its sides runs a border strip of light, colourless,
even paper (the index and the pips begin further in), and each of its sides
shows as an edge along most of its length, except where the frame cuts the card
off.  A quad outlined by the print on a card's face (a pip, an index, a printed
frame) fails the first test (its strip runs through print); a quad outlined by
shadows, glare or table texture fails one of the two.

A card seen at a slant may outline a nearly square quad (``slanted_quad``): it is
taken where ``FindParams.slanted`` asks (on by default), with stricter checks, and
marked so that the scanner names it only on a clearly read index
(``FindParams.slant_min_part``).
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.find_geometry import Arr, FloatArray, corner_angles, fit_sides, side_lengths
from scanner.find_work import Work
from scanner.params import FindParams

_ACROSS = np.arange(-2.0, 3.0)[:, None, None]
"""Offsets (work pixels, along a side's normal) at which a side is looked for."""


def _sides(quad: FloatArray, count: int) -> tuple[FloatArray, FloatArray]:
    """``count`` points along the middle of each side (4 x count x 2) and each side's inward
    unit normal (4 x 2)."""
    t = np.linspace(0.1, 0.9, count)[None, :, None]
    a = quad
    b = np.roll(quad, -1, axis=0)
    pts = a[:, None, :] + (b - a)[:, None, :] * t
    d = b - a
    length = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / length[:, None]
    centre = quad.mean(axis=0)
    mid = (a + b) / 2.0
    flip = ((centre - mid) * normal).sum(axis=1) < 0
    normal[flip] *= -1.0
    return pts, normal


def cut_sides(quad: FloatArray, shape: tuple[int, ...], p: FindParams) -> Arr:
    """Which sides (4 bools) run along the frame's border, within ``frame_margin`` work pixels:
    there the frame cuts the card off and its side cannot show."""
    h, w = shape[:2]
    m = p.frame_margin
    b = np.roll(quad, -1, axis=0)
    out = np.zeros(4, bool)
    for lo, hi, axis in ((-1e9, m, 0), (w - 1 - m, 1e9, 0), (-1e9, m, 1), (h - 1 - m, 1e9, 1)):
        a_in = (quad[:, axis] >= lo) & (quad[:, axis] <= hi)
        b_in = (b[:, axis] >= lo) & (b[:, axis] <= hi)
        out |= a_in & b_in
    return out


def side_support(
    quad: FloatArray, work: Work, p: FindParams, faint: Arr | None = None, in_view: bool = False
) -> FloatArray:
    """Per side, the fraction of its points where it shows as an edge: a gradient across the side
    of at least ``top_min_gradient`` within two pixels of it (with ``faint`` edges: a faint edge pixel
    there whose gradient points across the side within ``top_alignment``).  Points off the frame
    count as not showing (with ``in_view``, for a card partly beyond the frame: they are left out,
    and a side mostly off the frame gets NaN); a side the frame cuts off (``cut_sides``) gets NaN."""
    h, w = work.grey.shape[:2]
    pts, normal = _sides(quad, p.support_points)
    q = pts[None, :, :, :] + normal[None, :, None, :] * _ACROSS[:, :, :, None]
    xs = np.round(q[..., 0]).astype(np.intp)
    ys = np.round(q[..., 1]).astype(np.intp)
    on = (xs >= 1) & (ys >= 1) & (xs < w - 1) & (ys < h - 1)
    xs = np.clip(xs, 0, w - 1)
    ys = np.clip(ys, 0, h - 1)
    gx = work.gx[ys, xs].astype(np.float64)
    gy = work.gy[ys, xs].astype(np.float64)
    across = np.abs(gx * normal[None, :, None, 0] + gy * normal[None, :, None, 1])
    if faint is not None:
        aligned = across >= p.top_alignment * np.hypot(gx, gy)
        strong = (faint[ys, xs] > 0) & aligned
    else:
        strong = across >= p.top_min_gradient
    shows = (strong & on).any(axis=0)
    support = shows.mean(axis=1).astype(np.float64)
    if in_view:
        seen = on.any(axis=0)
        count = seen.sum(axis=1)
        support = np.where(
            count >= 0.5 * seen.shape[1], (shows & seen).sum(axis=1) / np.maximum(count, 1), np.nan
        )
    support[cut_sides(quad, work.grey.shape, p)] = np.nan
    return np.asarray(support, dtype=np.float64)


def overshoot(quad: FloatArray, work: Work, faint: Arr, p: FindParams) -> float:
    """The largest fraction, over the sides' eight continuations past the corners (from 5% to
    ``overshoot_length`` of the side beyond each end), that shows as a ``faint`` edge along the side:
    a card's sides end at its corners, the sides of cards lying together run on."""
    h, w = work.grey.shape[:2]
    a = quad
    b = np.roll(quad, -1, axis=0)
    d = b - a
    length = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)
    unit = d / length[:, None]
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    t = np.linspace(0.05, p.overshoot_length, 8)
    worst = 0.0
    for start, sign in ((b, 1.0), (a, -1.0)):
        pts = start[:, None, :] + sign * unit[:, None, :] * (t[None, :, None] * length[:, None, None])
        q = pts[None, :, :, :] + normal[None, :, None, :] * _ACROSS[:, :, :, None]
        xs = np.round(q[..., 0]).astype(np.intp)
        ys = np.round(q[..., 1]).astype(np.intp)
        on = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
        xs = np.clip(xs, 0, w - 1)
        ys = np.clip(ys, 0, h - 1)
        gx = work.gx[ys, xs].astype(np.float64)
        gy = work.gy[ys, xs].astype(np.float64)
        across = np.abs(gx * normal[None, :, None, 0] + gy * normal[None, :, None, 1])
        edge = (faint[ys, xs] > 0) & (across >= p.top_alignment * np.hypot(gx, gy)) & on
        seen = on.any(axis=0)
        shows = edge.any(axis=0)
        for k in range(4):
            if seen[k].sum() >= len(t) // 2:
                worst = max(worst, float(shows[k][seen[k]].mean()))
    return worst


def paper_border(quad: FloatArray, work: Work, p: FindParams) -> float:
    """The fraction of the border strip inside ``quad`` (``border_inset`` of its short side in
    from every side, the corners left out) that is paper: colourless and at most
    ``paper_tolerance`` grey levels darker than the lightest of the strip nearby along the side
    (light may fall off across a card; print is a sudden dip).  0.0 when the strip's median is
    darker than ``min_lightness`` of the frame's lightest tenth or most of it is off the frame."""
    h, w = work.grey.shape[:2]
    pts, normal = _sides(quad, p.support_points)
    d = np.roll(quad, -1, axis=0) - quad
    lengths = np.hypot(d[:, 0], d[:, 1])
    short = float(min(lengths[0] + lengths[2], lengths[1] + lengths[3]) / 2.0)
    depths = np.maximum(np.linspace(p.border_inset[0], p.border_inset[1], 3) * short, p.border_min_px)
    q = pts[None, :, :, :] + normal[None, :, None, :] * depths[:, None, None, None]
    xs = np.round(q[..., 0]).astype(np.intp)
    ys = np.round(q[..., 1]).astype(np.intp)
    on = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    if on.mean() < 0.5:
        return 0.0
    xs = np.clip(xs, 0, w - 1)
    ys = np.clip(ys, 0, h - 1)
    grey = work.grey[ys, xs].astype(np.float64)
    if float(np.median(grey[on])) < work.light_level * p.min_lightness:
        return 0.0
    # the lightest of the strip within three samples along the side, at any depth
    reach = 3
    lightest = np.pad(grey.max(axis=0), ((0, 0), (reach, reach)), mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(lightest, 2 * reach + 1, axis=1)
    reference = windows.max(axis=2)[None, :, :]
    paper = (grey >= reference - p.paper_tolerance) & (work.colourless[ys, xs] > 0)
    return float(paper[on].mean())


def looks_like_card(
    quad: FloatArray, work: Work, p: FindParams, faint: Arr | None = None, in_view: bool = False
) -> bool:
    """Whether ``quad`` (work pixels) has a paper border strip (``min_paper``) and every side
    the frame does not cut off shows along at least ``min_side_support`` of it (at least two
    sides must show; with ``faint`` edges: as those, see ``side_support``; ``in_view``: the
    card reaches beyond the frame, only its sides' parts in view count)."""
    if paper_border(quad, work, p) < p.min_paper:
        return False
    support = side_support(quad, work, p, faint, in_view)
    shown = support[~np.isnan(support)]
    return bool(len(shown) >= 2 and shown.min() >= p.min_side_support)


def slanted_outline(quad: FloatArray, p: FindParams) -> bool:
    """Whether a convex ``quad`` may be a card seen at a slant although no card quad
    (``is_card_quad``): at most ``card_aspect`` (1 + ``lone_aspect_tolerance``) long for its
    width, and skewed as only a slant makes a card's outline so square (its sharpest corner at
    most ``slant_max_corner`` degrees, none sharper than ``slant_min_corner``); a square thing
    seen from above (a key, a tile) has square corners."""
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return False
    short, long = side_lengths(quad)
    if short <= 0 or long / short > p.card_aspect * (1.0 + p.lone_aspect_tolerance):
        return False
    angles = corner_angles(quad)
    return bool(
        p.slant_min_corner <= angles.min() <= p.slant_max_corner
        and angles.max() <= 180.0 - p.slant_min_corner
    )


def slanted_quad(contour: Arr, dense: FloatArray, work: Work, p: FindParams) -> FloatArray | None:
    """The card seen at a slant that a region outline ``contour`` (``dense``: its every pixel)
    outlines, when its simplified hull is a ``slanted_outline`` it fills (``slant_min_fill``) and
    it passes the stricter checks of such outlines: the paper border strip, and all four sides
    in view, each showing as a strong edge along ``slant_min_support`` of it; else ``None``."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.5, 1.0, 1.5):  # as fine as gives four corners (as a lone card's)
        approx = cv2.approxPolyDP(hull, eps * p.poly_epsilon * perimeter, True)
        if len(approx) <= 4:
            break
    if len(approx) != 4 or cv2.contourArea(contour) < p.slant_min_fill * cv2.contourArea(approx):
        return None
    quad = approx.reshape(4, 2).astype(np.float64)
    if not slanted_outline(quad, p):
        return None
    quad = fit_sides(dense, quad)
    if not slanted_outline(quad, p) or paper_border(quad, work, p) < p.min_paper:
        return None
    support = side_support(quad, work, p)
    return quad if not np.isnan(support).any() and support.min() >= p.slant_min_support else None
