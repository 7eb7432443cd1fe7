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

Between those thresholds a learned step decides (``IdentifyParams.suit_model``): the lead and the
fit with the templates blurred by each of ``SUIT_BLURS`` (``suit_cues``) weighed by a logistic
model (``SuitModel``, ``scanner/data/suit_model.json``), fitted by ``tools/learn_suits.py`` on the
whole spades and clubs of rendered scenes of its own seeds.  How far a blurred club leans towards
the spade depends on how blurred the card is, and the fits at the several blurs tell that.
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from scanner.identify_colour import grey
from scanner.identify_params import IdentifyParams
from scanner.logistic import LogisticModel
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card, StdCard

log = logging.getLogger(__name__)

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


def _symbols(templates: Templates, first: StdCard, second: StdCard, blur: float) -> _Symbols | None:
    key = ("suit-symbols", first, second, blur)
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
    prepared = _Symbols(
        first=np.asarray(cv2.GaussianBlur(a, (0, 0), blur), dtype=np.float32) if blur > 0 else a,
        second=np.asarray(cv2.GaussianBlur(b, (0, 0), blur), dtype=np.float32) if blur > 0 else b,
        boxes=boxes,
    )
    templates.cache[key] = prepared
    return prepared


def _views(image: Image, pad: int) -> tuple[FloatArray, FloatArray]:
    """The canonical card's grey as warped and turned half round, each padded by ``pad`` pixels
    (its edge repeated)."""
    plain = np.asarray(grey(image), dtype=np.float32)
    turned = np.ascontiguousarray(plain[::-1, ::-1])
    return (
        np.asarray(cv2.copyMakeBorder(plain, pad, pad, pad, pad, cv2.BORDER_REPLICATE), np.float32),
        np.asarray(cv2.copyMakeBorder(turned, pad, pad, pad, pad, cv2.BORDER_REPLICATE), np.float32),
    )


def _lead(views: tuple[FloatArray, FloatArray], symbols: _Symbols, pad: int) -> tuple[float, float]:
    """``symbol_lead``'s answer on the card's padded ``views`` (``_views``)."""
    best: tuple[float, float] | None = None
    for padded in views:
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
    assert best is not None  # two views
    return best


def symbol_lead(
    image: Image,
    first: StdCard,
    second: StdCard,
    templates: Templates,
    params: IdentifyParams,
    blur: float | None = None,
) -> tuple[float, float] | None:
    """``(lead, fit)``: how much better the canonical card ``image``'s suit symbols match
    ``first``'s than ``second``'s (mean correlation difference over the symbols), and how well
    the better of the two matches there (mean correlation), the templates blurred by ``blur``
    (default ``suit_blur``); ``None`` when either card has no template or their faces differ
    nowhere."""
    symbols = _symbols(templates, first, second, params.suit_blur if blur is None else blur)
    if symbols is None or not symbols.boxes:
        return None
    pad = params.suit_search_px
    return _lead(_views(image, pad), symbols, pad)


SUIT_BLURS: tuple[float, ...] = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
"""The template blurs (canonical pixels) the suit model reads the symbols at."""
SUIT_CUES: tuple[str, ...] = (
    *(f"lead_{b:g}" for b in SUIT_BLURS),
    *(f"fit_{b:g}" for b in SUIT_BLURS),
)
"""The suit model's cues: the spade's lead at each blur, then the fit at each."""
SUIT_MODEL_PATH = Path(__file__).resolve().parent / "data" / "suit_model.json"


class SuitModel(LogisticModel):
    """The suit model: the probability that a card whose index cannot tell its spade from its club
    is the spade, from its symbols (``SUIT_CUES``)."""

    EXPECTED = SUIT_CUES
    KIND = "suit"


def suit_cues(
    image: Image, spade: StdCard, club: StdCard, templates: Templates, params: IdentifyParams
) -> npt.NDArray[np.float64] | None:
    """The suit model's cues (``SUIT_CUES``) of the canonical card ``image``: ``symbol_lead`` of the
    spade over the club at each of ``SUIT_BLURS`` (the card's padded views made once); ``None``
    when either card has no template or their faces differ nowhere."""
    pad = params.suit_search_px
    views: tuple[FloatArray, FloatArray] | None = None
    reads: list[tuple[float, float]] = []
    for blur in SUIT_BLURS:
        symbols = _symbols(templates, spade, club, blur)
        if symbols is None or not symbols.boxes:
            return None
        views = _views(image, pad) if views is None else views
        reads.append(_lead(views, symbols, pad))
    return np.array([lead for lead, _ in reads] + [fit for _, fit in reads], np.float64)


@functools.lru_cache(maxsize=4)
def load_suit_model(path: Path = SUIT_MODEL_PATH) -> SuitModel:
    """The suit model stored at ``path``.

    Raises:
        OSError: the file cannot be read.
        ValueError: it holds no well-formed suit model.
    """
    doc = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: expected a suit model")
    return SuitModel.from_dict(doc)


@functools.cache
def shipped_suit_model() -> SuitModel | None:
    """The suit model shipped at ``SUIT_MODEL_PATH``, or ``None`` (said once in the log) when it
    cannot be loaded: the identifier then leaves the cards the model would decide unnamed, and
    the scanner runs on."""
    try:
        return load_suit_model(SUIT_MODEL_PATH)
    except (OSError, ValueError) as err:
        log.warning(
            "the suit model cannot be loaded (%s): spades and clubs it would tell apart stay unnamed", err
        )
        return None


__all__ = [
    "SUIT_BLURS",
    "SUIT_CUES",
    "SUIT_MODEL_PATH",
    "SuitModel",
    "load_suit_model",
    "shipped_suit_model",
    "suit_cues",
    "symbol_lead",
    "twin_lead",
]
