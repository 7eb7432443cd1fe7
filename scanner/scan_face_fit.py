"""A named top card's outline laid along its own print.

Once a card is named, its template face says what its whole face looks like; a card on
top of a pile shows all of it.  Where a top card overlaps another outline, its outline
(the finder's, or one laid out from its read corner) may run part way along the card
under it: a neat pile's cards lie a few pixels and degrees apart, and their sides show
alike as edges, so no test of the edges tells the two outlines apart.  The print does:
the named card's face, laid along its true outline, agrees with the frame over the
whole card, and along the lower card's outline it agrees only where the two coincide.

So each named card marked on top that overlaps another outline has its face (less its
slow shading, as ``scanner.find_top_print`` compares faces) aligned to the frame (less
its shading) by an affine map, starting from its outline (OpenCV's enhanced correlation
coefficient maximisation, ``cv2.findTransformECC``).  The outline so aligned replaces
the card's own when the face agrees there at least ``FindParams.top_face_min_score``, by
``top_face_gain`` more than on its own outline, it lies between ``top_face_moved`` and
``top_face_reach`` of its short side from it and keeps a card's shape (its long side over
its short within ``top_face_aspect`` of ``card_aspect``).  The name, confidence and
corner order are kept.  A frame of separate cards never pays for it.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from scanner.find_geometry import FloatArray, as_quad, side_lengths
from scanner.find_top import outline_distance, overlapping
from scanner.find_work import Work
from scanner.identify_colour import grey
from scanner.params import FindParams
from scanner.templates import Templates
from scanner.types import Detection, Image

__all__ = ["face_aligned", "fit_faces"]


def _detail(image: FloatArray, short: float, p: FindParams) -> np.ndarray:
    """``image`` less its slow shading (a blur over ``top_print_shading`` of a card's short side
    ``short``), as float32 (what ``cv2.findTransformECC`` takes)."""
    sigma = max(1.0, p.top_print_shading * short)
    return np.asarray(image - cv2.GaussianBlur(image, (0, 0), sigma), np.float32)


def _agreement(window: np.ndarray, face: np.ndarray, matrix: np.ndarray) -> float:
    """Normalised correlation of ``face`` with ``window`` seen through the affine ``matrix`` (face
    pixels to window pixels)."""
    h, w = face.shape[:2]
    seen = cv2.warpAffine(window, matrix, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    a = seen.ravel() - seen.mean()
    b = face.ravel() - face.mean()
    norm = float(np.sqrt(float((a * a).sum()) * float((b * b).sum())))
    return float((a * b).sum()) / norm if norm > 1e-9 else 0.0


def face_aligned(
    quad: FloatArray, face: Image, work: Work, p: FindParams
) -> tuple[FloatArray, float, float] | None:
    """The outline (4x2, work pixels, ``quad``'s corner order: TL TR BR BL of ``face`` upright)
    along which ``face`` agrees best with the frame, aligned by an affine map from ``quad``;
    with the agreement (normalised correlation, both less their shading) on ``quad`` and on the
    outline found.  ``None`` when the alignment does not converge or the card is too small."""
    short, long_ = side_lengths(quad)
    fw, fh = round(short), round(long_)
    if fw < 8 or fh < 8:
        return None
    small = cv2.resize(grey(face), (fw, fh), interpolation=cv2.INTER_AREA).astype(np.float64)
    template = _detail(small, short, p)
    h, w = work.grey.shape[:2]
    margin = p.top_face_reach * short + 2.0
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - margin).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + margin).astype(int) + 1, (w, h))
    if x1 - x0 < fw or y1 - y0 < fh:
        return None
    window = _detail(work.grey[y0:y1, x0:x1].astype(np.float64), short, p)
    corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    start = cv2.getAffineTransform(corners[:3], (quad[:3] - (x0, y0)).astype(np.float32))
    before = _agreement(window, template, start)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, p.top_face_iterations, 1e-4)
    try:
        # (the last argument, no smoothing before the alignment: the stubs lack that overload)
        _, matrix = cv2.findTransformECC(  # type: ignore[call-overload]
            template, window, start.astype(np.float32).copy(), cv2.MOTION_AFFINE, criteria, None, 1
        )
    except cv2.error:
        return None  # it did not converge: the face and the frame do not agree anywhere near
    offset = np.array([x0, y0], np.float64)
    rect = corners.astype(np.float64) @ matrix[:, :2].T.astype(np.float64) + matrix[:, 2] + offset
    return rect, before, _agreement(window, template, matrix)


def fit_faces(
    detections: list[Detection], work: Work, templates: Templates, p: FindParams
) -> list[Detection]:
    """``detections`` with each named card marked ``top`` that overlaps another outline given the
    outline its face aligns to (``face_aligned``) where that one is taken (see the module
    docstring)."""
    if not p.top_face_fit or len(detections) < 2:
        return detections
    quads = [np.asarray(d.corners, np.float64) * work.scale for d in detections]
    pairs = overlapping(quads, p)
    tried = sorted(
        {k for pair in pairs for k in pair if detections[k].card is not None and detections[k].top}
    )
    out = list(detections)
    for k in tried:
        card = detections[k].card
        faces = templates.faces.get(card) if card is not None else None
        if not faces:
            continue
        found = face_aligned(quads[k], faces[0], work, p)
        if found is None:
            continue
        rect, before, after = found
        short, long_ = side_lengths(rect)
        moved = outline_distance(rect, quads[k]) / max(side_lengths(quads[k])[0], 1e-9)
        if (
            after >= p.top_face_min_score
            and after >= before + p.top_face_gain
            and p.top_face_moved <= moved <= p.top_face_reach
            and abs(long_ / max(short, 1e-9) - p.card_aspect) <= p.top_face_aspect
        ):
            out[k] = replace(detections[k], corners=as_quad(rect / work.scale))
    return out
