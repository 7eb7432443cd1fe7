"""The watcher: camera frames in, neutral observations of the table out.

It knows frames and time, never rules.  Every frame is shrunk to a small grey
copy; a frame that differs from the one before is *moving*.  Once the table has
been still for ``still_frames`` and differs from the last confirmed view, the
next ``confirm_frames`` still frames are scanned and combined into a new
confirmed view, unless a hand (skin-coloured, or anything changed that no card
explains) is in it.  Comparing the new view with the last one gives the
observations:

- pile layout (Octoplus): the new top card of the pile (:class:`PileCard`, one
  per change of the still table, so once each, in order), cards laid in a seat's
  zone away from the pile
  (:class:`HandShown`), and :class:`TurnDone` when no card followed for
  ``turn_idle_s`` (or when :meth:`Watcher.signal_done` is called);
- trick layout (Oktris): one new card per seat zone makes a :class:`TrickSeen`;
- both: :class:`TableCleared` when every card has gone.

A card that lands on an identical card is told from a nudged card by looking at
the part of the old card the new one does not cover: if it is unchanged, the
old card is still there and the new one was played on it.
"""

from __future__ import annotations

import enum
import logging
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from scanner.observations import HandShown, Observation, PileCard, TableCleared, TrickSeen, TurnDone
from scanner.types import Detection, Frame, Image
from scanner.watcher_confirm import SeenCard, confirm
from scanner.watcher_image import SmallView, changed, iou, quad_mask, shrink, skin
from scanner.watcher_params import WatcherParams
from scanner.watcher_zones import AngleZones, SeatZones, zone_count
from scorer.cards import DeckKind

log = logging.getLogger(__name__)

Detector = Callable[[Image], Sequence[Detection]]
"""Finds and identifies the cards of one frame (e.g. ``lambda im: scanner.scan(im).detections``)."""


class _Scans(Protocol):
    def scan(self, image: Image) -> _HasDetections: ...


class _HasDetections(Protocol):
    @property
    def detections(self) -> Sequence[Detection]: ...


def detector_of(scanner: _Scans) -> Detector:
    """The detector function of a scanner object with ``scan(image).detections``."""

    def detect(image: Image) -> Sequence[Detection]:
        return scanner.scan(image).detections

    return detect


class Layout(enum.Enum):
    """How cards are laid: on one central pile (Octoplus) or one per seat at once (Oktris)."""

    PILE = "pile"
    TRICKS = "tricks"

    @classmethod
    def of(cls, deck: DeckKind) -> Layout:
        return cls.PILE if deck is DeckKind.OCTOPLUS else cls.TRICKS


@dataclass(frozen=True)
class View:
    """A confirmed view of the table: its cards and the frame in which it settled."""

    cards: tuple[SeenCard, ...]
    small: SmallView
    frame_index: int
    timestamp: float


