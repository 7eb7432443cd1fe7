"""Several captures of each card made into one clean template per card: aligned, averaged, parts shared.

Why: a single capture of a small card is blurred, noisy and cut a pixel or two
off, and the next card's capture is blurred and cut differently.  The
identifier compares a card with every template by correlation, so a template
that happens to be a little cleaner or better placed scores higher against
*every* card that looks like it: with templates taken one capture each, the 5
of hearts read as the 8 of hearts because the 8's heart symbol was the cleaner
one.  Three steps take those differences away:

1. **Align**: every capture is registered (an affine fit of its blurred grey
   image, ``cv2.findTransformECC``) onto a reference: the shipped face of the
   same card when the capture fits it well (``CombineParams.min_fit``: the deck
   is drawn like the shipped one, so every template ends up cut exactly where
   the shipped template is), else the first capture (the medoid).  A fit that
   moves the card more than ``max_shift`` or scales or shears it more than
   ``max_warp`` is not taken.
2. **Average**: the aligned captures that agree with the reference in their
   detail (``min_agreement``) are averaged, which takes out the noise of each; a
   blurred or wrong capture is left out.
3. **Share parts** (standard cards whose captures took the shipped geometry):
   the rank of a card's corner index is the same glyph on both cards of its
   rank and colour, and its suit symbol is the same on all cards of its suit,
   so the rank area of a template is the mean over those cards and the suit
   area the mean over the suit (each in its own paper colour).  Then two
   cards of a suit differ only where their ranks differ, as the shipped
   templates do.
4. **Compose the missing** (standard cards, ``compose_missing``): a card of the
   deck without any capture gets a template made of learned parts: its rank
   (the whole face around it, which lays out that rank's pips) from a card of
   its rank and colour, or from a card of its rank in the other colour with the
   ink recoloured; the suit symbols of its two corner indices from a card of its
   suit, moved onto the rank card's symbols by their ink.  A card whose rank or
   suit nobody captured stays without a template.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.templates import TemplateError, Templates, expected_cards
from scanner.types import Image
from scorer.cards import Card, DeckKind, StdCard

log = logging.getLogger(__name__)

FloatImage = npt.NDArray[np.float32]


@dataclass(frozen=True)
class CombineParams:
    """The tunable numbers of turning several captures of each card into one template.

    Raises:
        ValueError: (from construction) a field is out of range, naming it and its value.
    """

    align_blur: float = 1.5
    """Gaussian blur (canonical pixels) of both grey images before they are registered."""
    align_scale: float = 0.5
    """The registration is fitted on the images resampled by this factor (for speed)."""
    min_fit: float = 0.9
    """Least correlation of a capture registered onto the shipped face of its card for the
    shipped face to be the reference (else the first capture is)."""
    min_agreement: float = 0.85
    """Least correlation of an aligned capture with the reference, both with their slow shading
    taken away (``agree_highpass``), to be averaged in: a blurred capture falls well below."""
    agree_highpass: float = 6.0
    """Sigma (canonical pixels) of the blur subtracted before captures are compared for agreement."""
    max_shift: float = 16.0
    """Largest move (canonical pixels) a registration may make; more is a failed fit."""
    max_warp: float = 0.12
    """Largest departure from no scaling or shear (any entry of the 2x2 part minus identity)."""
    share_parts: bool = True
    """Standard cards: share the rank area among the cards of a rank and colour and the suit
    area among the cards of a suit (only between templates that took the shipped geometry)."""
    seam_ramp: int = 6
    """Height (canonical pixels) over which the rank area fades into the suit area."""
    compose_missing: bool = True
    """Standard cards: compose a template for every card of the deck without a capture from the
    learned rank and suit parts of other cards (see the module docstring, step 4)."""
    compose_learned: bool = True
    """Standard cards learned from photos (``calibration.templates.learn_templates``): every
    learned card gets a second template composed from the other learned cards' parts
    (``compose_learned``), so a card photographed from another deck than most of the photos
    still has a template in their style."""
    ink_quantile: float = 0.1
    """Fraction of the darkest pixels of the index areas of one colour taken as that colour's ink."""
    symbol_margin: int = 3
    """Paper (canonical pixels) kept round a composed card's suit symbol when it is taken from
    another card (the rest of that card's corner is painted over)."""
    seam_search: int = 10
    """How far (canonical pixels) from where the identifier expects it the row between a
    corner index's rank and suit symbol is looked for, when a card is composed."""
    """Fraction of the darkest pixels of the index areas of one colour taken as that colour's ink."""

    def __post_init__(self) -> None:
        checks = {
            "align_blur": (0.0, 10.0),
            "align_scale": (0.1, 1.0),
            "min_fit": (-1.0, 1.0),
            "min_agreement": (-1.0, 1.0),
            "agree_highpass": (0.5, 50.0),
            "max_shift": (0.0, 100.0),
            "max_warp": (0.0, 1.0),
            "seam_ramp": (1, 40),
            "ink_quantile": (0.01, 0.5),
            "seam_search": (1, 20),
            "symbol_margin": (0, 20),
        }
        for name, (low, high) in checks.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                raise ValueError(f"CombineParams.{name} must be in [{low}, {high}], got {value!r}")
        for name in ("seam_ramp", "seam_search", "symbol_margin"):
            if not isinstance(getattr(self, name), int):
                raise ValueError(f"CombineParams.{name} must be an integer, got {getattr(self, name)!r}")


