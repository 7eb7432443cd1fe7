"""The watcher on drawn tables: still views, confirmation, pile cards, tricks, hands, nudges, idle time.

The tables are drawn here (cards are white rectangles printed with their label,
hands are skin-coloured blobs); the detector stands in for the scanner and
reports the cards that were drawn into each frame, so these tests check the
watcher's own decisions, not recognition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import pytest

from scanner.observations import HandShown, Observation, PileCard, TableCleared, TrickSeen, TurnDone
from scanner.types import Detection, Frame, Image, Quad
from scanner.watcher import Watcher
from scanner.watcher_params import WatcherParams
from scorer.cards import Card, DeckKind, OctoCard, StdCard

W, H = 320, 240
CARD_W, CARD_H = 40, 56
TABLE = (40, 100, 40)
SKIN = (120, 160, 220)


def rect(cx: float, cy: float, w: float = CARD_W, h: float = CARD_H) -> Quad:
    return (
        (cx - w / 2, cy - h / 2),
        (cx + w / 2, cy - h / 2),
        (cx + w / 2, cy + h / 2),
        (cx - w / 2, cy + h / 2),
    )


@dataclass
class Table:
    """A drawn table: cards in the order laid (last on top), optional hand, a detector that reads them."""

    cards: list[tuple[Card, Quad]] = field(default_factory=list)
    misread: dict[int, Card | None] = field(default_factory=dict)
    """frame index -> the card the detector reports for the top card in that frame"""
    unreadable: set[str] = field(default_factory=set)
    """labels of cards the detector finds but cannot identify"""
    ghosts: list[Detection] = field(default_factory=list)
    """outlines the detector reports on top of the drawn cards (a confused scanner)"""
    frames: list[Frame] = field(default_factory=list)
    truth: dict[int, list[Detection]] = field(default_factory=dict)
    t: float = 0.0

    def draw(self, hand: tuple[int, int] | None = None) -> Image:
        image = np.empty((H, W, 3), np.uint8)
        image[:] = TABLE
        for card, quad in self.cards:
            points = np.round(np.array(quad)).astype(np.int32)
            cv2.fillConvexPoly(image, points, (235, 235, 235))
            cv2.polylines(image, [points], True, (90, 90, 90), 1)
            x = int(min(p[0] for p in quad)) + 4
            y = int(min(p[1] for p in quad)) + 20
            colour = (30, 30, 200) if isinstance(card, StdCard) and card.suit.is_red else (20, 20, 20)
            cv2.putText(image, str(card), (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2)
            cv2.putText(image, str(card), (x + 2, y + 26), cv2.FONT_HERSHEY_SIMPLEX, 0.9, colour, 3)
        if hand is not None:
            cv2.ellipse(image, hand, (34, 48), 20, 0, 360, SKIN, -1)
        return image

    def detections(self, index: int) -> list[Detection]:
        from scanner.watcher_image import iou

        out = []
        for i, (card, quad) in enumerate(self.cards):
            top = all(iou(quad, later) == 0 for _, later in self.cards[i + 1 :])
            read = self.misread.get(index, card) if top and i == len(self.cards) - 1 else card
            read = None if str(card) in self.unreadable else read
            out.append(Detection(read, 0.9 if read is not None else 0.2, quad, top))
        return out

    def show(self, count: int, *, dt: float = 0.1, hand: tuple[int, int] | None = None) -> None:
        """Append ``count`` frames of the table as it is now."""
        for _ in range(count):
            index = len(self.frames)
            self.frames.append(Frame(self.draw(hand), self.t, index))
            self.truth[index] = self.detections(index) + self.ghosts
            self.t += dt

    def scanned_from(self, start: int, detections: list[Detection]) -> None:
        """From frame ``start`` on, the detector reports ``detections`` (a confused scanner)."""
        for index in range(start, len(self.frames)):
            self.truth[index] = list(detections)

    def read_at(self, image: Image, quad: Quad) -> Detection:
        """Read the drawn card lying most where ``quad`` is (a reader that needs no finding)."""
        from scanner.watcher_image import iou

        overlap, card = max(
            ((iou(quad, q), c) for c, q in self.cards), key=lambda t: t[0], default=(0.0, None)
        )
        return Detection(card if overlap > 0.5 else None, 0.85 if overlap > 0.5 else 0.0, quad, True)

    def detect(self, image: Image) -> Sequence[Detection]:
        for frame in self.frames:
            if frame.image is image:
                return self.truth[frame.index]
        raise AssertionError("unknown image")


def run(table: Table, watcher: Watcher) -> list[tuple[int, Observation]]:
    out: list[tuple[int, Observation]] = []
    for frame in table.frames:
        out.extend((frame.index, obs) for obs in watcher.feed(frame))
    out.extend((len(table.frames) - 1, obs) for obs in watcher.flush())
    return out


def pile_seen(table: Table, watcher: Watcher) -> list[PileCard]:
    """The pile cards ``watcher`` reports over the whole of ``table``'s frames."""
    return [obs for _, obs in run(table, watcher) if isinstance(obs, PileCard)]


