"""Covered cards (piles, fans, hand rows) named by reading the index at their visible corners.

The finder rebuilds a covered card from its outline; where that fails (a wrong
size, a wrong overlapping hypothesis) the card may still show a corner with its
index.  Here the index decides instead of the geometry:

1. only card pixels outside the cards already identified can show another
   card's index: with too few of them nothing is done (a frame of lone cards
   costs almost nothing), unless two cards identified overlap and another card
   part inside them reaches the outline of the card pixels (the middle card of a fan of
   three, ``CoveredParams.overlap_open``: its corners are then read as they lie and turned
   only);
2. every right-handed corner near them (``scanner.find_corners``: corners of the outlines of
   card parts, and straight card edges meeting at a right angle) is taken for the top-left
   corner of a card of the frame's card size (calibration's ``card_size_px``, else the cards
   identified; with neither, the index chooses: a few corners are read at candidate sizes,
   those of the cards found and those whole card sides and long straight edges give,
   ``scanner.covered_size``, and the size naming most of them is the frame's, at which the
   corners it read and left unnamed are read again as the others are, first and beyond the
   read budgets, ``CoveredParams.probe_reread``; a cluster of touching cards holding no card
   identified chooses its own size so, ``CoveredParams.cluster_probes``; a frame left with
   two sizes, or sizes tied in the probe (``CoveredParams.size_ties``), keeps to the one
   that names its cards, ``CoveredParams.size_settle``; with no card found at all, the probe
   chooses among the sizes whole sides and long edges give,
   ``CoveredParams.unfound_probe``; where outlines are found but the probe names nothing, the
   likeliest of its sizes are read after theirs, ``CoveredParams.found_sizes``); a corner
   that names nothing at the frame's size is read again at the size the cards identified
   imply at its place (a plane fitted over their sizes, ``covered_size.local_shorts``) where
   that differs, ``CoveredParams.local_size``: a tilted camera sees one frame's cards at
   sizes up to a quarter apart;
3. only corners whose index box lies on card pixels, holds print and lies
   outside every card already identified (or on another card part than the
   index it was identified at: a card lying on it) are read, at most
   ``CoveredParams.max_reads`` per frame;
4. the corner part of the card is cut out upright into a canonical card image
   and its top-left index alone is read (``read_index(..., upright_only=True)``,
   searched ``CoveredParams.search_px`` around its place); a corner that names nothing, as it
   lay or turned a few degrees, is read again moved back along the side it was found by
   (``read_corner_shifting``: a corner where an outline's straight run ends lies where the card
   over it cuts that side, short of the card's own corner), and one still unclear is read with
   its index looked for farther around it, turned farther (``read_corner_searching``); last, a
   card missing between two named cards of a row or a fan is read where their poses put it
   (``_gap_named``, ``find_corners.gap_corners``); in a frame smeared by motion, measured on the
   cards identified whole (``scanner.motion``), the corners read and left unnamed are read again
   against templates smeared as each card shows that motion (``CoveredParams.motion_reads``);
   with cards identified whole, the corners still unnamed are read again on the card the table
   plane fitted on them lays there, foreshortened as the camera sees it (``scanner.covered_plane``,
   ``CoveredParams.plane_reads``); and those still unnamed are read laid on their card's edges
   (``find_corners.laid_on_edges``, ``CoveredParams.edge_reads``: a proposal's arms can be
   several degrees off the card's sides), the whole arms' and then those nearest the corner
   (``CoveredParams.edge_near``);
5. a corner names a card when its score, its lead over the next card and each
   part of the index reach the ``CoveredParams`` thresholds (the identifier's
   rule for an index alone; a wider lead for Octoplus labels), or, a read left unnamed so, when a
   logistic model learned over many cues of the read and of the scene around it (the cards named
   and found near it, the reads of the frame agreeing with it: a ``CornerScene`` every read of the
   frame is given) gives its first card a probability of ``CoveredParams.learned_accept``
   (``scanner.covered_learned``; off by default);
6. the card is laid out at the frame's card size (or the size of a ladder around
   it, ``CoveredParams.size_steps``, whose outline shows best on card pixels);
7. before they are kept, an Octoplus card so named is read whole by the identifier on its
   outline laid out again from its read corner, and names nothing when that names another card
   (``CoveredParams.centre_check``: a whole top card's corner label is small, its centre big),
   and each card is read again at smaller sizes about its read corner and laid out at the one its
   index reads best at (``CoveredParams.resize_steps``: a card laid out at another card's size
   reaches past its own sides);
8. readings of the same card whose cards overlap are one card (seen from both
   its index corners: then its whole outline shows, it lies on top); a reading
   never replaces a card already identified, and replaces a found card that was
   not identified where the two overlap.
"""

from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from scanner.covered_learned import CornerScene
from scanner.covered_plane import fit_plane, plane_quad
from scanner.covered_read import (
    CornerReading,
    read_corner,
    read_corner_searching,
    read_corner_shifting,
    read_corner_turning,
    turned,
)
from scanner.covered_size import local_shorts, longest_edges, size_candidates, whole_sides
from scanner.faces import INDEX_BOX
from scanner.find_corners import (
    CornerProposal,
    card_quad,
    corner_proposals,
    gap_corners,
    laid_on_edges,
    row_run,
)
from scanner.find_geometry import FloatArray, holds, side_lengths
from scanner.find_split import on_cards, outline_shown
from scanner.find_work import Work
from scanner.identify import identify
from scanner.identify_view import CardView
from scanner.motion import canonical_line, estimate_motion, estimate_motion_blind, motion_templates
from scanner.params import CoveredParams, FindParams, ScannerParams
from scanner.scan_relay import anchored_outlines
from scanner.templates import Templates, in_deck
from scanner.types import Detection, Image, Quad
from scorer.cards import Card, DeckKind

__all__ = ["read_covered"]

log = logging.getLogger(__name__)

_INDEX_GRID = np.stack(
    np.meshgrid(
        np.linspace((INDEX_BOX[0] + INDEX_BOX[2]) / 2, INDEX_BOX[2], 3),
        np.linspace((3 * INDEX_BOX[1] + INDEX_BOX[3]) / 4, INDEX_BOX[3], 6),
    ),
    axis=-1,
).reshape(-1, 2)
"""Sample points of the index box away from the card's rounded corner, as fractions of the
card's width and height."""

_INK_GRID = np.stack(
    np.meshgrid(np.linspace(INDEX_BOX[0], INDEX_BOX[2], 5), np.linspace(INDEX_BOX[1], INDEX_BOX[3], 9)),
    axis=-1,
).reshape(-1, 2)
"""Sample points over the whole index box, where its print shows."""


@dataclass(frozen=True)
class _Named:
    """A card named from a corner: its corners (frame pixels, TL TR BR BL), its reading and the
    corner it was read at (work pixels)."""

    quad: FloatArray
    reading: CornerReading
    corner: FloatArray
    corners_read: int = 1
    moved: bool = False
    """Read with the corner moved along its side (``read_corner_shifting``), its index looked
    for farther around it (``read_corner_searching``) or against templates smeared by the frame's
    motion (``_motion_named``): a last resort."""
    plane: bool = False
    """Read on the card the table plane lays at its corner (``_plane_named``): it replaces cards
    found and not identified only where one of them is marked top (``CoveredParams.plane_replace``)."""
    gap: bool = False
    """Read between two named cards of a row or a fan (``_gap_named``; ``moved`` too): where it
    was read no card was named, so it is not taken for a card of its name whose outline holds
    its corner (a fan of Octoplus cards may hold two of one name)."""


def _apart(a: FloatArray, b: FloatArray) -> float:
    """How far apart two cards are: the mean distance between their corners (the best of the
    four ways of pairing them round), over the short side of ``b``."""
    gap = min(float(np.hypot(*(np.roll(a, k, axis=0) - b).T).mean()) for k in range(4))
    return gap / max(side_lengths(b)[0], 1e-9)


