"""Comparing two confirmed views of the table: what was played, shown or cleared.

- pile layout (Octoplus): the new top card of the pile (one per change of the
  still table), cards laid in a seat's zone away from the pile (a shown hand);
  a card the scanner did not find (or not surely) on the pile, or did not find
  in a hand being shown, is read where the table changed, when a reader is given;
- trick layout (Oktris): one new card per seat zone makes a trick;
- both: the table cleared when every card has gone.

A card that lands on an identical card is told from a nudged card by looking at
the part of the old card the new one does not cover: if it is unchanged, the
old card is still there and the new one was played on it.
"""

from __future__ import annotations

import enum
import logging
import math
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.observations import Candidate, HandShown, Observation, PileCard, TableCleared, TrickSeen
from scanner.types import Detection, Image, Point, Quad
from scanner.watcher_confirm import SeenCard
from scanner.watcher_image import Mask, SmallView, changed, iou, quad_mask
from scanner.watcher_locate import Reader, locate_card, locate_cards
from scanner.watcher_params import WatcherParams
from scanner.watcher_zones import AngleZones, SeatZones
from scorer.cards import Card, DeckKind

log = logging.getLogger("scanner.watcher")


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
    image: Image | None = None
    images: tuple[Image, ...] = ()
    """every frame read for this view (the last is ``image``)"""


def _centre(quad: Quad) -> Point:
    return (sum(p[0] for p in quad) / 4.0, sum(p[1] for p in quad) / 4.0)