def octo(text: str) -> OctoCard:
    return OctoCard.parse(text)


def pile_watcher(table: Table, **params: object) -> Watcher:
    return Watcher(table.detect, deck=DeckKind.OCTOPLUS, seats=3, params=WatcherParams(**params))  # type: ignore[arg-type]


def reading_watcher(table: Table, card_size_px: tuple[float, float] | None = None) -> Watcher:
    """A pile watcher that may read a card where the pile changed (``table.read_at``)."""
    return Watcher(
        table.detect, deck=DeckKind.OCTOPLUS, seats=3, read_at=table.read_at, card_size_px=card_size_px
    )


def play(table: Table, card: Card, quad: Quad, still: int = 4) -> None:
    table.show(1, hand=(int(quad[0][0]) + 20, int(quad[2][1]) + 10))
    table.cards.append((card, quad))
    table.show(still)


# --- pile ----------------------------------------------------------------------------------------------


def test_each_card_played_on_the_pile_is_reported_once_in_order() -> None:
    table = Table()
    table.show(4)
    play(table, octo("3"), rect(160, 120))
    play(table, octo("+2"), rect(168, 126))
    play(table, octo("5"), rect(152, 116))
    seen = run(table, pile_watcher(table))
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("3"), octo("+2"), octo("5")]
    assert all(isinstance(obs, PileCard) for _, obs in seen)


def test_a_pile_card_is_stamped_with_the_frame_in_which_it_settled() -> None:
    table = Table()
    table.show(4)
    play(table, octo("4"), rect(160, 120), still=5)
    settled = 5  # frame 4 shows the hand, frame 5 the card lying still
    seen = run(table, pile_watcher(table, still_frames=2, confirm_frames=2))
    (index, obs), *_ = seen
    assert isinstance(obs, PileCard)
    assert obs.frame_index == settled
    assert obs.timestamp == pytest.approx(table.frames[settled].timestamp)
    assert index == settled + 3  # two still frames to start reading, two readings to confirm


def test_a_card_played_almost_exactly_on_its_twin_is_still_a_new_card() -> None:
    table = Table()
    table.show(4)
    play(table, octo("6"), rect(160, 120))
    play(table, octo("6"), rect(166, 125))
    seen = run(table, pile_watcher(table))
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("6"), octo("6")]


def test_a_card_played_on_another_card_in_the_same_place_is_reported() -> None:
    table = Table()
    table.show(4)
    play(table, octo("2"), rect(160, 120))
    play(table, octo("7"), rect(160, 120))
    seen = run(table, pile_watcher(table))
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("2"), octo("7")]


def test_one_card_per_change_even_when_the_scanner_sees_extra_outlines_on_the_pile() -> None:
    table = Table()
    table.show(4)
    play(table, octo("2"), rect(160, 120))
    table.ghosts = [
        Detection(None, 0.2, rect(150, 112, 30, 40), True),
        Detection(octo("6"), 0.4, rect(170, 128), True),
    ]
    play(table, octo("5"), rect(165, 124))
    seen = run(table, pile_watcher(table))
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("2"), octo("5")]