def _card_shorts(detections: list[Detection], work: Work, params: ScannerParams) -> list[float]:
    """The frame's card short side in work pixels, most likely first: calibration's, else the
    median of the cards identified; with none identified, the median of the cards found and,
    when it is ``size_spread`` larger, the largest of them.  Empty with none of these."""
    if params.find.card_size_px is not None:
        return [params.find.card_size_px[0] * work.scale]
    named = [d for d in detections if d.card is not None]
    shorts = [side_lengths(np.asarray(d.corners, np.float64))[0] * work.scale for d in named or detections]
    if not shorts:
        return []
    median = float(np.median(shorts))
    largest = max(shorts)
    if not named and largest > median * (1.0 + params.covered.size_spread):
        return [median, largest]
    return [median]


def _filled(work: Work) -> Image:
    """``work.union`` with its holes filled: the print on a card (its index, its pips) lies on
    the card.  Its outer outlines are the work image's own (``work.union_outlines``)."""
    out = np.zeros_like(work.union)
    cv2.drawContours(out, list(work.union_outlines), -1, 255, cv2.FILLED)
    return out


@dataclass(frozen=True)
class _Identified:
    """A card identified by the finder (work pixels, the index corner it was read at first) and
    the label of the visible card part (``work.split``) that index lies on: its own paper."""

    quad: FloatArray
    part: int


