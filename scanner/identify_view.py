"""A found card as the identifier sees it: its canonical image, cut from the frame where it is read.

The identifier reads a card in its canonical warped form (``CARD_WIDTH`` x
``CARD_HEIGHT``, portrait), but a card its index names at once is read only in
two index windows (top left, and bottom right turned half round) and in a
sample of every 4th pixel (whether the photo is in colour).  ``CardView`` holds
a found card's frame and corners and warps those parts on their own
(``scanner.find.warp_card_box``), a fraction of the whole card's cost; the whole
card is warped once, on first request (the whole face, the suit symbols), and
every later part is cut from it.

The identifier's readers take either a canonical card image or a ``CardView``:
``card_box`` and ``card_sample`` give the same parts of either.
"""

from __future__ import annotations

import cv2
import numpy as np

from scanner.find import card_matrix, warp_card, warp_card_box
from scanner.identify_colour import CHROMA_STEP
from scanner.params import FindParams
from scanner.types import Image, Quad

SAMPLE_STEP = CHROMA_STEP
"""The spacing of the sample ``card_sample`` gives: the pixels the colour test looks at."""


class CardView:
    """A found card of a frame, warped to its canonical portrait form part by part on demand.

    ``shape`` and ``ndim`` are those of the whole canonical card.  With a mirroring camera
    (``params.mirrored``) the whole card is always warped (its parts are cut after the flip).
    """

    def __init__(self, frame: Image, corners: Quad, params: FindParams) -> None:
        self.frame = frame
        self.corners = corners
        self.params = params
        self._whole: Image | None = None
        self._matrix: np.ndarray | None = None
        channels = frame.shape[2:] if frame.ndim == 3 else ()
        self.shape: tuple[int, ...] = (params.card_height, params.card_width, *channels)
        self.ndim = frame.ndim

    def whole(self) -> Image:
        """The whole canonical card (``scanner.find.warp_card``), warped once."""
        if self._whole is None:
            self._whole = warp_card(self.frame, self.corners, self.params)
        return self._whole

    def box(self, x0: int, y0: int, x1: int, y1: int) -> Image:
        """The canonical pixels ``[y0:y1, x0:x1]``; where the box reaches beyond the card, the
        card's edge pixels repeated (as ``cv2.BORDER_REPLICATE``)."""
        if self._whole is not None or self.params.mirrored:
            return padded_crop(self.whole(), x0, y0, x1, y1)
        h, w = self.shape[:2]
        inner = (max(0, x0), max(0, y0), min(w, x1), min(h, y1))
        part = warp_card_box(self.frame, self.corners, self.params, inner, matrix=self._card_matrix())
        return _pad(part, max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w))

    def sample(self) -> Image:
        """Every ``SAMPLE_STEP``-th pixel of every ``SAMPLE_STEP``-th row of the canonical card."""
        if self._whole is not None or self.params.mirrored:
            return self.whole()[::SAMPLE_STEP, ::SAMPLE_STEP]
        h, w = self.shape[:2]
        box = (0, 0, w, h)
        return warp_card_box(self.frame, self.corners, self.params, box, SAMPLE_STEP, self._card_matrix())

    def _card_matrix(self) -> np.ndarray:
        """The frame-to-card perspective matrix, computed once."""
        if self._matrix is None:
            self._matrix = card_matrix(self.corners, self.params)
        return self._matrix


def whole(card: Image | CardView) -> Image:
    """The whole canonical card of ``card``."""
    return card.whole() if isinstance(card, CardView) else card


def card_box(card: Image | CardView, x0: int, y0: int, x1: int, y1: int) -> Image:
    """``card[y0:y1, x0:x1]`` where the box may reach beyond the card: the part outside repeats
    the card's edge pixels (as ``cv2.BORDER_REPLICATE``), without padding the whole card."""
    if isinstance(card, CardView):
        return card.box(x0, y0, x1, y1)
    return padded_crop(card, x0, y0, x1, y1)


def card_sample(card: Image | CardView) -> Image:
    """Every ``SAMPLE_STEP``-th pixel of every ``SAMPLE_STEP``-th row of the canonical card."""
    if isinstance(card, CardView):
        return card.sample()
    return card[::SAMPLE_STEP, ::SAMPLE_STEP]


def padded_crop(card: Image, x0: int, y0: int, x1: int, y1: int) -> Image:
    """``card[y0:y1, x0:x1]`` with the part beyond the card's edge repeating its edge pixels."""
    h, w = card.shape[:2]
    inner = card[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)]
    return _pad(inner, max(0, -y0), max(0, y1 - h), max(0, -x0), max(0, x1 - w))


def _pad(part: Image, top: int, bottom: int, left: int, right: int) -> Image:
    if top == left == bottom == right == 0:
        return part
    padded = cv2.copyMakeBorder(part, top, bottom, left, right, cv2.BORDER_REPLICATE)
    return np.asarray(padded, dtype=np.uint8)


__all__ = ["SAMPLE_STEP", "CardView", "card_box", "card_sample", "padded_crop", "whole"]