def test_a_pile_card_the_scanner_misses_is_read_where_the_pile_changed() -> None:
    table = Table()
    table.show(4)
    play(table, octo("2"), rect(160, 120))
    table.ghosts = []
    play(table, octo("5"), rect(168, 127))
    for index in range(10, len(table.frames)):
        table.truth[index] = table.truth[index][:1]  # the scanner sees only the 2 below
    without = run(table, pile_watcher(table))
    assert [obs.card for _, obs in without if isinstance(obs, PileCard)] == [octo("2")]
    watcher = reading_watcher(table, card_size_px=(40, 56))
    seen = run(table, watcher)
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("2"), octo("5")]


def test_a_nudged_card_is_not_a_new_card() -> None:
    table = Table()
    table.show(4)
    play(table, octo("1"), rect(150, 110))
    play(table, octo("5"), rect(170, 128))
    table.show(1, hand=(190, 150))
    table.cards[-1] = (octo("5"), rect(176, 133))  # pushed a little: the 1 below stays where it was
    table.show(4)
    seen = run(table, pile_watcher(table))
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("1"), octo("5")]
    for index in range(len(table.frames) - 4, len(table.frames)):
        table.truth[index] = table.truth[index][:1]  # the scanner loses the nudged 5 ...
    reading = reading_watcher(table)
    seen = run(table, reading)  # ... reading where the pile changed finds it moved: still no new card
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("1"), octo("5")]


def test_a_covered_twin_whose_outline_shifts_does_not_hide_the_card_played_on_it() -> None:
    table = Table()
    table.show(4)
    play(table, octo("+2"), rect(160, 120))
    play(table, octo("+2"), rect(168, 126))
    below = rect(161, 121)  # the covered +2, its outline estimated a pixel off
    for index in range(10, len(table.frames)):
        top = table.truth[index][1]
        table.truth[index] = [
            Detection(octo("+2"), 0.6, below, False),
            Detection(None, 0.2, top.corners, True),  # the scanner cannot read the new +2
        ]
    watcher = reading_watcher(table, card_size_px=(40, 56))
    seen = run(table, watcher)
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("+2"), octo("+2")]


def test_a_weakly_named_covered_outline_is_not_taken_for_the_unread_card_on_top() -> None:
    table = Table()
    table.show(4)
    play(table, octo("3"), rect(160, 120))
    play(table, octo("5"), rect(168, 127))
    for index in range(10, len(table.frames)):
        below, top = table.truth[index]
        table.truth[index] = [
            below,
            Detection(None, 0.2, top.corners, True),  # the 5 just played, not read
            Detection(octo("2"), 0.33, rect(172, 131), False),  # a covered outline, weakly named
        ]
    seen = pile_seen(table, pile_watcher(table))
    assert [obs.card for obs in seen] == [octo("3"), None]  # a card played, unread: not the weak 2
    reading = pile_seen(table, reading_watcher(table))
    assert [obs.card for obs in reading] == [octo("3"), octo("5")]  # read where the pile changed


def test_of_two_new_top_outlines_the_card_played_is_the_one_that_changed_the_table_where_it_lies() -> None:
    table = Table()
    table.show(4)
    play(table, octo("3"), rect(160, 120))
    play(table, octo("5"), rect(168, 127))
    for index in range(10, len(table.frames)):
        below, top = table.truth[index]
        table.truth[index] = [
            below,
            Detection(octo("2"), 0.8, rect(150, 112), True),  # an outline under the 5, taken for a top
            Detection(octo("5"), 0.7, top.corners, True),
        ]
    seen = pile_seen(table, pile_watcher(table))
    assert [obs.card for obs in seen] == [octo("3"), octo("5")]