def _grey(image: Image, blur: float) -> FloatImage:
    plain = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.float32)
    if blur <= 0:
        return plain
    return np.asarray(cv2.GaussianBlur(plain, (0, 0), blur), dtype=np.float32)


def _detail(image: Image, params: CombineParams) -> FloatImage:
    """The blurred grey image less its slow shading: what agreement is judged on."""
    plain = _grey(image, params.align_blur)
    return np.asarray(plain - cv2.GaussianBlur(plain, (0, 0), params.agree_highpass), dtype=np.float32)


def _correlation(a: FloatImage, b: FloatImage) -> float:
    x, y = a - a.mean(), b - b.mean()
    return float((x * y).sum() / max(float(np.sqrt((x * x).sum() * (y * y).sum())), 1e-6))


def align(image: Image, reference: Image, params: CombineParams) -> tuple[Image, float] | None:
    """``image`` resampled onto ``reference``'s geometry by an affine registration, and how well
    it then agrees with it (correlation of the blurred grey images); ``None`` when the fit does
    not converge or moves the card further than ``max_shift`` / ``max_warp`` allow."""
    k = params.align_scale
    size = (max(8, round(CARD_WIDTH * k)), max(8, round(CARD_HEIGHT * k)))
    target = np.asarray(
        cv2.resize(_grey(reference, params.align_blur), size, interpolation=cv2.INTER_AREA), dtype=np.float32
    )
    moving = np.asarray(
        cv2.resize(_grey(image, params.align_blur), size, interpolation=cv2.INTER_AREA), dtype=np.float32
    )
    everywhere = np.full(target.shape, 255, dtype=np.uint8)
    start = np.eye(2, 3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-4)
    try:
        _, fitted = cv2.findTransformECC(target, moving, start, cv2.MOTION_AFFINE, criteria, everywhere, 3)
    except cv2.error:
        return None
    warp = np.array(fitted, dtype=np.float32)
    warp[:, 2] /= k
    linear = warp[:, :2] - np.eye(2, dtype=np.float32)
    if np.abs(linear).max() > params.max_warp or np.abs(warp[:, 2]).max() > params.max_shift:
        return None
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    out = cv2.warpAffine(image, warp, (CARD_WIDTH, CARD_HEIGHT), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    aligned = np.asarray(out, dtype=np.uint8)
    return aligned, _correlation(_grey(reference, params.align_blur), _grey(aligned, params.align_blur))


def _turn(image: Image) -> Image:
    return np.asarray(cv2.rotate(image, cv2.ROTATE_180), dtype=np.uint8)


def _onto_shipped(
    image: Image, shipped: Sequence[Image], params: CombineParams
) -> tuple[Image, float] | None:
    """``image`` (as it is or turned half round: the way it resembles the face more) aligned
    onto the shipped face it fits best."""
    best: tuple[Image, float] | None = None
    for face in shipped:
        target = _grey(face, params.align_blur)
        view = max((image, _turn(image)), key=lambda v: _correlation(target, _grey(v, params.align_blur)))
        fit = align(view, face, params)
        if fit is not None and (best is None or fit[1] > best[1]):
            best = fit
    return best


def average(
    images: Sequence[Image], shipped: Sequence[Image], params: CombineParams
) -> tuple[Image, bool, int]:
    """One card's captures (the medoid first, all turned the same way) as one averaged template.

    Returns the template, whether it took the shipped geometry, and how many captures went
    into it.  The reference is the shipped face when the medoid fits it by ``min_fit`` (each
    capture is then aligned onto it, either way up), else the medoid itself.

    Raises:
        ValueError: ``images`` is empty.
    """
    if not images:
        raise ValueError("no capture to average")
    aligned, shipped_geometry = _aligned(images, shipped, params)
    taken = [image for image in aligned if image is not None]
    mean = np.mean(np.stack([a.astype(np.float32) for a in taken]), axis=0)
    return np.asarray(np.clip(mean + 0.5, 0, 255), dtype=np.uint8), shipped_geometry, len(taken)


def averaged(images: Sequence[Image], shipped: Sequence[Image], params: CombineParams) -> list[bool]:
    """Which of one card's captures (the medoid first) ``average`` takes into the template: the
    others did not align onto the reference or do not agree with it (``min_agreement``)."""
    if not images:
        return []
    aligned, _ = _aligned(images, shipped, params)
    return [image is not None for image in aligned]


def _aligned(
    images: Sequence[Image], shipped: Sequence[Image], params: CombineParams
) -> tuple[list[Image | None], bool]:
    """Each capture aligned onto ``average``'s reference (the first: the reference itself), or
    ``None`` where it does not fit it or agree with it; and whether the reference is the
    shipped face."""
    on_shipped = _onto_shipped(images[0], shipped, params) if shipped else None
    shipped_geometry = on_shipped is not None and on_shipped[1] >= params.min_fit
    reference = on_shipped[0] if on_shipped is not None and shipped_geometry else images[0]
    aligned: list[Image | None] = [reference]
    target = _detail(reference, params)
    for image in images[1:]:
        fit = _onto_shipped(image, shipped, params) if shipped_geometry else align(image, reference, params)
        agrees = fit is not None and _correlation(target, _detail(fit[0], params)) >= params.min_agreement
        aligned.append(fit[0] if fit is not None and agrees else None)
    return aligned, shipped_geometry


def paper_colour(image: Image) -> FloatImage:
    """The card's paper colour: the per-channel median of a strip along its left edge."""
    h, w = image.shape[:2]
    strip = image[int(0.3 * h) : int(0.7 * h), int(0.05 * w) : int(0.12 * w)].reshape(-1, 3)
    return np.asarray(np.maximum(np.median(strip, axis=0), 1.0), dtype=np.float32)


def _index_area(identify: IdentifyParams, params: CombineParams) -> tuple[int, int, FloatImage]:
    """The corner area the identifier may look at (``x1``, ``y1``: with its search range and
    largest template size) and, per row of it, the weight of the suit area against the rank's."""
    rank, suit = identify.index_rank_region, identify.index_suit_region
    largest = max(identify.template_scales)
    x1 = min(CARD_WIDTH, round(max(rank.x1, suit.x1) * largest) + identify.search_px)
    y1 = min(CARD_HEIGHT, round(suit.y1 * largest) + identify.search_px)
    seam = (rank.y1 + suit.y0) / 2.0
    rows = np.arange(y1, dtype=np.float32)[:, None, None]
    to_suit = np.clip((rows - (seam - params.seam_ramp / 2.0)) / params.seam_ramp, 0.0, 1.0)
    return x1, y1, np.asarray(to_suit, dtype=np.float32)


def share_parts(
    faces: Mapping[Card, Image], shared: set[Card], identify: IdentifyParams, params: CombineParams
) -> dict[Card, Image]:
    """``faces`` with the corner index of every standard card in ``shared`` rebuilt from the
    cards that print the same parts: its rank area from the cards of its rank and colour, its
    suit area from the cards of its suit (both among ``shared``), each image taken relative to
    its own paper colour and the result put back in the card's own."""
    x1, y1, to_suit = _index_area(identify, params)
    cards = [c for c in faces if c in shared and isinstance(c, StdCard)]
    relative = {c: faces[c][:y1, :x1].astype(np.float32) / paper_colour(faces[c]) for c in cards}
    out = dict(faces)
    for card in cards:
        assert isinstance(card, StdCard)
        same_rank = [
            relative[c]
            for c in cards
            if isinstance(c, StdCard) and c.rank == card.rank and c.suit.is_red == card.suit.is_red
        ]
        same_suit = [relative[c] for c in cards if isinstance(c, StdCard) and c.suit == card.suit]
        index = (1.0 - to_suit) * np.mean(same_rank, axis=0) + to_suit * np.mean(same_suit, axis=0)
        image = faces[card].copy()
        image[:y1, :x1] = np.clip(index * paper_colour(faces[card]) + 0.5, 0, 255).astype(np.uint8)
        out[card] = image
    return out


def ink_colour(relative: Sequence[FloatImage], quantile: float) -> FloatImage | None:
    """The colour of the ink (relative to the paper, per channel) of index areas printed in one
    colour: the median colour of their darkest ``quantile`` of pixels; ``None`` without any."""
    if not relative:
        return None
    pixels = np.concatenate([r.reshape(-1, 3) for r in relative])
    grey = pixels.mean(axis=1)
    dark = pixels[grey <= np.quantile(grey, quantile)]
    return np.asarray(np.median(dark, axis=0), dtype=np.float32)


def recolour(relative: FloatImage, source_ink: FloatImage, target_ink: FloatImage) -> FloatImage:
    """An image relative to its paper, its ink of colour ``source_ink`` printed in ``target_ink``
    instead: each pixel's share of ink (its departure from the paper along the source ink's
    colour) laid on in the target ink's colour."""
    away = 1.0 - source_ink
    share = np.clip(((1.0 - relative) @ away) / max(float(away @ away), 1e-6), 0.0, 1.0)
    return np.asarray(1.0 - share[..., None] * (1.0 - target_ink), dtype=np.float32)


def _ink(relative: FloatImage) -> FloatImage:
    """How much ink each pixel of an image relative to its paper carries (0 paper, 1 full ink)."""
    return np.asarray(np.clip(1.0 - relative.min(axis=2), 0.0, 1.0), dtype=np.float32)


def _seam(ink: FloatImage, identify: IdentifyParams, params: CombineParams) -> int:
    """The row between the rank and the suit symbol of a corner index: the row of least ink
    within ``seam_search`` rows of where the identifier expects it."""
    rank, suit = identify.index_rank_region, identify.index_suit_region
    expected = round((rank.y1 + suit.y0) / 2.0)
    low, high = expected - params.seam_search, expected + params.seam_search + 1
    profile = ink[low:high, : suit.x1].sum(axis=1)
    return low + int(np.argmin(profile))


def _pip_box(ink: FloatImage, seam: int, identify: IdentifyParams) -> tuple[int, int, int, int] | None:
    """``(x0, y0, x1, y1)``: the box round the suit symbol under ``seam`` (the largest blot of
    ink there); ``None`` on blank paper."""
    suit = identify.index_suit_region
    area = np.asarray(ink[seam : suit.y1 + suit.height // 4, : suit.x1] > 0.35, dtype=np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(area, connectivity=8)
    if count < 2:
        return None
    blot = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(stats[blot, k]) for k in (0, 1, 2, 3))
    return x, seam + y, x + w, seam + y + h


def _centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0


def _with_suit(
    body: FloatImage,
    donors: Sequence[FloatImage],
    identify: IdentifyParams,
    params: CombineParams,
    in_place: bool = False,
) -> FloatImage | None:
    """``body`` (relative to its paper) with the suit symbol of its top-left corner index
    replaced by the mean of the ``donors``' symbols, each moved so its box meets the body's
    symbol's box (``in_place``: not moved, all took the shipped geometry) and brought to the
    body's paper there; ``None`` when the body or every donor shows no suit symbol there."""
    body_ink = _ink(body)
    body_seam = _seam(body_ink, identify, params)
    body_box = _pip_box(body_ink, body_seam, identify)
    if body_box is None:
        return None
    to = _centre(body_box)
    suit = identify.index_suit_region
    ramp = float(params.seam_ramp)
    rows = np.arange(body.shape[0], dtype=np.float32)[:, None]
    cols = np.arange(body.shape[1], dtype=np.float32)[None, :]
    bottom = suit.y1 + suit.height // 4
    weight = (
        np.clip((rows - (body_seam - ramp / 2.0)) / ramp, 0.0, 1.0)
        * np.clip((bottom - rows) / ramp, 0.0, 1.0)
        * np.clip((suit.x1 + ramp - cols) / ramp, 0.0, 1.0)
    )[..., None]
    inside = weight[..., 0] > 0.5
    paper = np.percentile(body[inside], 75, axis=0)
    reach = suit.x1 + params.seam_ramp
    symbols: list[FloatImage] = []
    for donor in donors:
        box = _pip_box(_ink(donor), _seam(_ink(donor), identify, params), identify)
        if box is None:
            continue
        source = to if in_place else _centre(box)
        # only the donor's suit symbol: the rest of its corner (its rank glyph, the edge of a
        # big pip beside the index) painted over with its paper
        symbol = donor.copy()
        symbol[: bottom + params.seam_ramp, :reach] = np.percentile(
            donor[box[1] : box[3], :reach], 75, axis=(0, 1)
        )
        x0, y0 = max(0, box[0] - params.symbol_margin), max(0, box[1] - params.symbol_margin)
        x1, y1 = box[2] + params.symbol_margin, box[3] + params.symbol_margin
        symbol[y0:y1, x0:x1] = donor[y0:y1, x0:x1]
        shift = np.array([[1.0, 0.0, to[0] - source[0]], [0.0, 1.0, to[1] - source[1]]], dtype=np.float64)
        size = (donor.shape[1], donor.shape[0])
        moved = np.asarray(
            cv2.warpAffine(symbol, shift, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
            dtype=np.float32,
        )
        # the donor's paper there brought to the body's, so no edge shows round the patch
        symbols.append(moved * paper / np.maximum(np.percentile(moved[inside], 75, axis=0), 1e-3))
    if not symbols:
        return None
    return np.asarray((1.0 - weight) * body + weight * np.mean(symbols, axis=0), dtype=np.float32)


def compose_missing(
    faces: Mapping[Card, Image],
    wanted: Sequence[Card],
    identify: IdentifyParams,
    params: CombineParams,
    shared: Collection[Card] = (),
) -> dict[Card, Image]:
    """Templates composed for the standard cards of ``wanted`` that ``faces`` lacks: the face of
    a card of the same rank and colour (or of the other colour, its ink recoloured), with the
    suit symbols of both corner indices replaced by those of a card of the wanted suit, moved
    onto them by their ink (left in place when all those cards are in ``shared``: they took the
    shipped geometry).  A card whose rank or suit no card of ``faces`` prints is left out."""
    cards = sorted((c for c in faces if isinstance(c, StdCard)), key=str)
    relative = {c: faces[c].astype(np.float32) / paper_colour(faces[c]) for c in cards}
    x1, y1, _ = _index_area(identify, params)
    inks = {
        red: ink_colour(
            [relative[c][:y1, :x1] for c in cards if isinstance(c, StdCard) and c.suit.is_red == red],
            params.ink_quantile,
        )
        for red in (False, True)
    }
    out: dict[Card, Image] = {}
    for card in wanted:
        if card in faces or not isinstance(card, StdCard):
            continue
        red = card.suit.is_red
        donors = [c for c in cards if isinstance(c, StdCard) and c.suit == card.suit]
        same = [c for c in cards if isinstance(c, StdCard) and c.rank == card.rank and c.suit.is_red == red]
        other = [c for c in cards if isinstance(c, StdCard) and c.rank == card.rank and c.suit.is_red != red]
        source_ink, target_ink = inks[not red], inks[red]
        if not donors:
            continue
        if same:
            body = relative[same[0]]
        elif other and source_ink is not None and target_ink is not None:
            body = recolour(relative[other[0]], source_ink, target_ink)
        else:
            continue
        symbols = [relative[c] for c in donors]
        in_place = all(c in shared for c in [*donors, (same or other)[0]])
        top = _with_suit(body, symbols, identify, params, in_place)
        if top is None:
            continue
        turned = _with_suit(
            np.ascontiguousarray(top[::-1, ::-1]),
            [np.ascontiguousarray(d[::-1, ::-1]) for d in symbols],
            identify,
            params,
            in_place,
        )
        composed = top if turned is None else np.ascontiguousarray(turned[::-1, ::-1])
        paper = paper_colour(faces[(same or other)[0]])
        out[card] = np.asarray(np.clip(composed * paper + 0.5, 0, 255), dtype=np.uint8)
        log.debug("%s: composed from %s (rank) and %s (suit)", card, (same or other)[0], donors)
    return out


def compose_learned(
    faces: Mapping[Card, Image], identify: IdentifyParams, params: CombineParams
) -> dict[Card, Image]:
    """A second template for every standard card of ``faces``: the template ``compose_missing``
    makes of it from the parts of the other cards of ``faces`` (as if it had no capture).  When
    the photos show several decks, a card captured from one deck reads in the style of the
    others too.  A card whose rank or suit no other card prints is left out."""
    out: dict[Card, Image] = {}
    for card in faces:
        if isinstance(card, StdCard):
            others = {c: f for c, f in faces.items() if c != card}
            out.update(compose_missing(others, [card], identify, params))
    return out


def combine_captures(
    captures: Mapping[Card, Sequence[Image]],
    deck: DeckKind,
    identify: IdentifyParams | None = None,
    params: CombineParams | None = None,
) -> dict[Card, Image]:
    """One template per card from its captures (each list the medoid first, all turned the same
    way up, the table past the corners painted over): aligned, averaged and, for standard
    cards, with the corner index's parts shared (see the module docstring).  A standard card of
    the deck without a capture is composed from learned parts when ``compose_missing`` is on and
    its rank and suit were captured; other cards without a capture are left out."""
    p = params if params is not None else CombineParams()
    ip = identify if identify is not None else IdentifyParams()
    try:
        shipped_faces: Mapping[Card, tuple[Image, ...]] = Templates.builtin(deck).faces
    except TemplateError:
        shipped_faces = {}
    faces: dict[Card, Image] = {}
    shared: set[Card] = set()
    for card, images in captures.items():
        if not images:
            continue
        template, on_shipped, used = average(images, shipped_faces.get(card, ()), p)
        log.debug("%s: %d of %d captures averaged (shipped geometry %s)", card, used, len(images), on_shipped)
        faces[card] = template
        if on_shipped:
            shared.add(card)
    if p.share_parts and deck is DeckKind.OKTRIS:
        faces = share_parts(faces, shared, ip, p)
    if p.compose_missing and deck is DeckKind.OKTRIS:
        faces.update(compose_missing(faces, expected_cards(deck), ip, p, shared))
    return faces
