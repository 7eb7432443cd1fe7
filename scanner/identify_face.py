"""Read a warped card from its whole face, small: pip count and layout, colour, centre art.

When a card's whole outline is visible (a lone card, a trick card, the top card
of a pile) its whole face says far more than the tiny corner index: the number
and layout of the pips, the ink colour, the Octoplus numeral and its marks.  The
canonical card is resampled to ``IdentifyParams.face_size`` (w, h), blurred a
little (``face_blur``), its slow shading taken away (``face_highpass``), and
turned into one vector: the grey channel plus two colour-opponent channels (red
against green and blue, blue against green) weighted by ``face_colour_weight``,
zero-mean per channel and unit-norm as a whole.  Every template face is prepared
the same way once, as warped and turned half round, so one matrix product scores
every card at 0° and 180° (normalised correlation).

A covered card's face matches nothing well; the caller decides how much the face
counts (see ``scanner.identify``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from scanner.identify_colour import grey, sample_chroma
from scanner.identify_params import IdentifyParams
from scanner.identify_view import card_sample
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class FaceReading:
    """Every card's whole-face correlation with one warped card, per card of ``order``."""

    order: tuple[Card, ...]
    scores: FloatArray
    """Each card's best correlation over its template images, as warped and turned half round."""
    turned: npt.NDArray[np.bool_]
    """Per card: its best match was its template turned half round."""


@dataclass(frozen=True)
class _FacePrepared:
    order: tuple[Card, ...]
    matrix: FloatArray
    """One unit row per template image and orientation (upright, turned)."""
    grey_matrix: FloatArray
    """The same rows from the grey templates, for a grey card."""
    row_card: npt.NDArray[np.intp]
    row_turned: npt.NDArray[np.bool_]


def face_vector(image: Image, params: IdentifyParams) -> FloatArray:
    """The unit-norm face vector of a canonical card (BGR or grey) as the module docstring describes."""
    w, h = params.face_size
    small = np.asarray(cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA), dtype=np.float32)
    if small.ndim == 3:
        # grey and the two opponent channels in one pass (every later step is linear per channel)
        small = np.asarray(cv2.transform(small, _opponents(params.face_colour_weight)), dtype=np.float32)
    if params.face_blur > 0:
        small = np.asarray(cv2.GaussianBlur(small, (0, 0), params.face_blur), dtype=np.float32)
    if params.face_highpass > 0:
        shading = np.asarray(cv2.GaussianBlur(small, (0, 0), params.face_highpass), dtype=np.float32)
        small = np.asarray(cv2.subtract(small, shading), dtype=np.float32)
    means = np.asarray(cv2.mean(small)[: 1 if small.ndim == 2 else 3], dtype=np.float32)
    vector = (small - means).ravel()
    return np.asarray(vector / max(float(np.linalg.norm(vector)), 1e-6), dtype=np.float32)


def _opponents(weight: float) -> FloatArray:
    """The BGR -> (grey, red against green and blue, blue against green) matrix."""
    third = 1.0 / 3.0
    return np.array(
        [[third, third, third], [-weight / 2.0, -weight / 2.0, weight], [weight, -weight, 0.0]],
        dtype=np.float32,
    )


def _prepare(templates: Templates, params: IdentifyParams) -> _FacePrepared:
    key = ("face", params.face_size, params.face_blur, params.face_highpass, params.face_colour_weight)
    cached = templates.cache.get(key)
    if isinstance(cached, _FacePrepared):
        return cached
    order = tuple(templates.faces)
    rows: list[FloatArray] = []
    grey_rows: list[FloatArray] = []
    row_card: list[int] = []
    row_turned: list[bool] = []
    for index, card in enumerate(order):
        for image in templates.faces[card]:
            for turned in (False, True):
                face = np.asarray(cv2.rotate(image, cv2.ROTATE_180), np.uint8) if turned else image
                rows.append(face_vector(face, params))
                grey_rows.append(face_vector(np.asarray(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)), params))
                row_card.append(index)
                row_turned.append(turned)
    prepared = _FacePrepared(
        order=order,
        matrix=np.ascontiguousarray(np.stack(rows)),
        grey_matrix=np.ascontiguousarray(np.stack(grey_rows)),
        row_card=np.array(row_card, dtype=np.intp),
        row_turned=np.array(row_turned, dtype=np.bool_),
    )
    templates.cache[key] = prepared
    return prepared


def read_face(image: Image, templates: Templates, params: IdentifyParams) -> FaceReading:
    """Score every card of ``templates`` on the whole face of the canonical card ``image``.

    A grey ``image`` is compared with the grey templates on the grey channel alone, and so is
    a colour image that shows no colour (mean colourfulness under ``colour_present``: a grey
    photo in three channels, whose red ink is grey; the colour templates' red against green
    channel would count against every red card there).
    """
    if image.ndim == 3 and sample_chroma(card_sample(image)) < params.colour_present:
        image = grey(image)
    prepared = _prepare(templates, params)
    matrix = prepared.grey_matrix if image.ndim == 2 else prepared.matrix
    row_scores = matrix @ face_vector(image, params)
    # rows of a card are consecutive: the best per card, and whether it was the turned face
    starts = np.flatnonzero(np.r_[True, prepared.row_card[1:] != prepared.row_card[:-1]])
    scores = np.maximum.reduceat(row_scores, starts)
    best_row = np.where(row_scores >= scores[prepared.row_card], np.arange(len(row_scores)), len(row_scores))
    first = np.minimum.reduceat(best_row, starts)
    return FaceReading(
        order=prepared.order,
        scores=np.asarray(scores, dtype=np.float32),
        turned=prepared.row_turned[first],
    )


__all__ = ["FaceReading", "face_vector", "read_face"]
