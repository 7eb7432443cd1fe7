"""Read a warped card from its corner index (standard cards) or its centre symbol (Octoplus).

The input is the canonical warped card (``CARD_WIDTH`` x ``CARD_HEIGHT`` = 200 x
280, portrait).  Which short side is up is unknown, so the card is looked at as
warped and turned half round:

- a standard card is read from its corner index, rank above suit
  (``IdentifyParams.index_rank_region`` and ``index_suit_region`` at the top
  left; turned half round that area shows the bottom-right index), so either
  corner is enough;
- an Octoplus card is read from its big centre symbol
  (``IdentifyParams.centre_region``) at 0° and 180°, or on request
  (``corner=True``, for a covered card) from its corner index: the label above
  its mark at the standard index regions, the label weighted
  ``corner_rank_weight``.

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
the ink is neutral (``black_ink``), red cards lose it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from scanner.identify_colour import grey, is_black, rednesses, sample_chroma
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams, Region
from scanner.identify_view import CardView, card_box, card_sample
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card, DeckKind

FloatArray = npt.NDArray[np.float32]


UNSCORED = -2.0
"""The score (and part scores) of a card the coarse pass did not shortlist: not matched finely,
so its score says nothing of how alike it reads (below any correlation)."""


@dataclass(frozen=True)
class IndexReading:
    """Every card's score from the index (or centre) of one warped card.

    Arrays are per card of ``order`` (the deck's templates, in manifest order).
    """

    order: tuple[Card, ...]
    scores: FloatArray
    """Each card's best weighted correlation over both views (colour penalty included)."""
    parts: FloatArray
    """``(card, part)``: each card's correlation per part (rank, suit; or the centre) at its best."""
    per_view: FloatArray
    """``(view, card)``: each card's best score in the card as warped (0) and turned half round (1)."""
    turn_lead: FloatArray
    """Per card: how much better its best template read turned half round than as warped."""
    offsets: FloatArray | None = None
    """``(view, card, 2)``: where each card's best template matched in each view, as ``(dx, dy)``
    canonical pixels from the index's own place (``None``: not known)."""


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


def _parts_for(deck: DeckKind, params: IdentifyParams, corner: bool) -> tuple[tuple[_Spec, ...], float]:
    if deck is DeckKind.OKTRIS or corner:
        weight = params.rank_weight if deck is DeckKind.OKTRIS else params.corner_rank_weight
        parts = (
            ("rank", params.index_rank_region, weight),
            ("suit", params.index_suit_region, 1.0 - weight),
        )
        return tuple(part for part in parts if part[2] > 0), params.index_scale
    return (("centre", params.centre_region, 1.0),), params.centre_scale


def _smooth(grey: Image, size: tuple[int, int], blur: float, highpass: float) -> FloatArray:
    """Resample ``grey`` to ``size`` (w, h), blur it and take away its slow shading, as float32."""
    small = np.asarray(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), dtype=np.float32)
    if blur > 0:
        small = np.asarray(cv2.GaussianBlur(small, (0, 0), blur), dtype=np.float32)
    if highpass > 0:
        small = small - np.asarray(cv2.GaussianBlur(small, (0, 0), highpass), dtype=np.float32)
    return small


def _normalise_rows(rows: FloatArray) -> FloatArray:
    # each row's mean exactly as ``ndarray.mean`` computes it (sum, then divided in place by the
    # count as an ``intp``), without its argument handling
    mean = np.add.reduce(rows, axis=1, keepdims=True)
    np.true_divide(mean, np.intp(rows.shape[1]), out=mean, casting="unsafe")
    rows = rows - mean
    # the Euclidean norm of each row, as ``np.linalg.norm`` sums it, without its copy for ``conj``
    norms = np.sqrt(np.add.reduce(rows * rows, axis=1, keepdims=True))
    rows /= np.maximum(norms, 1e-6)  # in place: ``rows`` is this function's own array
    return np.asarray(rows, dtype=np.float32)


def _resized_about(grey: Image, size: float, centre: tuple[float, float]) -> Image:
    """``grey`` scaled by ``size`` about the point ``centre`` (x, y), kept at its own shape.

    Scaled about the middle of the matched area, a template at another size stays where
    the template at its own size was located: the fine pass matches every size within
    ``refine_px`` of that one place.  About the card's top-left corner (``centre`` (0, 0))
    a standard index moves by up to 3 resampled pixels at 10%, and a card seen 10% small
    or large scores little against its own template at that size
    (``IdentifyParams.index_scale_about``).
    """
    if size == 1.0:
        return grey
    h, w = grey.shape[:2]
    cx, cy = centre
    matrix = np.array(
        [[size, 0.0, cx * (1.0 - size)], [0.0, size, cy * (1.0 - size)]],
        dtype=np.float64,
    )
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


