"""Octoplus cards found by the frame printed on their faces.

Every face of the scanner's Octoplus deck carries a frame between its corner indices
(``scanner.faces.OCTO_FRAME``): a dark rectangle over the middle of the card, about 2.2 times as
long as wide.  Where a card's own outline is lost (a pile on a light table in dim light, its
paper hardly lighter than the wood; a card whose sides run into the cards around it) its
frame, with the oval and symbol inside it, still shows as one closed patch of dark print once
the frame is thresholded against its own neighbourhood.  The frame is a rectangle on the card,
so the homography that maps the face's frame onto the frame seen maps the whole face onto the
card seen: its corners follow, foreshortened as the camera sees them.

``framed_cards`` returns those cards' outlines in a region of the frame; the scanner reads each
(``scanner.scan``) and takes only those that name a card.  A card whose frame another card
covers in part shows no closed frame and is not outlined here.
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.faces import OCTO_FRAME, OCTO_FRAME_LINE
from scanner.find_geometry import FloatArray, order_corners
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH
from scanner.params import FindParams
from scanner.types import Image

__all__ = ["FRAME_SHARE", "frame_to_card", "framed_cards"]

_HALF_LINE = OCTO_FRAME_LINE / 2.0
_OUTER = (
    OCTO_FRAME[0] - _HALF_LINE,
    OCTO_FRAME[1] - _HALF_LINE * CARD_WIDTH / CARD_HEIGHT,
    OCTO_FRAME[2] + _HALF_LINE,
    OCTO_FRAME[3] + _HALF_LINE * CARD_WIDTH / CARD_HEIGHT,
)
"""The outer edge of the printed frame's line, as fractions of the card's width and height."""

FRAME_SHARE = (_OUTER[2] - _OUTER[0]) * (_OUTER[3] - _OUTER[1])
"""The share of a card's area inside the outer edge of its printed frame."""
_FRAME_ASPECT = (_OUTER[3] - _OUTER[1]) * CARD_HEIGHT / ((_OUTER[2] - _OUTER[0]) * CARD_WIDTH)
"""The printed frame's long side over its short side, as printed."""


def frame_to_card(frame_quad: FloatArray) -> FloatArray:
    """The card whose printed frame's outer edge is ``frame_quad`` (TL TR BR BL with TL-TR along
    the card's short side, any pixels): the face mapped onto the frame seen by the homography
    that takes the face's frame to it."""
    x0, y0, x1, y1 = _OUTER
    w, h = float(CARD_WIDTH), float(CARD_HEIGHT)
    face = np.array([[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]], np.float32)
    matrix = cv2.getPerspectiveTransform(face, frame_quad.astype(np.float32))
    card = np.array([[[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]], np.float32)
    return np.asarray(cv2.perspectiveTransform(card, matrix)[0], np.float64)


def _frame_quad(contour: np.ndarray, p: FindParams) -> FloatArray | None:
    """The outline of a patch of dark print as a frame's quad (TL-TR its short side), or ``None``
    when it is no quad filled by the patch or not of a printed frame's shape."""
    hull = cv2.convexHull(contour)
    approx = cv2.approxPolyDP(hull, p.octo_frame_epsilon * cv2.arcLength(hull, True), True)
    if len(approx) != 4 or not cv2.isContourConvex(approx):
        return None
    area = float(cv2.contourArea(approx))
    if area <= 0.0 or float(cv2.contourArea(contour)) < p.min_fill * area:
        return None
    quad = approx.reshape(4, 2).astype(np.float64)
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    across, along = (sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0
    if across > along:
        quad, (across, along) = np.roll(quad, -1, axis=0), (along, across)
    low, high = p.octo_frame_aspect
    if not low * _FRAME_ASPECT <= along / max(across, 1e-9) <= high * _FRAME_ASPECT:
        return None
    return quad


def framed_cards(image: Image, region: tuple[int, int, int, int], p: FindParams) -> list[FloatArray]:
    """The outlines (frame pixels, ordered as ``order_corners`` orders them) of the Octoplus
    cards whose printed frames show whole inside ``region`` (``x0, y0, x1, y1`` of the BGR or grey
    frame ``image``): the outer outlines of the print thresholded against its neighbourhood
    (``octo_frame_block``, ``octo_frame_offset``) that are quads of a frame's shape and of a card
    size the finder would take (``min_card_area``, ``max_card_area``), each grown to its card."""
    x0, y0, x1, y1 = region
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(image.shape[1], x1), min(image.shape[0], y1)
    if x1 - x0 < p.octo_frame_block or y1 - y0 < p.octo_frame_block:
        return []
    patch = image[y0:y1, x0:x1]
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
    dark = cv2.adaptiveThreshold(
        grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, p.octo_frame_block, p.octo_frame_offset
    )
    contours, hierarchy = cv2.findContours(dark, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    frame_area = float(image.shape[0] * image.shape[1])
    least = p.min_card_area * frame_area * FRAME_SHARE
    most = p.max_card_area * frame_area * FRAME_SHARE
    offset = np.array([x0, y0], np.float64)
    out: list[FloatArray] = []
    for contour, link in zip(contours, hierarchy[0], strict=True):
        if link[3] != -1 or not least <= cv2.contourArea(contour) <= most:
            continue  # a hole, or a patch of no frame's size
        quad = _frame_quad(contour, p)
        if quad is not None:
            out.append(order_corners(frame_to_card(quad + offset)))
    return out
