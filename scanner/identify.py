"""Identify a warped card by template matching.

The input is the canonical warped card (``CARD_WIDTH`` x ``CARD_HEIGHT`` = 200 x
280, portrait).  Which short side is up is unknown, so the card is looked at as
warped and turned half round:

- a standard card is read from its corner index, rank above suit
  (``IdentifyParams.index_rank_region`` and ``index_suit_region`` at the top
  left; turned half round that area shows the bottom-right index), so either
  corner is enough;
- an Octoplus card is read from its big centre symbol
  (``IdentifyParams.centre_region``) at 0° and 180°.

Matching is zero-mean normalised cross-correlation (the measure of OpenCV's
``TM_CCOEFF_NORMED``) of the grey area, blurred a little and with its slow
shading taken away, against every template tried at a few sizes
(``template_scales``, for warp scale error).  The area may be up to
``search_px`` canonical pixels off: it is first located over every shift at a
coarse resolution, then every template is matched at full resolution within
``refine_px`` of that place.  Each level gathers all shifts into one matrix, so
all templates are matched with one matrix product.  A standard card's score is
the ``rank_weight``-weighted mean of its rank's and its suit's correlation.
Colour is a strong cue: when the area's ink is clearly red, black cards lose
``colour_penalty``; when the card is seen in colour (``colour_present``) and
the ink is neutral (``black_ink``), red cards lose it.  A grey photo shows red
ink grey, so it penalises nothing on neutral ink.

A card is named only when it belongs to the deck (a decoy such as a 9-K
among Oktris templates is never named), its score reaches ``min_score``, each
of its parts (rank, suit) reaches ``min_part_score`` and it leads the best
other card by ``min_margin`` (or, for a standard card, each index corner on its
own reads it first by ``pair_margin`` x ``min_margin``: two agreeing corners);
otherwise the answer is ``None`` (not identified) with the best candidate still
reported.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams, Region
from scanner.templates import Templates, in_deck
from scanner.types import Image
from scorer.cards import Card, DeckKind, StdCard

FloatArray = npt.NDArray[np.float32]


class IdentifyInputError(ValueError):
    """A card image that is not a canonical warped card (wrong type, dtype or shape)."""


@dataclass(frozen=True)
class Identification:
    """The answer for one warped card.

    ``card`` is ``None`` when no card matched well enough and clearly enough;
    ``candidate`` is then the best-matching card all the same.  ``confidence``
    is the best card's score (normalised correlation, clipped to 0..1),
    ``runner_up`` the best other card and ``runner_up_confidence`` its score.
    ``turned`` is True when the card read upright only after a half turn (its
    warped top edge is the face's bottom edge); a standard card, whose index is
    in both corners, counts as turned only when its bottom-right index read
    clearly better (by ``min_margin``) than its top-left one.
    """

    card: Card | None
    confidence: float
    runner_up: Card | None = None
    runner_up_confidence: float = 0.0
    candidate: Card | None = None
    turned: bool = False
    part_scores: tuple[float, ...] = ()
    """The best card's correlation per part (rank and suit of a standard card; the centre)."""

    @property
    def margin(self) -> float:
        """How far the best card leads the runner-up."""
        return self.confidence - self.runner_up_confidence


@dataclass(frozen=True)
class _Part:
    """One part of the matched area (a standard card's rank or suit, an Octoplus centre)."""

    name: str
    """``rank``, ``suit`` or ``centre``."""
    weight: float
    box: tuple[int, int, int, int]
    """``(x0, y0, x1, y1)`` inside the resampled area."""
    matrix: FloatArray
    """One zero-mean, unit-norm row per template row."""


@dataclass(frozen=True)
class _Level:
    """The templates at one resolution."""

    scale: float
    shape: tuple[int, int]
    """``(h, w)`` of the area once resampled."""
    shift: int
    """Search range in resampled pixels, each direction."""
    blur: float
    highpass: float
    parts: tuple[_Part, ...]


@dataclass(frozen=True)
class _Prepared:
    """Templates turned into matrices for a given deck and parameters."""

    area: Region
    """The union of the parts, in canonical card pixels."""
    coarse: _Level
    """Templates at their own size only, for locating the area."""
    fine: _Level
    """Templates at every size of ``template_scales``."""
    black: npt.NDArray[np.bool_]
    """Per fine row: True where the card is printed in black ink (penalised on red ink)."""
    order: tuple[Card, ...]
    """Distinct cards in row order."""
    rows_of: tuple[npt.NDArray[np.intp], ...]
    """For each card of ``order``, the indices of its fine rows."""
    coarse_black: npt.NDArray[np.bool_]
    """Per coarse row (one per template image): True for black ink."""
    ink_box: tuple[int, int, int, int]
    """Where the colour of the ink is judged, inside a view's window: the suit symbol (away from
    the rounded corner, where the table shows) or the Octoplus centre."""
    coarse_rows_of: tuple[npt.NDArray[np.intp], ...]
    """For each card of ``order``, the indices of its coarse rows."""
    starts: npt.NDArray[np.intp]
    """Where each card's fine rows start (a card's rows are consecutive)."""
    coarse_starts: npt.NDArray[np.intp]
    """Where each card's coarse rows start."""
    row_card: npt.NDArray[np.intp]
    """The card (index into ``order``) of each fine row."""


_Spec = tuple[str, Region, float]


def _parts_for(deck: DeckKind, params: IdentifyParams) -> tuple[tuple[_Spec, ...], float]:
    if deck is DeckKind.OKTRIS:
        parts = (
            ("rank", params.index_rank_region, params.rank_weight),
            ("suit", params.index_suit_region, 1.0 - params.rank_weight),
        )
        return tuple(part for part in parts if part[2] > 0), params.index_scale
    return (("centre", params.centre_region, 1.0),), params.centre_scale


def _grey(image: Image) -> Image:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


def _smooth(grey: Image, size: tuple[int, int], blur: float, highpass: float) -> FloatArray:
    """Resample ``grey`` to ``size`` (w, h), blur it and take away its slow shading, as float32."""
    small = np.asarray(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), dtype=np.float32)
    if blur > 0:
        small = np.asarray(cv2.GaussianBlur(small, (0, 0), blur), dtype=np.float32)
    if highpass > 0:
        small = small - np.asarray(cv2.GaussianBlur(small, (0, 0), highpass), dtype=np.float32)
    return small