def test_a_card_played_that_the_scanner_marks_covered_is_still_the_card_played() -> None:
    # The scanner's top flags come out the wrong way round: the 3 laid over the 4 is marked covered
    # and the 1 under both marked top, its outline a pixel off.  The 3 changed the table where no
    # other outline lies (a covered card changes only where the card on it lies): it was played.
    table = Table()
    table.show(4)
    play(table, octo("1"), rect(160, 120))
    play(table, octo("4"), rect(164, 116))
    play(table, octo("3"), rect(174, 110))
    table.scanned_from(
        15,
        [
            Detection(octo("3"), 0.88, rect(174, 110), False),
            Detection(octo("1"), 0.67, rect(161, 121), True),
        ],
    )
    for watcher in (pile_watcher(table), reading_watcher(table, card_size_px=(40, 56))):
        seen = pile_seen(table, watcher)
        assert [obs.card for obs in seen] == [octo("1"), octo("4"), octo("3")]


def test_a_covered_card_read_differently_under_the_card_played_is_not_a_new_card() -> None:
    table = Table()
    table.show(4)
    play(table, octo("1"), rect(160, 120))
    play(table, octo("4"), rect(164, 116))
    play(table, octo("3"), rect(170, 120))
    table.scanned_from(
        15,
        [
            Detection(octo("2"), 0.7, rect(164, 116), False),  # the 4 under the 3, misread
            Detection(octo("3"), 0.88, rect(170, 120), True),
        ],
    )
    seen = pile_seen(table, pile_watcher(table))
    assert [obs.card for obs in seen] == [octo("1"), octo("4"), octo("3")]


def test_a_weakly_read_card_played_near_its_twin_is_read_again_where_the_pile_changed() -> None:
    table = Table()
    table.show(4)
    play(table, octo("+2"), rect(160, 120))
    play(table, octo("+2"), rect(168, 126))
    for index in range(10, len(table.frames)):
        below, top = table.truth[index]
        table.truth[index] = [below, Detection(octo("+2"), 0.33, top.corners, True)]  # read, but weakly
    seen = pile_seen(table, reading_watcher(table, card_size_px=(40, 56)))
    assert [obs.card for obs in seen] == [octo("+2"), octo("+2")]
    # the new +2 lies off its twin as a moved card would, yet it is the card played on it: the
    # reading where the pile changed is not refused as "where a card was moved"
    assert seen[1].confidence == pytest.approx(0.85)


def test_an_outline_placed_differently_over_an_unchanged_pile_is_not_a_new_card() -> None:
    table = Table()
    table.show(4)
    play(table, octo("3"), rect(160, 120))
    play(table, octo("1"), rect(166, 124))
    table.show(1, hand=(40, 200))
    table.cards.append((octo("5"), rect(40, 200)))  # a card laid far from the pile: the view changes
    table.show(4)
    for index in range(len(table.frames) - 4, len(table.frames)):
        old, _, shown = table.truth[index]
        table.truth[index] = [old, Detection(octo("1"), 0.9, rect(176, 131), True), shown]
    seen = run(table, pile_watcher(table, turn_idle_s=100))
    assert [obs.card for _, obs in seen if isinstance(obs, PileCard)] == [octo("3"), octo("1")]


def test_hands_waving_over_an_unchanged_table_yield_nothing_and_cost_no_scan() -> None:
    table = Table()
    table.show(4)
    play(table, octo("3"), rect(160, 120))
    scans_before = None
    for x in (60, 120, 200, 260, 200, 120):
        table.show(1, hand=(x, 150))
    table.show(6)
    watcher = pile_watcher(table)
    seen = []
    for frame in table.frames:
        seen.extend(watcher.feed(frame))
        if frame.index == 9:
            scans_before = watcher.scans
    assert [type(o) for o in seen] == [PileCard]
    assert watcher.scans == scans_before


def test_a_hand_resting_still_over_the_table_blocks_the_reading_until_it_leaves() -> None:
    table = Table()
    table.show(4)
    table.cards.append((octo("4"), rect(160, 120)))
    table.show(6, hand=(215, 150))  # the card is down but the hand stays, perfectly still
    table.show(4)
    watcher = pile_watcher(table)
    seen = run(table, watcher)
    assert [(i, type(o)) for i, o in seen] == [(13, PileCard)]  # read only once the hand left (frame 10)


