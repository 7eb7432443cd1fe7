"""Guided capture of the user's own deck: each card in turn, several still captures each.

A ``CaptureSession`` asks for the cards of a deck one after the other.  Fed one
camera frame at a time (``offer``), it answers what it saw and what the player
should do next:

- the table must show exactly one card (``NO_CARD``, ``SEVERAL_CARDS``);
- the card must hold still for ``still_frames`` frames (``MOVING``) before it
  is captured (``CAPTURED``): cut out as a canonical portrait card;
- between two captures of the same card it must move a little (``MOVE_A_BIT``)
  so the captures differ in light and position;
- after the last capture of a card (``CARD_DONE``) the table must be cleared
  (``REMOVE_CARD``) before the next card is asked for, so one card is never
  taken for the next;
- ``FINISHED`` once every card has its captures (or was skipped).

``learn`` then makes the templates (per card its captures turned the same way
up, the table past the rounded corners painted over, aligned and averaged into
one template, see ``calibration.template_combine``);
``calibration.validation.validate`` reports each card's confidence against them
and any two cards too alike.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.template_combine import CombineParams, combine_captures
from scanner.find import find_cards, warp_card
from scanner.identify_params import IdentifyParams
from scanner.params import FindParams
from scanner.templates import Templates, expected_cards
from scanner.types import Image, Quad
from scorer.cards import Card, DeckKind, parse_card
from scorer.errors import NotationError


class CaptureError(ValueError):
    """A capture session used wrongly (nothing captured yet, unknown card, bad settings)."""


@dataclass(frozen=True)
class CaptureParams:
    """The tunable numbers of guided capture.

    Attributes:
        captures_per_card: still captures taken of each card.
        still_frames: consecutive frames the card must hold still before a capture.
        still_px: a card holds still when no corner moves more than this (frame pixels) between frames.
        min_shift: between two captures of one card, its centre or a corner moves at least this
            fraction of the card's short side.
        empty_frames: frames without any card that count as "the card was taken away".
        size_tolerance: relative tolerance of a found card's short side against the calibrated one.
        corner_radius: the card's corner radius as a fraction of its width (templates are cleaned
            outside it).
        combine: how a card's captures become its template (``calibration.template_combine``).

    Raises:
        CaptureError: (on construction) a value out of range.
    """

    captures_per_card: int = 3
    still_frames: int = 2
    still_px: float = 3.0
    min_shift: float = 0.15
    empty_frames: int = 1
    size_tolerance: float = 0.3
    corner_radius: float = 0.07
    combine: CombineParams = field(default_factory=CombineParams)

    def __post_init__(self) -> None:
        if not 1 <= self.captures_per_card <= 20:
            raise CaptureError(f"captures_per_card must be 1..20, got {self.captures_per_card!r}")
        if not 1 <= self.still_frames <= 100 or not 1 <= self.empty_frames <= 100:
            raise CaptureError(
                f"still_frames and empty_frames must be 1..100, got {self.still_frames}, {self.empty_frames}"
            )
        if not 0 < self.still_px <= 100 or not 0 <= self.min_shift <= 2:
            raise CaptureError(
                f"still_px must be in (0, 100] and min_shift in [0, 2], got {self.still_px}, {self.min_shift}"
            )


class Step(enum.Enum):
    """What a session saw in a frame; ``advice`` says what to do."""

    NO_CARD = "no-card"
    SEVERAL_CARDS = "several-cards"
    MOVING = "moving"
    MOVE_A_BIT = "move-a-bit"
    CAPTURED = "captured"
    CARD_DONE = "card-done"
    REMOVE_CARD = "remove-card"
    FINISHED = "finished"

    @property
    def advice(self) -> str:
        """A short instruction for the player."""
        return _ADVICE[self]


_ADVICE = {
    Step.NO_CARD: "show the card face up in the middle of the table",
    Step.SEVERAL_CARDS: "show one card only",
    Step.MOVING: "hold still",
    Step.MOVE_A_BIT: "move the card a little, then hold still",
    Step.CAPTURED: "captured: move the card a little for the next capture",
    Step.CARD_DONE: "done: take the card away",
    Step.REMOVE_CARD: "take the card away",
    Step.FINISHED: "every card is captured",
}


@dataclass(frozen=True)
class Progress:
    """Where a session stands: the card asked for (``None`` when finished) and the counts."""

    card: Card | None
    index: int
    cards: int
    captures_of_card: int
    captures_per_card: int
    done: int
    total: int

    @property
    def fraction(self) -> float:
        """Share of all captures taken (0..1)."""
        return self.done / self.total if self.total else 1.0


def _corners_array(corners: Quad) -> np.ndarray:
    return np.asarray(corners, dtype=np.float64).reshape(4, 2)


def _moved(a: Quad, b: Quad) -> float:
    """Largest corner displacement between two quads, whichever corner order each has."""
    pa, pb = _corners_array(a), _corners_array(b)
    return float(min(np.linalg.norm(pa - np.roll(pb, k, axis=0), axis=1).max() for k in range(4)))


@dataclass
class CaptureSession:
    """A guided capture of ``cards`` (default: the whole deck) in order.  Not thread-safe.

    ``area`` is the play area (frame pixels): cards whose centre lies outside it
    are ignored.  When ``find.card_size_px`` is known, quads whose short side is
    off it by more than ``CaptureParams.size_tolerance`` are ignored too.

    Raises:
        CaptureError: (on construction) ``cards`` is empty or holds a card of another deck.
    """

    deck: DeckKind
    cards: tuple[Card, ...] = ()
    params: CaptureParams = field(default_factory=CaptureParams)
    find: FindParams = field(default_factory=FindParams)
    area: Quad | None = None
    captures: dict[Card, list[Image]] = field(default_factory=dict)
    skipped: list[Card] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.cards:
            self.cards = expected_cards(self.deck)
        for card in self.cards:
            try:
                same = parse_card(str(card), self.deck) == card
            except NotationError:
                same = False
            if not same:
                raise CaptureError(f"card {card} is not a card of the {self.deck.value} deck")
        self._index = 0
        self._last: Quad | None = None
        self._still = 0
        self._taken_at: Quad | None = None
        self._await_empty = False
        self._empty = 0

    # --- where it stands ------------------------------------------------------

    @property
    def current(self) -> Card | None:
        """The card asked for, or ``None`` when every card is done."""
        return self.cards[self._index] if self._index < len(self.cards) else None

    @property
    def finished(self) -> bool:
        """True when every card has its captures or was skipped (and the last one was taken away)."""
        return self._index >= len(self.cards)

    def progress(self) -> Progress:
        """The card asked for and how many captures are taken."""
        per = self.params.captures_per_card
        card = self.current
        done = sum(min(per, len(v)) for v in self.captures.values()) + per * len(self.skipped)
        return Progress(
            card=card,
            index=min(self._index, len(self.cards)),
            cards=len(self.cards),
            captures_of_card=len(self.captures.get(card, ())) if card is not None else 0,
            captures_per_card=per,
            done=done,
            total=per * len(self.cards),
        )

    # --- feeding frames -------------------------------------------------------

    def skip(self) -> None:
        """Give up on the current card (it gets no template); the next one is asked for."""
        card = self.current
        if card is None:
            return
        self.captures.pop(card, None)
        self.skipped.append(card)
        self._next()

    def _next(self) -> None:
        self._index += 1
        self._last = None
        self._still = 0
        self._taken_at = None

    def _cards(self, image: Image) -> list[Quad]:
        """The cards in the play area; overlapping quads (one card seen twice) count once, the surest."""
        kept: list[tuple[float, Quad]] = []
        area = None if self.area is None else np.asarray(self.area, dtype=np.float32).reshape(-1, 1, 2)
        size = self.find.card_size_px
        for card in find_cards(image, self.find):
            centre = np.asarray(card.corners, dtype=np.float64).mean(axis=0)
            if (
                area is not None
                and cv2.pointPolygonTest(area, (float(centre[0]), float(centre[1])), False) < 0
            ):
                continue
            short = min(
                math.dist(card.corners[0], card.corners[1]), math.dist(card.corners[1], card.corners[2])
            )
            if size is not None and abs(short / size[0] - 1) > self.params.size_tolerance:
                continue
            kept.append((card.score, card.corners))
        kept.sort(key=lambda item: -item[0])
        out: list[Quad] = []
        for _, corners in kept:
            centre = np.mean(corners, axis=0)
            if all(
                cv2.pointPolygonTest(
                    np.asarray(o, np.float32).reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), False
                )
                < 0
                for o in out
            ):
                out.append(corners)
        return out

    def offer(self, image: Image) -> Step:
        """Look at one frame (BGR uint8) and capture the card when it is alone and still.

        Raises:
            ValueError: ``image`` is not an image the finder reads.
        """
        found = self._cards(image)
        if self._await_empty:
            if found:
                self._empty = 0
                return Step.REMOVE_CARD
            self._empty += 1
            if self._empty >= self.params.empty_frames:
                self._await_empty = False
                self._empty = 0
                self._next()
            return Step.FINISHED if self.finished else Step.NO_CARD
        card = self.current
        if card is None:
            return Step.FINISHED
        if not found:
            self._last, self._still = None, 0
            return Step.NO_CARD
        if len(found) > 1:
            self._last, self._still = None, 0
            return Step.SEVERAL_CARDS
        corners = found[0]
        short = min(
            math.dist(corners[0], corners[1]),
            math.dist(corners[1], corners[2]),
        )
        if self._last is not None and _moved(self._last, corners) <= self.params.still_px:
            self._still += 1
        else:
            self._still = 1
        self._last = corners
        if self._still < self.params.still_frames:
            return Step.MOVING
        if self._taken_at is not None and _moved(self._taken_at, corners) < self.params.min_shift * short:
            return Step.MOVE_A_BIT
        self.captures.setdefault(card, []).append(warp_card(image, corners, self.find))
        self._taken_at = corners
        self._still = 0
        if len(self.captures[card]) >= self.params.captures_per_card:
            self._await_empty = True
            return Step.CARD_DONE
        return Step.CAPTURED

    # --- results --------------------------------------------------------------

    def learn(self, identify: IdentifyParams | None = None) -> Templates:
        """The templates of every captured card, one per card: its captures turned the same way
        up (the medoid first, see ``combine_all``), the table outside the rounded corners
        painted over in the card's paper colour (``clean_corners``), then aligned, averaged and
        with the parts of a standard card's index shared among the cards that print them
        (``calibration.template_combine.combine_captures``; ``identify`` says where the
        identifier reads the index, default ``IdentifyParams()``).

        Raises:
            CaptureError: no card was captured at all.
        """
        if not self.captures:
            raise CaptureError("no card was captured: nothing to learn templates from")
        radius = self.params.corner_radius
        ordered = {
            card: [clean_corners(image, radius) for image in combine_all(images)]
            for card, images in self.captures.items()
            if images
        }
        combined = combine_captures(ordered, self.deck, identify, self.params.combine)
        faces = {card: (clean_corners(image, radius),) for card, image in combined.items()}
        return Templates(self.deck, faces, source="<capture>")


def clean_corners(image: Image, radius: float = 0.07, inset: int = 2) -> Image:
    """A warped card with everything outside its rounded outline (corner radius ``radius`` of its
    width, ``inset`` pixels in from the edge) painted in the paper colour (the median colour of a
    strip along its left edge), so the table seen past the corners is not part of a template."""
    h, w = image.shape[:2]
    r = max(1, round(radius * w))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (inset + r, inset), (w - 1 - inset - r, h - 1 - inset), 255, -1)
    cv2.rectangle(mask, (inset, inset + r), (w - 1 - inset, h - 1 - inset - r), 255, -1)
    for cx, cy in ((inset + r, inset + r), (w - 1 - inset - r, inset + r), (inset + r, h - 1 - inset - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    cv2.circle(mask, (w - 1 - inset - r, h - 1 - inset - r), r, 255, -1)
    strip = image[int(0.3 * h) : int(0.7 * h), int(0.05 * w) : int(0.12 * w)].reshape(
        -1, image.shape[2] if image.ndim == 3 else 1
    )
    paper = np.median(strip, axis=0).astype(np.uint8)
    out = image.copy()
    out[mask == 0] = paper if image.ndim == 3 else paper[0]
    return out


def _upright_pair(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean(np.abs(a - b)))


def combine_all(images: Sequence[Image]) -> list[Image]:
    """Several captures of a card, each turned the way up (as is or a half turn) nearer the first,
    the medoid (the capture with the smallest total grey-level distance to the others) first.

    Raises:
        CaptureError: ``images`` is empty.
    """
    if not images:
        raise CaptureError("no capture to combine")
    base = images[0].astype(np.float32)
    aligned: list[Image] = [images[0]]
    for image in images[1:]:
        turned = np.asarray(cv2.rotate(image, cv2.ROTATE_180), dtype=np.uint8)
        as_is = _upright_pair(base, image.astype(np.float32))
        aligned.append(image if as_is <= _upright_pair(base, turned.astype(np.float32)) else turned)
    greys = [cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(np.float32) for a in aligned]
    totals = [sum(_upright_pair(g, h) for h in greys) for g in greys]
    first = int(np.argmin(totals))
    return [aligned[first], *(a for i, a in enumerate(aligned) if i != first)]


def combine(images: Sequence[Image]) -> Image:
    """The medoid of several captures of a card (see ``combine_all``).

    Raises:
        CaptureError: ``images`` is empty.
    """
    return combine_all(images)[0]