class Watcher:
    """Turns frames into observations; feed it every frame in order with :meth:`feed`.

    ``seats`` is the number of players; ``zones`` default to equal angles around
    the image centre (seat 1 at the bottom).  Not thread-safe: one thread feeds
    it (:meth:`signal_done` may be called from that thread only, too).
    """

    def __init__(
        self,
        detect: Detector,
        *,
        deck: DeckKind,
        seats: int,
        params: WatcherParams | None = None,
        zones: SeatZones | None = None,
    ) -> None:
        if not 1 <= seats <= 8:
            raise ValueError(f"Watcher: seats must be 1..8, got {seats!r}")
        count = zone_count(zones) if zones is not None else None
        if count is not None and count != seats:
            raise ValueError(f"Watcher: {count} seat zones for {seats} seats")
        self.detect = detect
        self.layout = Layout.of(deck)
        self.seats = seats
        self.params = params or WatcherParams()
        self.zones = zones
        self.scans = 0
        self.reset()

    def reset(self) -> None:
        """Forget every view: the next confirmed view is a new baseline."""
        self._prev: SmallView | None = None
        self._prev_frame: tuple[int, float] = (0, 0.0)
        self._settle: tuple[int, float] = (0, 0.0)
        self._still_run = 0
        self._dirty = True
        self._readings: list[Sequence[Detection]] = []
        self._blocked_until = 0
        self._view: View | None = None
        self._last_pile: float | None = None
        self._trick: dict[int, SeenCard] = {}
        self._snapshots: OrderedDict[int, Image] = OrderedDict()
        self.hand_in_view = False

    # --- reading the state ---------------------------------------------------

    @property
    def still(self) -> bool:
        """True while the table has been still for ``still_frames`` frames."""
        return self._still_run >= self.params.still_frames

    @property
    def cards(self) -> tuple[SeenCard, ...]:
        """The cards of the last confirmed view."""
        return self._view.cards if self._view is not None else ()

    def snapshot(self, frame_index: int) -> Image | None:
        """The frame of a recent confirmed view that settled at ``frame_index``, if still kept."""
        return self._snapshots.get(frame_index)

    # --- signals from outside ------------------------------------------------

    def signal_done(self, reason: str = "signal") -> TurnDone:
        """The players say the turn is over (page button, key, GPIO): the observation to pass on."""
        self._last_pile = None
        index, timestamp = self._prev_frame
        return TurnDone(reason, index, timestamp)

    # --- frames --------------------------------------------------------------

    def feed(self, frame: Frame) -> list[Observation]:
        """Take the next frame; returns what it made observable (usually nothing)."""
        small = shrink(frame.image, self.params)
        prev = self._prev
        self._prev = small
        previous_frame = self._prev_frame
        self._prev_frame = (frame.index, frame.timestamp)
        if prev is None or prev.grey.shape != small.grey.shape:
            self._still_run = 0
            self._settle = (frame.index, frame.timestamp)
            self._dirty = True
            self._readings = []
            return []
        moving = float(changed(prev.grey, small.grey, self.params).mean()) > self.params.motion_fraction
        if moving:
            self._still_run = 0
            self._dirty = True
            self._readings = []
            self._blocked_until = 0
            return []
        if self._still_run == 0:
            self._settle = previous_frame
        self._still_run += 1
        if self._dirty:
            if self._still_run >= self.params.still_frames:
                return self._read(frame, small)
            return []
        return self._idle(frame)

    def _idle(self, frame: Frame) -> list[Observation]:
        if self._last_pile is None or frame.timestamp - self._last_pile < self.params.turn_idle_s:
            return []
        self._last_pile = None
        return [TurnDone("idle", frame.index, frame.timestamp)]

    def _read(self, frame: Frame, small: SmallView) -> list[Observation]:
        p = self.params
        ref = self._view
        patient = self._still_run < p.hand_patience_frames
        change = None
        if ref is not None:
            change = changed(ref.small.grey, small.grey, p)
            if not self._readings and float(change.mean()) < p.change_fraction:
                self._dirty = False
                self.hand_in_view = False
                return self._idle(frame)
            if patient and float((change & skin(small.colour, p)).mean()) >= p.skin_fraction:
                self._hand("skin-coloured change")
                return []
        if self._still_run < self._blocked_until:
            return []
        detections = tuple(self.detect(frame.image))
        self.scans += 1
        if ref is not None and change is not None and patient:
            quads = [c.corners for c in ref.cards] + [d.corners for d in detections]
            explained = quad_mask(change.shape, quads, small.scale, p.explain_margin)
            if float((change & ~explained).mean()) >= p.hand_fraction:
                self._hand("change that no card explains")
                return []
        self.hand_in_view = False
        self._readings.append(detections)
        if len(self._readings) < p.confirm_frames:
            return []
        view = View(confirm(self._readings, p), small, *self._settle)
        self._readings = []
        self._dirty = False
        self._view = view
        if p.snapshots:
            self._snapshots[view.frame_index] = frame.image
            while len(self._snapshots) > p.snapshots:
                self._snapshots.popitem(last=False)
        if ref is None:
            if not p.report_initial:
                return []
            ref = View((), small, *self._settle)
        return self._compare(ref, view)

    def _hand(self, why: str) -> None:
        if not self.hand_in_view:
            log.debug("watcher: hand in view (%s)", why)
        self.hand_in_view = True
        self._readings = []
        self._blocked_until = self._still_run + self.params.rescan_frames

    # --- comparing views -----------------------------------------------------

    def _zones(self, view: View) -> SeatZones:
        if self.zones is None:
            width, height = view.small.size
            self.zones = AngleZones.default(self.seats, width, height)
        return self.zones

    def _compare(self, ref: View, view: View) -> list[Observation]:
        if ref.cards and not view.cards:
            self._last_pile = None
            self._trick = {}
            return [TableCleared(view.frame_index, view.timestamp)]
        if self.layout is Layout.PILE:
            return self._compare_pile(ref, view)
        return self._compare_tricks(ref, view)

    def _in_pile(self, card: SeenCard, view: View) -> bool:
        width, height = view.small.size
        cx, cy = self.params.pile_centre_x * width, self.params.pile_centre_y * height
        x, y = card.centre
        return math.hypot(x - cx, y - cy) <= self.params.pile_radius * min(width, height)

    def _is_new(self, card: SeenCard, ref: View, view: View) -> bool:
        p = self.params
        overlaps = [(iou(old.corners, card.corners), old) for old in ref.cards]
        twins = [(o, old) for o, old in overlaps if old.card == card.card and o > 0.1]
        if not twins:
            # A card underneath that is read differently now is a misreading, not a new card.
            return card.top or all(o < p.same_iou for o, _ in overlaps)
        overlap, twin = max(twins, key=lambda t: t[0])
        if overlap >= p.still_iou or not card.top:
            return False
        return self._twin_still_there(twin, card, ref, view)

    def _twin_still_there(self, old: SeenCard, new: SeenCard, ref: View, view: View) -> bool:
        """True if the part of ``old`` that ``new`` does not cover is unchanged (``new`` lies on it)."""
        p = self.params
        shape = view.small.grey.shape
        old_mask = quad_mask(shape, [old.corners], view.small.scale)
        new_mask = quad_mask(shape, [new.corners], view.small.scale, p.explain_margin / 3)
        uncovered = old_mask & ~new_mask
        area = int(uncovered.sum())
        if area == 0 or area < p.uncovered_min * int(old_mask.sum()):
            log.debug("watcher: %s moved too little to tell a nudge from a twin played on it", new.card)
            return False
        diff = changed(ref.small.grey, view.small.grey, p)
        changed_part = float(diff[uncovered].mean())
        log.debug("watcher: %s uncovers %d px of its twin, %.2f changed", new.card, area, changed_part)
        return changed_part <= p.uncovered_changed_max

    def _compare_pile(self, ref: View, view: View) -> list[Observation]:
        new = [card for card in view.cards if self._is_new(card, ref, view)]
        candidates = [c for c in new if self._in_pile(c, view)]
        # One card lands on the pile between two still views; when the scanner offers several
        # new outlines there, the identified top card it is surest of is the one played.
        pile = sorted(candidates, key=lambda c: (c.card is not None, c.top, c.confidence))[-1:]
        if len(candidates) > 1:
            log.debug("watcher: %d new outlines on the pile, kept %s", len(candidates), pile[0].card)
        out: list[Observation] = [
            PileCard(c.card, c.confidence, c.candidates, view.frame_index, view.timestamp) for c in pile
        ]
        if pile:
            self._last_pile = view.timestamp
        zones = self._zones(view)
        shown = {zones.seat_of(c.centre) for c in new if c.card is not None and not self._in_pile(c, view)}
        if shown:
            self._last_pile = None  # hands are shown when the round is over: no turn to end
        for seat in sorted(shown):
            hand = sorted(
                (
                    c
                    for c in view.cards
                    if c.card is not None and not self._in_pile(c, view) and zones.seat_of(c.centre) == seat
                ),
                key=lambda c: c.centre[0],
            )
            out.append(
                HandShown(
                    seat,
                    tuple(c.card for c in hand),
                    tuple(c.confidence for c in hand),
                    view.frame_index,
                    view.timestamp,
                )
            )
        return out

    def _compare_tricks(self, ref: View, view: View) -> list[Observation]:
        known = {c.card for c in ref.cards if c.card is not None}
        zones = self._zones(view)
        for card in view.cards:
            if card.card is not None and card.card in known:
                continue
            if card.card is None and any(
                iou(o.corners, card.corners) >= self.params.same_iou for o in ref.cards
            ):
                continue
            seat = zones.seat_of(card.centre)
            held = self._trick.get(seat)
            if (
                held is None
                or (held.card is None and card.card is not None)
                or ((held.card is None) == (card.card is None) and card.confidence > held.confidence)
            ):
                if held is not None and held.card is not None and card.card is not None:
                    log.info("watcher: two new cards in seat %d's zone; keeping the surer one", seat)
                self._trick[seat] = card
        identified = sum(1 for c in self._trick.values() if c.card is not None)
        if len(self._trick) < self.seats or identified < max(1, self.seats - 1):
            return []
        by_seat = [self._trick[seat] for seat in range(1, self.seats + 1)]
        self._trick = {}
        return [
            TrickSeen(
                tuple(c.card for c in by_seat),
                tuple(c.confidence for c in by_seat),
                tuple(c.candidates for c in by_seat),
                view.frame_index,
                view.timestamp,
            )
        ]