def _ink_box(deck: DeckKind, area: Region, params: IdentifyParams, corner: bool) -> tuple[int, int, int, int]:
    region = params.index_suit_region if deck is DeckKind.OKTRIS or corner else params.centre_region
    pad = params.search_px
    return (
        pad + region.x0 - area.x0,
        pad + region.y0 - area.y0,
        pad + region.x1 - area.x0,
        pad + region.y1 - area.y0,
    )


def _prepare(templates: Templates, params: IdentifyParams, corner: bool) -> _Prepared:
    key = ("identify", params, corner)
    cached = templates.cache.get(key)
    if isinstance(cached, _Prepared):
        return cached
    regions, scale = _parts_for(templates.deck, params, corner)
    area = regions[0][1]
    for _, region, _ in regions[1:]:
        area = area.union(region)
    # a standard index's other sizes about the point ``index_scale_about`` of the way from the
    # card's top-left corner to the middle of the index; an Octoplus card's about the corner
    about = params.index_scale_about if templates.deck is DeckKind.OKTRIS else 0.0
    centre = (about * (area.x0 + area.x1) / 2.0, about * (area.y0 + area.y1) / 2.0)
    own_size: list[Image] = []
    sized: list[Image] = []
    cards: list[Card] = []
    black: list[bool] = []
    image_cards: list[Card] = []
    image_black: list[bool] = []
    for card, images in templates.faces.items():
        for image in images:
            plain = grey(image)
            if params.template_blur > 0:
                plain = np.asarray(cv2.GaussianBlur(plain, (0, 0), params.template_blur), dtype=np.uint8)
            own_size.append(plain[area.y0 : area.y1, area.x0 : area.x1])
            dark = is_black(card, image, area, params)  # once per image: speed is no concern here
            image_cards.append(card)
            image_black.append(dark)
            for size in params.template_scales:
                sized.append(_resized_about(plain, size, centre)[area.y0 : area.y1, area.x0 : area.x1])
                cards.append(card)
                black.append(dark)
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
        ink_box=_ink_box(templates.deck, area, params, corner),
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


def _windows(card: Image | CardView, area: Region, pad: int) -> list[Image]:
    """The area with ``pad`` pixels around it, in the card as warped and turned half round
    (beyond the card's edge, its edge pixels repeated)."""
    upright = card_box(card, area.x0 - pad, area.y0 - pad, area.x1 + pad, area.y1 + pad)
    x0, y0 = CARD_WIDTH - area.x1 - pad, CARD_HEIGHT - area.y1 - pad
    turned = card_box(card, x0, y0, x0 + area.width + 2 * pad, y0 + area.height + 2 * pad)
    return [upright, np.asarray(cv2.rotate(turned, cv2.ROTATE_180), dtype=np.uint8)]


def _shifted(greys: list[Image], level: _Level) -> FloatArray:
    """Every placement of the area inside each resampled window: shape (view, ky, kx, h, w).

    Two windows (the card as warped and turned half round) are resampled and smoothed as the
    two channels of one image: one call of each filter instead of two.
    """
    h, w = level.shape
    size = (w + 2 * level.shift, h + 2 * level.shift)
    image = greys[0] if len(greys) == 1 else np.asarray(cv2.merge(greys), dtype=np.uint8)
    small = np.ascontiguousarray(_smooth(image, size, level.blur, level.highpass))
    # sliding_window_view(small, (h, w)) per channel, built directly on the buffer of ``small``
    # (a new array of its own: the argument checks of sliding_window_view and as_strided cost
    # more than the view)
    rows, cols = small.shape[:2]
    across, down = small.strides[1], small.strides[0]
    shape = (len(greys), rows - h + 1, cols - w + 1, h, w)
    strides = (small.itemsize, down, across, down, across)
    view: FloatArray = np.ndarray(shape, small.dtype, buffer=small, strides=strides)
    view.flags.writeable = False
    return view


