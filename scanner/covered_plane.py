"""The table plane seen by a tilted camera, fitted on the cards identified whole.

Every card lies flat on the table and has one size, so in *table coordinates* (the table seen
from straight above, scaled so that a card's short side is 1) each card is an upright
rectangle of 1 by the card's aspect, placed and turned somewhere.  A camera looking at the
table at an angle maps that plane to the frame by a homography: a card far from the camera
shows smaller and foreshortened, its outline no rectangle.

``fit_plane`` finds that homography from the cards identified whole in a frame: with one card it
is that card's own homography; with several, a least-squares fit over all their corners, each
card's place and turn on the table fitted with it (alternating: the cards' places in the table
given the homography, then the homography given their places).  It is kept only when it fits
every card's corners within a tolerance of the card's size: cards held up over the table, or
lying on a box, are no part of the plane.

``plane_quad`` lays the card whose index corner is a ``CornerProposal`` (its point and the two
sides it was found along) on that plane: the corner and its sides mapped into the table, the
upright card laid there and mapped back to the frame.  A corner is read on that quad as on any
other (``covered_read.read_corner``: an affine cut through its first, second and fourth
corners, the card's sides as the plane shows them).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner.find_corners import CornerProposal
from scanner.find_geometry import FloatArray, side_lengths

__all__ = ["TablePlane", "fit_plane", "plane_quad"]


@dataclass(frozen=True)
class TablePlane:
    """The homography from table coordinates (a card's short side is 1) to frame pixels, its
    inverse, and the largest corner misfit of the cards it was fitted on (over each card's short
    side)."""

    to_frame: FloatArray
    to_table: FloatArray
    misfit: float


def _card(aspect: float) -> FloatArray:
    """The upright card in table coordinates: TL TR BR BL of a 1 by ``aspect`` rectangle."""
    return np.array([[0.0, 0.0], [1.0, 0.0], [1.0, aspect], [0.0, aspect]], np.float64)


def _apply(matrix: FloatArray, points: FloatArray) -> FloatArray:
    """``points`` (N, 2) mapped by the homography ``matrix``."""
    ones = np.ones((len(points), 1), np.float64)
    mapped = np.hstack([points, ones]) @ matrix.T
    return np.asarray(mapped[:, :2] / mapped[:, 2:3], np.float64)


def _placed(card: FloatArray, target: FloatArray) -> FloatArray:
    """``card`` (table coordinates) turned and moved (no scaling) to lie best, in least squares,
    on ``target`` (its four corners mapped into the table)."""
    a = card - card.mean(axis=0)
    b = target - target.mean(axis=0)
    u, _, vt = np.linalg.svd(a.T @ b)
    rotation = (u @ vt).T
    if np.linalg.det(rotation) < 0:
        u[:, -1] *= -1
        rotation = (u @ vt).T
    return np.asarray(a @ rotation.T + target.mean(axis=0), np.float64)


def _homography(table: FloatArray, frame: FloatArray) -> FloatArray | None:
    """The least-squares homography taking ``table`` points to ``frame`` points; ``None`` when
    they leave it undetermined."""
    matrix, _ = cv2.findHomography(table.astype(np.float64), frame.astype(np.float64), 0)
    if matrix is None or not np.isfinite(matrix).all() or abs(float(np.linalg.det(matrix))) < 1e-12:
        return None
    return np.asarray(matrix / matrix[2, 2], np.float64)


def fit_plane(quads: list[FloatArray], aspect: float, tolerance: float, rounds: int) -> TablePlane | None:
    """The table plane of the cards ``quads`` (frame pixels, TL TR BR BL, TL the index corner:
    cards identified whole), fitted in ``rounds`` rounds of the alternating fit (the cards'
    places, then the homography), or ``None`` when there are none, the fit fails, or some card's
    corners lie farther than ``tolerance`` of its short side from where the plane puts them."""
    if not quads:
        return None
    card = _card(aspect)
    # start from the largest card's own homography (the best measured), the others placed by it
    order = sorted(range(len(quads)), key=lambda k: -side_lengths(quads[k])[0])
    first = quads[order[0]]
    matrix = _homography(card, first)
    if matrix is None:
        return None
    places = [card] * len(quads)
    frame = np.concatenate(quads)
    for _ in range(rounds if len(quads) > 1 else 0):
        inverse = np.asarray(np.linalg.inv(matrix), np.float64)
        places = [_placed(card, _apply(inverse, q)) for q in quads]
        again = _homography(np.concatenate(places), frame)
        if again is None:
            return None
        matrix = again
    if len(quads) > 1:
        inverse = np.asarray(np.linalg.inv(matrix), np.float64)
        places = [_placed(card, _apply(inverse, q)) for q in quads]
    misfit = 0.0
    for quad, place in zip(quads, places, strict=True):
        gap = float(np.hypot(*(_apply(matrix, place) - quad).T).max())
        misfit = max(misfit, gap / max(side_lengths(quad)[0], 1e-9))
    if misfit > tolerance:
        return None
    return TablePlane(matrix, np.asarray(np.linalg.inv(matrix), np.float64), misfit)


def plane_quad(plane: TablePlane, proposal: CornerProposal, scale: float, aspect: float) -> FloatArray | None:
    """The card whose index corner is ``proposal`` (work pixels, ``scale`` work pixels a frame
    pixel) laid on ``plane``: its point and its sides' directions mapped into the table, the
    upright card laid there along them (its short side along ``across``, its long side square to
    it towards ``down``) and mapped back; frame pixels, TL TR BR BL.  ``None`` when the corner
    lies off the plane (beyond its horizon) or its sides map to nothing."""
    point = proposal.point / scale
    matrix = plane.to_table
    mapped = matrix @ np.array([point[0], point[1], 1.0])
    if not np.isfinite(mapped).all() or abs(float(mapped[2])) < 1e-12:
        return None
    origin = mapped[:2] / mapped[2]
    # the sides' directions as the table sees them: the homography's derivative at the corner
    derivative = (matrix[:2, :2] - np.outer(origin, matrix[2, :2])) / mapped[2]
    across = derivative @ proposal.across
    down = derivative @ proposal.down
    length = float(np.hypot(*across))
    if length < 1e-9:
        return None
    across = across / length
    square = np.array([-across[1], across[0]])
    if float(square @ down) < 0:
        square = -square
    corners = np.array(
        [origin, origin + across, origin + across + aspect * square, origin + aspect * square], np.float64
    )
    # a corner beyond the horizon maps to the far side of the camera (the fitted cards lie where
    # the homography's last coordinate is positive: it is 1 at the table's origin)
    ones = np.hstack([corners, np.ones((4, 1))]) @ plane.to_frame.T
    if (ones[:, 2] <= 0).any():
        return None
    return _apply(plane.to_frame, corners)