def _normalise_rows(rows: FloatArray) -> FloatArray:
    rows = rows - rows.mean(axis=1, keepdims=True)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.asarray(rows / np.maximum(norms, 1e-6), dtype=np.float32)


def _redness(bgr: Image, params: IdentifyParams) -> float:
    """How red the ink of ``bgr`` is: 0 for black or grey ink, up to 1 for pure red.

    The ink is the darkest ``ink_quantile`` of the pixels (by grey value).
    """
    if bgr.ndim != 3 or bgr.size == 0:
        return 0.0
    pixels = bgr.reshape(-1, 3).astype(np.float32)
    grey = pixels.sum(axis=1)
    count = max(1, round(params.ink_quantile * len(grey)))
    ink = pixels[np.argpartition(grey, count - 1)[:count]]
    red = ink[:, 2] - np.maximum(ink[:, 0], ink[:, 1])
    return float(np.clip(red.mean() / 255.0, 0.0, 1.0))


def _chroma(image: Image) -> float:
    """Mean colourfulness (largest minus smallest channel) of a BGR card, on every 4th pixel."""
    b, g, r = cv2.split(np.ascontiguousarray(image[::4, ::4]))
    spread = cv2.absdiff(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    return float(cv2.mean(spread)[0])


def _is_black(card: Card, image: Image, area: Region, params: IdentifyParams) -> bool:
    if isinstance(card, StdCard):
        return not card.suit.is_red
    return _redness(image[area.y0 : area.y1, area.x0 : area.x1], params) <= params.red_ink


def _resized_about_corner(grey: Image, size: float) -> Image:
    """``grey`` scaled by ``size`` about its top-left corner, kept at its own shape."""
    if size == 1.0:
        return grey
    h, w = grey.shape[:2]
    matrix = np.array([[size, 0.0, 0.0], [0.0, size, 0.0]], dtype=np.float64)
    out = cv2.warpAffine(grey, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, dtype=np.uint8)


def _level(
    crops: list[Image],
    regions: tuple[_Spec, ...],
    area: Region,
    scale: float,
    params: IdentifyParams,
    ratio: float,
) -> _Level:
    """Resample the area crops of the templates to ``scale`` and build each part's matrix."""
    shape = (max(3, round(area.height * scale)), max(3, round(area.width * scale)))
    blur, highpass = params.blur_sigma * ratio, params.highpass_sigma * ratio
    stack = np.stack([_smooth(crop, (shape[1], shape[0]), blur, highpass) for crop in crops])
    parts = []
    for name, region, weight in regions:
        x0 = round((region.x0 - area.x0) * scale)
        y0 = round((region.y0 - area.y0) * scale)
        x1 = max(x0 + 2, round((region.x1 - area.x0) * scale))
        y1 = max(y0 + 2, round((region.y1 - area.y0) * scale))
        matrix = _normalise_rows(stack[:, y0:y1, x0:x1].reshape(len(crops), -1))
        parts.append(_Part(name=name, weight=weight, box=(x0, y0, x1, y1), matrix=matrix))
    return _Level(scale, shape, round(params.search_px * scale), blur, highpass, tuple(parts))


def _ink_box(deck: DeckKind, area: Region, params: IdentifyParams) -> tuple[int, int, int, int]:
    region = params.index_suit_region if deck is DeckKind.OKTRIS else params.centre_region
    pad = params.search_px
    return (
        pad + region.x0 - area.x0,
        pad + region.y0 - area.y0,
        pad + region.x1 - area.x0,
        pad + region.y1 - area.y0,
    )


def _prepare(templates: Templates, params: IdentifyParams) -> _Prepared:
    key = ("identify", params)
    cached = templates.cache.get(key)
    if isinstance(cached, _Prepared):
        return cached
    regions, scale = _parts_for(templates.deck, params)
    area = regions[0][1]
    for _, region, _ in regions[1:]:
        area = area.union(region)
    own_size: list[Image] = []
    sized: list[Image] = []
    cards: list[Card] = []
    black: list[bool] = []
    image_cards: list[Card] = []
    image_black: list[bool] = []
    for card, images in templates.faces.items():
        for image in images:
            grey = _grey(image)
            own_size.append(grey[area.y0 : area.y1, area.x0 : area.x1])
            is_black = _is_black(card, image, area, params)  # once per image: speed is no concern here
            image_cards.append(card)
            image_black.append(is_black)
            for size in params.template_scales:
                sized.append(_resized_about_corner(grey, size)[area.y0 : area.y1, area.x0 : area.x1])
                cards.append(card)
                black.append(is_black)
    order = tuple(dict.fromkeys(cards))
    card_index = np.array([order.index(card) for card in cards], dtype=np.intp)
    prepared = _Prepared(
        area=area,
        coarse=_level(own_size, regions, area, scale * params.coarse_ratio, params, params.coarse_ratio),
        fine=_level(sized, regions, area, scale, params, 1.0),
        black=np.array(black, dtype=np.bool_),
        order=order,
        rows_of=tuple(np.flatnonzero(card_index == i) for i in range(len(order))),
        coarse_black=np.array(image_black, dtype=np.bool_),
        ink_box=_ink_box(templates.deck, area, params),
        coarse_rows_of=tuple(
            np.flatnonzero(np.array([c == card for c in image_cards], dtype=np.bool_)) for card in order
        ),
        starts=np.array([np.flatnonzero(card_index == i)[0] for i in range(len(order))], dtype=np.intp),
        coarse_starts=np.array(
            [next(n for n, c in enumerate(image_cards) if c == card) for card in order], dtype=np.intp
        ),
        row_card=card_index,
    )
    templates.cache[key] = prepared
    return prepared


def _windows(card: Image, area: Region, pad: int) -> list[Image]:
    """The area with ``pad`` pixels around it, in the card as warped and turned half round."""
    padded = np.asarray(cv2.copyMakeBorder(card, pad, pad, pad, pad, cv2.BORDER_REPLICATE), dtype=np.uint8)
    upright = padded[area.y0 : area.y1 + 2 * pad, area.x0 : area.x1 + 2 * pad]
    x0, y0 = CARD_WIDTH - area.x1, CARD_HEIGHT - area.y1
    turned = padded[y0 : y0 + area.height + 2 * pad, x0 : x0 + area.width + 2 * pad]
    return [upright, np.asarray(cv2.rotate(turned, cv2.ROTATE_180), dtype=np.uint8)]


def _shifted(grey: Image, level: _Level) -> FloatArray:
    """Every placement of the area inside the resampled window: shape (ky, kx, h, w)."""
    h, w = level.shape
    size = (w + 2 * level.shift, h + 2 * level.shift)
    small = _smooth(grey, size, level.blur, level.highpass)
    view: FloatArray = np.lib.stride_tricks.sliding_window_view(small, (h, w))
    return view


def _part_scores(
    placements: FloatArray, level: _Level, rows: npt.NDArray[np.intp] | None = None
) -> list[FloatArray]:
    """Per part: correlation of every template row (or of ``rows``) with every placement (columns)."""
    out = []
    for part in level.parts:
        x0, y0, x1, y1 = part.box
        patches = _normalise_rows(placements[..., y0:y1, x0:x1].reshape(-1, (y1 - y0) * (x1 - x0)))
        matrix = part.matrix if rows is None else part.matrix[rows]
        out.append(_products(matrix, patches))
    return out


_SINGLE_THREAD_PRODUCT = 200_000
"""OpenBLAS multiplies on several threads from about 262,144 multiply-adds on; on a busy
machine those threads wait to be scheduled and a 50 µs product takes milliseconds.
Products are cut into row blocks below this size so they stay on the calling thread."""


def _products(rows: FloatArray, patches: FloatArray) -> FloatArray:
    """``rows @ patches.T``, in row blocks small enough to run on one thread."""
    per_row = patches.shape[0] * patches.shape[1]
    step = max(1, _SINGLE_THREAD_PRODUCT // max(1, per_row))
    if step >= rows.shape[0]:
        return np.asarray(rows @ patches.T, dtype=np.float32)
    blocks = [rows[i : i + step] @ patches.T for i in range(0, rows.shape[0], step)]
    return np.asarray(np.concatenate(blocks), dtype=np.float32)


def _scores(placements: FloatArray, level: _Level) -> FloatArray:
    """Weighted correlation of every template row (rows) with every placement (columns)."""
    parts = _part_scores(placements, level)
    total = level.parts[0].weight * parts[0]
    for part, scores in zip(level.parts[1:], parts[1:], strict=True):
        total = total + part.weight * scores
    return total


def _locate(grey: Image, prepared: _Prepared) -> tuple[FloatArray, tuple[int, int]]:
    """Coarse pass: every coarse row's best score over every placement, and the best placement."""
    coarse = prepared.coarse
    shifted = _shifted(grey, coarse)
    scores = _scores(shifted, coarse)
    best = int(scores.max(axis=0).argmax())
    dy, dx = divmod(best, shifted.shape[1])
    return scores.max(axis=1), (dy, dx)


def _placements_near(
    grey: Image, place: tuple[int, int], prepared: _Prepared, params: IdentifyParams
) -> FloatArray:
    """The fine placements within ``refine_px`` of a coarse placement."""
    coarse, fine = prepared.coarse, prepared.fine
    ratio = fine.scale / coarse.scale
    cy = fine.shift + round((place[0] - coarse.shift) * ratio)
    cx = fine.shift + round((place[1] - coarse.shift) * ratio)
    top = 2 * fine.shift
    y0, y1 = max(0, cy - params.refine_px), min(top, cy + params.refine_px) + 1
    x0, x1 = max(0, cx - params.refine_px), min(top, cx + params.refine_px) + 1
    return _shifted(grey, fine)[y0:y1, x0:x1]


def _shortlist(coarse_best: FloatArray, prepared: _Prepared, size: int) -> npt.NDArray[np.intp]:
    """The fine rows of the ``size`` cards that scored best in the coarse pass (all rows for 0)."""
    if size == 0 or size >= len(prepared.order):
        return np.arange(len(prepared.black))
    per_card = np.maximum.reduceat(coarse_best, prepared.coarse_starts)
    chosen = np.sort(np.argsort(-per_card)[:size])
    return np.concatenate([prepared.rows_of[i] for i in chosen])


def _small(window: Image, prepared: _Prepared) -> Image:
    """The colour window resampled like the fine level (for the colour cue)."""
    h, w = window.shape[:2]
    scale = prepared.fine.scale
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.asarray(cv2.resize(window, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _corners_agree(both: FloatArray, prepared: _Prepared, best: int, params: IdentifyParams) -> bool:
    """Whether each index corner on its own reads card ``best`` first, at ``min_score`` and
    ahead of every other card by ``pair_margin`` x ``min_margin``: two readings that agree
    are worth the full margin of one."""
    per_view = np.maximum.reduceat(both, prepared.starts, axis=1)  # (view, card)
    for scores in per_view:
        ranking = np.argsort(-scores)
        if int(ranking[0]) != best or scores[best] < params.min_score:
            return False
        if len(ranking) > 1 and scores[best] - scores[ranking[1]] < params.pair_margin * params.min_margin:
            return False
    return True


def check_card_image(card_image: object) -> Image:
    """Return ``card_image`` if it is a canonical warped card.

    Raises:
        IdentifyInputError: not a uint8 array of 280 x 200 (grey) or 280 x 200 x 3 (BGR).
    """
    if not isinstance(card_image, np.ndarray):
        raise IdentifyInputError(f"a card image must be a numpy array, got {type(card_image).__name__}")
    if card_image.dtype != np.uint8:
        raise IdentifyInputError(f"a card image must be uint8, got dtype {card_image.dtype}")
    if card_image.shape not in ((CARD_HEIGHT, CARD_WIDTH), (CARD_HEIGHT, CARD_WIDTH, 3)):
        raise IdentifyInputError(
            f"a card image must be {CARD_WIDTH}x{CARD_HEIGHT} (shape ({CARD_HEIGHT}, {CARD_WIDTH}[, 3])), "
            f"got shape {card_image.shape}"
        )
    return card_image


def identify(card_image: Image, templates: Templates, params: IdentifyParams | None = None) -> Identification:
    """Identify one canonical warped card against ``templates``.

    Returns the best card when it passes the checks the module docstring lists
    (score, parts, lead over the runner-up or two agreeing corners, deck), else
    an ``Identification`` whose ``card`` is ``None`` (the best candidate is
    still in ``candidate``).

    Raises:
        IdentifyInputError: ``card_image`` is not a 200x280 uint8 image (grey or BGR).
    """
    image = check_card_image(card_image)
    p = params if params is not None else IdentifyParams()
    prepared = _prepare(templates, p)
    views = _windows(image, prepared.area, p.search_px)
    greys = [_grey(window) for window in views]
    # per view, the rows that lose colour_penalty: black cards on red ink; in a colour
    # photo (a grey one shows red ink grey) red cards on black ink
    in_colour = image.ndim == 3 and _chroma(image) >= p.colour_present
    penalised: list[tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]] = []
    for window in views:
        x0, y0, x1, y1 = prepared.ink_box
        redness = _redness(_small(window[y0:y1, x0:x1], prepared), p) if image.ndim == 3 else 0.0
        if p.colour_penalty > 0 and redness > p.red_ink:
            penalised.append((prepared.black, prepared.coarse_black))
        elif p.colour_penalty > 0 and in_colour and redness < p.black_ink:
            penalised.append((~prepared.black, ~prepared.coarse_black))
        else:
            penalised.append((np.zeros_like(prepared.black), np.zeros_like(prepared.coarse_black)))
    located = [_locate(grey, prepared) for grey in greys]
    coarse_best = np.full(len(prepared.coarse_black), -2.0, dtype=np.float32)
    for (scores, _), (_, coarse_rows) in zip(located, penalised, strict=True):
        coarse_best = np.maximum(coarse_best, scores - p.colour_penalty * coarse_rows)
    rows = _shortlist(coarse_best, prepared, p.shortlist)
    view_scores = []
    view_parts = []
    for grey, (_, place), (fine_rows, _) in zip(greys, located, penalised, strict=True):
        placements = _placements_near(grey, place, prepared, p)
        parts = _part_scores(placements, prepared.fine, rows)
        total = prepared.fine.parts[0].weight * parts[0]
        for part, scores in zip(prepared.fine.parts[1:], parts[1:], strict=True):
            total = total + part.weight * scores
        total[fine_rows[rows]] -= p.colour_penalty
        column = total.argmax(axis=1)
        picked = np.arange(total.shape[0])
        full = np.full(len(prepared.black), -2.0, dtype=np.float32)
        full[rows] = total[picked, column]
        full_parts = np.full((len(prepared.black), len(parts)), -2.0, dtype=np.float32)
        full_parts[rows] = np.stack([scores[picked, column] for scores in parts], axis=1)
        view_scores.append(full)
        view_parts.append(full_parts)
    both = np.stack(view_scores)  # (view, row)
    all_rows = np.arange(both.shape[1])
    row_view = both.argmax(axis=0)
    row_scores = both[row_view, all_rows]
    row_parts = np.stack(view_parts)[row_view, all_rows]  # (row, part)
    card_scores = np.maximum.reduceat(row_scores, prepared.starts)
    # each card's best row: the first of its rows that reaches its best score
    first_best = np.where(row_scores >= card_scores[prepared.row_card], all_rows, len(all_rows))
    card_rows = np.minimum.reduceat(first_best, prepared.starts)
    card_parts = row_parts[card_rows]  # (card, part)
    ranking = np.argsort(-card_scores)
    best = int(ranking[0])
    best_score = float(card_scores[best])
    best_row = int(card_rows[best])
    candidate = prepared.order[best]
    # a standard card carries its index in both corners: call it turned only when the
    # bottom-right index reads clearly better
    lead = p.min_margin if templates.deck is DeckKind.OKTRIS else 0.0
    turned = bool(both[1, best_row] - both[0, best_row] > lead)
    part_scores = tuple(float(v) for v in card_parts[best])
    if len(ranking) > 1:
        second: Card | None = prepared.order[int(ranking[1])]
        second_score = float(card_scores[int(ranking[1])])
    else:
        second, second_score = None, 0.0
    clear = best_score - max(second_score, 0.0) >= p.min_margin
    if not clear and p.pair_margin > 0 and templates.deck is DeckKind.OKTRIS:
        clear = _corners_agree(both, prepared, best, p)
    accepted = (
        in_deck(candidate, templates.deck)
        and best_score >= p.min_score
        and clear
        and min(part_scores) >= p.min_part_score
    )
    return Identification(
        card=candidate if accepted else None,
        confidence=float(np.clip(best_score, 0.0, 1.0)),
        runner_up=second,
        runner_up_confidence=float(np.clip(second_score, 0.0, 1.0)),
        candidate=candidate,
        turned=turned,
        part_scores=part_scores,
    )


__all__ = ["Identification", "IdentifyInputError", "check_card_image", "identify"]