def _part_scores(
    placements: list[FloatArray], level: _Level, matrices: list[FloatArray] | None = None
) -> list[FloatArray]:
    """Per part: correlation of every template row (or of each part's rows ``matrices``, chosen
    from its matrix) with every placement of ``placements`` (columns, the arrays' placements one
    after the other)."""
    out = []
    for k, part in enumerate(level.parts):
        x0, y0, x1, y1 = part.box
        size = (y1 - y0) * (x1 - x0)
        if len(placements) == 1:
            patches = placements[0][..., y0:y1, x0:x1].reshape(-1, size)
        else:
            patches = np.concatenate([each[..., y0:y1, x0:x1].reshape(-1, size) for each in placements])
        matrix = part.matrix if matrices is None else matrices[k]
        # the template rows are zero-mean: a patch's mean adds nothing to the product, so the
        # raw patches are multiplied and each column divided by its patch's centred norm
        out.append(_products(matrix, patches) * _inverse_norms(patches))
    return out


def _inverse_norms(patches: FloatArray) -> FloatArray:
    """One over the Euclidean norm of each row of ``patches`` less its mean (at most 1e6), as a
    row vector: the root of ``sum(x^2) - sum(x)^2 / n``, the sums taken in one pass each and
    combined in float64 (the rows are high-passed: their means are small, nothing cancels)."""
    total = np.einsum("ij->i", patches).astype(np.float64)
    norms = np.einsum("ij,ij->i", patches, patches).astype(np.float64)
    norms -= total * total / patches.shape[1]
    np.maximum(norms, 0.0, out=norms)
    np.sqrt(norms, out=norms)
    np.maximum(norms, 1e-6, out=norms)
    return np.asarray(np.reciprocal(norms), dtype=np.float32)[None, :]


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


def _weighted(parts: list[FloatArray], level: _Level) -> FloatArray:
    """The parts' correlations weighted and summed."""
    total = level.parts[0].weight * parts[0]
    for part, scores in zip(level.parts[1:], parts[1:], strict=True):
        total = total + part.weight * scores
    return total


def _locate(greys: list[Image], prepared: _Prepared) -> list[tuple[FloatArray, tuple[int, int]]]:
    """Coarse pass, per view: every coarse row's best score over every placement, and the best
    placement."""
    coarse = prepared.coarse
    shifted = _shifted(greys, coarse)
    views, down, across = shifted.shape[:3]
    scores = _weighted(_part_scores([shifted], coarse), coarse).reshape(-1, views, down * across)
    best = scores.max(axis=0).argmax(axis=1)
    located = []
    for v in range(views):
        dy, dx = divmod(int(best[v]), across)
        located.append((scores[:, v].max(axis=1), (dy, dx)))
    return located


def _placements_near(
    shifted: FloatArray, place: tuple[int, int], prepared: _Prepared, params: IdentifyParams
) -> tuple[FloatArray, tuple[int, int]]:
    """The fine placements (of one view's ``shifted``) within ``refine_px`` of a coarse
    placement, and the first one's ``(y, x)`` among every fine placement."""
    coarse, fine = prepared.coarse, prepared.fine
    ratio = fine.scale / coarse.scale
    cy = fine.shift + round((place[0] - coarse.shift) * ratio)
    cx = fine.shift + round((place[1] - coarse.shift) * ratio)
    top = 2 * fine.shift
    y0, y1 = max(0, cy - params.refine_px), min(top, cy + params.refine_px) + 1
    x0, x1 = max(0, cx - params.refine_px), min(top, cx + params.refine_px) + 1
    return shifted[y0:y1, x0:x1], (y0, x0)


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


def agree(reading: IndexReading, best: int, params: IdentifyParams) -> bool:
    """Whether each index corner on its own reads card ``best`` first, at ``min_score`` and
    ahead of every other card by ``pair_margin`` x ``min_margin``: two readings that agree
    are worth the full margin of one."""
    for scores in reading.per_view:
        ranking = np.argsort(-scores)
        if int(ranking[0]) != best or scores[best] < params.min_score:
            return False
        if len(ranking) > 1 and scores[best] - scores[ranking[1]] < params.pair_margin * params.min_margin:
            return False
    return True


