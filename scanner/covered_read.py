"""One covered card's corner index read: the corner part of the card cut out upright and its
top-left index alone read (``scanner.identify_index.read_index``).

A corner proposal (``scanner.find_corners``) lays a card out from a possible index
corner; ``read_corner`` names the card there when the index is clear (the
``CoveredParams`` thresholds of an index alone).  A proposal is often a little off:
``read_corner_turning`` reads an unclear corner again turned a few degrees about its
corner point, ``read_corner_shifting`` reads a corner that names nothing moved back
along the side it was found by (where a straight run of an outline ends at the card
over it, short of the covered card's own corner), and ``read_corner_searching`` reads
a corner still unclear with its index looked for farther around its place, turned
farther either way.  ``scanner.scan_covered`` reads
the corners of a frame with these.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import TypeVar

import cv2
import numpy as np

from scanner.covered_learned import CornerScene, corner_cues, load_model
from scanner.find_corners import CornerProposal, card_quad
from scanner.find_geometry import FloatArray, side_lengths
from scanner.identify_index import read_index
from scanner.identify_look import second_look, twin_preferred
from scanner.identify_params import IdentifyParams
from scanner.params import CoveredParams, ScannerParams
from scanner.templates import Templates, in_deck
from scanner.types import Image
from scorer.cards import Card, DeckKind

_Where = TypeVar("_Where")

__all__ = [
    "CornerReading",
    "corner_card_image",
    "read_corner",
    "read_corner_searching",
    "read_corner_shifting",
    "read_corner_turning",
    "turned",
]


RECORDER: list[dict[str, object]] | None = None
"""Set to a list by a study (``tools/learn_corners.py``): every corner read given a scene is
appended to it, with its quad, its first card, whether the thresholds (``hand``) or the second
look (``look``) named it, whether it was a size probe's (``probe``) and its cues
(``scanner.covered_learned.CUES``); ``None`` in use."""


@dataclass(frozen=True)
class CornerReading:
    """What the index at one corner says: the card (``None`` when not clear), its score, its
    lead over the next card, the smallest of its parts' scores, the card ranked first (named or
    not) and whether only a second reading named it (``second``: the second look at the parts
    that tell close cards apart, an Octoplus label read again against blurred templates or, when
    on, the learned accept step; its lead may be under the deck's margin)."""

    card: Card | None
    score: float
    margin: float
    least_part: float
    candidate: Card
    second: bool = False


def corner_card_image(frame: Image, quad: FloatArray, params: ScannerParams) -> Image:
    """A canonical card image (``card_width x card_height``) showing the corner part of the card
    ``quad`` (frame pixels, TL TR BR BL) at its top left and, turned half round, at its bottom
    right; the rest is the corner part's median colour."""
    w, h = params.find.card_width, params.find.card_height
    pw, ph = round(w * params.covered.patch), round(h * params.covered.patch)
    src = np.asarray(quad[[0, 1, 3]], np.float32)
    dst = np.array([[0, 0], [w, 0], [0, h]], np.float32)
    matrix = cv2.getAffineTransform(src, dst)
    patch = np.asarray(
        cv2.warpAffine(frame, matrix, (pw, ph), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
        np.uint8,
    )
    # each channel's median (``np.median``: the mean of the two middle values, cut to uint8), from
    # its histogram: a 256-bin count instead of partitioning every pixel
    count = pw * ph
    middle = (count - 1) // 2
    fill = np.empty(patch.shape[2] if patch.ndim == 3 else 1, np.uint8)
    for channel in range(len(fill)):
        below = np.cumsum(cv2.calcHist([patch], [channel], None, [256], [0, 256]).ravel())
        low = int(np.searchsorted(below, middle + 1))
        high = low if count % 2 else int(np.searchsorted(below, middle + 2))
        fill[channel] = (low + high) // 2
    canvas = np.empty((h, w, *patch.shape[2:]), np.uint8)
    canvas[0] = fill if patch.ndim == 3 else fill[0]
    canvas[1:] = canvas[0]  # whole rows copied: far cheaper than spreading one pixel over all
    canvas[:ph, :pw] = patch
    canvas[h - ph :, w - pw :] = cv2.rotate(patch, cv2.ROTATE_180)
    return canvas


@functools.lru_cache(maxsize=16)
def _corner_params(
    identify: IdentifyParams, search_px: int, standard: bool, black_ink: float | None = None
) -> IdentifyParams:
    """The identifier's parameters for reading one index corner: the search ``search_px`` around
    it and, for a standard card, the lone-corner template sizes (those ``read_index`` switches to
    for one corner) and the redness ``black_ink`` under which its ink counts as black
    (``CoveredParams.black_ink``; ``None``: the identifier's).  Made once per parameter set: a new
    parameter set checks every field, which costs more than cutting out the corner read."""
    if identify.search_px != search_px:
        identify = replace(identify, search_px=search_px)
    if standard and identify.lone_corner_scales != identify.template_scales:
        identify = replace(identify, template_scales=identify.lone_corner_scales)
    if standard and black_ink is not None and identify.black_ink != black_ink:
        identify = replace(identify, black_ink=black_ink)
    return identify


def _deck_margin(p: CoveredParams, deck: DeckKind) -> float:
    """The lead over the next card that names a corner of ``deck``."""
    return p.octo_min_margin if deck is DeckKind.OCTOPLUS else p.min_margin


def read_corner(
    frame: Image,
    quad: FloatArray,
    templates: Templates,
    params: ScannerParams,
    search_px: int | None = None,
    clear_labels: bool = True,
    scene: CornerScene | None = None,
) -> CornerReading:
    """Read the index at the top-left corner of the card ``quad`` (frame pixels, TL TR BR BL),
    looked for ``search_px`` (canonical card pixels; ``covered.search_px`` by default) around its
    place.

    The card is named when the best card's score reaches ``covered.min_score``, leads the
    next by the deck's margin, each part reaches the deck's part threshold and it is a
    card of the deck, and (a standard card) a look at the suits does not prefer its twin
    suit scoring within ``covered.twin_band`` or, with ``covered.twin_unscored``, not scored
    finely (``scanner.identify_look.twin_preferred``); or,
    when it is not named so, when a second look at the parts of the index that
    tell the close cards apart names it (``scanner.identify_look.second_look``).  With
    ``clear_labels`` an Octoplus label with a clear lead is named under the part threshold
    (``covered.octo_clear``).  A read left unnamed by all these names its first card when the
    learned model (``scanner.covered_learned``) gives it a probability of at least
    ``covered.learned_accept`` (Octoplus; ``learned_accept_std`` for a standard card), unless it
    is one of ``covered.learned_except``; without ``clear_labels`` (the size probes) only with
    ``covered.learned_probe``.  The model weighs the read's cues with those of its ``scene``
    (``CornerScene.cues``): a read given no scene is never named by it.  Every read given a
    scene is noted in it (``CornerScene.note``).
    """
    p = params.covered
    octo = templates.deck is DeckKind.OCTOPLUS
    image = corner_card_image(frame, quad, params)
    identify = _corner_params(
        params.identify, p.search_px if search_px is None else search_px, not octo, p.black_ink
    )
    reading = read_index(image, templates, identify, corner=octo, upright_only=True)
    order = np.argsort(-reading.scores)
    best = int(order[0])
    score = float(reading.scores[best])
    runner = float(reading.scores[order[1]]) if len(order) > 1 else 0.0
    margin = score - max(runner, 0.0)
    least = float(reading.parts[best].min())
    candidate = reading.order[best]
    named = (
        score >= p.min_score
        and margin >= _deck_margin(p, templates.deck)
        and least >= (p.octo_min_part_score if octo else p.min_part_score)
        and in_deck(candidate, templates.deck)
        and (
            octo
            or not twin_preferred(
                image, reading, templates, identify, p.twin_band, upright_only=True, unscored=p.twin_unscored
            )
        )
    ) or (octo and clear_labels and _clear_label(candidate, score, margin, least, templates.deck, p))
    plain = named
    if not named and octo and clear_labels:
        named = _soft_label(image, candidate, score, templates, identify, p)
    hand = named
    if not named:
        # an unclear index: a second look at the parts that tell the close cards apart
        named = second_look(image, reading, templates, identify, upright_only=True) is not None
    looked = named and not hand
    cut = p.learned_accept if octo else p.learned_accept_std
    cues = None
    if scene is not None and (RECORDER is not None or (not named and cut is not None)):
        cues = np.concatenate(
            [corner_cues(image, reading, float(side_lengths(quad)[0])), scene.cues(quad, str(candidate))]
        )
    if (
        not named
        and cut is not None
        and cues is not None
        and in_deck(candidate, templates.deck)
        and str(candidate) not in p.learned_except
        and (clear_labels or p.learned_probe)
    ):
        # left unnamed by the thresholds and the second look: the cues weighed together
        named = load_model()[templates.deck.value].probability(cues) >= cut
    if RECORDER is not None and cues is not None:
        RECORDER.append(
            {
                "quad": np.asarray(quad, np.float64).tolist(),
                "candidate": str(candidate),
                "deck": templates.deck.value,
                "hand": bool(hand),
                "look": bool(looked),
                "in_deck": bool(in_deck(candidate, templates.deck)),
                "probe": not clear_labels,
                "cues": cues.tolist(),
            }
        )
    if scene is not None:
        scene.note(quad, str(candidate))
    return CornerReading(candidate if named else None, score, margin, least, candidate, named and not plain)


def _clear_label(
    card: Card, score: float, margin: float, least: float, deck: DeckKind, p: CoveredParams
) -> bool:
    """Whether an Octoplus corner label reading under ``octo_min_part_score`` names its card
    all the same: it scores ``min_score``, leads the next card by ``octo_clear_margin`` (a clear
    lead, more than ``octo_min_margin``), each part reaches ``octo_clear_part_score``, and its
    label is not one of ``octo_clear_except`` (a label whose strokes fit other prints)."""
    return (
        p.octo_clear
        and score >= p.min_score
        and margin >= p.octo_clear_margin
        and least >= p.octo_clear_part_score
        and str(card) not in p.octo_clear_except
        and in_deck(card, deck)
    )


@functools.lru_cache(maxsize=8)
def _blurred_params(identify: IdentifyParams, sigma: float) -> IdentifyParams:
    """``identify`` with its templates blurred by ``sigma`` canonical pixels."""
    return replace(identify, template_blur=sigma)


def _soft_label(
    image: Image, card: Card, score: float, templates: Templates, identify: IdentifyParams, p: CoveredParams
) -> bool:
    """Whether an Octoplus corner label (``image``, the card cut out) that ranked ``card`` first at
    ``score`` but fails the usual thresholds names it when read again against templates blurred by
    ``covered.octo_blur`` (a soft print: a card out of focus or moving reads its strokes fainter
    and wider than the sharp templates): the blurred read ranks the same card first and passes
    the usual thresholds, its lead over the next card ``octo_blur_lead`` more than
    ``octo_min_margin``.  Nothing is read again below ``octo_blur_min_score``."""
    if p.octo_blur <= 0 or score < p.octo_blur_min_score or not in_deck(card, templates.deck):
        return False
    soft = read_index(
        image, templates, _blurred_params(identify, p.octo_blur), corner=True, upright_only=True
    )
    order = np.argsort(-soft.scores)
    best = int(order[0])
    if soft.order[best] != card:
        return False
    runner = float(soft.scores[order[1]]) if len(order) > 1 else 0.0
    first = float(soft.scores[best])
    return (
        first >= p.min_score
        and first - max(runner, 0.0) >= p.octo_min_margin + p.octo_blur_lead
        and float(soft.parts[best].min()) >= p.octo_min_part_score
    )


def turned(quad: FloatArray, degrees: float) -> FloatArray:
    """``quad`` turned by ``degrees`` (counter-clockwise as the image shows it) about its first
    corner."""
    rad = np.deg2rad(degrees)
    c, s = np.cos(rad), np.sin(rad)
    # image y points down: a counter-clockwise turn on screen
    rotation = np.array([[c, s], [-s, c]])
    corner = quad[0]
    return np.asarray((quad - corner) @ rotation.T + corner, np.float64)


def read_corner_turning(
    frame: Image,
    quad: FloatArray,
    templates: Templates,
    params: ScannerParams,
    budget: int,
    scene: CornerScene | None = None,
) -> tuple[CornerReading, float, int]:
    """Read the corner of ``quad`` (as ``read_corner``); when it reads unclear (no card named,
    best score at least ``covered.turn_min_score``) and ``budget`` allows, read it again turned
    by each of ``covered.turn_angles`` about the corner point.

    Returns the reading kept, the turn it was read at (degrees; 0 for the first read) and the
    number of extra reads made. A turned read is kept only when it names the card the corner
    read first ranked first (as it lay), leads its next card by ``covered.turn_lead`` more than
    the deck's margin (or, named by a second reading, other turns agree, ``_agreed``), and no
    turn names another card; of several, the one with the highest score.
    """
    p = params.covered
    first = read_corner(frame, quad, templates, params, scene=scene)
    if first.card is not None or budget <= 0 or p.turn_reads == 0 or first.score < p.turn_min_score:
        return first, 0.0, 0
    lead = _deck_margin(p, templates.deck) + p.turn_lead
    extra = 0
    readings: list[tuple[CornerReading, float]] = []
    for degrees in p.turn_angles:
        if extra >= budget:
            break
        extra += 1
        reading = read_corner(frame, turned(quad, degrees), templates, params, scene=scene)
        if reading.card is not None and (reading.margin >= lead or (reading.second and p.moved_agree > 0)):
            readings.append((reading, degrees))
    if any(reading.card != first.candidate for reading, _ in readings):
        return first, 0.0, extra  # a turn names another card than the corner read as it lay
    best = _best_agreed(readings, lead, p)
    return (first, 0.0, extra) if best is None else (best[0], best[1], extra)


def _best_agreed(
    readings: list[tuple[CornerReading, _Where]], lead: float, p: CoveredParams
) -> tuple[CornerReading, _Where] | None:
    """Of one step's ``readings`` that name a card (all the same card), each with where it was
    read, the best scored one that names it (``_agreed``, all of them agreeing); ``None`` when
    none does."""
    kept = [read for read in readings if _agreed(read[0], lead, len(readings), p)]
    return max(kept, key=lambda read: read[0].score) if kept else None


def _agreed(reading: CornerReading, lead: float, agreeing: int, p: CoveredParams) -> bool:
    """Whether a turned, moved or searched ``reading`` that names a card leads its next card
    enough to name it: by ``lead``, or only a second reading named it (``CornerReading.second``)
    and ``agreeing`` reads of its step (itself among them) name the same card, at least
    ``covered.moved_agree`` (0: never).  Such a read alone named wrong cards where it was the
    step's only one: a look fooled once is not fooled the same way at every turn or move."""
    return reading.margin >= lead or (reading.second and 0 < p.moved_agree <= agreeing)


def read_corner_shifting(
    frame: Image,
    proposal: CornerProposal,
    short: float,
    scale: float,
    templates: Templates,
    params: ScannerParams,
    budget: int,
    scene: CornerScene | None = None,
) -> tuple[CornerReading | None, CornerProposal, int]:
    """Read the card of ``proposal`` (work pixels, short side ``short``; frame pixels are work
    pixels over ``scale``) moved back along its longer arm by each of ``covered.shift_steps``
    (fractions of ``short``), at most ``budget`` reads.

    A corner found where a straight run of an outline ends lies where the card over it cuts
    the side (or where a rounded corner ends it), a little along that side from the card's own
    corner.  Returns the reading kept (``None`` when none names a card), the proposal moved
    where it was read and the number of reads made.  A moved read is kept only when it names
    a card, leads its next card by ``covered.shift_lead`` more than the deck's margin (or,
    named by a second reading, other moves agree, ``_agreed``), and no other move names another
    card; of several, the one with the highest score.
    """
    p = params.covered
    lead = _deck_margin(p, templates.deck) + p.shift_lead
    arm = proposal.across if proposal.length_across >= proposal.length_down else proposal.down
    reads = 0
    readings: list[tuple[CornerReading, CornerProposal]] = []
    for step in p.shift_steps:
        if reads >= budget:
            break
        reads += 1
        moved = replace(proposal, point=proposal.point - step * short * arm)
        quad = card_quad(moved, short, params.find.card_aspect) / scale
        reading = read_corner(frame, quad, templates, params, scene=scene)
        if reading.card is not None:
            readings.append((reading, moved))
    best = _best_agreed(readings, lead, p) if len({reading.card for reading, _ in readings}) == 1 else None
    return (None, proposal, reads) if best is None else (best[0], best[1], reads)


def read_corner_searching(
    frame: Image,
    quad: FloatArray,
    first: CornerReading,
    templates: Templates,
    params: ScannerParams,
    budget: int,
    scene: CornerScene | None = None,
) -> tuple[CornerReading | None, float, int]:
    """Read the corner of ``quad`` (frame pixels) once more as a last resort, its index looked for
    ``covered.search_wide_px`` around its place, turned by each of ``covered.search_turns`` about
    the corner point, at most ``budget`` reads; ``first`` is the corner's reading as it lay.

    Nothing is read when ``first`` scored below ``covered.search_min_score`` (no card's index
    there).  Returns the reading kept (``None`` when none names a card), the turn it was read
    at (degrees) and the number of reads made.  The best scored read is kept only when it names
    the card ``first`` ranked first, leads its next card by the deck's margin plus
    ``covered.search_lead`` (or, named by a second reading, other reads agree, ``_agreed``), and
    no other read names another card: a farther search is a wider chance to be wrong.
    """
    p = params.covered
    if budget <= 0 or first.score < p.search_min_score:
        return None, 0.0, 0
    lead = _deck_margin(p, templates.deck) + p.search_lead
    best: CornerReading | None = None
    angle = 0.0
    reads = 0
    names: list[Card] = []
    for degrees in p.search_turns:
        if reads >= budget:
            break
        reads += 1
        reading = read_corner(frame, turned(quad, degrees), templates, params, p.search_wide_px, scene=scene)
        if reading.card is not None:
            names.append(reading.card)
        if best is None or reading.score > best.score:
            best, angle = reading, degrees
    if (
        best is None
        or best.card != first.candidate
        or len(set(names)) > 1
        or not _agreed(best, lead, len(names), p)
    ):
        return None, 0.0, reads
    return best, angle, reads