def _part(points: FloatArray, labels: npt.NDArray[np.integer[Any]]) -> int:
    """The label of the card part (``labels`` of ``work.split``) most of ``points`` lie on; 0 on none."""
    h, w = labels.shape[:2]
    xs = np.clip(np.round(points[:, 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.round(points[:, 1]).astype(np.intp), 0, h - 1)
    found = labels[ys, xs]
    found = found[found > 0]
    return int(np.bincount(found).argmax()) if len(found) else 0


def _index_points(quad: FloatArray) -> FloatArray:
    """The sample points of the index box of the card ``quad`` (its index corner first)."""
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    return np.asarray(quad[0] + _INDEX_GRID[:, :1] * across + _INDEX_GRID[:, 1:] * down, np.float64)


def _worth_reading(
    proposal: CornerProposal,
    short: float,
    work: Work,
    cards: Image,
    named: list[_Identified],
    params: ScannerParams,
    labels: Image | None = None,
) -> bool:
    """Whether the index box of the card at ``proposal`` lies inside the image, on card pixels
    (``cards``, work scale), holds print (``index_ink``), and has its centre outside every card
    already identified (work pixels), or, given ``labels`` (of ``work.split``), inside one but
    on another card part than the index that card was read at: a card lying on it (a hand
    row's next card lies on the card before it, mostly inside its outline)."""
    quad = card_quad(proposal, short, params.find.card_aspect)
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    pts = quad[0] + _INDEX_GRID[:, :1] * across + _INDEX_GRID[:, 1:] * down
    h, w = cards.shape[:2]
    xs, ys = np.round(pts[:, 0]).astype(np.intp), np.round(pts[:, 1]).astype(np.intp)
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= w or ys.max() >= h:
        return False
    if float((cards[ys, xs] > 0).mean()) < params.covered.index_on_card:
        return False
    ink = quad[0] + _INK_GRID[:, :1] * across + _INK_GRID[:, 1:] * down
    grey = work.grey[
        np.clip(np.round(ink[:, 1]).astype(np.intp), 0, h - 1),
        np.clip(np.round(ink[:, 0]).astype(np.intp), 0, w - 1),
    ].astype(np.float64)
    if float(np.median(grey) - grey.min()) < params.covered.index_ink:
        return False
    centre = pts.mean(axis=0)
    inside = [n for n in named if holds(n.quad, centre)]
    if not inside:
        return True
    if labels is None:
        return False
    part = _part(pts, labels)
    return part > 0 and all(n.part not in (0, part) for n in inside)


def _overlapping(quads: list[FloatArray]) -> list[bool]:
    """Per card ``quads`` (work pixels), whether its outline overlaps another's."""
    out = [False] * len(quads)
    boxes = [(q.min(axis=0), q.max(axis=0)) for q in quads]
    for k in range(len(quads)):
        for j in range(k + 1, len(quads)):
            if (boxes[k][0] > boxes[j][1]).any() or (boxes[j][0] > boxes[k][1]).any():
                continue  # their bounding boxes lie apart
            area, _ = cv2.intersectConvexConvex(quads[k].astype(np.float32), quads[j].astype(np.float32))
            if area > 0:
                out[k] = out[j] = True
    return out


def _over_overlaps(
    cards: Image, own: list[_Identified], overlaps: list[bool], labels: Image, rim_px: int
) -> Image:
    """The card pixels (``cards``, work scale, 0/255) inside a card identified (``own``) that
    overlaps another card identified (``overlaps``), on a visible card part (``labels`` of
    ``work.split``) other than the one its index was identified at and than those of the other
    cards identified there, that reaches within ``rim_px`` of the outer outline of the card pixels:
    where a card lying between the cards of a fan or a row can show."""
    shape = cards.shape[:2]
    # the rim of the card pixels: a card between others pokes out of them there, where the print
    # on a card identified (the parts inside its printed frame) does not reach
    rim = (cards > 0) & (cv2.erode(cards, np.ones((2 * rim_px + 1, 2 * rim_px + 1), np.uint8)) == 0)
    out = np.zeros(shape, np.uint8)
    for k, item in enumerate(own):
        if item.part == 0 or not overlaps[k]:
            continue
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(item.quad).astype(np.int32), 255)
        inside = (mask > 0) & (cards > 0) & (labels > 0) & (labels != item.part)
        for j, other in enumerate(own):
            if j != k and overlaps[j]:
                other_mask = np.zeros(shape, np.uint8)
                cv2.fillConvexPoly(other_mask, np.round(other.quad).astype(np.int32), 255)
                inside &= ~((other_mask > 0) & (labels == other.part))
        inside &= np.isin(labels, np.unique(labels[inside & rim]))
        out[inside] = 255
    return out


def _fit_size(proposal: CornerProposal, short: float, work: Work, params: ScannerParams) -> FloatArray:
    """The card at ``proposal`` (work pixels) whose size, of the ladder around ``short``, shows its
    outline best on card pixels (the first such on a tie: the frame's size comes first)."""
    steps = sorted(params.covered.size_steps, key=abs)
    stack = np.stack([card_quad(proposal, short * (1.0 + s), params.find.card_aspect) for s in steps])
    score = outline_shown(stack, work.edges) * on_cards(stack, work.union)
    return np.asarray(stack[int(np.argmax(score))])


def _probe_quad(proposal: CornerProposal, short: float, work: Work, aspect: float) -> FloatArray:
    """The card laid out from ``proposal`` at ``short`` (work pixels), in frame pixels."""
    return card_quad(proposal, short, aspect) / work.scale


def _probe_size(
    frame: Image,
    work: Work,
    cards: Image,
    proposals: list[CornerProposal],
    sizes: list[float],
    templates: Templates,
    params: ScannerParams,
    scene: CornerScene | None = None,
    ladder: bool = True,
) -> tuple[float | None, list[_Named], set[int], list[float]]:
    """The frame's card size chosen by the index: the corners with the longest arms whose index
    box shows print at some of ``sizes`` (work pixels), up to ``size_probes`` of them and until
    a size names ``size_votes`` of them, are read at each such size; a corner named (at the
    first size that names a card) votes for the size where the card named scores best (an
    index still names its card at sizes some 10% off, as the templates are tried at several
    scales, but scores best near its own).  The size with most votes (the
    best scored on a tie) is the frame's.  Returns that size (``None`` when no corner is
    named), the cards named, laid out at it, the indices of the corners read and the sizes
    tied with it on votes (best scored first).  With ``ladder``, a probe naming no corner at any
    size reads its corners at sizes between them (``_ladder``)."""
    p = params.covered
    aspect = params.find.card_aspect
    arms = [q.length_across + q.length_down for q in proposals]
    order = sorted(range(len(proposals)), key=lambda k: -arms[k])
    count = [0] * len(sizes)
    total = [0.0] * len(sizes)
    readings: list[tuple[int, _Named]] = []
    probed: set[int] = set()
    first: dict[int, dict[int, Card]] = {}
    reads = 0
    for k in order:
        if len(probed) >= p.size_probes or max(count) >= p.size_votes or reads >= p.size_reads:
            break
        proposal = proposals[k]
        if proposal.junction:
            continue  # a weaker sign of a corner does not choose the size
        worth = [i for i, s in enumerate(sizes) if _worth_reading(proposal, s, work, cards, [], params)]
        if not worth:
            continue
        probed.add(k)
        # read at every size: the first size naming a card names it, and its index scores best
        # at its own size; an Octoplus label under the part threshold does not choose a size
        # (``CoveredParams.octo_clear``: read at a wrong size, a label may still lead clearly)
        read = {
            i: read_corner(
                frame,
                _probe_quad(proposal, sizes[i], work, aspect),
                templates,
                params,
                clear_labels=False,
                scene=scene,
            )
            for i in worth
        }
        reads += len(worth)
        first[k] = {i: r.candidate for i, r in read.items()}
        name = next((r.card for r in read.values() if r.card is not None), None)
        if name is None:
            continue
        i = max((i for i, r in read.items() if r.candidate == name), key=lambda i: read[i].score)
        count[i] += 1
        total[i] += read[i].score
        reading = replace(read[i], card=name)
        readings.append((i, _Named(_probe_quad(proposal, sizes[i], work, aspect), reading, proposal.point)))
    if not any(count):
        corners = [(proposals[k], first[k]) for k in order if k in probed]
        between = _ladder(frame, work, cards, corners, sizes, templates, params, scene) if ladder else None
        if between is None:
            return None, [], probed, []
        log.debug("covered: no candidate size names a corner, the ladder chose %.1f", between[0])
        return between[0], between[1], probed, []
    ranked = sorted(range(len(sizes)), key=lambda i: (-count[i], -total[i]))
    best = ranked[0]
    log.debug("covered: sizes %s, named %s, chose %.1f", [round(s) for s in sizes], count, sizes[best])
    others = [sizes[i] for i in ranked[1:] if count[i] == count[best]]
    return sizes[best], [n for i, n in readings if i == best], probed, others


def _ladder_sizes(sizes: list[float], p: CoveredParams) -> list[tuple[float, int]]:
    """The sizes between the candidate ``sizes`` (work pixels) that ``_ladder`` reads, in turn,
    each with the index of the candidate it lengthens: each candidate lengthened by each of
    ``ladder_steps`` (every candidate by the first step, then by the next), those within
    ``ladder_gap`` of a candidate or of a size already listed left out."""
    out: list[tuple[float, int]] = []
    for step in p.ladder_steps:
        for i, size in enumerate(sizes):
            here = size * (1.0 + step)
            if here > 0 and all(abs(here - s) > p.ladder_gap * s for s in [*sizes, *(s for s, _ in out)]):
                out.append((here, i))
    return out


def _ladder(
    frame: Image,
    work: Work,
    cards: Image,
    probed: list[tuple[CornerProposal, dict[int, Card]]],
    sizes: list[float],
    templates: Templates,
    params: ScannerParams,
    scene: CornerScene | None = None,
) -> tuple[float, list[_Named]] | None:
    """Where no corner ``probed`` (longest arms first, each with the card it ranked first at
    each candidate size it was read at) named a card at any candidate size: the first size
    between the candidates (``_ladder_sizes``) at which ``ladder_votes`` of them name a card,
    read in turn (at most ``ladder_reads`` reads), and the cards named there; ``None`` when
    none does.  Candidates come from outlines and edges, and a true size lying between two of
    them reads right at neither (an index reads right only within about 5% of its size).  A
    corner names a card at a size so only when it ranked that card first at the candidate
    that size lengthens and its read scores at least ``ladder_min_score``: read far off its own
    size, an index may name another card."""
    p = params.covered
    if p.ladder_reads == 0 or not probed:
        return None
    aspect = params.find.card_aspect
    reads = 0
    for size, base in _ladder_sizes(sizes, p):
        named: list[_Named] = []
        for proposal, ranked in probed:
            if reads >= p.ladder_reads:
                break
            if base not in ranked or not _worth_reading(proposal, size, work, cards, [], params):
                continue
            quad = _probe_quad(proposal, size, work, aspect)
            reading = read_corner(frame, quad, templates, params, clear_labels=False, scene=scene)
            reads += 1
            clear = reading.score >= p.ladder_min_score
            if reading.card is not None and reading.card == ranked[base] and clear:
                named.append(_Named(quad, reading, proposal.point))
        if len(named) >= p.ladder_votes:
            return size, named
        if reads >= p.ladder_reads:
            break
    return None


def _named_at(proposals: list[CornerProposal], read: set[int], named: list[_Named]) -> set[int]:
    """The indices (of ``read``) of the ``proposals`` that ``named`` cards were read at."""
    at = {(float(n.corner[0]), float(n.corner[1])) for n in named}
    return {k for k in read if (float(proposals[k].point[0]), float(proposals[k].point[1])) in at}


def _probe_clusters(
    frame: Image,
    work: Work,
    cards: Image,
    proposals: list[CornerProposal],
    shorts: list[float],
    identified: list[FloatArray],
    templates: Templates,
    params: ScannerParams,
    scene: CornerScene | None = None,
) -> tuple[list[_Named], set[int], dict[int, float]]:
    """The card size of each cluster of touching cards (``work.union``) holding no card
    identified, chosen by the index as ``_probe_size`` does for a whole frame, among the frame's
    sizes (``shorts``) and those the cluster's whole card sides agree with: cards at different
    heights over the table (a pile on a box, a hand held up) show at other sizes than the cards
    identified.  Returns the cards named while probing, the indices of the proposals read and,
    per proposal of a cluster whose size was chosen, that size (work pixels)."""
    p = params.covered
    aspect = params.find.card_aspect
    count, clusters = cv2.connectedComponents(work.union, connectivity=8)
    held = {_part(quad.mean(axis=0, keepdims=True), np.asarray(clusters, np.int32)) for quad in identified}
    home = [
        _part(_index_points(card_quad(q, shorts[0], aspect)), np.asarray(clusters, np.int32))
        for q in proposals
    ]
    smallest = params.find.min_card_area * float(cards.shape[0] * cards.shape[1])
    named: list[_Named] = []
    probed: set[int] = set()
    sizes_of: dict[int, float] = {}
    for label in range(1, int(count)):
        members = [k for k, h in enumerate(home) if h == label]
        if label in held or not members:
            continue
        mask = np.where(clusters == label, 255, 0).astype(np.uint8)
        if cv2.countNonZero(mask) < smallest:
            continue
        sizes = size_candidates(shorts, whole_sides(mask, smallest, p), [], aspect, p)
        if len(sizes) < 2:
            continue
        # (no sizes between the candidates: a frame with cards identified has their sizes at
        # each place, ``local_size``, and a cluster's ladder laid a fan out too large)
        chosen, found, read, _ = _probe_size(
            frame,
            work,
            cards,
            [proposals[k] for k in members],
            sizes,
            templates,
            params,
            scene,
            ladder=False,
        )
        if chosen is None:
            continue
        # the corners named at the size chosen are read; the others are read again at it below
        # (turned or moved where they read unclear)
        probed |= {members[i] for i in _named_at([proposals[k] for k in members], read, found)}
        named += found
        sizes_of.update(dict.fromkeys(members, chosen))
    return named, probed, sizes_of


def _local_sizes(
    proposals: list[CornerProposal],
    shorts: list[float],
    identified: list[FloatArray],
    own_size: dict[int, float],
    params: ScannerParams,
) -> dict[int, list[float]]:
    """Per proposal (index) whose cluster has no size of its own (``own_size``) and where the
    cards ``identified`` imply a card size (``covered_size.local_shorts``, at the centre of the
    card laid out at the frame's size) farther than ``size_match`` from each of the frame's
    sizes (``shorts``), the card sizes to read it at (work pixels): the frame's, then that one
    (read only when the frame's name nothing).  Empty with ``CoveredParams.local_size`` off, a
    calibrated card size or no card identified."""
    p = params.covered
    if not p.local_size or params.find.card_size_px is not None or not identified:
        return {}
    centres = np.asarray([q.mean(axis=0) for q in identified], np.float64)
    sizes = np.asarray([side_lengths(q)[0] for q in identified], np.float64)
    aspect = params.find.card_aspect
    ks = [k for k in range(len(proposals)) if k not in own_size]
    if not ks:
        return {}
    points = np.asarray([card_quad(proposals[k], shorts[0], aspect).mean(axis=0) for k in ks], np.float64)
    out: dict[int, list[float]] = {}
    for k, here in zip(ks, local_shorts(points, centres, sizes, p).tolist(), strict=True):
        if all(abs(s - here) > p.size_match * here for s in shorts):
            out[k] = [*shorts, here]
    return out


def _merge(named: list[_Named], same: float, near: float) -> list[_Named]:
    """Readings of one card whose cards lie within ``same`` (``_apart``) become one (the best scored,
    counting the index corners read); of readings of different cards at one place (corners
    closer than ``near`` of the card's short side) only the best scored is kept.  Readings made
    with the corner moved (``_Named.moved``) come after all others, and one whose corner lies
    inside a card of its name already kept is that card (read from its other index corner at
    a size a little off; not one read between named cards, ``_Named.gap``)."""
    kept: list[_Named] = []
    for item in sorted(named, key=lambda n: (n.moved, -n.reading.score)):
        short = side_lengths(item.quad)[0]
        for k, other in enumerate(kept):
            if (
                item.reading.card == other.reading.card
                and item.moved
                and not item.gap
                and holds(other.quad, item.quad[0])
            ):
                break  # a moved read of a card already read there (at another size)
            if item.reading.card == other.reading.card and _apart(item.quad, other.quad) <= same:
                far = float(np.hypot(*(item.corner - other.corner)))
                opposite = far > 0.5 * side_lengths(other.quad)[0]
                kept[k] = replace(other, corners_read=other.corners_read + int(opposite))
                break
            if float(np.hypot(*(item.quad[0] - other.quad[0]))) < near * short:
                break
        else:
            kept.append(item)
    return kept


def read_covered(
    frame: Image,
    work: Work,
    detections: list[Detection],
    templates: Templates,
    params: ScannerParams,
    candidates: list[Card | None] | None = None,
    read_sizes: list[float] | None = None,
) -> list[Detection]:
    """``detections`` with the covered cards named from their corners added, and found cards
    that were not identified replaced where a corner names the card there.  Given ``read_sizes``,
    the frame's card sizes the last corners were read at (short sides, frame pixels; one once
    the frame settled on it) are appended.

    ``candidates`` are, per detection, the card the identifier ranked first (named or not):
    a corner that names another card than the one ranked first for a found card on nearly
    the same outline (``same_card``) names nothing (two readings of one card that disagree).
    A card read at both its index corners (its whole outline shows) is marked ``top``, as is
    a card replacing a found card marked ``top``; other cards named from a corner are not on
    top.
    """
    p = params.covered
    if not p.enabled or p.max_reads == 0:
        return detections
    shorts = [s for s in _card_shorts(detections, work, params) if s > 0]
    if not shorts and (params.find.card_size_px is not None or p.size_probes == 0 or not p.unfound_probe):
        return detections
    identified = [np.asarray(d.corners, np.float64) * work.scale for d in detections if d.card is not None]
    cards = _filled(work)
    # only card pixels outside the cards identified can show another card's index
    where = cards.copy()
    for quad in identified:
        cv2.fillConvexPoly(where, np.round(quad).astype(np.int32), 0)
    # the thin rims that card pixels leave around an identified card's outline do not count
    size = 2 * p.open_margin + 1
    kernel = np.ones((size, size), np.uint8)
    smallest = params.find.min_card_area * float(cards.shape[0] * cards.shape[1])
    labels: Image | None = None
    own: list[_Identified] = [_Identified(q, 0) for q in identified]
    opened = cv2.countNonZero(cv2.erode(where, kernel))
    between: Image | None = None
    if opened < p.min_open * smallest and p.overlap_open and p.over_identified and len(identified) > 1:
        overlaps = _overlapping(identified)
        if any(overlaps):
            # a card between two identified cards of a fan or a row shows only inside their
            # outlines (its visible part lies between edges already: counted as it is, not opened)
            labels = np.asarray(cv2.connectedComponents(work.split, connectivity=4)[1], np.int32)
            own = [_Identified(q, _part(_index_points(q), labels)) for q in identified]
            between = _over_overlaps(cards, own, overlaps, labels, p.open_margin)
            where = np.asarray(cv2.bitwise_or(where, between), np.uint8)
            opened += cv2.countNonZero(between)
    if opened < p.min_open * smallest:
        return detections
    if identified and p.over_identified and labels is None:
        labels = np.asarray(cv2.connectedComponents(work.split, connectivity=4)[1], np.int32)
        own = [_Identified(q, _part(_index_points(q), labels)) for q in identified]
    # where the card pixels open lie only inside the cards identified (``overlap_open``), a corner
    # is read as it lies and turned a few degrees, not moved nor searched farther: a row's index
    # corners lie close together there, and a read moved off its corner reaches the next print
    plain = between is not None
    near: Image = np.asarray(cv2.dilate(where, kernel), np.uint8)
    proposals = corner_proposals(work, params.find, p, near)
    # the scene the learned accept step weighs a read in (frame pixels): the cards named, the
    # cards found but not named, the reads made
    scene = CornerScene(
        named=[q / work.scale for q in identified],
        found=[np.asarray(d.corners, np.float64) for d in detections if d.card is None],
    )
    reads = 0
    turn_reads = 0
    shift_reads = p.shift_reads if plain else 0
    search_reads = p.search_reads if plain else 0
    named: list[_Named] = []
    probed: set[int] = set()
    again: set[int] = set()
    beyond: set[float] = set()  # sizes whose reads take nothing of the frame's read budgets
    if params.find.card_size_px is None and not identified and p.size_probes > 0:
        sides = whole_sides(work.union, smallest, p)
        edges = longest_edges(work, p)
        sizes = size_candidates(shorts, sides, edges, params.find.card_aspect, p)
        unfound = not shorts
        if unfound:
            # with no outline found, only sizes of cards the finder could find at all
            sizes = [s for s in sizes if s * s * params.find.card_aspect >= smallest]
        if not sizes:
            return detections
        chosen, named, probed, tied = _probe_size(
            frame, work, cards, proposals, sizes, templates, params, scene
        )
        if chosen is not None and tied and p.size_ties:
            # one corner per size is no choice: the sizes tied are read in turn (the best scored
            # first) until one names its cards (``size_settle``); the corners named at the others
            # are read again
            shorts = [chosen, *tied]
            again = probed - _named_at(proposals, probed, named)
        else:
            shorts = shorts if chosen is None else [chosen]
            if chosen is not None and p.probe_reread:
                # the corners left unnamed were read plainly at the size chosen only
                again = probed - _named_at(proposals, probed, named)
        probed -= again
        if not p.probe_reread:
            again = set()
        # (``probe_reread``) the corners read again are read first and beyond the frame's read
        # budgets, turned and moved where they read unclear, as a cluster's: at most
        # ``size_probes`` of them; counted, they took the reads of corners read after them
        if unfound and chosen is None:
            # no corner probed named a card: the likeliest sizes are read in turn until one names
            # its cards (``size_settle``)
            shorts = sizes[: p.unfound_sizes]
        elif chosen is None and p.found_sizes > 1:
            # the outlines found may be whole rows taken for one card: the likeliest sizes after
            # theirs are read too, in turn, beyond the frame's read budgets (``found_sizes``)
            following = [s for s in sizes if s not in shorts][: max(p.found_sizes - len(shorts), 0)]
            shorts, beyond = [*shorts, *following], set(following)
        if not shorts:
            return detections
    own_size: dict[int, float] = {}
    if params.find.card_size_px is None and identified and p.cluster_probes:
        extra_named, extra_probed, own_size = _probe_clusters(
            frame, work, cards, proposals, shorts, identified, templates, params, scene
        )
        named += extra_named
        probed |= extra_probed
    votes = [0] * len(shorts)
    local = _local_sizes(proposals, shorts, identified, own_size, params)
    left: list[_Left] = []  # corners read and left unnamed
    for k in sorted(range(len(proposals)), key=lambda k: k not in again):
        proposal = proposals[k]
        if k in probed:
            continue
        one_named = 0 < p.size_settle <= max(votes) and votes.count(0) == len(votes) - 1
        if not beyond and len(shorts) > 1 and one_named:
            # no probe chose among the frame's sizes (or its sizes tied): the one every card so
            # far was named at is the frame's (the other sizes' reads go to the corners left);
            # sizes read beyond the budgets take no reads from them, and a frame of blobs may hold
            # cards of both sizes (``found_sizes``)
            shorts, votes = [shorts[votes.index(max(votes))]], [max(votes)]
        for short in [own_size[k]] if k in own_size else local.get(k, shorts):
            limit = p.max_reads + (p.junction_reads if proposal.junction else 0)
            # a corner the probe read is read again beyond the frame's budgets (``probe_reread``)
            counted = k not in again and short not in beyond
            if (reads >= limit and counted) or not _worth_reading(
                proposal, short, work, cards, own, params, labels
            ):
                continue
            reads += 1 if counted else 0
            quad = card_quad(proposal, short, params.find.card_aspect)
            budget = p.turn_reads - turn_reads
            reading, angle, extra = read_corner_turning(
                frame, quad / work.scale, templates, params, budget, scene
            )
            turn_reads += extra if counted else 0
            at = proposal
            first = reading
            if reading.card is None and p.shift_reads > shift_reads and not proposal.junction:
                moved, at, extra = read_corner_shifting(
                    frame, proposal, short, work.scale, templates, params, p.shift_reads - shift_reads, scene
                )
                shift_reads += extra if counted else 0
                reading = moved if moved is not None else reading
            searched = False
            if reading.card is None and p.search_reads > search_reads:
                found, turn, extra = read_corner_searching(
                    frame, quad / work.scale, first, templates, params, p.search_reads - search_reads, scene
                )
                search_reads += extra if counted else 0
                if found is not None:
                    reading, angle, searched = found, turn, True
            if reading.card is not None:
                fitted = _fit_size(at, short, work, params)
                if angle != 0.0:
                    fitted = turned(fitted, angle)
                named.append(
                    _Named(fitted / work.scale, reading, at.point, moved=searched or at is not proposal)
                )
                scene.named.append(fitted / work.scale)
                if k not in own_size and short in shorts:
                    votes[shorts.index(short)] += 1
                break
            left.append(_Left(first.score, k, short, first.candidate))
    if read_sizes is not None:
        # the sizes the frame's corners were read at last (one, once the frame settled on it)
        read_sizes += [short / work.scale for short in shorts]
    log.debug(
        "covered: %d corners, %d read, %d read turned, %d read moved, %d searched, %d named",
        len(proposals),
        reads,
        turn_reads,
        shift_reads,
        search_reads,
        len(named),
    )
    firsts: list[Card | None] = list(candidates) if candidates is not None else [None] * len(detections)
    rest = _Leftover(frame, work, detections, proposals, named, left, templates, params, scene, firsts)
    if p.motion_reads > 0 and left:
        named += _motion_named(rest)
    if p.plane_reads > 0 and left:
        named += _plane_named(rest)  # ``rest.named`` is ``named``: it holds the motion pass's cards
    if p.edge_reads > 0 and left:
        named += _edge_named(rest)
    if p.gap_reads > 0:
        named += _gap_named(frame, work, cards, identified, named, templates, params, not plain, scene)
    if p.row_reads > 0:
        named += _row_named(frame, work, cards, identified, named, templates, params, scene)
    if not named:
        return detections
    if p.centre_check or p.resize_steps:
        named = _checked(frame, work, named, templates, params)
    out = list(detections)
    ranked = {id(d): c for d, c in zip(detections, candidates or [None] * len(detections), strict=True)}
    unique = p.veto_named and templates.deck is DeckKind.OKTRIS
    for item in _merge(named, p.same_card, p.same_place):
        card = item.reading.card
        apart = [_apart(item.quad, np.asarray(d.corners, np.float64)) for d in out]
        if any(a <= p.same_card and d.card is not None for a, d in zip(apart, out, strict=True)):
            continue  # a card already identified is not replaced
        if templates.deck is DeckKind.OKTRIS and any(d.card == card for d in out):
            continue  # an Oktris deck holds every card once
        # the cards found there and not identified are this card (outlines of it, rebuilt well or not)
        there = [k for k, a in enumerate(apart) if a <= p.replace_card and out[k].card is None]
        if item.plane and there and not (p.plane_replace and any(out[k].top for k in there)):
            # a card found there and not identified is read again on its own outline after
            # (``scanner.scan``), and one lying under others is on top of none
            continue
        # in a deck of unique cards, a found card ranked first as a card identified elsewhere
        # read that card's print through its outline: it vetoes nothing (``veto_named``)
        elsewhere = {d.card for d in out if d.card is not None} if unique else set()
        if any(
            _vetoes(ranked.get(id(out[k])), out[k], item.reading, apart[k], templates.deck, p)
            and ranked.get(id(out[k])) not in elsewhere
            and ranked.get(id(out[k])) not in _named_near(out, k, p.veto_near)
            for k in there
        ):
            continue  # the identifier ranked another card first on (nearly) this outline
        detection = Detection(
            card=card,
            confidence=float(np.clip(item.reading.score, 0.0, 1.0)),
            corners=_as_quad(item.quad),
            top=item.corners_read > 1 or any(out[k].top for k in there),
        )
        out = [d for k, d in enumerate(out) if k not in there]
        out.append(detection)
    return out


class _Left(NamedTuple):
    """A corner read and left unnamed: its first read's score, the corner (its index in the
    proposals), the card size it was read at (work pixels) and the card its first read ranked
    first (as it lay)."""

    score: float
    corner: int
    short: float
    first: Card | None


@dataclass(frozen=True)
class _Leftover:
    """What a second pass over the corners read and left unnamed works on: the frame, its work
    image, the detections, the corner proposals, the cards named so far (the list itself: a pass's
    cards, added to it, are there for the next), the corners left (``_Left``), the templates, the
    parameters and the cards laid out so far (``scene``)."""

    frame: Image
    work: Work
    detections: list[Detection]
    proposals: list[CornerProposal]
    named: list[_Named]
    left: list[_Left]
    templates: Templates
    params: ScannerParams
    scene: CornerScene
    ranked: list[Card | None]
    """Per detection, the card the identifier ranked first (named or not)."""


def _motion_named(rest: _Leftover) -> list[_Named]:
    """The cards named against templates smeared as the frame is (``scanner.motion``): first the
    cards found whole and not named, read at their index corners (``CoveredParams.motion_found``),
    then the corners read and left unnamed (``rest.left``), the best read first, at most
    ``CoveredParams.motion_reads``.  The blur is measured on the cards identified whole; with none,
    told blind by the faces of the cards found and not named (``motion_blind_fit``), and then only
    those are read.  None when no blur is found.  Each is a last resort (``_Named.moved``): one
    whose corner lies inside a card of its name read unsmeared is that card, read from its other
    index corner."""
    params, work = rest.params, rest.work
    p = params.covered
    known = [
        (np.asarray(d.corners, np.float64), card) for d in rest.detections if (card := d.card) is not None
    ]
    known.sort(key=lambda item: -float(abs(cv2.contourArea(item[0].astype(np.float32)))))
    motion = estimate_motion(rest.frame, known, rest.templates, p)
    unnamed = [(k, d) for k, d in enumerate(rest.detections) if d.card is None]
    blind = motion is None and not known and p.motion_blind_fit < 1.0
    if blind:
        # no card identified whole: the cards found whole and not named show the blur by their face
        outlines = [
            (np.asarray(d.corners, np.float64), [c for c in (rest.ranked[k], d.runner_up) if c is not None])
            for k, d in unnamed
        ]
        motion = estimate_motion_blind(rest.frame, outlines, rest.templates, p)
    if motion is None:
        return []
    log.debug(
        "covered: motion blur %.0f px at %.0f degrees (fit %+.3f)", motion.length, motion.angle, motion.gain
    )
    size = (params.find.card_width, params.find.card_height)
    out: list[_Named] = []
    if p.motion_found:
        # the cards found whole and not named, read at both index corners against smeared templates
        # (the largest first, within the pass's reads: each turn of a card smears another set)
        largest = sorted(
            unnamed, key=lambda item: -abs(cv2.contourArea(np.asarray(item[1].corners, np.float32)))
        )
        for _, d in largest[: p.motion_reads // 2]:
            quad = np.asarray(d.corners, np.float64)
            for way in (quad, np.roll(quad, 2, axis=0)):
                line = canonical_line(way, motion, size, p.motion_angle_step)
                smeared = motion_templates(rest.templates, line, p.patch)
                reading = read_corner(rest.frame, way, smeared, params, scene=rest.scene)
                if reading.card is not None:
                    out.append(_Named(way, reading, way[0] * work.scale, moved=True))
                    rest.scene.named.append(way)
                    break
    if blind:
        # a blur told by faces the identifier named nothing on: only their own outlines are read
        return out
    done = _named_at(rest.proposals, {item.corner for item in rest.left}, rest.named)
    for _, k, short, _ in sorted(rest.left, key=lambda item: -item.score)[: p.motion_reads]:
        if k in done:
            continue
        proposal = rest.proposals[k]
        quad = card_quad(proposal, short, params.find.card_aspect) / work.scale
        line = canonical_line(quad, motion, size, p.motion_angle_step)
        smeared = motion_templates(rest.templates, line, p.patch)
        reading = read_corner(rest.frame, quad, smeared, params, scene=rest.scene)
        if reading.card is None:
            continue
        laid = _fit_size(proposal, short, work, params) / work.scale
        out.append(_Named(laid, reading, proposal.point, moved=True))
        rest.scene.named.append(laid)
        done.add(k)
    return out


def _plane_named(rest: _Leftover) -> list[_Named]:
    """The corners read and left unnamed (``rest.left``) that name a card read again on the card
    the table plane lays there (``scanner.covered_plane``: fitted on the cards identified whole,
    within ``CoveredParams.plane_fit`` of their size), the best read first, at most
    ``CoveredParams.plane_reads``; none when no plane fits."""
    params = rest.params
    p = params.covered
    quads = [np.asarray(d.corners, np.float64) for d in rest.detections if d.card is not None]
    plane = fit_plane(quads, params.find.card_aspect, p.plane_fit, p.plane_rounds)
    if plane is None:
        return []
    done = _named_at(rest.proposals, {item.corner for item in rest.left}, rest.named)
    out: list[_Named] = []
    reads = 0
    for _, k, _, _ in sorted(rest.left, key=lambda item: -item.score):
        if reads >= p.plane_reads:
            break
        if k in done:
            continue
        done.add(k)
        reads += 1
        laid = plane_quad(plane, rest.proposals[k], rest.work.scale, params.find.card_aspect)
        if laid is None:
            continue
        reading = read_corner(rest.frame, laid, rest.templates, params, scene=rest.scene)
        if reading.card is None:
            continue
        out.append(_Named(laid, reading, rest.proposals[k].point, plane=True))
        rest.scene.named.append(laid)
    log.debug("covered: table plane misfit %.3f, %d named on it", plane.misfit, len(out))
    return out


def _edge_named(rest: _Leftover) -> list[_Named]:
    """The corners read and left unnamed (``rest.left``) that name a card read again laid on their
    card's edges (``find_corners.laid_on_edges`` as ``CoveredParams.edge_samples`` and
    ``edge_angle`` say), the best read first, at most ``CoveredParams.edge_reads`` (a corner left at
    two sizes counts twice), each at the size it was left at: first on the edges of its whole arms,
    then, where that names nothing, on the edges of the parts of its arms nearest the corner
    (``edge_near``, in turn), a card named so only when the corner ranked it first as it lay.  A
    corner laid where it was proposed (within ``edge_min_turn`` degrees and ``edge_min_move`` work
    pixels) is not read again, and one that reads unclear is read turned (``read_corner_turning``,
    each of ``turn_angles``, beyond the frame's turn budget).  Each is a last resort
    (``_Named.moved``), and one whose corner lies inside a card of its name, identified or named, is
    that card read from its other index corner."""
    params, work = rest.params, rest.work
    p = params.covered
    done = _named_at(rest.proposals, {item.corner for item in rest.left}, rest.named)
    order = [item for item in sorted(rest.left, key=lambda item: -item.score) if item.corner not in done]
    order = order[: p.edge_reads]
    if not order:
        return []
    profiled = _edge_params(p)
    proposals = [rest.proposals[item.corner] for item in order]
    grey = np.asarray(work.grey, np.float32)  # profiled once for every fit
    whole = laid_on_edges(proposals, grey, profiled)
    fits = [(item, corner, False) for item, corner in zip(order, whole, strict=True)]
    for reach in p.edge_near:
        near = laid_on_edges(proposals, grey, profiled, reach=reach)
        fits += [(item, corner, True) for item, corner in zip(order, near, strict=True)]
    least = math.cos(math.radians(p.edge_min_turn))
    out: list[_Named] = []
    for item, corner, nearest in fits:
        if item.corner in done:
            continue  # named at another of the frame's sizes, or by the other fit
        proposed = rest.proposals[item.corner]
        aligned = min(float(corner.across @ proposed.across), float(corner.down @ proposed.down))
        if aligned >= least and float(np.hypot(*(corner.point - proposed.point))) < p.edge_min_move:
            continue
        quad = card_quad(corner, item.short, params.find.card_aspect) / work.scale
        # read unclear, turned as the corners are (``turn_angles``)
        reading, angle, _ = read_corner_turning(
            rest.frame, quad, rest.templates, params, len(p.turn_angles), rest.scene
        )
        if reading.card is None or (nearest and reading.card != item.first):
            continue
        if angle != 0.0:
            quad = turned(quad, angle)
        mates = [np.asarray(d.corners, np.float64) for d in rest.detections if d.card == reading.card]
        mates += [n.quad for n in [*rest.named, *out] if n.reading.card == reading.card]
        if any(holds(mate, quad[0]) for mate in mates):
            continue  # that card, read from its other index corner at a size a little off
        out.append(_Named(quad, reading, corner.point, moved=True))
        rest.scene.named.append(quad)
        done.add(item.corner)
    log.debug("covered: %d of %d corners named laid on their edges", len(out), len(order))
    return out


@functools.lru_cache(maxsize=8)
def _edge_params(p: CoveredParams) -> CoveredParams:
    """``p`` with the edge pass's profiles (``edge_samples``, ``edge_angle``) for
    ``laid_on_edges`` (made once per parameter set, not per frame)."""
    return replace(p, refine_samples=p.edge_samples, refine_angle=p.edge_angle)


@functools.lru_cache(maxsize=8)
def _relay_params(find: FindParams, sizes: tuple[float, float]) -> FindParams:
    """``find`` with the relay's short sides ``sizes`` (made once per parameter set)."""
    return find if find.relay_sizes == sizes else replace(find, relay_sizes=sizes)


def _laid_again(quad: FloatArray, work: Work, params: ScannerParams) -> FloatArray:
    """The card ``quad`` (frame pixels) laid out again from its read corner: the outline of a card's
    shape starting there shown best as edges, when it shows ``CoveredParams.centre_gain`` more of
    its length than ``quad`` (else ``quad``)."""
    p = params.covered
    scaled = quad * work.scale
    stack = anchored_outlines(scaled, _relay_params(params.find, p.centre_sizes))
    shown = outline_shown(np.concatenate([scaled[None], stack]), work.edges)
    best = int(np.argmax(shown[1:]))
    if shown[1 + best] - shown[0] < p.centre_gain:
        return quad
    return np.asarray(stack[best], np.float64) / work.scale


def _centre_read(
    frame: Image, work: Work, item: _Named, templates: Templates, params: ScannerParams
) -> tuple[Card | None, FloatArray]:
    """The card the identifier names on the whole card (its centre symbol) laid out again from
    ``item``'s read corner (``_laid_again``), and that outline."""
    quad = _laid_again(item.quad, work, params)
    whole = identify(CardView(frame, _as_quad(quad), params.find), templates, params.identify)
    return whole.card, quad


def _resized(frame: Image, item: _Named, templates: Templates, params: ScannerParams) -> _Named | None:
    """``item`` laid out at the fraction of its size (``CoveredParams.resize_steps``, about its read
    corner) where its index names its card best, when that leads the score it was named with by
    ``resize_gain`` (else as it is); ``None`` when at one of those sizes the index ranks another
    card first at ``resize_rival`` or more above that score."""
    p = params.covered
    best, at = item.reading.score + p.resize_gain, None
    for step in p.resize_steps:
        quad = item.quad[0] + (item.quad - item.quad[0]) * step
        reading = read_corner(frame, quad, templates, params)
        if reading.card == item.reading.card and reading.score >= best:
            best, at = reading.score, quad
        elif (
            p.resize_rival is not None
            and reading.candidate != item.reading.card
            and reading.score >= item.reading.score + p.resize_rival
        ):
            log.debug(
                "covered: %s at a corner, %s better read smaller: dropped",
                item.reading.card,
                reading.candidate,
            )
            return None
    return item if at is None else replace(item, quad=np.asarray(at, np.float64))


def _checked(
    frame: Image, work: Work, named: list[_Named], templates: Templates, params: ScannerParams
) -> list[_Named]:
    """``named`` without the Octoplus cards whose whole card the identifier names as another card
    (``CoveredParams.centre_check``), laid out where it names the card's own (``centre_relay``,
    unless that parts it from another reading of its card, ``_parted``), else each laid out at the
    size its index reads best at (``resize_steps``; or dropped, ``resize_rival``, where another
    card reads better there) unless a reading of its name was made at a corner inside it (read at
    both index corners: the twin pass makes it the card between them)."""
    p = params.covered
    # first every card's centre read: whether a card is laid out again depends on the others'
    left: list[tuple[_Named, FloatArray | None]] = []
    for item in named:
        relay: FloatArray | None = None
        if p.centre_check and templates.deck is DeckKind.OCTOPLUS:
            whole, quad = _centre_read(frame, work, item, templates, params)
            if whole is not None and whole != item.reading.card:
                log.debug("covered: %s at a corner, another card whole: dropped", item.reading.card)
                continue
            if p.centre_relay and whole == item.reading.card:
                # the corner and the centre read the one card on the outline laid out again from
                # the read corner: a whole card, and that is its outline
                relay = quad
        left.append((item, relay))
    # then the cards not laid out again (each at its best size), so that a card laid out again is
    # checked against where its other readings end up
    done: list[_Named | None] = [
        None if relay is not None else _sized(frame, work, item, named, templates, params)
        for item, relay in left
    ]
    ends: list[tuple[_Named, FloatArray]] = []
    for (item, relay), kept in zip(left, done, strict=True):
        if relay is not None:
            ends.append((item, relay))
        elif kept is not None:
            ends.append((item, kept.quad))
    out: list[_Named] = []
    for (item, relay), kept in zip(left, done, strict=True):
        if relay is not None:
            if _parted(item, relay, ends, p.same_card):
                log.debug("covered: %s laid out again apart from its other readings: kept", item.reading.card)
                kept = _sized(frame, work, item, named, templates, params)
            else:
                kept = replace(item, quad=relay)
        if kept is not None:
            out.append(kept)
    return out


def _sized(
    frame: Image, work: Work, item: _Named, named: list[_Named], templates: Templates, params: ScannerParams
) -> _Named | None:
    """``item`` laid out at its best size (``_resized``) unless a reading of its name was made at a
    corner inside it (read at both index corners: the twin pass makes it the card between them)."""
    both = any(
        other is not item
        and other.reading.card == item.reading.card
        and holds(item.quad, other.corner / work.scale)
        for other in named
    )
    return _resized(frame, item, templates, params) if params.covered.resize_steps and not both else item


def _parted(item: _Named, relay: FloatArray, ends: list[tuple[_Named, FloatArray]], same: float) -> bool:
    """Whether laying ``item`` out on ``relay`` parts it from another reading of its card: one whose
    outline where it ends up (``ends``: each reading and its outline, kept at its best size or laid
    out again itself) lies within ``same`` of ``item`` as read (``_apart`` either way, as ``_merge``
    joins them; it measures over the short side of its second card) and farther from ``relay`` one
    way or the other.  The identifier may name a blurred card whole on an outline
    off its sides, where the card's other corners read it on its own; laid out there alone, the
    card would no longer join its other readings and be named twice."""
    return any(
        other is not item
        and other.reading.card == item.reading.card
        and min(_apart(item.quad, end), _apart(end, item.quad)) <= same
        and max(_apart(relay, end), _apart(end, relay)) > same
        for other, end in ends
    )


def _near_index(quad: FloatArray, point: FloatArray, reach: float) -> bool:
    """Whether ``point`` lies within ``reach`` of the centre of the index box at either index
    corner of the card ``quad``."""
    return any(
        float(np.hypot(*(_index_points(np.roll(quad, -k, axis=0)).mean(axis=0) - point))) < reach
        for k in (0, 2)
    )


def _gap_named(
    frame: Image,
    work: Work,
    cards: Image,
    identified: list[FloatArray],
    named: list[_Named],
    templates: Templates,
    params: ScannerParams,
    search: bool = True,
    scene: CornerScene | None = None,
) -> list[_Named]:
    """The cards named at the index corners of the gaps between two named cards of a row or a fan
    (``find_corners.gap_corners``; the cards ``identified``, work pixels, and those ``named`` from
    their corners so far), at most ``CoveredParams.gap_reads`` reads a frame (turned and searched
    reads counted).  A corner is read only where no card is named already and ``_worth_reading``
    allows (its index box on card paper, holding print), its index box's centre farther than
    ``gap_apart`` of the short side from the index boxes of the cards named or on another card
    part than theirs; the cards named so make new pairs, read in up to ``gap_rounds`` rounds.  Such
    cards are a last resort (``_Named.moved``).  Without ``search`` a corner read unclear is not
    searched farther."""
    p = params.covered
    quads = [*identified, *(n.quad * work.scale for n in _merge(named, p.same_card, p.same_place))]
    if len(quads) < 2:
        return []
    labels: Image = np.asarray(cv2.connectedComponents(work.split, connectivity=4)[1], np.int32)
    own = [_Identified(q, _part(_index_points(q), labels)) for q in quads]
    out: list[_Named] = []
    seen: list[FloatArray] = []
    reads = 0
    for _ in range(p.gap_rounds):
        # a card named in a gap makes new pairs with its neighbours: the next round reads theirs
        found = _gap_round(
            frame,
            work,
            cards,
            quads,
            own,
            labels,
            seen,
            templates,
            params,
            p.gap_reads - reads,
            len(identified),
            search,
            scene,
        )
        reads += found[1]
        if not found[0]:
            break
        out += found[0]
    log.debug("covered: %d gap reads, %d named", reads, len(out))
    return out


def _gap_round(
    frame: Image,
    work: Work,
    cards: Image,
    quads: list[FloatArray],
    own: list[_Identified],
    labels: Image,
    seen: list[FloatArray],
    templates: Templates,
    params: ScannerParams,
    budget: int,
    whole: int,
    search: bool = True,
    scene: CornerScene | None = None,
) -> tuple[list[_Named], int]:
    """One round of ``_gap_named``: the gap corners of ``quads`` (work pixels; the first ``whole``
    identified on found outlines, the rest named from corners) not ``seen`` yet (their points are
    added to it) read, at most ``budget`` reads; the cards named are added to ``quads`` and
    ``own``.  Returns the cards named and the reads made."""
    p = params.covered
    aspect = params.find.card_aspect
    out: list[_Named] = []
    reads = 0
    for proposal, short, laid, shown in gap_corners(list(quads), p, whole):
        if reads >= budget:
            break
        if any(float(np.hypot(*(proposal.point - q))) <= p.duplicate_point for q in seen):
            continue
        seen.append(proposal.point)
        if any(
            float(np.hypot(*(proposal.point - q[k]))) < p.same_place * short for q in quads for k in (0, 2)
        ):
            continue  # a card named there already (the gap lies between cards two apart)
        quad = card_quad(proposal, short, aspect)
        # the card between lies on the card below it, its index often on the same card part
        # (white on white, no fine edge): only a card whose own index lies near rules it out
        centre = _index_points(quad).mean(axis=0)
        near = [o for o in own if _near_index(o.quad, centre, p.gap_apart * short)]
        if not _worth_reading(proposal, short, work, cards, near, params, labels):
            continue
        # the corner laid square from the proposal, then (``gap_laid``) on the card laid out as
        # its neighbours lie: their outline, slanted by the camera's tilt, moved part of the way
        ways = [quad, laid] if p.gap_laid and shown[0] else [quad]
        for way in ways:
            if reads >= budget:
                break
            reading, angle, spent = _read_gap(
                frame, way / work.scale, templates, params, budget - reads, search, scene
            )
            reads += spent
            if reading.card is not None:
                quad = way
                break
        if reading.card is None:
            continue
        fitted = turned(quad, angle) if angle != 0.0 else quad
        out.append(_Named(fitted / work.scale, reading, proposal.point, moved=True, gap=True))
        # a card named is one of the cards named from here on: no other gap reads it again
        quads.append(fitted)
        if scene is not None:
            scene.named.append(fitted / work.scale)
        own.append(_Identified(fitted, _part(_index_points(fitted), labels)))
    return out, reads


def _row_named(
    frame: Image,
    work: Work,
    cards: Image,
    identified: list[FloatArray],
    named: list[_Named],
    templates: Templates,
    params: ScannerParams,
    scene: CornerScene | None,
) -> list[_Named]:
    """The cards of hand rows under a named card (``identified``, work pixels, or ``named`` from
    corners so far) whose outline runs on straight past its index corner (``find_corners.row_run``,
    ``CoveredParams.row_reach``): the card one step along, its step unknown, is read at its index
    corner on the named card moved ``row_steps`` of its short side along that line, at most
    ``row_reads`` reads a frame; a card that ``row_agree`` steps name and no step names another
    is named at the middle one of those steps."""
    p = params.covered
    quads = [*identified, *(n.quad * work.scale for n in named)]
    out: list[_Named] = []
    reads = 0
    # each named card at both its index corners, the cards named on the way not read from
    ends = [(source, np.roll(quad, -end, axis=0)) for source, quad in enumerate(quads) for end in (0, 2)]
    for source, corner in ends:
        if reads + len(p.row_steps) > p.row_reads:
            break
        if not row_run(corner, cards, p.row_reach, p.row_margin):
            continue
        short = float(np.hypot(*(corner[1] - corner[0])))
        shift, reach = corner[0] - corner[1], p.same_place * short
        readings: list[tuple[FloatArray, CornerReading]] = []
        for step in p.row_steps:
            laid = corner + shift * step
            if any(
                float(np.hypot(*(laid[0] - q[k]))) < reach
                for n, q in enumerate(quads)
                if n != source
                for k in (0, 2)
            ):
                continue  # another card named there already
            reading = read_corner(frame, laid / work.scale, templates, params, scene=scene)
            reads += 1
            if reading.card is not None:
                readings.append((laid, reading))
        names = {r.card for _, r in readings}
        if len(names) != 1 or len(readings) < p.row_agree:
            continue
        laid, reading = readings[len(readings) // 2]
        out.append(_Named(laid / work.scale, reading, laid[0], moved=True, gap=True))
        quads.append(laid)
        if scene is not None:
            scene.named.append(laid / work.scale)
    log.debug("covered: %d row reads, %d named", reads, len(out))
    return out


def _read_gap(
    frame: Image,
    quad: FloatArray,
    templates: Templates,
    params: ScannerParams,
    budget: int,
    search: bool,
    scene: CornerScene | None,
) -> tuple[CornerReading, float, int]:
    """The index corner of ``quad`` (frame pixels) read turned a few degrees and, left unnamed,
    searched farther (``search``), in at most ``budget`` reads: the reading, the turn it was
    read at and the reads made."""
    turns = min(len(params.covered.turn_angles), budget - 1)
    reading, angle, extra = read_corner_turning(frame, quad, templates, params, turns, scene)
    reads = 1 + extra
    if reading.card is None and search and reads < budget:
        found, turn, extra = read_corner_searching(
            frame, quad, reading, templates, params, budget - reads, scene
        )
        reads += extra
        if found is not None:
            reading, angle = found, turn
    return reading, angle, reads


def _named_near(out: list[Detection], k: int, reach: float) -> set[Card]:
    """The cards identified among ``out`` within ``reach`` short sides (``_apart``) of ``out[k]``:
    a found outline ranking one of them first reads the print of a neighbour lying over it
    (``CoveredParams.veto_near``)."""
    if reach <= 0:
        return set()
    quad = np.asarray(out[k].corners, np.float64)
    return {
        d.card for d in out if d.card is not None and _apart(np.asarray(d.corners, np.float64), quad) <= reach
    }


def _vetoes(
    rival: Card | None,
    found: Detection,
    reading: CornerReading,
    apart: float,
    deck: DeckKind,
    p: CoveredParams,
) -> bool:
    """Whether the identifier's reading of a found card ``apart`` (``_apart``) from a card named
    from a corner vetoes that name: it ranked first another card on nearly the same outline
    (``same_card``), one of the deck (a card outside the deck, a king in an Oktris frame,
    says the identifier read the card poorly, e.g. its other index corner under another card),
    ahead of its own runner-up (``found``'s) by at least ``veto_lead`` (a first place by less
    says no more than a tie), at a score of at least ``veto_score`` (a first card scored less
    says no more than chance)."""
    lead = found.confidence - found.runner_up_confidence
    return (
        rival is not None
        and rival != reading.card
        and apart <= p.same_card
        and in_deck(rival, deck)
        and lead >= p.veto_lead
        and found.confidence >= p.veto_score
    )


def _as_quad(quad: FloatArray) -> Quad:
    (a, b, c, d) = ((float(x), float(y)) for x, y in quad)
    return (a, b, c, d)