def read_index(
    image: Image | CardView,
    templates: Templates,
    params: IdentifyParams,
    corner: bool = False,
    upright_only: bool = False,
) -> IndexReading:
    """Score every card of ``templates`` on the index (centre) of the canonical card ``image``
    (an image, or a ``CardView`` warped only where it is read).

    With ``corner`` an Octoplus card is read from its corner index (label above mark, at
    the standard index regions) instead of its centre; a standard card always is.  With
    ``upright_only`` only the card as warped is looked at (one index corner, the top left;
    ``per_view`` then has one row and ``turn_lead`` is zero), a standard card's templates
    tried at the sizes ``lone_corner_scales`` instead of ``template_scales``.
    """
    p = params
    if upright_only and not corner and p.lone_corner_scales != p.template_scales:
        # a lone standard index has no second corner to agree with on its suit: finer sizes
        p = replace(p, template_scales=p.lone_corner_scales)
    prepared = _prepare(templates, p, corner)
    views = _windows(image, prepared.area, p.search_px)[: 1 if upright_only else 2]
    greys = [grey(window) for window in views]
    # per view, the rows that lose colour_penalty: black cards on red ink; in a colour
    # photo (a grey one shows red ink grey) red cards on black ink; whether the photo is in
    # colour is judged only when a view's ink is black: from the ink boxes already cut when
    # they show colour together, else from a sample of the whole card (a card view then warps it)
    x0, y0, x1, y1 = prepared.ink_box
    inks = [_small(window[y0:y1, x0:x1], prepared) for window in views] if image.ndim == 3 else []
    colour: list[bool] = []

    def in_colour() -> bool:
        if not colour:
            colour.append(
                image.ndim == 3
                and (
                    sample_chroma(np.concatenate(inks)) >= p.colour_present
                    or sample_chroma(card_sample(image)) >= p.colour_present
                )
            )
        return colour[0]

    penalised: list[tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]] = []
    reds = rednesses(inks, p) if inks else [0.0] * len(views)
    for red in reds:
        if p.colour_penalty > 0 and red > p.red_ink:
            penalised.append((prepared.black, prepared.coarse_black))
        elif p.colour_penalty > 0 and red < p.black_ink and in_colour():
            penalised.append((~prepared.black, ~prepared.coarse_black))
        else:
            penalised.append((np.zeros_like(prepared.black), np.zeros_like(prepared.coarse_black)))
    located = _locate(greys, prepared)
    coarse_best = np.full(len(prepared.coarse_black), UNSCORED, dtype=np.float32)
    for (scores, _), (_, coarse_rows) in zip(located, penalised, strict=True):
        coarse_best = np.maximum(coarse_best, scores - p.colour_penalty * coarse_rows)
    rows = _shortlist(coarse_best, prepared, p.shortlist)
    matrices = [part.matrix[rows] for part in prepared.fine.parts]  # the same rows for both views
    shifted = _shifted(greys, prepared.fine)
    near = [_placements_near(shifted[v], place, prepared, p) for v, (_, place) in enumerate(located)]
    # both views' placements matched in one product per part, then split by view
    every_part = _part_scores([placements for placements, _ in near], prepared.fine, matrices)
    every_total = _weighted(every_part, prepared.fine)
    view_scores = []
    view_parts = []
    view_offsets: list[FloatArray] = []
    start = 0
    for (placements, (oy, ox)), (fine_rows, _) in zip(near, penalised, strict=True):
        end = start + placements.shape[0] * placements.shape[1]
        parts = [scores[:, start:end] for scores in every_part]
        total = every_total[:, start:end]
        start = end
        total[fine_rows[rows]] -= p.colour_penalty
        column = total.argmax(axis=1)
        picked = np.arange(total.shape[0])
        row_y, row_x = np.divmod(column, placements.shape[1])
        full_offsets = np.zeros((len(prepared.black), 2), dtype=np.float32)
        full_offsets[rows, 0] = (row_x + ox - prepared.fine.shift) / prepared.fine.scale
        full_offsets[rows, 1] = (row_y + oy - prepared.fine.shift) / prepared.fine.scale
        view_offsets.append(full_offsets)
        full = np.full(len(prepared.black), UNSCORED, dtype=np.float32)
        full[rows] = total[picked, column]
        full_parts = np.full((len(prepared.black), len(parts)), UNSCORED, dtype=np.float32)
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
    return IndexReading(
        order=prepared.order,
        scores=card_scores,
        parts=card_parts,
        per_view=np.maximum.reduceat(both, prepared.starts, axis=1),
        turn_lead=both[-1, card_rows] - both[0, card_rows],
        offsets=np.stack([offsets[card_rows] for offsets in view_offsets]),
    )


__all__ = ["UNSCORED", "IndexReading", "agree", "read_index"]
