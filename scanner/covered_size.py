"""Card sizes to try when a frame's card size is not known: whole card sides on the card outline.

With no calibration and no card identified, the frame's card size comes from the
outlines the finder rebuilt, and those may be anything card-shaped: a frame
printed on an Octoplus face, two cards taken for one, a card cut short by a hand.
The outer outline of the card pixels (every cluster of touching cards as one
blob) shows whole card sides: a straight run of the outline between two corners
that turn the same way at near right angles is one side of one card, end to end
(a lone card shows all four, a pile's top card most of its own, a fan's outer
cards a long side).  Each such side is a short side or a long side, so it gives
two sizes, its length and its length over the card's aspect; the sizes most of
the side length agrees with come first.  Where no corner of a card shows on the
outer outline (a pile on a light table, a fan with a hand over it), the longest
straight edges on card pixels are mostly long sides of cards: each gives a size.

``size_candidates`` puts those together with the sizes of the outlines found;
covered-card reading (``scanner.scan_covered``) lets the index at a few corners
choose among them.

Where cards are identified, ``local_shorts`` gives the card size at places of the
frame: a camera tilted off vertical sees the table's near side larger (cards of one
frame differ by up to a quarter), and the size of a card on the table plane changes
about linearly across the frame, so a plane fitted over the identified cards' short
sides at their centres gives it (the nearest card's size where they are too few or
lie along one line).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from scanner.find_geometry import FloatArray
from scanner.find_work import Work
from scanner.params import CoveredParams
from scanner.types import Image

__all__ = ["local_shorts", "longest_edges", "size_candidates", "whole_sides"]


def _meet(p1: FloatArray, d1: FloatArray, p2: FloatArray, d2: FloatArray) -> FloatArray | None:
    """Where the line through ``p1`` along ``d1`` crosses the line through ``p2`` along ``d2``."""
    det = float(d1[0] * d2[1] - d1[1] * d2[0])
    if abs(det) < 1e-9:
        return None
    diff = p2 - p1
    t = float(diff[0] * d2[1] - diff[1] * d2[0]) / det
    return np.asarray(p1 + d1 * t, np.float64)


def _sides_of(polygon: FloatArray, p: CoveredParams) -> list[float]:
    """The whole card sides of one closed outline polygon (work pixels, in contour order)."""
    n = len(polygon)
    ends = np.roll(polygon, -1, axis=0)
    lengths = np.hypot(*(ends - polygon).T)
    straight = [i for i in range(n) if lengths[i] >= p.side_min_px]
    if len(straight) < 2:
        return []
    directions = (ends - polygon) / np.maximum(lengths, 1e-9)[:, None]
    # the turn of the whole outline: corners of cards turn this way, notches between cards the other
    x, y = polygon[:, 0], polygon[:, 1]
    turn = math.copysign(1.0, float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
    square = math.sin(math.radians(p.side_angle))
    start: dict[int, FloatArray] = {}
    end: dict[int, FloatArray] = {}
    for k, i in enumerate(straight):
        j = straight[(k + 1) % len(straight)]
        between = (j - i - 1) % n
        if sum(float(lengths[(i + 1 + m) % n]) for m in range(between)) > p.side_join:
            continue  # more than a rounded corner between the two runs
        a, b = directions[i], directions[j]
        if abs(float(a @ b)) > square or float(a[0] * b[1] - a[1] * b[0]) * turn <= 0:
            continue  # not a right angle, or a notch
        corner = _meet(polygon[i], a, polygon[j], b)
        if corner is None:
            continue
        end[i] = corner
        start[j] = corner
    return [float(np.hypot(*(end[i] - start[i]))) for i in straight if i in start and i in end]


def whole_sides(union: Image, least_area: float, p: CoveredParams) -> list[float]:
    """Lengths (work pixels) of the straight runs of the outer outlines of ``union`` (0/255, work
    scale) that end at a convex near right-angled corner at both ends: whole card sides.

    Outlines enclosing less than ``least_area`` (work pixels) give none.
    """
    contours, _ = cv2.findContours(union, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out: list[float] = []
    for contour in contours:
        if cv2.contourArea(contour) < least_area:
            continue
        polygon = cv2.approxPolyDP(contour, p.side_tolerance, True).reshape(-1, 2).astype(np.float64)
        if len(polygon) >= 4:
            out += _sides_of(polygon, p)
    return out


def longest_edges(work: Work, p: CoveredParams) -> list[float]:
    """Lengths (work pixels) of the ``size_edges`` longest straight edges on card pixels (a
    probabilistic Hough transform of ``work.edges`` near ``work.union``, ``line_votes`` votes,
    gaps of ``line_gap`` bridged, at least ``side_min_px`` long), longest first: a card's
    long side shows as an edge over the card under it where its corners do not show."""
    if p.size_edges == 0:
        return []
    edges = cv2.bitwise_and(work.edges, cv2.dilate(work.union, np.ones((3, 3), np.uint8)))
    lines = cv2.HoughLinesP(
        edges, 1.0, math.pi / 180.0, p.line_votes, minLineLength=p.side_min_px, maxLineGap=p.line_gap
    )
    if lines is None:
        return []
    seg = lines.reshape(-1, 4).astype(np.float64)
    lengths = np.sort(np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]))[::-1]
    return [float(x) for x in lengths[: p.size_edges]]


def size_candidates(
    found: list[float], sides: list[float], edges: list[float], aspect: float, p: CoveredParams
) -> list[float]:
    """Card short sides to try (work pixels), at most ``size_candidates`` of them: ``found`` (the
    sizes of the outlines found, most likely first), the sizes that whole card ``sides``
    agree with most (each side a short or a long side, within ``size_match``) and the long
    ``edges`` each taken for a long side; sizes within ``size_match`` of one already listed
    left out."""
    out: list[float] = []

    def add(size: float) -> None:
        if size > 0 and len(out) < p.size_candidates and all(abs(size - s) > p.size_match * s for s in out):
            out.append(size)

    for size in found:
        add(size)
    if sides:
        lengths = np.asarray(sides, np.float64)
        # every side read as a short side and as a long side; rank the sizes by the side length
        # they explain
        options = np.concatenate([lengths, lengths / aspect])
        tol = p.size_match
        explained = [
            float(
                lengths[
                    (np.abs(lengths - s) <= tol * s) | (np.abs(lengths - s * aspect) <= tol * s * aspect)
                ].sum()
            )
            for s in options
        ]
        for k in np.argsort(-np.asarray(explained), kind="stable"):
            # the mean of the sides that agree, each as the short side it gives
            s = float(options[k])
            near_short = np.abs(lengths - s) <= tol * s
            near_long = np.abs(lengths - s * aspect) <= tol * s * aspect
            agreed = np.concatenate([lengths[near_short], lengths[near_long] / aspect])
            add(float(agreed.mean()) if len(agreed) else s)
    for length in edges:
        for step in p.edge_steps:
            add(length * (1.0 + step) / aspect)
    return out


def local_shorts(points: FloatArray, centres: FloatArray, shorts: FloatArray, p: CoveredParams) -> FloatArray:
    """The card short sides at ``points`` ((m, 2), work pixels) that the cards at ``centres`` ((n, 2),
    work pixels) with short sides ``shorts`` ((n,)) imply: with at least ``local_plane`` cards whose
    centres spread at least ``local_spread`` of their median short side across every direction
    (the smaller standard deviation of their centres), a plane fitted once by least squares over
    their short sides, its values kept within ``local_reach`` of the smallest and largest of them;
    else the short side of the card nearest each point."""
    if len(shorts) == 0:
        raise ValueError("local_shorts needs at least one card")
    mean = centres.mean(axis=0)
    centred = centres - mean
    if len(shorts) >= p.local_plane:
        spread = math.sqrt(max(float(np.linalg.eigvalsh(centred.T @ centred / len(shorts))[0]), 0.0))
        if spread >= p.local_spread * float(np.median(shorts)):
            design = np.column_stack([np.ones(len(shorts)), centred])
            coef = np.linalg.lstsq(design, shorts, rcond=None)[0]
            at = coef[0] + (points - mean) @ coef[1:]
            low = float(shorts.min()) * (1.0 - p.local_reach)
            high = float(shorts.max()) * (1.0 + p.local_reach)
            return np.asarray(np.clip(at, low, high), np.float64)
    nearest = np.argmin(np.linalg.norm(points[:, None, :] - centres[None, :, :], axis=2), axis=1)
    return np.asarray(shorts[nearest], np.float64)
