"""A second look at an index: which of two cards the parts that tell them apart show.

The index reader (``scanner.identify_index``) scores every card on its whole
corner index at three quarters of the canonical size, blurred, rank and suit
placed together: on a small, blurred card a spade and a club of one rank (a
heart and a diamond; an 8 and a 5 or a 3 of one suit) then score within a hair
of each other, and the index rule leaves the card unnamed.  This look compares
two given cards only, and only on the parts of the index in which their
templates differ (the suit symbol of two cards of one rank, the rank of two
cards of one suit): each part is cut from both cards' templates with one box
(their ink's boxes together, with ``look_pad`` pixels of paper, so that the two
correlations are over the same area), tried at the canonical size at every size
of ``look_scales`` and every extra blur of ``look_blurs`` (a card seen blurred
matches a blurred glyph best), card and glyph with their slow shading taken
away (``look_highpass``), and matched by normalised correlation
(``TM_CCOEFF_NORMED``; every variant of both cards' glyphs against the window's one Fourier
transform, ``_best_fits``) within ``look_search_px`` of its place moved by where the
index reader found the index, each part on its own.  A card's fit is the mean
over the parts of its best correlation; the lead of the first card is its fit
minus the second's, in the index corner (as warped, or turned half round) where
the better of the two fits best.

``second_look`` applies it to an index reading that the index rule leaves
unclear (``IdentifyParams.look_*``); covered-card reading
(``scanner.covered_read.read_corner``) uses it for lone index corners.  ``twin_doubted`` asks it of
a card the identifier names while its twin suit reads close (``IdentifyParams.twin_check_*``).  It is
off for Octoplus corner labels (``corner_look_lead``).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from contextlib import suppress
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from scanner.identify_colour import grey
from scanner.identify_index import UNSCORED, IndexReading
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams, Region
from scanner.identify_suit import symbol_lead
from scanner.identify_view import CardView, card_box, whole
from scanner.templates import Templates, in_deck
from scanner.types import Image
from scorer.cards import Card, DeckKind, StdCard, Suit

FloatArray = npt.NDArray[np.float32]

log = logging.getLogger(__name__)

_INK = 60.0
"""Grey levels below the paper from which a template pixel is ink (the glyph's box)."""
_DIFFERENT = 2.0
"""Mean grey difference of two templates over a part from which the part tells them apart."""
_SLACK = 4
"""Canonical pixels added to the search around a part: the glyph's larger sizes stick out."""
_BEYOND = 1.125
"""A normalised correlation at or beyond 1 but below this is 1, beyond it 0 (no spread in the
window): ``cv2.matchTemplate``'s own rule for ``TM_CCOEFF_NORMED``."""


@dataclass(frozen=True)
class LookResult:
    """How the parts that tell two cards apart match either card."""

    lead: float
    """The first card's fit minus the second's."""
    fit: float
    """The better of the two fits (mean best correlation over the parts)."""


@dataclass(frozen=True)
class _Glyph:
    """One part of one card's index: its box (canonical pixels) and its sized, blurred variants."""

    box: tuple[int, int, int, int]
    variants: tuple[FloatArray, ...]


def _highpass(image: FloatArray, sigma: float) -> FloatArray:
    if sigma <= 0:
        return image
    return np.asarray(image - cv2.GaussianBlur(image, (0, 0), sigma), dtype=np.float32)


def _ink_box(templates: Templates, card: Card, region: Region, pad: int) -> tuple[int, int, int, int] | None:
    """The box of ``card``'s template ink within ``region`` with ``pad`` pixels of paper around it
    (canonical pixels, cached); ``None`` when there is no ink."""
    key = ("look-ink", card, region, pad)
    cached = templates.cache.get(key)
    if isinstance(cached, tuple):
        return cached
    plain = np.asarray(grey(templates.faces[card][0]), dtype=np.float32)
    part = plain[region.y0 : region.y1, region.x0 : region.x1]
    ys, xs = np.nonzero(part < float(np.median(plain)) - _INK)
    if len(ys) == 0:
        return None
    box = (
        max(0, region.x0 + int(xs.min()) - pad),
        max(0, region.y0 + int(ys.min()) - pad),
        min(CARD_WIDTH, region.x0 + int(xs.max()) + 1 + pad),
        min(CARD_HEIGHT, region.y0 + int(ys.max()) + 1 + pad),
    )
    templates.cache[key] = box
    return box


def _glyph(
    templates: Templates, card: Card, box: tuple[int, int, int, int], params: IdentifyParams
) -> _Glyph:
    """``card``'s template within ``box`` (canonical pixels) at every size and blur of the look,
    cached."""
    key = ("look-glyph", card, box, params.look_scales, params.look_blurs, params.look_highpass)
    cached = templates.cache.get(key)
    if isinstance(cached, _Glyph):
        return cached
    plain = np.asarray(grey(templates.faces[card][0]), dtype=np.float32)
    x0, y0, x1, y1 = box
    cx, cy, w, h = (x0 + x1) / 2.0, (y0 + y1) / 2.0, x1 - x0, y1 - y0
    variants: list[FloatArray] = []
    for size in params.look_scales:
        sized = np.asarray(
            cv2.resize(plain, None, fx=size, fy=size, interpolation=cv2.INTER_AREA), dtype=np.float32
        )
        sw, sh = max(3, round(w * size)), max(3, round(h * size))
        sx, sy = max(0, round(cx * size - sw / 2.0)), max(0, round(cy * size - sh / 2.0))
        for blur in params.look_blurs:
            blurred = (
                np.asarray(cv2.GaussianBlur(sized, (0, 0), blur), dtype=np.float32) if blur > 0 else sized
            )
            patch = _highpass(blurred, params.look_highpass)[sy : sy + sh, sx : sx + sw]
            variants.append(np.ascontiguousarray(patch))
    glyph = _Glyph(box=box, variants=tuple(variants))
    templates.cache[key] = glyph
    return glyph


@dataclass(frozen=True)
class _Bank:
    """The variants of two cards' glyphs of one part, ready to be correlated with a window of one
    shape in one pass: their zero-mean templates' spectra at the window's transform size, and
    where each size's sums over a placement are read from the window's integral images."""

    spectra: npt.NDArray[np.complex64]
    """``(variant, ...)``: the conjugate spectra (``rfft2`` at ``size``) of the zero-mean
    variants, the first card's, then the second's (as many each)."""
    norms: npt.NDArray[np.float64]
    """``(variant, 1, 1)``: each zero-mean variant's Euclidean norm."""
    size_of: npt.NDArray[np.intp]
    """Per variant, its size's index in ``counts`` and ``corners``."""
    counts: npt.NDArray[np.float64]
    """``(size, 1, 1)``: the pixels of a variant of each size."""
    corners: npt.NDArray[np.intp]
    """``(4, size, rows, cols)``: per placement of a variant of each size, the flat indices into
    the integral images of its four corners (bottom right, top right, bottom left, top left;
    a placement beyond the window reads the top-left corner four times: no spread)."""
    beyond: npt.NDArray[np.bool_]
    """``(size, rows, cols)``: True where a placement of a variant of that size reaches beyond
    the window."""
    off: npt.NDArray[np.float64]
    """``(size, rows, cols)``: infinity where ``beyond``, else 0 (added to the spread: such a
    placement's ratio is 0)."""
    size: tuple[int, int]
    """The transform size (rows, columns): at least the window's."""


def _fits(
    window: FloatArray, pair: tuple[_Glyph, _Glyph], templates: Templates, params: IdentifyParams
) -> npt.NDArray[np.float64]:
    """``_best_fits`` of ``window`` against ``pair``'s glyphs (the first card's, the second's),
    their bank taken from the last ``look_banks`` made (a pair's two orders share one)."""
    shape = (window.shape[0], window.shape[1])
    swapped = id(pair[0]) > id(pair[1])
    ordered = (pair[1], pair[0]) if swapped else pair
    banks = templates.cache.get("look-banks")
    if not isinstance(banks, OrderedDict):
        banks = templates.cache["look-banks"] = OrderedDict()
    key = (id(ordered[0]), id(ordered[1]), shape)
    cached = banks.get(key)
    if cached is not None and cached[0] is ordered[0] and cached[1] is ordered[1]:
        bank: _Bank = cached[2]
        with suppress(KeyError):  # another thread's scan may have let it go meanwhile
            banks.move_to_end(key)
    else:
        bank = _bank(ordered, shape)
        banks[key] = (ordered[0], ordered[1], bank)
        with suppress(KeyError):
            while len(banks) > params.look_banks:
                banks.popitem(last=False)
    fits = _best_fits(window, bank)
    return fits[::-1] if swapped else fits


def _bank(pair: tuple[_Glyph, _Glyph], shape: tuple[int, int]) -> _Bank:
    """The bank of ``pair``'s variants (the first card's glyph, then the second's) for a window of
    ``shape``; variants larger than the window are left out.

    Raises:
        ValueError: a card has no variant that fits in the window.
    """
    rows, cols = shape
    chosen = [[v for v in glyph.variants if v.shape[0] <= rows and v.shape[1] <= cols] for glyph in pair]
    if not chosen[0] or not chosen[1] or len(chosen[0]) != len(chosen[1]):
        raise ValueError(f"the look's glyph variants do not fit a window of {shape} alike")
    variants = chosen[0] + chosen[1]
    sizes = sorted({(v.shape[0], v.shape[1]) for v in variants})
    size = (cv2.getOptimalDFTSize(rows), cv2.getOptimalDFTSize(cols))
    # placements of the smallest variant: every other size's lie within them
    down = rows - min(h for h, _ in sizes) + 1
    across = cols - min(w for _, w in sizes) + 1
    padded = np.zeros((len(variants), *size), dtype=np.float32)
    norms = np.zeros(len(variants), dtype=np.float64)
    for k, variant in enumerate(variants):
        plain = np.asarray(variant, dtype=np.float64)
        centred = plain - plain.mean()
        padded[k, : plain.shape[0], : plain.shape[1]] = centred
        norms[k] = float(np.sqrt(np.sum(centred * centred)))
    ys, xs = np.mgrid[0:down, 0:across]
    stride = cols + 1  # the integral images are one larger than the window each way
    corners = np.zeros((4, len(sizes), down, across), dtype=np.intp)
    inside = np.zeros((len(sizes), down, across), dtype=np.bool_)
    for g, (h, w) in enumerate(sizes):
        fits = (ys <= rows - h) & (xs <= cols - w)
        inside[g] = fits
        y0, x0 = np.where(fits, ys, 0), np.where(fits, xs, 0)
        y1, x1 = np.where(fits, ys + h, 0), np.where(fits, xs + w, 0)
        corners[:, g] = (y1 * stride + x1, y0 * stride + x1, y1 * stride + x0, y0 * stride + x0)
    size_of = np.array([sizes.index((v.shape[0], v.shape[1])) for v in variants], dtype=np.intp)
    bank = _Bank(
        spectra=np.conj(np.fft.rfft2(padded)).astype(np.complex64),
        norms=norms[:, None, None],
        size_of=size_of,
        counts=np.array([h * w for h, w in sizes], dtype=np.float64)[:, None, None],
        corners=corners,
        beyond=~inside,
        off=np.where(inside, 0.0, np.inf),
        size=size,
    )
    return bank


def _best_fits(window: FloatArray, bank: _Bank) -> npt.NDArray[np.float64]:
    """The best normalised correlation (``TM_CCOEFF_NORMED``, as ``cv2.matchTemplate`` computes
    it) of any of the first card's variants in ``bank`` with ``window`` at any place, and the
    same of the second card's: all variants correlated with the window in one transform, each
    placement's window sum and sum of squares read from integral images."""
    _, _, down, across = bank.corners.shape
    spectrum = np.fft.rfft2(window, s=bank.size)
    # the inverse transform down the columns, then along only the rows a placement starts on
    columns = np.fft.ifft(spectrum[None, :, :] * bank.spectra, axis=1)[:, :down]
    products = np.fft.irfft(columns, n=bank.size[1], axis=2)[:, :, :across]
    sums, squares = cv2.integral2(window, sdepth=cv2.CV_64F)
    a, b, c, d = bank.corners
    flat = sums.ravel()
    total = flat[a] - flat[b] - flat[c] + flat[d]
    flat = squares.ravel()
    square = flat[a] - flat[b] - flat[c] + flat[d]
    spread = np.sqrt(np.maximum(square - total * total / bank.counts, 0.0)) + bank.off
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = products / (spread[bank.size_of] * bank.norms)
    best = ratio.reshape(2, -1).max(axis=1)
    if not (float(best.min()) > 0.0 and float(best.max()) < 1.0 and float(ratio.min()) > -1.0):
        # the placements beyond the window (their 0) may have won, or a ratio is at or beyond 1
        # or undefined: as OpenCV, a ratio a hair beyond 1 is 1, one far beyond it (no spread) 0
        clamped = np.where(np.abs(ratio) < _BEYOND, np.sign(products), 0.0)
        ratio = np.where(np.abs(ratio) < 1.0, ratio, clamped)
        ratio[bank.beyond[bank.size_of]] = -np.inf
        best = ratio.reshape(2, -1).max(axis=1)
    return np.asarray(best, dtype=np.float64)


def telling_parts(
    templates: Templates, first: Card, second: Card, params: IdentifyParams
) -> tuple[Region, ...]:
    """The index parts (``index_rank_region``, ``index_suit_region``) in which the templates of
    ``first`` and ``second`` differ (cached)."""
    key = ("look-parts", first, second, params.index_rank_region, params.index_suit_region)
    cached = templates.cache.get(key)
    if isinstance(cached, tuple):
        return cached
    a = np.asarray(grey(templates.faces[first][0]), dtype=np.float32)
    b = np.asarray(grey(templates.faces[second][0]), dtype=np.float32)
    parts = tuple(
        region
        for region in (params.index_rank_region, params.index_suit_region)
        if float(
            np.abs(
                a[region.y0 : region.y1, region.x0 : region.x1]
                - b[region.y0 : region.y1, region.x0 : region.x1]
            ).mean()
        )
        >= _DIFFERENT
    )
    templates.cache[key] = parts
    return parts


def _view(image: Image | CardView, box: tuple[int, int, int, int], pad: int, turned: bool) -> FloatArray:
    """The canonical pixels of ``box`` with ``pad`` around it, in the card as warped or turned half
    round, grey, as float32."""
    x0, y0, x1, y1 = box
    if turned:
        x0, y0, x1, y1 = CARD_WIDTH - x1, CARD_HEIGHT - y1, CARD_WIDTH - x0, CARD_HEIGHT - y0
    window = card_box(image, x0 - pad, y0 - pad, x1 + pad, y1 + pad)
    if turned:
        window = np.asarray(cv2.rotate(window, cv2.ROTATE_180), dtype=np.uint8)
    return np.asarray(grey(window), dtype=np.float32)


def look(
    image: Image | CardView,
    first: Card,
    second: Card,
    templates: Templates,
    params: IdentifyParams,
    offsets: npt.NDArray[np.float32] | None = None,
    upright_only: bool = False,
    turned_only: bool = False,
) -> LookResult | None:
    """How much better the parts that tell ``first`` from ``second`` match ``first`` on the
    canonical card ``image`` (its index corner as warped and, unless ``upright_only``, turned
    half round; only turned half round with ``turned_only``); ``None`` when either card has no
    template or their indices do not differ.

    ``offsets`` (per view, ``(dx, dy)`` canonical pixels; ``IndexReading.offsets`` of the first
    card) says where the index reader found the index: each part is then looked for within
    ``look_search_px`` of its place moved by that much."""
    if first not in templates.faces or second not in templates.faces or first == second:
        return None
    pairs: list[tuple[_Glyph, _Glyph]] = []
    for region in telling_parts(templates, first, second, params):
        boxes = [_ink_box(templates, card, region, params.look_pad) for card in (first, second)]
        known = [box for box in boxes if box is not None]
        if not known:
            continue
        # both cards' glyphs cut from one box: correlations over the same area compare
        box = (
            min(b[0] for b in known),
            min(b[1] for b in known),
            max(b[2] for b in known),
            max(b[3] for b in known),
        )
        pairs.append((_glyph(templates, first, box, params), _glyph(templates, second, box, params)))
    if not pairs:
        return None
    pad = params.look_search_px
    best: LookResult | None = None
    views = (False,) if upright_only else (True,) if turned_only else (False, True)
    for turned in views:
        v = int(turned)
        dx, dy = (0, 0) if offsets is None else (round(float(offsets[v][0])), round(float(offsets[v][1])))
        fits = np.zeros(2, dtype=np.float64)
        for pair in pairs:
            x0, y0, x1, y1 = pair[0].box
            box = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
            window = _highpass(_view(image, box, pad + _SLACK, turned), params.look_highpass)
            fits += _fits(window, pair, templates, params)
        fits /= len(pairs)
        result = LookResult(lead=float(fits[0] - fits[1]), fit=float(fits.max()))
        if best is None or result.fit > best.fit:
            best = result
    return best


def _twins(order: tuple[Card, ...], card: Card) -> list[int]:
    """The indices in ``order`` of ``card``'s twin: the same rank in the other suit of its colour."""
    if not isinstance(card, StdCard):
        return []
    return [
        i
        for i, other in enumerate(order)
        if isinstance(other, StdCard)
        and other.rank == card.rank
        and other.suit is not card.suit
        and other.suit.is_red == card.suit.is_red
    ]


def second_look(
    image: Image | CardView,
    reading: IndexReading,
    templates: Templates,
    params: IdentifyParams,
    upright_only: bool = False,
) -> Card | None:
    """The card an index ``reading`` of ``image`` ranks first, named by a second look: its score
    reaches ``look_min_score``, each of its parts ``look_min_part_score``, it is a card of the
    deck, and against every other card within ``look_band`` of it (at least the runner-up; at
    most ``look_rivals`` of them) and its twin suit (the same rank in the other suit of its
    colour) the look (``look``, at the place the reader found its index) fits ``look_fit`` or
    better and leads by ``look_lead`` (``corner_look_lead`` for an Octoplus corner index);
    ``None`` otherwise (and when that lead is 0: off).

    Only the first card is looked at: a card the look prefers to it is often right, but where
    the index reader ranked another card first the covered card's outline is laid out less
    surely (on the fixtures, one card named right but laid over the card under it).
    """
    lead = params.look_lead if templates.deck is DeckKind.OKTRIS else params.corner_look_lead
    if lead <= 0 or len(reading.scores) < 2:
        return None
    order = np.argsort(-reading.scores)
    top = float(reading.scores[order[0]])
    close = [int(i) for i in order if float(reading.scores[i]) >= top - params.look_band]
    if len(close) < 2:
        close = [int(order[0]), int(order[1])]
    if len(close) > params.look_rivals + 1:
        return None
    best = close[0]
    card = reading.order[best]
    if (
        float(reading.scores[best]) < params.look_min_score
        or float(reading.parts[best].min()) < params.look_min_part_score
        or not in_deck(card, templates.deck)
    ):
        return None
    # the same rank in the other suit of its colour looks most alike: always looked at
    rivals = close[1:] + [i for i in _twins(reading.order, card) if i not in close]
    offsets = reading.offsets[:, best] if reading.offsets is not None else None
    if all(
        _leads(image, reading, best, rival, templates, params, offsets, upright_only, lead)
        for rival in rivals
    ):
        return card
    return None


def twin_preferred(
    image: Image | CardView,
    reading: IndexReading,
    templates: Templates,
    params: IdentifyParams,
    band: float,
    upright_only: bool = False,
    unscored: bool = False,
) -> bool:
    """Whether a look (``look``, at the place the reader found the index) prefers to the card an
    index ``reading`` ranks first its twin (the same rank in the other suit of its colour),
    when the twin scores within ``band`` of it (or, with ``unscored``, was not scored finely:
    ``UNSCORED``): the suits are seen well enough to fit ``look_fit`` and the twin's fit is the
    better (``False`` when ``band`` is 0)."""
    if band <= 0:
        return False
    best = int(np.argmax(reading.scores))
    card = reading.order[best]
    offsets = reading.offsets[:, best] if reading.offsets is not None else None
    for twin in _twins(reading.order, card):
        score = float(reading.scores[twin])
        if score < float(reading.scores[best]) - band and not (unscored and score <= UNSCORED):
            continue
        seen = look(image, card, reading.order[twin], templates, params, offsets, upright_only)
        if seen is not None and seen.fit >= params.look_fit and seen.lead < 0:
            _log_twin("twin look", "gives way to", reading, best, twin, seen)
            return True
    return False


def twin_doubted(
    image: Image | CardView, reading: IndexReading, card: Card, templates: Templates, params: IdentifyParams
) -> bool:
    """Whether ``card``, named by the identifier from an index ``reading`` of ``image``, is in
    doubt against its twin (the same rank in the other suit of its colour): the twin scores
    within ``twin_check_band`` of it there (or was not scored finely, ``UNSCORED``, with the card
    scoring under ``twin_check_unscored``), the look at the parts that tell the two apart (their
    suit symbols, ``look``, at the place the reader found the index, in the index corner where
    the card read best) fits ``look_fit`` or better
    and leads the twin by less than ``twin_check_lead``, and the whole face's pips do not name
    the card (``pips_name``).  ``False`` when ``twin_check_band`` is 0 (off) or ``card`` has no
    twin in ``reading``.

    A small, blurred index tells a spade from a club by a hair, either way round; the look
    compares the suit symbols alone, the pips the whole face's symbols (where the face shows)."""
    if params.twin_check_band <= 0 or card not in reading.order:
        return False
    best = reading.order.index(card)
    # the index corner where the card read best: the other may be covered or cut off
    turned = len(reading.per_view) > 1 and float(reading.turn_lead[best]) > 0
    for twin in _twins(reading.order, card):
        score = float(reading.scores[twin])
        if score <= float(reading.scores[best]) - params.twin_check_band and not (
            score <= UNSCORED and float(reading.scores[best]) < params.twin_check_unscored
        ):
            continue
        offsets = reading.offsets[:, best] if reading.offsets is not None else None
        seen = look(image, card, reading.order[twin], templates, params, offsets, not turned, turned)
        if seen is None or seen.fit < params.look_fit or seen.lead >= params.twin_check_lead:
            continue
        if pips_name(image, card, reading.order[twin], templates, params):
            continue
        _log_twin("twin check", "in doubt against", reading, best, twin, seen)
        return True
    return False


def _log_twin(step: str, verdict: str, reading: IndexReading, best: int, twin: int, seen: LookResult) -> None:
    """Log at debug level what ``step`` decided of the card ``reading`` ranks ``best`` and its
    twin ``twin`` from the look ``seen``."""
    log.debug(
        "%s: %s %.3f %s %s %.3f: look lead %.3f, fit %.3f",
        step,
        reading.order[best],
        float(reading.scores[best]),
        verdict,
        reading.order[twin],
        float(reading.scores[twin]),
        seen.lead,
        seen.fit,
    )


def pips_name(
    image: Image | CardView, card: Card, twin: Card, templates: Templates, params: IdentifyParams
) -> bool:
    """Whether the whole face's suit symbols (``scanner.identify_suit.symbol_lead``) name ``card``
    rather than its twin ``twin``: they fit ``suit_fit`` or better and, of a spade and a club,
    the spade's lead is ``spade_lead`` or more for a spade, ``club_lead`` or less for a club
    (blurred clubs lean towards spades).  ``False`` for other suits and when the face does not
    show."""
    if not (isinstance(card, StdCard) and isinstance(twin, StdCard)):
        return False
    spade = next((c for c in (card, twin) if c.suit is Suit.SPADES), None)
    club = next((c for c in (card, twin) if c.suit is Suit.CLUBS), None)
    if spade is None or club is None:
        return False
    found = symbol_lead(whole(image), spade, club, templates, params)
    if found is None or found[1] < params.suit_fit:
        return False
    return found[0] >= params.spade_lead if card == spade else found[0] <= params.club_lead


def _leads(
    image: Image | CardView,
    reading: IndexReading,
    best: int,
    rival: int,
    templates: Templates,
    params: IdentifyParams,
    offsets: npt.NDArray[np.float32] | None,
    upright_only: bool,
    lead: float,
) -> bool:
    """Whether card ``best`` of ``reading`` leads card ``rival`` in a look by ``lead`` at a fit of
    ``look_fit`` or better."""
    card, other = reading.order[best], reading.order[rival]
    seen = look(image, card, other, templates, params, offsets, upright_only)
    if seen is None or seen.fit < params.look_fit or seen.lead < lead:
        return False
    log.debug(
        "second look: %s %.3f (parts %s) over %s %.3f: lead %.3f, fit %.3f",
        card,
        float(reading.scores[best]),
        np.round(reading.parts[best], 3).tolist(),
        other,
        float(reading.scores[rival]),
        seen.lead,
        seen.fit,
    )
    return True


__all__ = [
    "LookResult",
    "look",
    "pips_name",
    "second_look",
    "telling_parts",
    "twin_doubted",
    "twin_preferred",
]