class Comparer:
    """Compares confirmed views; holds the trick being laid and the time of the last pile card.

    ``zones`` default (on the first view) to equal angles around the image centre.
    """

    def __init__(
        self,
        layout: Layout,
        seats: int,
        params: WatcherParams,
        zones: SeatZones | None = None,
        read_at: Reader | None = None,
        card_size_px: tuple[float, float] | None = None,
    ) -> None:
        self.layout = layout
        self.seats = seats
        self.params = params
        self.zones = zones
        self.read_at = read_at
        self.card_size_px = card_size_px
        self.reads = 0
        self.last_pile: float | None = None
        """Timestamp of the last pile card not yet followed by the end of its turn."""
        self._trick: dict[int, SeenCard] = {}

    def reset(self) -> None:
        """Forget the trick being laid and the turn in progress."""
        self.last_pile = None
        self._trick = {}

    def zones_for(self, view: View) -> SeatZones:
        if self.zones is None:
            width, height = view.small.size
            self.zones = AngleZones.default(self.seats, width, height)
        return self.zones

    def compare(self, ref: View, view: View) -> list[Observation]:
        """What changed from the confirmed view ``ref`` to the new confirmed view ``view``."""
        if ref.cards and not view.cards:
            self.last_pile = None
            self._trick = {}
            return [TableCleared(view.frame_index, view.timestamp)]
        if self.layout is Layout.PILE:
            return self._compare_pile(ref, view)
        return self._compare_tricks(ref, view)

    def _in_pile(self, card: SeenCard, view: View) -> bool:
        return self._in_pile_point(card.centre, view)

    def _in_pile_point(self, point: Point, view: View) -> bool:
        width, height = view.small.size
        cx, cy = self.params.pile_centre_x * width, self.params.pile_centre_y * height
        return math.hypot(point[0] - cx, point[1] - cy) <= self.params.pile_radius * min(width, height)

    def _is_new(self, card: SeenCard, ref: View, view: View) -> bool:
        p = self.params
        overlaps = [(iou(old.corners, card.corners), old) for old in ref.cards]
        twins = [(o, old) for o, old in overlaps if old.card == card.card and o > p.twin_iou]
        if not twins:
            # A card underneath that is read differently now is a misreading, not a new card;
            # unless it is named and the table changed where it lies and no other card of the view
            # lies over it (a covered card changes only where the card on it lies): then it was
            # laid now, and the scanner's top flag put it under a card that it covers.
            if card.top or all(o < p.same_iou for o, _ in overlaps):
                return True
            return card.card is not None and self._laid_alone(
                card, [c for c in view.cards if c is not card], ref, view
            )
        overlap, twin = max(twins, key=lambda t: t[0])
        if overlap >= p.still_iou or not card.top:
            return False
        return self._twin_still_there(twin, card, ref, view)

    def _laid_alone(self, card: SeenCard, others: list[SeenCard], ref: View, view: View) -> bool:
        """Whether the table changed from ``ref`` to ``view`` over at least ``laid_changed`` of the
        part of ``card``'s outline that none of the outlines ``others`` covers (``card`` was laid
        there now, not only covered by a card laid on it)."""
        shape = view.small.grey.shape
        own = quad_mask(shape, [card.corners], view.small.scale)
        over = quad_mask(shape, [c.corners for c in others], view.small.scale)
        alone = own & ~over
        if not alone.any():
            return False
        share = float(changed(ref.small.grey, view.small.grey, self.params)[alone].mean())
        log.debug("watcher: %s changed over %.2f of its part no other outline covers", card.card, share)
        return share >= self.params.laid_changed

    def _moved(self, ref: View, view: View, new: list[SeenCard]) -> list[SeenCard]:
        """Identified top cards of ``view`` that lie a little off where their twin lay in ``ref``
        (moved).  A covered card is not one: it cannot be pushed without the card on it, and its
        outline (estimated from its corner index) shifts a little between views by itself.  Nor is
        a card of ``new`` (judged played on its twin, which is still there)."""
        moved = []
        for card in view.cards:
            overlaps = [iou(old.corners, card.corners) for old in ref.cards if old.card == card.card]
            if (
                card.card is not None
                and card.top
                and not any(card is played for played in new)
                and overlaps
                and self.params.twin_iou < max(overlaps) < self.params.still_iou
            ):
                moved.append(card)
        return moved

    def _twin_still_there(self, old: SeenCard, new: SeenCard, ref: View, view: View) -> bool:
        """True if the part of ``old`` that ``new`` does not cover is unchanged (``new`` lies on it)."""
        p = self.params
        shape = view.small.grey.shape
        old_mask = quad_mask(shape, [old.corners], view.small.scale)
        new_mask = quad_mask(shape, [new.corners], view.small.scale, p.twin_margin)
        uncovered = old_mask & ~new_mask
        area = int(uncovered.sum())
        if area == 0 or area < p.uncovered_min * int(old_mask.sum()):
            log.debug("watcher: %s moved too little to tell a nudge from a twin played on it", new.card)
            return False
        diff = changed(ref.small.grey, view.small.grey, p)
        # White paper looks the same whether the old card or the one below it shows there: judge
        # by the old card's print (and rim), which stays put only if the old card did.
        grey = ref.small.grey
        paper = float(np.median(grey[old_mask]))
        ink = uncovered & (grey < paper - p.ink_contrast)
        judged = ink if int(ink.sum()) >= p.min_ink_pixels else uncovered
        changed_part = float(diff[judged].mean())
        log.debug(
            "watcher: %s uncovers %d px of its twin (%d printed), %.2f changed",
            new.card,
            area,
            int(ink.sum()),
            changed_part,
        )
        return changed_part <= p.uncovered_changed_max

    def _changed_under(self, card: SeenCard, ref: View, view: View) -> float:
        """The part of ``card``'s outline (small image) that changed from ``ref`` to ``view``."""
        where = quad_mask(view.small.grey.shape, [card.corners], view.small.scale)
        if not where.any():
            return 0.0
        return float(changed(ref.small.grey, view.small.grey, self.params)[where].mean())

    def _compare_pile(self, ref: View, view: View) -> list[Observation]:
        new = [card for card in view.cards if self._is_new(card, ref, view)]
        candidates = [c for c in new if self._in_pile(c, view)]
        if ref.cards:
            # A card laid on the pile changes the pixels where it lies; an outline over an unchanged
            # pile is one the scanner placed differently this time, not a new card.
            kept = [
                c for c in candidates if self._changed_under(c, ref, view) >= self.params.new_card_changed
            ]
            if len(kept) < len(candidates):
                log.debug(
                    "watcher: %d new outlines on an unchanged part of the pile: ignored",
                    len(candidates) - len(kept),
                )
            candidates = kept
        pile = self._played(candidates, ref, view)
        if len(candidates) > 1:
            log.debug("watcher: %d new outlines on the pile, kept %s", len(candidates), pile[0].card)
        if not pile or pile[0].card is None or pile[0].confidence < self.params.locate_below:
            quad = locate_card(ref.small, view.small, self.params, self._pile_area(view), self.card_size_px)
            if quad is not None and not self._in_pile_point(_centre(quad), view):
                quad = None
            if quad is not None and any(
                iou(quad, c.corners) >= self.params.same_iou for c in self._moved(ref, view, new)
            ):
                log.debug("watcher: the pile changed where a card was moved: no new card")
                quad = None
            if quad is None and pile and pile[0].card is None:
                log.debug("watcher: an unread outline on the pile where nothing card-shaped changed: ignored")
                pile = []
            located = self._read_at(quad, ref, view) if quad is not None else None
            if located is not None and (not pile or located.confidence > pile[0].confidence):
                pile = [located]
        out: list[Observation] = [
            PileCard(c.card, c.confidence, c.candidates, view.frame_index, view.timestamp) for c in pile
        ]
        if pile:
            self.last_pile = view.timestamp
        zones = self.zones_for(view)
        shown = {zones.seat_of(c.centre) for c in new if c.card is not None and not self._in_pile(c, view)}
        laid = [c for c in view.cards if c.card is not None and not self._in_pile(c, view)]
        if shown:
            self.last_pile = None  # hands are shown when the round is over: no turn to end
            missed = self._missed_hand_cards(ref, view)
            laid += missed
            shown |= {zones.seat_of(c.centre) for c in missed}
        for seat in sorted(shown):
            hand = sorted((c for c in laid if zones.seat_of(c.centre) == seat), key=lambda c: c.centre[0])
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

    def _played(self, candidates: list[SeenCard], ref: View, view: View) -> list[SeenCard]:
        """The card just played among the new outlines on the pile (none or one).

        One card lands on the pile between two still views, and it lands on top: when the scanner
        offers several new outlines there, the one played is chosen by, in turn,

        - the scanner's top flag: a covered outline (one under the card played that the scanner
          found or named only now) is not the card played;
        - where it lies: the card played changed the table where it lies, also where no other new
          outline covers it (at least ``laid_changed`` of that part); an outline under it changed
          only where the card played covers it;
        - its name: one read surely enough to be trusted (``locate_below``), then any name, then
          the surest.

        So a covered card named weakly never stands for the card played when a top outline is
        there, even an unread one: the card there is then read where the pile changed.
        """
        if len(candidates) <= 1:
            return candidates
        p = self.params
        return sorted(
            candidates,
            key=lambda c: (
                c.top,
                self._laid_alone(c, [o for o in candidates if o is not c], ref, view),
                c.card is not None and c.confidence >= p.locate_below,
                c.card is not None,
                c.confidence,
            ),
        )[-1:]

    def _pile_area(self, view: View) -> Mask:
        height, width = view.small.grey.shape[:2]
        p, scale = self.params, view.small.scale
        full_w, full_h = view.small.size
        area = np.zeros((height, width), np.uint8)
        centre = (round(p.pile_centre_x * full_w * scale), round(p.pile_centre_y * full_h * scale))
        radius = round(p.pile_radius * min(full_w, full_h) * scale)
        cv2.circle(area, centre, radius, 1, -1)
        result: Mask = area > 0
        return result

    def _missed_hand_cards(self, ref: View, view: View) -> list[SeenCard]:
        """Cards laid away from the pile that the scanner did not find (near the frame's edge, say),
        read where the table changed in card-sized regions no found card covers."""
        if self.read_at is None:
            return []
        p = self.params
        found = quad_mask(
            view.small.grey.shape, [c.corners for c in view.cards], view.small.scale, p.explain_margin
        )
        area = ~self._pile_area(view) & ~found
        out = []
        for quad in locate_cards(ref.small, view.small, p, area, self.card_size_px):
            seen = self._read_votes(quad, view)
            if seen is not None and seen.confidence >= p.hand_locate_min:
                log.debug(
                    "watcher: read %s (%.2f) where a shown hand changed the table", seen.card, seen.confidence
                )
                out.append(seen)
        return out

    def _read_at(self, quad: Quad, ref: View, view: View) -> SeenCard | None:
        """The card read at ``quad`` (where the pile changed) in every frame read for the view, by
        majority, if it is a new card on the pile."""
        seen = self._read_votes(quad, view)
        if seen is None or not self._in_pile(seen, view) or not self._is_new(seen, ref, view):
            return None
        log.debug("watcher: read %s (%.2f) where the pile changed", seen.card, seen.confidence)
        return seen

    def _read_votes(self, quad: Quad, view: View) -> SeenCard | None:
        """The card read at ``quad`` in every frame read for the view, by majority (``None`` when no
        frame identifies one)."""
        images = view.images or ((view.image,) if view.image is not None else ())
        if self.read_at is None or not images:
            return None
        votes: dict[Card, list[Detection]] = {}
        for image in images:
            det = self.read_at(image, quad)
            self.reads += 1
            if det.card is not None:
                votes.setdefault(det.card, []).append(det)
        if not votes:
            return None
        card = max(votes, key=lambda c: (len(votes[c]), sum(d.confidence for d in votes[c])))
        dets = votes[card]
        confidence = sum(d.confidence for d in dets) / sum(len(v) for v in votes.values())
        candidates: tuple[Candidate, ...] = tuple(
            sorted(
                ((c, sum(d.confidence for d in v) / len(images)) for c, v in votes.items()),
                key=lambda t: -t[1],
            )
        )
        return SeenCard(card, confidence, candidates, dets[-1].corners, True)

    def _compare_tricks(self, ref: View, view: View) -> list[Observation]:
        known = {c.card for c in ref.cards if c.card is not None}
        zones = self.zones_for(view)
        # A card of the trick being laid that has left the table (or turned out to be another
        # card) is no longer part of it.
        self._trick = {
            seat: held
            for seat, held in self._trick.items()
            if any(
                iou(held.corners, c.corners) >= self.params.same_iou and c.card == held.card
                for c in view.cards
            )
        }
        fresh: set[int] = set()
        for card in view.cards:
            if card.card is not None and card.card in known:
                continue
            if card.card is None and any(
                iou(o.corners, card.corners) >= self.params.same_iou for o in ref.cards
            ):
                continue
            seat = zones.seat_of(card.centre)
            held = self._trick.get(seat)
            if held is None:
                self._trick[seat] = card
            elif seat in fresh:  # two new cards in one zone at once: the surer, identified first
                if (card.card is not None, card.confidence) > (held.card is not None, held.confidence):
                    log.info("watcher: two new cards in seat %d's zone; keeping the surer one", seat)
                    self._trick[seat] = card
            elif card.card is not None or held.card is None:  # a newer card for the seat
                self._trick[seat] = card
            fresh.add(seat)
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