def test_a_reading_is_confirmed_by_the_majority_of_frames() -> None:
    table = Table()
    table.show(6)
    table.misread = {9: octo("8")}  # one of the three confirming frames misread
    play(table, octo("3"), rect(160, 120), still=5)
    seen = run(table, pile_watcher(table, confirm_frames=3))
    ((_, obs),) = seen
    assert isinstance(obs, PileCard)
    assert obs.card == octo("3")
    assert obs.confidence == pytest.approx(0.9 * 2 / 3)
    assert octo("8") in [card for card, _ in obs.candidates]


def test_a_frame_that_cannot_read_the_card_does_not_lower_the_confidence() -> None:
    table = Table()
    table.show(4)
    table.misread = {7: None}  # a blurred frame among the two confirming ones
    play(table, octo("3"), rect(160, 120))
    ((_, obs),) = run(table, pile_watcher(table))
    assert isinstance(obs, PileCard)
    assert obs.card == octo("3")
    assert obs.confidence == pytest.approx(0.9)


def test_while_a_card_is_not_read_the_watcher_reads_more_still_frames() -> None:
    table = Table()
    table.show(4)
    table.misread = {7: None, 8: None}  # the two first readings cannot read the card, the third can
    play(table, octo("3"), rect(160, 120), still=6)
    ((index, obs),) = run(table, pile_watcher(table, max_confirm_frames=4))
    assert isinstance(obs, PileCard)
    assert obs.card == octo("3")
    assert index == 9
    ((_, unread),) = run(table, pile_watcher(table, max_confirm_frames=2))
    assert isinstance(unread, PileCard)
    assert unread.card is None


def test_a_hand_arriving_ends_the_extra_readings_and_what_was_read_counts() -> None:
    table = Table()
    table.show(4)
    table.misread = {7: None, 8: None}
    play(table, octo("3"), rect(160, 120), still=4)
    table.show(1, hand=(60, 200))  # frame 9: a hand comes before a surer reading
    ((index, obs),) = run(table, pile_watcher(table, max_confirm_frames=6))
    assert isinstance(obs, PileCard)
    assert obs.card is None
    assert index == 9


def test_an_unreadable_top_card_is_reported_as_not_identified() -> None:
    table = Table()
    table.show(4)
    table.misread = {i: None for i in range(20)}
    play(table, octo("3"), rect(160, 120))
    ((_, obs),) = run(table, pile_watcher(table))
    assert isinstance(obs, PileCard)
    assert obs.card is None


def test_the_first_view_is_only_a_baseline() -> None:
    table = Table()
    table.cards.append((octo("3"), rect(160, 120)))
    table.show(6)
    assert run(table, pile_watcher(table)) == []
    assert [type(o) for _, o in run(table, pile_watcher(table, report_initial=True))] == [PileCard]


def test_turn_done_after_the_idle_time_once_per_card() -> None:
    table = Table()
    table.show(4)
    play(table, octo("2"), rect(160, 120))
    table.show(40, dt=0.1)  # four seconds without a new card
    seen = run(table, pile_watcher(table, turn_idle_s=3.0))
    kinds = [type(o) for _, o in seen]
    assert kinds == [PileCard, TurnDone]
    pile_at = seen[0][1].timestamp
    done = seen[1][1]
    assert isinstance(done, TurnDone)
    assert done.reason == "idle"
    assert 3.0 <= done.timestamp - pile_at < 3.2


def test_signal_done_ends_the_turn_and_cancels_the_idle_report() -> None:
    table = Table()
    table.show(4)
    play(table, octo("2"), rect(160, 120))
    watcher = pile_watcher(table, turn_idle_s=3.0)
    run(table, watcher)
    done = watcher.signal_done("button")
    assert done.reason == "button"
    table.show(40)
    assert [obs for frame in table.frames[-40:] for obs in watcher.feed(frame)] == []


def test_table_cleared_when_every_card_has_gone() -> None:
    table = Table()
    table.show(4)
    play(table, octo("2"), rect(160, 120))
    play(table, octo("4"), rect(165, 125))
    table.show(1, hand=(160, 120))
    table.cards.clear()
    table.show(4)
    play(table, octo("7"), rect(160, 120))
    kinds = [(type(o), getattr(o, "card", None)) for _, o in run(table, pile_watcher(table, turn_idle_s=100))]
    assert kinds == [
        (PileCard, octo("2")),
        (PileCard, octo("4")),
        (TableCleared, None),
        (PileCard, octo("7")),
    ]


