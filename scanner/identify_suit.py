"""Tell a spade from a club on a whole face, pip by pip.

On a small, blurred or JPEG-worn card the corner index's suit symbol is a dark
blob: a spade's point and a club's three lobes, blurred, correlate almost
equally with either template, so the index reading (``scanner.identify_index``)
ranks the spade and the club of one rank within a hair of each other, and the
small whole face (``scanner.identify_face``) cannot tell them apart either.  The
two template faces differ only where their suit symbols are (every pip and both
index symbols); this check finds those places from the templates themselves,
and at each one matches the card (``TM_CCOEFF_NORMED``, within
``suit_search_px``, both templates blurred by ``suit_blur``) against either
template's symbol.  The lead of the first card is the mean over the symbols of
its correlation minus the other's, in the card as warped or turned half round,
whichever matches better.  Blurred clubs lean towards spades (their lobes blur
into a spade-like blob), so the caller names a spade or a club by two different
thresholds (``IdentifyParams.spade_lead`` and ``club_lead``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from scanner.identify_colour import grey
from scanner.identify_params import IdentifyParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card, StdCard

FloatArray = npt.NDArray[np.float32]


def twin_lead(order: tuple[Card, ...], scores: FloatArray, best: int) -> float:
    """How far card ``best`` of ``order`` leads, in ``scores``, its twin: the card of the same
    rank in the other suit of its colour (spades and clubs, hearts and diamonds look alike when
    small and blurred); ``inf`` when it has none among ``order`` (a card without a suit)."""
    card = order[best]
    if not isinstance(card, StdCard):
        return float("inf")
    for i, other in enumerate(order):
        if (
            isinstance(other, StdCard)
            and other.rank == card.rank
            and other.suit is not card.suit
            and other.suit.is_red == card.suit.is_red
        ):
            return float(scores[best]) - float(scores[i])
    return float("inf")


_DIFFERENT = 40
"""Grey levels by which two template faces must differ at a pixel for it to belong to a symbol."""
_MIN_SYMBOL_PX = 60
"""Pixels a region of difference must have to count as a symbol (not an antialiasing fringe)."""
_PAD = 3
"""Paper kept around each symbol's box, in canonical pixels."""


@dataclass(frozen=True)
class _Symbols:
    """The two cards' blurred grey faces and the boxes where their symbols differ."""

    first: FloatArray
    second: FloatArray
    boxes: tuple[tuple[int, int, int, int], ...]


def _symbols(
    templates: Templates, first: StdCard, second: StdCard, params: IdentifyParams
) -> _Symbols | None:
    key = ("suit-symbols", first, second, params.suit_blur)
    cached = templates.cache.get(key)
    if isinstance(cached, _Symbols):
        return cached
    if first not in templates.faces or second not in templates.faces:
        return None
    a = np.asarray(grey(templates.faces[first][0]), dtype=np.float32)
    b = np.asarray(grey(templates.faces[second][0]), dtype=np.float32)
    mask = (np.abs(a - b) > _DIFFERENT).astype(np.uint8)
    mask = np.asarray(cv2.dilate(mask, np.ones((5, 5), np.uint8)), dtype=np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    h, w = a.shape
    boxes = tuple(
        (max(0, x - _PAD), max(0, y - _PAD), min(w, x + bw + _PAD), min(h, y + bh + _PAD))
        for x, y, bw, bh, area in (tuple(int(v) for v in stats[i]) for i in range(1, count))
        if area >= _MIN_SYMBOL_PX
    )
    blur = params.suit_blur
    prepared = _Symbols(
        first=np.asarray(cv2.GaussianBlur(a, (0, 0), blur), dtype=np.float32) if blur > 0 else a,
        second=np.asarray(cv2.GaussianBlur(b, (0, 0), blur), dtype=np.float32) if blur > 0 else b,
        boxes=boxes,
    )
    templates.cache[key] = prepared
    return prepared


def symbol_lead(
    image: Image, first: StdCard, second: StdCard, templates: Templates, params: IdentifyParams
) -> tuple[float, float] | None:
    """``(lead, fit)``: how much better the canonical card ``image``'s suit symbols match
    ``first``'s than ``second``'s (mean correlation difference over the symbols), and how well
    the better of the two matches there (mean correlation); ``None`` when either card has no
    template or their faces differ nowhere."""
    symbols = _symbols(templates, first, second, params)
    if symbols is None or not symbols.boxes:
        return None
    pad = params.suit_search_px
    plain = np.asarray(grey(image), dtype=np.float32)
    best: tuple[float, float] | None = None
    for view in (plain, np.ascontiguousarray(plain[::-1, ::-1])):
        padded = cv2.copyMakeBorder(view, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        leads, fits = [], []
        for x0, y0, x1, y1 in symbols.boxes:
            window = padded[y0 : y1 + 2 * pad, x0 : x1 + 2 * pad]
            a = float(cv2.matchTemplate(window, symbols.first[y0:y1, x0:x1], cv2.TM_CCOEFF_NORMED).max())
            b = float(cv2.matchTemplate(window, symbols.second[y0:y1, x0:x1], cv2.TM_CCOEFF_NORMED).max())
            leads.append(a - b)
            fits.append(max(a, b))
        fit = float(np.mean(fits))
        if best is None or fit > best[1]:
            best = (float(np.mean(leads)), fit)
    return best


__all__ = ["symbol_lead"]
