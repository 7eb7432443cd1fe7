"""The scanner facade: one call turns a camera frame into typed card detections.

``Scanner(deck).scan(image)`` validates the frame, finds every card
(``scanner.find``), identifies each against the deck's templates
(``scanner.identify``) as a portrait card warped only where it is read
(``scanner.identify_view``), names the covered cards that show an
index corner (``scanner.scan_covered``) and returns a ``ScanResult``.  A frame in which no
card is named, on a strongly coloured table showing grey pixels, is read once more with grey
pixels taken for card pixels (``FindParams.grey_look``).

For a long-running loop, ``Scanner.scan_or_empty`` never raises on a bad frame:
it logs a warning and returns an empty result carrying the error message.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from scanner.find import FoundCard, find_cards, find_separate, other_way, refine_in_frame
from scanner.find_frame import framed_cards
from scanner.find_geometry import FloatArray, as_quad, holds, order_corners, side_lengths
from scanner.find_ladder import ladder_cards
from scanner.find_paper import paper_quads
from scanner.find_top import (
    hand_share,
    index_over,
    outline_distance,
    overlapping,
    refit_in_pile,
    refit_outline,
    refit_under_hand,
    refits_by_size,
    side_visibility,
    top_flags,
)
from scanner.find_top_print import index_shown, print_over
from scanner.find_work import Work, grey_on_colour, make_work
from scanner.identify import Identification, identify
from scanner.identify_view import CardView
from scanner.params import FindParams, ScannerParams
from scanner.scan_covered import read_covered
from scanner.scan_face_fit import fit_faces
from scanner.scan_relay import relay_named
from scanner.scan_twins import drop_outlines, merge_twins
from scanner.scan_uncovered import uncovered_cards
from scanner.templates import TemplateError, Templates
from scanner.threads import one_blas_thread
from scanner.types import Detection, Image, Quad
from scorer.cards import Card, DeckKind

log = logging.getLogger(__name__)


class ScanInputError(ValueError):
    """A frame the scanner cannot read: not an array, wrong dtype or shape, or empty."""


@dataclass(frozen=True)
class ScanResult:
    """The cards of one frame and the milliseconds spent finding and identifying them.

    ``error`` is ``None`` unless the frame could not be scanned (only from
    ``Scanner.scan_or_empty``), in which case ``detections`` is empty.
    """

    detections: tuple[Detection, ...]
    ms: float
    error: str | None = None


MIN_SIDE = 32
"""The smallest frame side (pixels) the scanner accepts."""


def check_frame(image: object) -> Image:
    """Return ``image`` as a C-contiguous BGR or grey uint8 array.

    Raises:
        ScanInputError: ``image`` is not a numpy array, not uint8, not HxW or HxWx3
            (HxWx1 and HxWx4 are accepted and converted), or smaller than
            ``MIN_SIDE`` pixels on a side.
    """
    if not isinstance(image, np.ndarray):
        raise ScanInputError(f"a frame must be a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ScanInputError(f"a frame must be uint8, got dtype {image.dtype} (shape {image.shape})")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_BGRA2BGR)
    if not (image.ndim == 2 or (image.ndim == 3 and image.shape[2] == 3)):
        raise ScanInputError(f"a frame must be HxW (grey) or HxWx3 (BGR), got shape {image.shape}")
    if image.size == 0 or min(image.shape[:2]) < MIN_SIDE:
        raise ScanInputError(
            f"a frame must be at least {MIN_SIDE}x{MIN_SIDE} pixels, got shape {image.shape}"
        )
    return np.ascontiguousarray(image)


def _on_play_area(corners: Quad, area: tuple[tuple[float, float], ...]) -> bool:
    """True when the centre of ``corners`` lies inside (or on) the play area polygon."""
    x = sum(p[0] for p in corners) / 4.0
    y = sum(p[1] for p in corners) / 4.0
    outline = np.asarray(area, dtype=np.float32).reshape(-1, 1, 2)
    return bool(cv2.pointPolygonTest(outline, (x, y), False) >= 0)


def _turned(corners: Quad) -> Quad:
    """The same corners starting from the opposite short side."""
    return (corners[2], corners[3], corners[0], corners[1])


def _in_place_of(
    out: list[Detection], firsts: list[Card | None], named: Detection, quad: FloatArray, message: str
) -> tuple[list[Detection], list[Card | None]]:
    """``out`` and its first-ranked cards ``firsts`` with ``named`` (read on ``quad``, frame
    pixels) in place of the detections not identified whose centres ``quad`` holds; logs
    ``message`` with the card."""
    kept = [
        k
        for k, d in enumerate(out)
        if d.card is not None or not holds(quad, np.asarray(d.corners, np.float64).mean(axis=0))
    ]
    log.debug(message + ", in place of %d", named.card, len(out) - len(kept))
    return [out[k] for k in kept] + [named], [firsts[k] for k in kept] + [named.card]


def _retop(
    detections: list[Detection],
    whole: set[int],
    work: Work,
    p: FindParams,
    templates: Templates | None = None,
) -> list[Detection]:
    """``detections`` with ``top`` worked out again over all of them, once the covered cards named
    from a corner have joined the cards found (``whole`` holds the ``id`` of the cards whose whole
    outline was found): ``scanner.find_top.top_flags`` on their final outlines, told also (given
    the ``templates``) by the print where two named cards overlap (``scanner.find_top_print``),
    and the index signs kept only where the index print inside the other card shows
    (``find_top_print.index_shown``).
    """
    quads = [np.asarray(d.corners, np.float64) * work.scale for d in detections]
    pairs = overlapping(quads, p)
    printed = indexed = None
    if templates is not None:
        cards = [d.card for d in detections]
        printed = print_over(quads, cards, templates, work, p, pairs)
        named = [c is not None for c in cards]
        indexed = index_shown(quads, cards, templates, work, p, index_over(quads, named, p, pairs))
    flags = top_flags(
        quads,
        [d.card is not None for d in detections],
        [id(d) in whole for d in detections],
        [d.top for d in detections],
        work,
        p,
        printed,
        pairs,
        indexed,
        _hands(quads, detections, pairs, work, p),
    )
    return [d if t == d.top else replace(d, top=t) for d, t in zip(detections, flags, strict=True)]


def _hands(
    quads: list[FloatArray],
    detections: list[Detection],
    pairs: list[tuple[int, int]],
    work: Work,
    p: FindParams,
) -> list[float] | None:
    """The share of each card's area (``quads``, work pixels) a hand or arm covers, for the cards
    not identified that overlap one identified (0 for the others); ``None`` when no such pair
    overlaps or ``top_hand_sides`` is off (the skin is looked for only then)."""
    if p.top_hand_sides <= 0.0:
        return None
    named = [d.card is not None for d in detections]
    mixed = {k for i, j in pairs if named[i] != named[j] for k in (i, j) if not named[k]}
    if not mixed:
        return None
    return [hand_share(q, work) if k in mixed else 0.0 for k, q in enumerate(quads)]


class Scanner:
    """Finds and identifies the cards of one deck in camera frames.

    ``templates`` defaults to the deck's built-in templates; when those cannot be
    loaded the scanner still finds cards but reports every card as not
    identified (``card=None``), and says so in the log.
    """

    def __init__(
        self, deck: DeckKind, templates: Templates | None = None, params: ScannerParams | None = None
    ) -> None:
        one_blas_thread()
        self.deck = deck
        self.params = params if params is not None else ScannerParams()
        if templates is None:
            try:
                templates = Templates.builtin(deck)
            except TemplateError as exc:
                log.warning(
                    "no built-in templates for %s (%s): cards will not be identified", deck.value, exc
                )
        self.templates = templates
        self._derived: dict[str, tuple[ScannerParams, Scanner]] = {}
        """The scanners ``_quick`` and ``_grey`` made, by name, each with the parameters of this
        scanner it was made from."""

    def warm_up(self) -> None:
        """Run the pipeline once on a drawn card so that one-time set-up (OpenCV's
        lazy initialisation, template preparation) is not counted in a real frame's time."""
        frame = np.full((240, 320, 3), 40, np.uint8)
        cv2.rectangle(frame, (120, 60), (199, 171), (240, 240, 240), thickness=-1)
        self.scan(frame)

    def scan(self, image: Image) -> ScanResult:
        """Find and identify every card of ``image`` (BGR or grey uint8).

        Raises:
            ScanInputError: the frame is not a readable image (see ``check_frame``).
        """
        frame = check_frame(image)
        start = time.perf_counter()
        detections: list[Detection] | None = None
        quick = self._quick()
        if quick is not None and max(frame.shape[:2]) > quick.params.find.work_long_side:
            # a frame of separate cards, all named, is read from the smaller work image alone
            detections = quick._read(frame, separate=True)
        if detections is None:
            detections = self._read(frame, separate=False)
            assert detections is not None  # only a look at separate cards gives up
        if all(d.card is None for d in detections):
            grey = self._grey(frame)
            if grey is not None:
                # no card named: on a light, strongly coloured table (wood in dim light) a card may
                # be too little lighter than the table to be card pixels, but it is grey against it
                again = grey._read(frame, separate=False)
                if again is not None and any(d.card is not None for d in again):
                    detections = again
        ms = (time.perf_counter() - start) * 1000.0
        return ScanResult(detections=tuple(detections), ms=ms)

    def _quick(self) -> Scanner | None:
        """The scanner of this one's parameters at the work image's long side
        ``find.quick_long_side`` (``ScannerParams.at_work_side``), made once; ``None`` when that is
        0 or there are no templates (no card would be named, so no frame read from it)."""
        side = self.params.find.quick_long_side
        if side <= 0 or self.templates is None:
            return None
        return self._derived_scanner("quick", lambda: self.params.at_work_side(side))

    def _grey(self, frame: Image) -> Scanner | None:
        """The scanner that takes grey pixels on a strongly coloured table for card pixels too
        (``FindParams.grey_look`` as its ``paper_chroma``), when ``frame``'s table is so coloured
        and shows grey pixels enough for a card (``find_work.grey_on_colour``) and this scanner
        does not already; else ``None``."""
        p = self.params.find
        if p.grey_look <= 0.0 or p.paper_chroma > 0.0 or self.templates is None:
            return None
        if not grey_on_colour(frame, p, p.grey_look):
            return None
        return self._derived_scanner(
            "grey", lambda: replace(self.params, find=replace(p, paper_chroma=p.grey_look))
        )

    def _derived_scanner(self, name: str, params: Callable[[], ScannerParams]) -> Scanner:
        """The scanner ``name`` of this one's deck and templates with the parameters ``params()``
        derives from this one's, made once and again only when this scanner's parameters or
        templates have been replaced since."""
        kept = self._derived.get(name)
        if kept is None or kept[0] is not self.params or kept[1].templates is not self.templates:
            kept = (self.params, Scanner(self.deck, self.templates, params()))
            self._derived[name] = kept
        return kept[1]

    def _read(self, frame: Image, separate: bool) -> list[Detection] | None:
        """The detections of a checked ``frame``.  With ``separate``, ``None`` unless the frame
        holds only separate cards found whole (``scanner.find.find_separate``), every one named
        and no other card read from a corner."""
        work = make_work(frame, self.params.find)
        if separate:
            separate_cards = find_separate(frame, self.params.find, work)
            if separate_cards is None:
                return None
            found = separate_cards
        else:
            found = find_cards(frame, self.params.find, work, scores=False)  # a detection has no score
        read = [self._detect(frame, card) for card in found]
        if separate and any(detection.card is None for detection, _ in read):
            return None
        detections = [detection for detection, _ in read]
        if self.templates is not None:
            candidates = [candidate for _, candidate in read]
            if self.deck is DeckKind.OCTOPLUS and self.params.find.octo_frame:
                detections, candidates = self._framed(frame, work, detections, candidates)
            if work.guesses and all(d.card is None for d in detections):
                detections, candidates = self._laddered(frame, work, detections, candidates)
            read_at: list[float] = []
            covered = read_covered(frame, work, detections, self.templates, self.params, candidates, read_at)
            whole = {id(d) for d in detections}
            by_read: set[int] = set()
            covered = self._refit_unnamed(frame, work, covered, whole, by_read)
            covered = self._refit_named_tops(frame, work, covered, whole)
            covered = self._fit_uncovered(frame, work, covered, whole)
            covered, twins = merge_twins(covered, self.params.find)
            covered, heirs = drop_outlines(covered, whole, self.params.find)
            whole |= twins | heirs
            # an outline chosen by its read is the card's: its sides are not laid out again
            relaid = relay_named(covered, work, self.params.find, whole - by_read)
            relaid = self._relay_read(frame, work, covered, relaid)
            whole |= {id(new) for old, new in zip(covered, relaid, strict=True) if id(old) in whole}
            aligned = fit_faces(relaid, work, self.templates, self.params.find)
            whole |= {id(new) for old, new in zip(relaid, aligned, strict=True) if id(old) in whole}
            relaid = aligned
            if self.params.covered.named_size > 0.0:
                relaid = self._covered_at_named_size(frame, work, relaid, whole, read_at)
            detections = _retop(relaid, whole, work, self.params.find, self.templates)
            if self.params.find.paper_fallback and not separate and all(d.card is None for d in detections):
                # no card named: a card whose side hardly shows (held before a white wall); a look
                # at separate cards names every card or gives up below
                detections = self._paper_card(frame, work, detections)
        if separate and (len(detections) != len(found) or any(d.card is None for d in detections)):
            return None
        if self.params.find.play_area is not None:
            area = self.params.find.play_area
            detections = [d for d in detections if _on_play_area(d.corners, area)]
        return detections

    def _framed(
        self, frame: Image, work: Work, detections: list[Detection], candidates: list[Card | None]
    ) -> tuple[list[Detection], list[Card | None]]:
        """``detections`` and their first-ranked ``candidates`` with each Octoplus card whose
        printed frame shows whole near the cards not identified (``scanner.find_frame``,
        ``FindParams.octo_frame``) read on the outline grown from that frame: a card so named,
        where no card is named on an outline near it, takes the place of the cards not
        identified whose centres it holds."""
        unnamed = [np.asarray(d.corners, np.float64) for d in detections if d.card is None]
        if not unnamed:
            return detections, candidates
        p = self.params.find
        points = np.concatenate(unnamed)
        pad = p.octo_frame_pad * max(side_lengths(q)[0] for q in unnamed)
        x0, y0 = (int(v) for v in np.floor(points.min(axis=0) - pad))
        x1, y1 = (int(v) for v in np.ceil(points.max(axis=0) + pad))
        out, firsts = list(detections), list(candidates)
        for quad in framed_cards(frame, (x0, y0, x1, y1), p):
            near = p.top_refit_same * side_lengths(quad)[0]
            if any(
                d.card is not None and outline_distance(quad, np.asarray(d.corners, np.float64)) < near
                for d in out
            ):
                continue  # a card named there already
            named = self._read_at(frame, work, quad * work.scale)
            if named is None:
                continue
            out, firsts = _in_place_of(out, firsts, named, quad, "framed: %s named on its printed frame")
        return out, firsts

    def _laddered(
        self, frame: Image, work: Work, detections: list[Detection], candidates: list[Card | None]
    ) -> tuple[list[Detection], list[Card | None]]:
        """``detections`` (none identified) and their first-ranked ``candidates`` with the cards
        rebuilt at other sizes where the finder guessed the card size (``scanner.find_ladder``,
        ``FindParams.ladder_reads``) read whole, the best shown first: a card so named takes the
        place of the cards not identified whose centres it holds; a rebuilt card whose centre
        lies in a card named so is not read."""
        out, firsts = list(detections), list(candidates)
        for rect in ladder_cards(work, self.params.find):
            centre = rect.mean(axis=0) / work.scale
            if any(d.card is not None and holds(np.asarray(d.corners, np.float64), centre) for d in out):
                continue
            named = self._read_at(frame, work, rect)
            if named is None:
                continue
            quad = np.asarray(named.corners, np.float64)
            out, firsts = _in_place_of(out, firsts, named, quad, "ladder: %s named at a size not guessed")
        return out, firsts

    def _covered_at_named_size(
        self, frame: Image, work: Work, detections: list[Detection], whole: set[int], read_at: list[float]
    ) -> list[Detection]:
        """``detections`` read once more for covered cards (``read_covered``) at the median
        short side of the cards named on their own outlines (``whole``) as the frame's card
        size, when that lies ``CoveredParams.named_size`` or more from every size in
        ``read_at`` (the frame's sizes the first reading read the corners at)."""
        assert self.templates is not None
        p = self.params
        named = [
            side_lengths(np.asarray(d.corners, np.float64))[0]
            for d in detections
            if d.card is not None and id(d) in whole
        ]
        if not named or not read_at:
            return detections
        short = float(np.median(named))
        if min(abs(short / size - 1.0) for size in read_at) < p.covered.named_size:
            return detections
        sized = replace(p, find=replace(p.find, card_size_px=(short, short * p.find.card_aspect)))
        log.debug("covered: read again at the named cards' size %.1f px (read at %s)", short, read_at)
        return read_covered(frame, work, detections, self.templates, sized)

    def _paper_card(self, frame: Image, work: Work, detections: list[Detection]) -> list[Detection]:
        """``detections`` (none named) with the card the outlines grown from its paper
        (``scanner.find_paper``) name, when at least ``paper_agree`` of them name it and none
        names another: the best read of it, marked top, in place of the detections whose centre
        lies inside it."""
        p = self.params.find
        radius = math.ceil(p.refine_radius / work.scale)
        reads: dict[Card, list[Detection]] = {}
        for quad in paper_quads(work, p):
            corners = refine_in_frame(quad / work.scale, frame, radius, p)
            card = FoundCard(corners=as_quad(order_corners(corners)), top=True, score=0.0)
            detection, _ = self._detect(frame, card)
            if detection.card is not None:
                reads.setdefault(detection.card, []).append(detection)
        if len(reads) != 1:
            return detections  # nothing named, or candidates that disagree
        (named,) = reads.values()
        if len(named) < p.paper_agree:
            return detections
        best = max(named, key=lambda d: d.confidence)
        outline = np.asarray(best.corners, np.float64)
        kept = [d for d in detections if not holds(outline, np.asarray(d.corners, np.float64).mean(axis=0))]
        return [*kept, best]

    def scan_or_empty(self, image: object) -> ScanResult:
        """Like ``scan`` but never raises: a bad frame, or a failure inside the
        pipeline, is logged as a warning and gives an empty result with ``error`` set."""
        start = time.perf_counter()
        try:
            return self.scan(image)  # type: ignore[arg-type]
        except ScanInputError as exc:
            message = str(exc)
        except (cv2.error, ValueError, ArithmeticError, MemoryError) as exc:
            message = f"scan failed: {type(exc).__name__}: {exc}"
        log.warning("frame skipped: %s", message)
        return ScanResult(detections=(), ms=(time.perf_counter() - start) * 1000.0, error=message)

    def _refit_unnamed(
        self,
        frame: Image,
        work: Work,
        detections: list[Detection],
        whole: set[int],
        by_read: set[int] | None = None,
    ) -> list[Detection]:
        """``detections`` with each card not identified (at most ``top_refit_max``, top cards
        first: a top card's outline often takes in the cards peeking out under it) read again
        on the outline ``scanner.find_top.refit_outline`` fits to it, where that outline differs
        from the card's own but not by much (``top_refit_moved``, ``top_refit_reach``), is not
        another detection's (``top_refit_same``) and names a card; then, with
        ``top_refit_pile``, the piles of the cards still not named are fitted over as a whole
        (``_refit_piles``).  With ``top_refit_fresh`` an outline so fitted that lies within
        ``top_refit_same`` of one fitted for another card is that card again: the better read of
        the two is kept.
        The ``id`` of each card so named joins ``whole``, and given ``by_read``, that set too when
        its outline was chosen by its read (``_refit_read``).

        The card size is calibration's, else the median short side of the cards named, else
        unknown (a range of sizes is tried).
        """
        p = self.params.find
        unnamed = [k for k, d in enumerate(detections) if d.card is None]
        targets = sorted(unnamed, key=lambda k: not detections[k].top)[: p.top_refit_max]
        if not targets:
            return detections
        quads = [np.asarray(d.corners, np.float64) * work.scale for d in detections]
        short = self._fit_short(work, quads, detections)
        out = list(detections)
        fitted: dict[int, FloatArray] = {}  # the outlines fitted so far, by card
        for k in targets:
            again = self._refit_one(frame, work, quads, k, short)
            if again is None and p.top_refit_around and detections[k].top:
                # a top card's outline may run along a hand or arm over it: fitted turned any way
                again = self._refit_one(frame, work, quads, k, short, around=True)
            if again is None and detections[k].top:
                again = self._refit_hand(frame, work, quads, k)
            chosen = False
            if again is None and (detections[k].top or p.top_refit_read_under):
                again = self._refit_read(frame, work, quads, detections, k, short)
                chosen = again is not None
            if again is None:
                continue
            rect = np.asarray(again.corners, np.float64) * work.scale
            near = p.top_refit_same * side_lengths(rect)[0]
            if p.top_refit_fresh:
                # two unnamed outlines of one card fitted to one place: the better read is kept
                same = [j for j, q in fitted.items() if outline_distance(rect, q) < near]
                if any(out[j].confidence >= again.confidence for j in same):
                    continue
                if same and chosen and not detections[k].top:
                    continue  # a card under another read size by size does not displace a reading
                for j in same:
                    whole.discard(id(out[j]))
                    if by_read is not None:
                        by_read.discard(id(out[j]))
                    out[j] = detections[j]
                    del fitted[j]
            fitted[k] = rect
            out[k] = again
            whole.add(id(again))
            if chosen and by_read is not None:
                by_read.add(id(again))
        if p.top_refit_pile:
            self._refit_piles(frame, work, quads, out, targets, short, whole)
        return out

    def _refit_hand(self, frame: Image, work: Work, quads: list[FloatArray], k: int) -> Detection | None:
        """Card ``k`` (marked top, named nothing) read again on the outline ``refit_under_hand``
        fits over it (``top_skin``), when a hand or arm covers ``top_skin_share`` of its outline
        or more, that outline moved at least ``top_refit_moved`` of its short side from it and
        lies within ``top_refit_same`` of no other outline; ``None`` otherwise or when it names
        no card."""
        p = self.params.find
        if not p.top_skin or p.top_skin_grow <= 0.0:
            return None
        if p.top_skin_share > 0.0 and hand_share(quads[k], work) < p.top_skin_share:
            return None
        rect = refit_under_hand(quads[k], work, p)
        if rect is None or not self._placed(rect, quads, k, range(len(quads)), math.inf):
            return None
        return self._read_at(frame, work, rect)

    def _refit_read(
        self,
        frame: Image,
        work: Work,
        quads: list[FloatArray],
        detections: list[Detection],
        k: int,
        short: float | None,
    ) -> Detection | None:
        """Card ``k`` (marked top, or with ``top_refit_read_under`` any card, named nothing) read
        on the best outline of each card size near its own (``scanner.find_top.refits_by_size``)
        that moved at least ``top_refit_moved`` (a read naming the card of an outline within
        ``top_refit_same`` of it is that card read again, and dropped): the best read of the
        card that at least ``top_refit_read_agree`` of them name, when no other card is named so
        often; ``None`` otherwise (or with ``top_refit_read_agree`` 0).  A card's print reads
        only on outlines near its own, over a few sizes in a row; a look-alike read off its
        place seldom at more than one."""
        p = self.params.find
        if p.top_refit_read_agree <= 0:
            return None
        reads: dict[Card, list[Detection]] = {}
        for rect in refits_by_size(quads[k], work, p, short):
            if not self._placed(rect, quads, k, [], math.inf):
                continue
            again = self._read_at(frame, work, rect)
            if again is None or again.card is None:
                continue
            if self._read_again(rect, again, quads, detections, k):
                continue  # a named card read again a little off its outline
            reads.setdefault(again.card, []).append(again)
        agreed = [card for card, got in reads.items() if len(got) >= p.top_refit_read_agree]
        if len(agreed) != 1:
            return None
        return max(reads[agreed[0]], key=lambda d: d.confidence)

    def _refit_piles(
        self,
        frame: Image,
        work: Work,
        quads: list[FloatArray],
        out: list[Detection],
        targets: list[int],
        short: float | None,
        whole: set[int],
    ) -> None:
        """For each pile (the outlines overlapping a card of ``targets`` still not identified),
        once, unless a card of it is named on an outline of its own (in ``whole``; most often
        the pile's top card, which the fit would find again): the outline ``refit_in_pile``
        fits over it read again, unless it is a named card's or names the card of a named
        outline holding its centre (that card read again a little off); a card so named takes
        the place, in ``out``, of the pile's unnamed outline nearest it, and its ``id`` joins
        ``whole``."""
        p = self.params.find
        pairs = overlapping(quads, p)
        tried: set[frozenset[int]] = set()
        for k in targets:
            if out[k].card is not None:
                continue
            members = frozenset([k] + [b if a == k else a for a, b in pairs if k in (a, b)])
            if len(members) < 2 or members in tried:
                continue
            tried.add(members)
            if any(out[j].card is not None and id(out[j]) in whole for j in members):
                continue  # a card named on an outline of its own: the fit would find it again
            rect = refit_in_pile(quads[k], [quads[j] for j in sorted(members)], work, p, short)
            if rect is None:
                continue
            near = p.top_refit_same * side_lengths(rect)[0]
            named = [np.asarray(d.corners, np.float64) * work.scale for d in out if d.card is not None]
            if any(outline_distance(rect, q) < near for q in named):
                continue  # a named card's outline
            unnamed = [j for j in members if out[j].card is None]
            j = min(unnamed, key=lambda j: outline_distance(rect, quads[j]))
            if outline_distance(rect, quads[j]) < p.top_refit_moved * side_lengths(rect)[0]:
                continue  # that outline was read already
            again = self._read_at(frame, work, rect)
            centre = rect.mean(axis=0) / work.scale
            if again is None or any(
                d.card == again.card and holds(np.asarray(d.corners, np.float64), centre) for d in out
            ):
                continue  # nothing read, or a named card read again a little off its outline
            out[j] = again
            whole.add(id(again))

    def _refit_named_tops(
        self, frame: Image, work: Work, detections: list[Detection], whole: set[int]
    ) -> list[Detection]:
        """``detections`` with each named card marked top that overlaps another card and whose
        sides show along less than ``top_refit_named_below`` of its outline (at most
        ``top_refit_max``, the least shown first) given the outline ``refit_outline`` fits near
        its own, when that outline lies as ``_refit_rect`` asks (but near no other named card's
        only: an outline not identified there may be this card's, misfit; with
        ``top_refit_named_by_read``, near one only when it reads that card: in a neat pile the
        card under lies a few pixels off the top card's outline), its sides show by
        ``top_refit_named_gain`` more and it reads the same card, or another one at a confidence
        ``top_refit_named_rename`` above the card's own: a top card's outline found or laid out
        a little off (taking in a card under it) is put right, so that it is told from that
        card, and named from its own print.  The ``id`` of each card so moved joins ``whole``
        when the card's did."""
        p = self.params.find
        if p.top_refit_named_below <= 0.0 or p.top_refit_max == 0:
            return detections
        quads = [np.asarray(d.corners, np.float64) * work.scale for d in detections]
        pairs = overlapping(quads, p)
        paired = {k for pair in pairs for k in pair}
        shown: dict[int, float] = {}
        for k in sorted(paired):
            d = detections[k]
            if d.card is None or not d.top:
                continue
            seen = side_visibility(quads[k], work, None, p)
            if seen is not None and seen < p.top_refit_named_below:
                shown[k] = seen
        if not shown:
            return detections
        short = self._fit_short(work, quads, detections)
        named = [j for j, d in enumerate(detections) if d.card is not None]
        out = list(detections)
        for k in sorted(shown, key=shown.__getitem__)[: p.top_refit_max]:
            rect = self._refit_rect(work, quads, k, short, [] if p.top_refit_named_by_read else named)
            if rect is None:
                continue
            seen = side_visibility(rect, work, None, p)
            if seen is None or seen < shown[k] + p.top_refit_named_gain:
                continue  # its sides show less than the card's own: not read
            again = self._read_at(frame, work, rect)
            if again is None:
                continue
            if p.top_refit_named_by_read and self._read_again(rect, again, quads, detections, k):
                continue  # a named card under it read again
            if again.card != detections[k].card and (
                again.confidence < detections[k].confidence + p.top_refit_named_rename
            ):
                continue  # another card, not clearly better read: likely a card under it
            out[k] = again
            if id(detections[k]) in whole:
                whole.add(id(again))
        return out

    def _relay_read(
        self, frame: Image, work: Work, before: list[Detection], relaid: list[Detection]
    ) -> list[Detection]:
        """``relaid`` (``scanner.scan_relay.relay_named``'s answer for ``before``) with each card
        laid out again kept on its outline before where, with ``relay_read``, no card reads on
        the new one: in a neat pile an outline from one of the card's corners, turned a few
        degrees, can run along the card under it and show more of its length.  (A card read
        there as another is kept there: the twin suits of a rank read alike a little off.)"""
        if not self.params.find.relay_read:
            return relaid
        out = list(relaid)
        for k, (old, new) in enumerate(zip(before, relaid, strict=True)):
            if new is old:
                continue
            again = self._read_at(frame, work, np.asarray(new.corners, np.float64) * work.scale)
            if again is None:
                out[k] = old
        return out

    def _read_again(
        self, rect: FloatArray, again: Detection, quads: list[FloatArray], detections: list[Detection], k: int
    ) -> bool:
        """Whether ``again`` (read on ``rect``, fitted for card ``k``) names the card of another
        detection whose outline lies within ``top_refit_same`` of ``rect``: that card read again."""
        near = self.params.find.top_refit_same * side_lengths(rect)[0]
        return any(
            j != k and d.card == again.card and outline_distance(rect, quads[j]) < near
            for j, d in enumerate(detections)
        )

    def _fit_uncovered(
        self, frame: Image, work: Work, detections: list[Detection], whole: set[int]
    ) -> list[Detection]:
        """``detections`` and the cards named over the clusters of touching cards they leave
        uncovered (``scanner.scan_uncovered``), at the frame's card size; the ``id`` of each
        card so named joins ``whole``."""
        quads = [np.asarray(d.corners, np.float64) * work.scale for d in detections]
        short = self._fit_short(work, quads, detections)
        out = uncovered_cards(
            detections, work, self.params.find, short, lambda r: self._read_at(frame, work, r), whole
        )
        whole |= {id(d) for d in out[len(detections) :]}
        return out

    def _refit_one(
        self,
        frame: Image,
        work: Work,
        quads: list[FloatArray],
        k: int,
        short: float | None,
        around: bool = False,
    ) -> Detection | None:
        """Card ``k`` read again on the outline ``refit_outline`` fits near its own (turned any way
        with ``around``), or ``None``."""
        rect = self._refit_rect(work, quads, k, short, range(len(quads)), around)
        return None if rect is None else self._read_at(frame, work, rect)

    def _refit_rect(
        self,
        work: Work,
        quads: list[FloatArray],
        k: int,
        short: float | None,
        others: Iterable[int],
        around: bool = False,
    ) -> FloatArray | None:
        """The outline ``refit_outline`` fits near card ``k``'s own, or ``None`` when it moved less
        than ``top_refit_moved`` or more than ``top_refit_reach`` of its short side (the outline
        read already, or another card's) or lies within ``top_refit_same`` of one of the outlines
        ``others`` (indices into ``quads``: that card, not a new reading)."""
        p = self.params.find
        rect = refit_outline(quads[k], work, p, short, around)
        if rect is None or not self._placed(rect, quads, k, others, p.top_refit_reach):
            return None
        return rect

    def _placed(
        self, rect: FloatArray, quads: list[FloatArray], k: int, others: Iterable[int], reach: float
    ) -> bool:
        """Whether ``rect``, fitted for card ``k``, moved at least ``top_refit_moved`` and at most
        ``reach`` of its short side from ``quads[k]`` and lies within ``top_refit_same`` of none
        of the outlines ``others`` (indices into ``quads``: that card, not a new reading)."""
        p = self.params.find
        rect_short = side_lengths(rect)[0]
        moved = outline_distance(rect, quads[k])
        if not p.top_refit_moved * rect_short <= moved <= reach * rect_short:
            return False
        near = p.top_refit_same * rect_short
        return not any(j != k and outline_distance(rect, quads[j]) < near for j in others)

    def _fit_short(self, work: Work, quads: list[FloatArray], detections: list[Detection]) -> float | None:
        """The short side (work pixels) outlines are fitted at: calibration's card size, else the
        median short side of the cards named, else ``None`` (unknown: a range is tried)."""
        p = self.params.find
        if p.card_size_px is not None:
            return p.card_size_px[0] * work.scale
        named = [side_lengths(q)[0] for q, d in zip(quads, detections, strict=True) if d.card is not None]
        return float(np.median(named)) if named else None

    def _read_at(self, frame: Image, work: Work, rect: FloatArray) -> Detection | None:
        """The card read on ``rect`` (work pixels) marked top, or ``None`` when it names none."""
        # the score is not read again: a detection does not carry it
        card = FoundCard(corners=as_quad(order_corners(rect / work.scale)), top=True, score=0.0)
        again, _ = self._detect(frame, card)
        return again if again.card is not None else None

    def _detect(self, frame: Image, card: FoundCard) -> tuple[Detection, Card | None]:
        """The detection of a found card and the card the identifier ranked first (``None``
        without templates)."""
        if self.templates is None:
            return Detection(card=None, confidence=0.0, corners=card.corners, top=card.top), None
        # warped only where it is read: the index windows, unless the face is needed
        view = CardView(frame, card.corners, self.params.find)
        ident: Identification = identify(view, self.templates, self.params.identify)
        corners = card.corners
        other = other_way(corners, self.params.find) if ident.card is None else None
        if other is not None:
            # a nearly square outline: the card may lie the other way
            again = identify(CardView(frame, other, self.params.find), self.templates, self.params.identify)
            if again.card is not None:
                ident, corners = again, other
        if (
            card.slanted
            and ident.card is not None
            and min(ident.part_scores, default=0.0) < self.params.find.slant_min_part
        ):
            # a card seen at a strong slant: its index reads coarsely, named only when clear
            ident = replace(ident, card=None)
        corners = _turned(corners) if ident.turned else corners
        detection = Detection(
            card=ident.card,
            confidence=ident.confidence,
            corners=corners,
            top=card.top,
            runner_up=ident.runner_up,
            runner_up_confidence=ident.runner_up_confidence,
        )
        return detection, ident.candidate
