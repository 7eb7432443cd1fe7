"""Cards missing between two named cards of a row or a fan, read at the corner half way between them."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from scanner.find_corners import between, gap_corners
from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scanner.types import Detection
from scorer.cards import Card, DeckKind, parse_card
from tests.scanner.fixture_scenes import fixture_scene


def _fixture(scene: str) -> tuple[np.ndarray, dict[str, Any], DeckKind]:
    """The committed fixture ``scene``: its image, its truth and its deck."""
    truth, image = fixture_scene(scene)
    return image, truth, DeckKind(truth["deck"])


def _card(corner: tuple[float, float], degrees: float, short: float = 90.0) -> np.ndarray:
    """A card (TL TR BR BL) with its index corner at ``corner``, its short side turned ``degrees``."""
    rad = math.radians(degrees)
    across = np.array([math.cos(rad), math.sin(rad)])
    down = np.array([-across[1], across[0]])
    p = np.asarray(corner, np.float64)
    return np.array([p, p + short * across, p + short * across + 1.4 * short * down, p + 1.4 * short * down])


def _turned_about(card: np.ndarray, pivot: np.ndarray, degrees: float) -> np.ndarray:
    rad = math.radians(degrees)
    rotation = np.array([[math.cos(rad), -math.sin(rad)], [math.sin(rad), math.cos(rad)]])
    return np.asarray((card - pivot) @ rotation.T + pivot, np.float64)


def test_the_card_between_two_fan_cards_is_the_one_turned_half_way_about_the_pivot() -> None:
    first = _card((300.0, 200.0), 10.0)
    pivot = np.array([330.0, 420.0])
    for degrees in (0.0, 8.0, -25.0):
        last = _turned_about(first, pivot, degrees)
        np.testing.assert_allclose(
            between(first, last, 0.5), _turned_about(first, pivot, degrees / 2), atol=1e-6
        )
    # a row shifted without a turn: the card half way along the shift
    shifted = first + np.array([60.0, 4.0])
    np.testing.assert_allclose(between(first, shifted, 0.5), first + np.array([30.0, 2.0]), atol=1e-9)


def test_a_gap_for_one_card_between_two_named_cards_proposes_its_index_corner() -> None:
    p = CoveredParams()
    pivot = np.array([400.0, 500.0])
    first = _card((330.0, 250.0), 5.0)
    middle = _turned_about(first, pivot, 12.0)
    last = _turned_about(first, pivot, 24.0)
    for other in (last, np.roll(last, -2, axis=0)):  # the last card read at either index corner
        proposals = gap_corners([first, other], p)
        assert any(
            np.hypot(*(q.point - middle[0])) < 1.0
            and abs(short - 90.0) < 1.0
            and q.across @ middle[1] - q.across @ middle[0] > 89.0
            for q, short, _, _ in proposals
        )
    # cards side by side (no gap for a card), far apart or turned too far propose nothing between them
    assert gap_corners([first, _card((330.0 + 40.0, 250.0), 5.0)], replace(p, gap_beyond=False)) == []
    assert gap_corners([first, first + np.array([300.0, 0.0])], p) == []
    assert gap_corners([first, _turned_about(first, pivot, 60.0)], p) == []


def test_two_cards_next_to_each_other_propose_the_cards_one_step_past_them() -> None:
    first = _card((300.0, 200.0), 0.0)
    second = first + np.array([40.0, 0.0])
    points = [q.point for q, _, _, _ in gap_corners([first, second], CoveredParams())]
    assert any(np.hypot(*(pt - (first[0] + [80.0, 0.0]))) < 1e-6 for pt in points)
    assert any(np.hypot(*(pt - (first[0] - [40.0, 0.0]))) < 1e-6 for pt in points)
    assert gap_corners([first, second], CoveredParams(gap_beyond=False)) == []


def test_a_gap_card_shows_its_print_at_the_end_where_its_neighbours_were_named() -> None:
    p = CoveredParams(gap_beyond=False)
    first = _card((300.0, 200.0), 0.0)
    second = first + np.array([90.0, 0.0])  # a row along the short sides, a card's room between
    near, far = first[0] + [45.0, 0.0], first[2] + [45.0, 0.0]

    def shown_at(cards: list[np.ndarray], whole: int = 0) -> dict[tuple[float, float], tuple[bool, bool]]:
        out = {}
        for gap in gap_corners(cards, p, whole):
            point = min((near, far), key=lambda q: float(np.hypot(*(gap.proposal.point - q))))
            assert np.hypot(*(gap.proposal.point - point)) < 1e-6
            out[(float(point[0]), float(point[1]))] = gap.shown
        return out

    def at(point: np.ndarray) -> tuple[float, float]:
        return (float(point[0]), float(point[1]))

    # both named from their corners at the near end: the card between shows there only
    assert shown_at([first, second]) == {at(near): (True, False), at(far): (False, True)}
    # the second named at its far end: their print shows at no common end
    crossed = np.roll(second, -2, axis=0)
    assert shown_at([first, crossed]) == {at(near): (False, False), at(far): (False, False)}
    # the first named whole (its print shows at both ends): the second's end decides
    assert shown_at([first, crossed], whole=1) == {at(near): (False, True), at(far): (True, False)}
    assert shown_at([first, crossed], whole=2) == {at(near): (True, True), at(far): (True, True)}


@pytest.mark.parametrize(
    ("scene", "labels", "clear"),
    [
        ("scene_006.jpg", ("8S",), True),
        ("scene_034.jpg", ("AC",), True),
        ("scene_039.jpg", ("-2", "1"), True),
        # three cards lying edge to edge in a fan, the middle one a second P beside the fan's top P
        # (a faint label leading clearly, ``CoveredParams.octo_clear``, and the learned accept
        # step, ``CoveredParams.learned_accept``, the blurred read of soft labels,
        # ``CoveredParams.octo_blur``, the read on the table plane, ``CoveredParams.plane_reads``,
        # and the corner laid on its edges, ``CoveredParams.edge_reads``, name the -2 and that P at
        # their own corners: all switched off to show the gap's case)
        ("scene_021.jpg", ("-2", "P"), False),
    ],
)
def test_fixture_cards_between_named_cards_of_rows_and_fans_are_named(
    scene: str, labels: tuple[str, ...], clear: bool
) -> None:
    # cards of a fan or a hand row lying edge to edge show no corner of their own in the row's
    # outline: read between their named neighbours, they are named (and none wrongly)
    image, truth, deck = _fixture(scene)
    base = replace(
        ScannerParams(),
        covered=replace(
            ScannerParams().covered,
            octo_clear=clear,
            learned_accept=ScannerParams().covered.learned_accept if clear else None,
            octo_blur=ScannerParams().covered.octo_blur if clear else 0.0,
            plane_reads=ScannerParams().covered.plane_reads if clear else 0,
            # two moves of scene_006's 8S's corner that only the second look names name it there
            # (``CoveredParams.moved_agree``): off, to show the gap's case
            moved_agree=0,
            # scene_021's -2 laid on its edges names it at its own corner (``edge_reads``)
            edge_reads=ScannerParams().covered.edge_reads if clear else 0,
        ),
    )
    present = Counter(parse_card(c["card"], deck) for c in truth["cards"])
    wanted = Counter(parse_card(label, deck) for label in labels)
    named_on = Counter(
        d.card for d in Scanner(deck, params=base).scan(image).detections if d.card is not None
    )
    off = replace(base, covered=replace(base.covered, gap_reads=0))
    named_off = Counter(
        d.card for d in Scanner(deck, params=off).scan(image).detections if d.card is not None
    )
    assert not named_on - present  # none wrong, none named more often than it lies there
    for card, count in wanted.items():
        assert named_on[card] >= named_off[card] + count


def test_covered_gap_params_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.gap_reads must be an int"):
        CoveredParams(gap_reads=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.gap_turn"):
        CoveredParams(gap_turn=95.0)
    with pytest.raises(ValueError, match=r"covered\.gap_max"):
        CoveredParams(gap_min=1.0, gap_max=0.8)
    with pytest.raises(ValueError, match=r"covered\.gap_step_max"):
        CoveredParams(gap_step_min=0.5, gap_step_max=0.4)
    with pytest.raises(ValueError, match=r"covered\.gap_rounds"):
        CoveredParams(gap_rounds=0)
    with pytest.raises(ValueError, match=r"covered\.gap_apart"):
        CoveredParams(gap_apart=-0.1)
    with pytest.raises(ValueError, match=r"covered\.gap_laid"):
        CoveredParams(gap_laid=1)  # type: ignore[arg-type]


def test_the_learned_step_names_the_fans_cards_at_their_own_corners() -> None:
    # fixture scene_021: the -2 and the second P of the fan (the gap case above) are named at their
    # own corners by the learned accept step, with or without the gap reads, and nothing wrongly
    image, truth, deck = _fixture("scene_021.jpg")
    present = Counter(parse_card(c["card"], deck) for c in truth["cards"])
    base = replace(ScannerParams(), covered=replace(ScannerParams().covered, learned_accept=0.9))
    for covered in (base.covered, replace(base.covered, gap_reads=0)):
        named = Counter(
            d.card
            for d in Scanner(deck, params=replace(base, covered=covered)).scan(image).detections
            if d.card is not None
        )
        assert named == present


def test_a_slanted_rows_gap_card_is_read_on_the_card_laid_as_its_neighbours_lie() -> None:
    # fixture scene_039 (a 15 degree tilt): between the hand row's named 4 and +2 the -2's corner,
    # laid square at the mean short side, reads unclear; on the card laid out between them, slanted
    # as they are, it is named, and with the +2 beside it proposes the 6 one step past (the row's
    # top card, mostly out of the frame)
    image, truth, deck = _fixture("scene_039.jpg")
    present = Counter(parse_card(c["card"], deck) for c in truth["cards"])
    row = [parse_card(label, deck) for label in ("-2", "6")]

    def named(covered: CoveredParams) -> tuple[Counter[Card], list[Detection]]:
        found = Scanner(deck, params=replace(ScannerParams(), covered=covered)).scan(image).detections
        return Counter(d.card for d in found if d.card is not None), found

    # (the row's reads along a named card's outline, ``row_reads``, name the -2 too: off here)
    on, detections = named(CoveredParams(row_reads=0))
    off, _ = named(CoveredParams(row_reads=0, gap_laid=False))
    assert not on - present  # none wrong, none named more often than it lies there
    assert all(on[card] == 1 and off[card] == 0 for card in row)
    # named where they lie, and the 6 on top of the row
    for card in row:
        place = next(np.asarray(c["corners"], np.float64) for c in truth["cards"] if c["card"] == str(card))
        found = next(d for d in detections if d.card == card)
        assert np.hypot(*(np.asarray(found.corners).mean(axis=0) - place.mean(axis=0))) < 15.0
    assert next(d for d in detections if d.card == row[1]).top
