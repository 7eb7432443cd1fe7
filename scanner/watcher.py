"""The watcher: camera frames in, neutral observations of the table out.

It knows frames and time, never rules.  Every frame is shrunk to a small grey
copy; a frame that differs from the one before is *moving*.  Once the table has
been still for ``still_frames`` and differs from the last confirmed view, the
next ``confirm_frames`` still frames are scanned and combined into a new
confirmed view (up to ``max_confirm_frames`` while a card on top is not read yet),
unless a hand (skin-coloured, or anything changed that no card explains and
that does not look like card paper) is in it.  Comparing the new view with the
last one gives the observations:

- pile layout (Octoplus): the new top card of the pile (:class:`PileCard`, one
  per change of the still table, so once each, in order), cards laid in a seat's
  zone away from the pile (:class:`HandShown`), and :class:`TurnDone` when no
  card followed for ``turn_idle_s`` (or when :meth:`Watcher.signal_done` is
  called);
- trick layout (Oktris): one new card per seat zone makes a :class:`TrickSeen`;
- both: :class:`TableCleared` when every card has gone.

How views are compared is :mod:`scanner.watcher_compare`.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Protocol

from scanner.observations import Observation, TurnDone
from scanner.types import Detection, Frame, Image
from scanner.watcher_compare import Comparer, Layout, View
from scanner.watcher_confirm import SeenCard, confirm
from scanner.watcher_image import Mask, SmallView, changed, quad_mask, shrink, skin, unexplained
from scanner.watcher_locate import Reader
from scanner.watcher_params import WatcherParams
from scanner.watcher_zones import SeatZones, zone_count
from scorer.cards import DeckKind

__all__ = ["Detector", "Layout", "Reader", "View", "Watcher", "detector_of"]

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


class Watcher:
    """Turns frames into observations; feed it every frame in order with :meth:`feed`.

    ``seats`` is the number of players; ``zones`` default to equal angles around
    the image centre (seat 1 at the bottom).  ``read_at`` (optional) reads the
    card at given corners: with it, a pile card the scanner did not find (or not
    surely) is looked for where the pile changed, a card of ``card_size_px``
    (short, long side in frame pixels) when known.  Not thread-safe: one thread
    feeds it (:meth:`signal_done` may be called from that thread only, too).
    """

    def __init__(
        self,
        detect: Detector,
        *,
        deck: DeckKind,
        seats: int,
        params: WatcherParams | None = None,
        zones: SeatZones | None = None,
        read_at: Reader | None = None,
        card_size_px: tuple[float, float] | None = None,
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
        self.comparer = Comparer(self.layout, seats, self.params, zones, read_at, card_size_px)
        self._scans = 0
        self.reset()

    def reset(self) -> None:
        """Forget every view: the next confirmed view is a new baseline."""
        self._prev: SmallView | None = None
        self._prev_frame: tuple[int, float] = (0, 0.0)
        self._settle: tuple[int, float] = (0, 0.0)
        self._still_run = 0
        self._dirty = True
        self._readings: list[Sequence[Detection]] = []
        self._last_read: tuple[Image, SmallView, Mask | None] | None = None
        self._read_images: list[Image] = []
        self._blocked_until = 0
        self._view: View | None = None
        self.comparer.reset()
        self._snapshots: OrderedDict[int, Image] = OrderedDict()
        self.hand_in_view = False

    # --- reading the state ---------------------------------------------------

    @property
    def scans(self) -> int:
        """How many times the scanner (or the reader) was run."""
        return self._scans + self.comparer.reads

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
        self.comparer.last_pile = None
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
            self._read_images = []
            return []
        moving = float(changed(prev.grey, small.grey, self.params).mean()) > self.params.motion_fraction
        if moving:
            out = self._settle_view()  # readings still hoping for a surer card end here
            self._still_run = 0
            self._dirty = True
            self._readings = []
            self._read_images = []
            self._blocked_until = 0
            return out
        if self._still_run == 0:
            self._settle = previous_frame
        self._still_run += 1
        if self._dirty:
            if self._still_run >= self.params.still_frames:
                return self._read(frame, small)
            return []
        return self._idle(frame)

    def flush(self) -> list[Observation]:
        """The frames have ended (a recording played to its end): readings still hoping for a
        surer card settle now; what they make observable."""
        return self._settle_view()

    def _idle(self, frame: Frame) -> list[Observation]:
        last = self.comparer.last_pile
        if last is None or frame.timestamp - last < self.params.turn_idle_s:
            return []
        self.comparer.last_pile = None
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
                return self._hand("skin-coloured change")
        if self._still_run < self._blocked_until:
            return []
        detections = tuple(self.detect(frame.image))
        self._scans += 1
        if ref is not None and change is not None and patient:
            quads = [c.corners for c in ref.cards] + [d.corners for d in detections]
            explained = quad_mask(change.shape, quads, small.scale, p.explain_margin)
            if float(unexplained(change & ~explained, small.colour, p).mean()) >= p.hand_fraction:
                return self._hand("change that no card explains")
        self.hand_in_view = False
        self._readings.append(detections)
        self._last_read = (frame.image, small, change)
        self._read_images.append(frame.image)
        if len(self._readings) < p.confirm_frames:
            return []
        unsure = any(c.card is None and c.top for c in confirm(self._readings, p))
        if unsure and len(self._readings) < p.max_confirm_frames:
            return []  # a card in sight is not read yet: read on while the table stays still
        return self._settle_view()

    def _settle_view(self) -> list[Observation]:
        """The readings so far, if enough, become the new confirmed view; its observations."""
        p = self.params
        if len(self._readings) < p.confirm_frames or self._last_read is None:
            return []
        image, small, change = self._last_read
        ref = self._view
        cards = confirm(self._readings, p)
        if not cards and ref is not None and ref.cards and change is not None:
            where = quad_mask(change.shape, [c.corners for c in ref.cards], small.scale)
            if float(change[where].mean()) < p.cleared_change:
                # The scanner found nothing, yet where the cards lay hardly changed: they are still
                # there and this reading failed.  Keep them; what changed is looked for below.
                log.info("watcher: no card found where cards still lie; keeping the last view's cards")
                cards = ref.cards
        view = View(cards, small, *self._settle, image=image, images=tuple(self._read_images))
        self._readings = []
        self._read_images = []
        self._last_read = None
        self._dirty = False
        self._view = view
        if p.snapshots:
            self._snapshots[view.frame_index] = image
            while len(self._snapshots) > p.snapshots:
                self._snapshots.popitem(last=False)
        if ref is None:
            if not p.report_initial:
                return []
            ref = View((), small, *self._settle)
        return self.comparer.compare(ref, view)

    def _hand(self, why: str) -> list[Observation]:
        out = self._settle_view()  # readings taken before the hand came still count
        if not self.hand_in_view:
            log.debug("watcher: hand in view (%s)", why)
        self.hand_in_view = True
        self._readings = []
        self._read_images = []
        self._blocked_until = self._still_run + self.params.rescan_frames
        return out

    # --- comparing views -----------------------------------------------------