def test_cards_laid_in_a_seat_zone_away_from_the_pile_are_a_shown_hand() -> None:
    table = Table()
    table.show(4)
    play(table, octo("3"), rect(160, 120))
    table.show(1, hand=(160, 220))
    for i, text in enumerate(("5", "+2", "1")):
        table.cards.append((octo(text), rect(110 + 45 * i, 205)))
    table.show(4)
    seen = [o for _, o in run(table, pile_watcher(table, turn_idle_s=100))]
    expected = HandShown(
        1, (octo("5"), octo("+2"), octo("1")), (0.9, 0.9, 0.9), 10, table.frames[10].timestamp
    )
    assert seen[1:] == [expected]


def test_a_card_the_scanner_misses_is_not_taken_for_a_hand() -> None:
    table = Table()
    table.show(4)
    play(table, octo("3"), rect(160, 120))
    table.show(1, hand=(160, 220))
    table.cards += [(octo("5"), rect(110, 205)), (octo("6"), rect(60, 150)), (octo("7"), rect(260, 60))]
    table.show(4)
    for index in range(10, len(table.frames)):
        table.truth[index] = table.truth[index][:2]  # the 6 and the 7 are not found at all
    watcher = pile_watcher(table, turn_idle_s=100)
    seen = [o for _, o in run(table, watcher)]
    assert not watcher.hand_in_view
    assert [o for o in seen if isinstance(o, HandShown)] == [
        HandShown(1, (octo("5"),), (0.9,), 10, table.frames[10].timestamp)
    ]


def test_a_shown_card_the_scanner_misses_near_the_edge_is_read_where_the_table_changed() -> None:
    table = Table()
    table.show(4)
    play(table, octo("3"), rect(160, 120))
    table.show(1, hand=(160, 220))
    for i, text in enumerate(("5", "+2", "1")):
        table.cards.append((octo(text), rect(110 + 50 * i, 210)))
    table.show(4)
    for index in range(10, len(table.frames)):
        table.truth[index] = table.truth[index][:3]  # the 1 at the frame's corner is not found
    without = [o for _, o in run(table, pile_watcher(table, turn_idle_s=100)) if isinstance(o, HandShown)]
    assert [o.cards for o in without] == [(octo("5"), octo("+2"))]
    watcher = Watcher(
        table.detect,
        deck=DeckKind.OCTOPLUS,
        seats=3,
        params=WatcherParams(turn_idle_s=100),
        read_at=table.read_at,
        card_size_px=(CARD_W, CARD_H),
    )
    seen = [o for _, o in run(table, watcher) if isinstance(o, HandShown)]
    assert [(o.seat, o.cards) for o in seen] == [(1, (octo("5"), octo("+2"), octo("1")))]


# --- tricks --------------------------------------------------------------------------------------------


def std(text: str) -> StdCard:
    return StdCard.parse(text)


SEAT_SPOTS = {1: (160, 195), 2: (50, 120), 3: (160, 45), 4: (270, 120)}


def trick_watcher(table: Table, seats: int = 4) -> Watcher:
    return Watcher(table.detect, deck=DeckKind.OKTRIS, seats=seats)


def test_a_trick_is_the_cards_of_every_seat_in_seat_order() -> None:
    table = Table()
    table.show(4)
    table.show(1, hand=(160, 120))
    for seat, text in ((3, "8C"), (1, "2H"), (4, "AD"), (2, "7S")):
        table.cards.append((std(text), rect(*SEAT_SPOTS[seat])))
    table.show(4)
    ((_, obs),) = run(table, trick_watcher(table))
    assert isinstance(obs, TrickSeen)
    assert obs.cards_by_seat == (std("2H"), std("7S"), std("8C"), std("AD"))


def test_a_trick_waits_for_the_last_seat_and_is_reported_once() -> None:
    table = Table()
    table.show(4)
    for seat, text in ((1, "3S"), (2, "4S"), (3, "5H")):
        play(table, std(text), rect(*SEAT_SPOTS[seat]))
    play(table, std("6D"), rect(*SEAT_SPOTS[4]))
    table.show(1, hand=(160, 120))
    table.cards.clear()
    table.show(4)
    seen = [o for _, o in run(table, trick_watcher(table))]
    assert [type(o) for o in seen] == [TrickSeen, TableCleared]
    first = seen[0]
    assert isinstance(first, TrickSeen)
    assert first.cards_by_seat == (std("3S"), std("4S"), std("5H"), std("6D"))


def test_a_trick_with_one_unreadable_card_names_none_for_that_seat() -> None:
    table = Table()
    table.show(4)
    table.show(1, hand=(160, 120))
    for seat, text in ((1, "3S"), (2, "4S"), (3, "5H")):
        table.cards.append((std(text), rect(*SEAT_SPOTS[seat])))
    table.cards.append((std("6D"), rect(*SEAT_SPOTS[4])))
    table.misread = {i: None for i in range(30)}  # the last card laid is never read
    table.show(4)
    ((_, obs),) = run(table, trick_watcher(table))
    assert isinstance(obs, TrickSeen)
    assert obs.cards_by_seat == (std("3S"), std("4S"), std("5H"), None)


def test_a_trick_that_could_not_be_read_is_not_mixed_into_the_next() -> None:
    table = Table()
    table.show(4)
    table.unreadable = {"5H", "6D"}
    table.show(1, hand=(160, 120))
    for seat, text in ((1, "3S"), (2, "4S"), (3, "5H"), (4, "6D")):
        table.cards.append((std(text), rect(*SEAT_SPOTS[seat])))
    table.show(4)
    table.cards.clear()
    table.show(1, hand=(160, 120))
    for seat, text in ((1, "7C"), (2, "8C"), (3, "AD"), (4, "2D")):
        table.cards.append((std(text), rect(SEAT_SPOTS[seat][0] + 3, SEAT_SPOTS[seat][1] + 2)))
    table.show(4)
    seen = [o for _, o in run(table, trick_watcher(table))]
    assert [o.cards_by_seat for o in seen if isinstance(o, TrickSeen)] == [
        (std("7C"), std("8C"), std("AD"), std("2D"))
    ]


def test_two_player_trick_uses_two_zones() -> None:
    table = Table()
    table.show(4)
    table.show(1, hand=(160, 120))
    table.cards += [(std("4H"), rect(160, 190)), (std("6D"), rect(160, 50))]
    table.show(4)
    ((_, obs),) = run(table, trick_watcher(table, seats=2))
    assert isinstance(obs, TrickSeen)
    assert obs.cards_by_seat == (std("4H"), std("6D"))


# --- construction --------------------------------------------------------------------------------------


def test_watcher_rejects_zones_for_another_number_of_seats() -> None:
    from scanner.watcher_zones import AngleZones

    with pytest.raises(ValueError, match="3 seat zones for 4 seats"):
        Watcher(lambda im: [], deck=DeckKind.OKTRIS, seats=4, zones=AngleZones(3, (0.0, 0.0)))


def test_the_frame_of_a_reading_is_kept_as_its_snapshot_and_old_ones_are_dropped() -> None:
    table = Table()
    table.show(4)
    for i, text in enumerate(("1", "2", "3")):
        play(table, octo(text), rect(150 + 5 * i, 115 + 4 * i))
    watcher = pile_watcher(table, snapshots=2)
    seen = [o for _, o in run(table, watcher)]
    first, *_, last = [o for o in seen if isinstance(o, PileCard)]
    kept = watcher.snapshot(last.frame_index)
    assert kept is not None
    assert kept.shape == (H, W, 3)
    assert watcher.snapshot(first.frame_index) is None


def test_detector_of_a_scanner_returns_its_detections() -> None:
    from scanner.watcher import detector_of

    found = (Detection(octo("4"), 0.8, rect(10, 10)),)

    class Result:
        detections = found

    class FakeScanner:
        def scan(self, image: Image) -> Result:
            return Result()

    assert detector_of(FakeScanner())(np.zeros((4, 4, 3), np.uint8)) == found
