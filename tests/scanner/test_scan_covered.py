"""Covered cards read from their corner index: corner proposals and corner reading on rendered fans."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner import scan_covered
from scanner.covered_learned import CornerScene
from scanner.covered_read import (
    CornerReading,
    read_corner,
    read_corner_searching,
    read_corner_shifting,
    read_corner_turning,
    turned,
)
from scanner.covered_size import size_candidates, whole_sides
from scanner.find_corners import CornerProposal, card_quad, corner_proposals
from scanner.find_work import Work, make_work
from scanner.params import CoveredParams, FindParams, ScannerParams
from scanner.scan import Scanner
from scanner.scan_covered import _apart, _merge, _Named, read_covered
from scanner.scenes import Scene, SceneTruth, render
from scanner.scenes_layout import fan, hand_row, pile, single
from scanner.templates import Templates
from scanner.types import Detection, Image, Quad
from scorer.cards import Card, DeckKind, parse_card

CARD_PX = 190.0
"""Long side of a card in the rendered scenes (table pixels; the camera looks straight down)."""


def _fan(seed: int, labels: tuple[str, ...]) -> tuple[Image, SceneTruth]:
    rng = np.random.default_rng(seed)
    cards = [parse_card(label, DeckKind.OKTRIS) for label in labels]
    placed = fan(cards, (640.0, 400.0), float(rng.uniform(-20, 20)), CARD_PX, rng)
    return render(Scene(cards=placed, card_px=CARD_PX), rng)


@pytest.fixture(scope="module")
def fanned() -> tuple[Image, SceneTruth]:
    return _fan(7, ("3H", "8C", "5D", "AS", "7H"))


@pytest.fixture(scope="module")
def templates() -> Templates:
    return Templates.builtin(DeckKind.OKTRIS)


def _calibrated() -> ScannerParams:
    """Parameters that know the card size, as calibration writes it."""
    short = CARD_PX * 63.0 / 88.0
    return ScannerParams(find=FindParams(card_size_px=(short, CARD_PX)))


def _near(proposals: list[CornerProposal], corner: np.ndarray, across: np.ndarray, radius: float) -> bool:
    return any(
        float(np.hypot(*(p.point - corner))) <= radius and float(p.across @ across) >= 0.97 for p in proposals
    )


def test_corner_proposals_are_right_handed_square_frames(fanned: tuple[Image, SceneTruth]) -> None:
    image, _ = fanned
    p = ScannerParams()
    proposals = corner_proposals(make_work(image, p.find), p.find, p.covered)
    assert proposals
    for q in proposals:
        assert q.across[0] * q.down[1] - q.across[1] * q.down[0] > 0.9
        if not q.junction:  # junctions are laid on the card edges (a card seen at a slant)
            assert q.across[0] * q.down[1] - q.across[1] * q.down[0] == pytest.approx(1.0, abs=1e-6)
            assert float(q.across @ q.down) == pytest.approx(0.0, abs=1e-6)


def test_the_index_corners_of_a_fans_top_card_are_proposed(fanned: tuple[Image, SceneTruth]) -> None:
    image, truth = fanned
    p = ScannerParams()
    work = make_work(image, p.find)
    proposals = corner_proposals(work, p.find, p.covered)
    top = truth.cards[-1]
    quad = np.asarray(top.corners, np.float64) * work.scale
    short = float(np.hypot(*(quad[1] - quad[0])))
    for corner in (quad, quad[[2, 3, 0, 1]]):
        across = (corner[1] - corner[0]) / short
        assert _near(proposals, corner[0], across, 0.1 * short)
    # at the other two corners a frame along the short side would be mirrored: never proposed
    for point, towards in ((quad[1], quad[0]), (quad[3], quad[2])):
        mirrored = (towards - point) / short
        assert not _near(proposals, point, mirrored, 0.1 * short)


def test_card_quad_lays_the_card_out_clockwise_from_its_index_corner() -> None:
    proposal = CornerProposal(
        point=np.array([100.0, 50.0]),
        across=np.array([0.0, 1.0]),
        down=np.array([-1.0, 0.0]),
        length_across=10.0,
        length_down=10.0,
    )
    quad = card_quad(proposal, 40.0, 1.5)
    assert quad.tolist() == [[100.0, 50.0], [100.0, 90.0], [40.0, 90.0], [40.0, 50.0]]
    # clockwise in the image (y down): positive shoelace area
    x, y = quad[:, 0], quad[:, 1]
    assert float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) > 0


def test_a_corner_is_read_upright_and_never_mirrored(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, truth = fanned
    p = ScannerParams()
    top = truth.cards[-1]
    quad = np.asarray(top.corners, np.float64)
    reading = read_corner(image, quad, templates, p)
    assert reading.card == top.card
    assert reading.margin >= p.covered.min_margin
    # the same corner with its arms swapped (a left-handed frame) shows the index mirrored
    mirrored = quad[[0, 3, 2, 1]]
    assert read_corner(image, mirrored, templates, p).card != top.card
    # a corner without an index (top right) names nothing
    assert read_corner(image, quad[[1, 2, 3, 0]], templates, p).card is None


def test_covered_fan_cards_are_named_from_their_corners_alone(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, truth = fanned
    p = _calibrated()
    work = make_work(image, p.find)
    named = read_covered(image, work, [], templates, p)
    assert len(named) >= len(truth.cards) - 1
    for d in named:
        assert d.card is not None
        match = [c for c in truth.cards if c.card == d.card]
        assert match, d.card
        true_quad = np.asarray(match[0].corners, np.float64)
        found = np.asarray(d.corners, np.float64)
        # read at either index corner: the quad starts at that corner
        gap = min(float(np.hypot(*(np.roll(found, k, axis=0) - true_quad).T).mean()) for k in (0, 2))
        assert gap < 0.25 * CARD_PX * 63.0 / 88.0, (d.card, gap)
    # the top card shows both its index corners: read at both, it is the one marked on top
    tops = [d.card for d in named if d.top]
    assert tops == [next(c.card for c in truth.cards if c.top)]


def test_covered_reading_off_changes_nothing(fanned: tuple[Image, SceneTruth], templates: Templates) -> None:
    image, _ = fanned
    p = _calibrated()
    off = replace(p, covered=CoveredParams(enabled=False))
    assert read_covered(image, make_work(image, off.find), [], templates, off) == []


def test_scanner_names_more_fan_cards_with_corner_reading_and_none_wrongly() -> None:
    image, truth = _fan(11, ("2S", "6H", "4C", "8D", "3S", "5H"))
    base = ScannerParams()
    without = Scanner(DeckKind.OKTRIS, params=replace(base, covered=CoveredParams(enabled=False))).scan(image)
    with_corners = Scanner(DeckKind.OKTRIS, params=base).scan(image)
    cards = {c.card for c in truth.cards}
    named_with = [d.card for d in with_corners.detections if d.card is not None]
    named_without = [d.card for d in without.detections if d.card is not None]
    assert all(c in cards for c in named_with)
    assert len(set(named_with)) > len(set(named_without))


def test_covered_params_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.min_margin"):
        CoveredParams(min_margin=-1.0)
    with pytest.raises(ValueError, match=r"covered\.size_steps"):
        CoveredParams(size_steps=())
    with pytest.raises(ValueError, match=r"covered\.enabled"):
        CoveredParams(enabled=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.max_reads must be an int"):
        CoveredParams(max_reads=3.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.search_px"):
        CoveredParams(search_px=99)
    with pytest.raises(ValueError, match=r"covered\.size_probes must be an int"):
        CoveredParams(size_probes=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.size_match"):
        CoveredParams(size_match=0.9)
    with pytest.raises(ValueError, match=r"covered\.side_angle"):
        CoveredParams(side_angle=60.0)
    with pytest.raises(ValueError, match=r"covered\.edge_steps"):
        CoveredParams(edge_steps=())
    with pytest.raises(ValueError, match=r"covered\.edge_steps"):
        CoveredParams(edge_steps=(0.0, 2.0))
    with pytest.raises(ValueError, match=r"covered\.veto_lead"):
        CoveredParams(veto_lead=-0.1)
    with pytest.raises(ValueError, match=r"covered\.veto_score"):
        CoveredParams(veto_score=1.5)
    with pytest.raises(ValueError, match=r"covered\.overlap_open"):
        CoveredParams(overlap_open=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.over_identified"):
        CoveredParams(over_identified=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.turn_reads must be an int"):
        CoveredParams(turn_reads=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.turn_angles"):
        CoveredParams(turn_angles=())
    with pytest.raises(ValueError, match=r"covered\.turn_angles"):
        CoveredParams(turn_angles=(30.0,))
    with pytest.raises(ValueError, match=r"covered\.turn_lead"):
        CoveredParams(turn_lead=-0.01)


def test_a_covered_cards_corner_laid_a_few_degrees_off_is_named_when_read_turned(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, truth = fanned
    # the turned reads alone: the second look at an unclear index names some askew corners as
    # they lie (``scanner.identify_look``)
    p = replace(ScannerParams(), identify=replace(ScannerParams().identify, look_lead=0.0))
    off = replace(p, covered=replace(p.covered, turn_reads=0))
    plain = turning = 0
    for card in (c for c in truth.cards if not c.top):
        quad = np.asarray(card.corners, np.float64)
        for degrees in (-6.0, 6.0):
            askew = turned(quad, degrees)
            # the true corner turned by ``degrees`` keeps its corner point
            assert np.allclose(askew[0], quad[0])
            assert np.isclose(np.hypot(*(askew[1] - askew[0])), np.hypot(*(quad[1] - quad[0])))
            plain += read_corner_turning(image, askew, templates, off, budget=32)[0].card == card.card
            reading, angle, extra = read_corner_turning(image, askew, templates, p, budget=32)
            assert reading.card in (None, card.card)  # a turned read names no other card
            turning += reading.card == card.card
            if angle != 0.0:
                assert angle * degrees < 0  # named at a turn back towards the true corner
                assert 0 < extra <= len(p.covered.turn_angles)
        # read as it lies, the corner needs no turn and makes no extra read
        assert read_corner_turning(image, quad, templates, p, budget=32)[1:] == (0.0, 0)
    assert turning >= plain + 2
    # no budget left: no extra read
    askew = turned(np.asarray(truth.cards[0].corners, np.float64), 6.0)
    assert read_corner_turning(image, askew, templates, p, budget=0)[2] == 0


def test_a_pile_read_from_corners_names_only_its_own_cards_where_they_lie(templates: Templates) -> None:
    rng = np.random.default_rng(5)
    labels = ("4S", "7D", "AC", "6H")
    cards = [parse_card(label, DeckKind.OKTRIS) for label in labels]
    image, truth = render(Scene(cards=pile(cards, (640.0, 360.0), CARD_PX, rng), card_px=CARD_PX), rng)
    p = _calibrated()
    named = read_covered(image, make_work(image, p.find), [], templates, p)
    assert named
    short = CARD_PX * 63.0 / 88.0
    for d in named:
        match = [c for c in truth.cards if c.card == d.card]
        assert match, d.card
        found = np.asarray(d.corners, np.float64)
        true_quad = np.asarray(match[0].corners, np.float64)
        gap = min(float(np.hypot(*(np.roll(found, k, axis=0) - true_quad).T).mean()) for k in range(4))
        assert gap < 0.25 * short, (d.card, gap)


def _named_and_rival(image: Image, templates: Templates) -> tuple[ScannerParams, Work, Detection, Card]:
    """Calibrated parameters, the work image of ``image``, the first card covered-card reading
    names there with no card known, and another Oktris card to rank first against it."""
    p = _calibrated()
    work = make_work(image, p.find)
    named = [d for d in read_covered(image, work, [], templates, p) if d.card is not None]
    assert named
    target = named[0]
    assert target.card is not None
    other = next(c for c in ("2S", "3D", "6C") if parse_card(c, DeckKind.OKTRIS) != target.card)
    return p, work, target, parse_card(other, DeckKind.OKTRIS)


def test_only_a_rival_of_the_deck_ranked_first_on_the_same_outline_vetoes_a_corner(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, _ = fanned
    p, work, target, rival = _named_and_rival(image, templates)
    found = Detection(card=None, confidence=0.7, corners=target.corners, top=False)
    vetoed = read_covered(image, work, [found], templates, p, [rival])
    assert found in vetoed
    assert target.card not in [d.card for d in vetoed]
    # a king is no Oktris card: the identifier read this card poorly, the corner names it
    outside = read_covered(image, work, [found], templates, p, [parse_card("KS", DeckKind.OKTRIS)])
    assert found not in outside
    assert target.card in [d.card for d in outside]


def test_a_rival_identified_elsewhere_in_an_oktris_frame_vetoes_nothing(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, _ = fanned
    p, work, target, rival = _named_and_rival(image, templates)
    found = Detection(card=None, confidence=0.7, corners=target.corners, top=False)
    # the rival is identified at another place of the frame (an Oktris deck holds it once): the
    # found outline read that card's print, it says nothing against the corner's name
    far: Quad = ((20.0, 20.0), (80.0, 20.0), (80.0, 105.0), (20.0, 105.0))
    elsewhere = Detection(card=rival, confidence=0.9, corners=far, top=True)
    named = read_covered(image, work, [found, elsewhere], templates, p, [rival, rival])
    assert target.card in [d.card for d in named]
    assert found not in named
    strict = replace(p, covered=replace(p.covered, veto_named=False))
    vetoed = read_covered(image, work, [found, elsewhere], templates, strict, [rival, rival])
    assert target.card not in [d.card for d in vetoed]
    assert found in vetoed


def _card_mask(short: float, angle: float, centre: tuple[float, float], shape: tuple[int, int]) -> np.ndarray:
    """A 0/255 mask of one card (short side ``short``, 63:88) turned ``angle`` degrees, its
    corners rounded as a card's."""
    box = ((centre[0], centre[1]), (short, short * 88.0 / 63.0), angle)
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(cv2.boxPoints(box)).astype(np.int32), 255)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc), np.uint8)


def test_a_lone_cards_whole_sides_are_its_short_and_long_sides() -> None:
    p = CoveredParams()
    mask = _card_mask(50.0, 23.0, (120.0, 100.0), (200, 240))
    sides = sorted(whole_sides(mask, 100.0, p))
    assert len(sides) == 4
    assert sides[:2] == pytest.approx([50.0, 50.0], rel=0.05)
    assert sides[2:] == pytest.approx([50.0 * 88 / 63] * 2, rel=0.05)


def test_two_overlapping_cards_show_only_their_own_sides_whole() -> None:
    p = CoveredParams()
    one = _card_mask(50.0, 0.0, (100.0, 100.0), (220, 260))
    two = _card_mask(50.0, 0.0, (130.0, 125.0), (220, 260))
    sides = whole_sides(cv2.bitwise_or(one, two), 100.0, p)
    # the notches where one card's side meets the other are no card corners: no run between
    # them is taken for a side, so every side counted is a short or a long side
    assert sides
    for side in sides:
        assert min(abs(side - 50.0), abs(side - 50.0 * 88 / 63)) <= 0.05 * side, side


def test_size_candidates_put_the_found_sizes_first_and_the_sides_most_agree_with_next() -> None:
    p = CoveredParams()
    aspect = 88.0 / 63.0
    sides = [50.0, 50.0 * aspect, 51.0, 120.0]
    sizes = size_candidates([30.0], sides, [], aspect, p)
    assert sizes[0] == 30.0
    assert sizes[1] == pytest.approx(50.33, abs=0.1)  # three sides agree with it
    assert 120.0 / aspect in [pytest.approx(s) for s in sizes] or 120.0 in [pytest.approx(s) for s in sizes]
    # a size within size_match of one listed is not listed again (a side of 50 is a short side
    # of 50, or a long side of a card 50 / aspect wide); edges give long sides
    assert size_candidates([49.0], [50.0], [], aspect, p) == [49.0, pytest.approx(50.0 / aspect)]
    one = replace(p, edge_steps=(0.0,))
    assert size_candidates([], [], [70.0], aspect, one) == [pytest.approx(70.0 / aspect)]
    # an edge is mostly part of a side: it is tried lengthened by each step too
    stepped = replace(p, edge_steps=(0.0, 0.1))
    assert size_candidates([], [], [70.0], aspect, stepped) == [
        pytest.approx(70.0 / aspect),
        pytest.approx(77.0 / aspect),
    ]
    assert (
        len(size_candidates([10.0, 20.0, 40.0], sides, [90.0, 99.0], aspect, replace(p, size_candidates=3)))
        == 3
    )


def test_covered_cards_are_named_at_the_size_their_index_reads_when_the_outlines_found_are_too_small(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, truth = fanned
    # outlines found at half the card's size (as a frame printed on a face), none identified
    shrunk = []
    for c in truth.cards:
        quad = np.asarray(c.corners, np.float64)
        centre = quad.mean(axis=0)
        corners = centre + 0.5 * (quad - centre)
        shrunk.append(Detection(card=None, confidence=0.3, corners=_quad(corners), top=False))
    p = ScannerParams()
    work = make_work(image, p.find)
    fixed = replace(p, covered=replace(p.covered, size_probes=0))
    at_found = [d.card for d in read_covered(image, work, shrunk, templates, fixed) if d.card is not None]
    named = [d for d in read_covered(image, work, shrunk, templates, p) if d.card is not None]
    assert len(named) >= len(truth.cards) - 1 > len(at_found)
    short = CARD_PX * 63.0 / 88.0
    for d in named:
        match = [c for c in truth.cards if c.card == d.card]
        assert match, d.card
        found = np.asarray(d.corners, np.float64)
        gap = min(
            float(np.hypot(*(np.roll(found, k, axis=0) - np.asarray(match[0].corners)).T).mean())
            for k in range(4)
        )
        assert gap < 0.25 * short, (d.card, gap)


def _quad(corners: np.ndarray) -> Quad:
    (a, b, c, d) = ((float(x), float(y)) for x, y in corners)
    return (a, b, c, d)


def test_a_card_lying_on_a_card_identified_is_read_inside_its_outline(templates: Templates) -> None:
    # (a row whose second card's index corner is proposed and cut from the first card by a fine
    # edge; where the edge does not close the two show as one card part, and it is not read)
    rng = np.random.default_rng(4)
    cards = [parse_card(label, DeckKind.OKTRIS) for label in ("5C", "2H", "7S", "3D")]
    placed = hand_row(cards, 1, 4, (1280, 720), CARD_PX, rng)
    image, truth = render(Scene(cards=placed, card_px=CARD_PX), rng)
    first, second = truth.cards[0], truth.cards[1]
    # the first card of the row identified (its whole outline, index corner first); the next
    # card lies on it, its index inside that outline
    known = Detection(card=first.card, confidence=0.9, corners=first.corners, top=False)
    quad = np.asarray(second.corners, np.float64)
    index = quad[0] + 0.1 * (quad[1] - quad[0]) + 0.12 * (quad[3] - quad[0])
    outline = np.asarray(first.corners, np.float32).reshape(-1, 1, 2)
    assert cv2.pointPolygonTest(outline, (float(index[0]), float(index[1])), False) > 0
    p = _calibrated()
    work = make_work(image, p.find)
    named = [d.card for d in read_covered(image, work, [known], templates, p) if d.card is not None]
    # (read between the first and the third card of the row, the gap reads name it too, and the
    # row's reads along the first card's outline: they are off here, where the corners over a
    # card identified are measured)
    off = replace(p, covered=replace(p.covered, over_identified=False, gap_reads=0, row_reads=0))
    named_off = [d.card for d in read_covered(image, work, [known], templates, off) if d.card is not None]
    assert second.card in named
    assert second.card not in named_off
    assert all(c in cards for c in named)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_middle_card_between_two_identified_cards_is_read_inside_their_outlines(
    templates: Templates, seed: int
) -> None:
    # a fan (seed 0) or a row (seed 1) of three whose outer two cards are identified: the middle
    # card shows only inside their outlines, and with the card pixels outside them too few to
    # look for corners at all, it was never read
    rng = np.random.default_rng(seed)
    cards = [parse_card(label, DeckKind.OKTRIS) for label in ("5C", "2H", "7S")]
    if seed == 0:
        placed = fan(cards, (640.0, 400.0), float(rng.uniform(-20, 20)), CARD_PX, rng)
    else:
        placed = hand_row(cards, 1, 3, (1280, 720), CARD_PX, rng)
    image, truth = render(Scene(cards=placed, card_px=CARD_PX), rng)
    outer = [truth.cards[0], truth.cards[2]]
    known = [Detection(card=c.card, confidence=0.9, corners=c.corners, top=False) for c in outer]
    p = _calibrated()
    work = make_work(image, p.find)
    named = [d.card for d in read_covered(image, work, known, templates, p) if d.card is not None]
    off = replace(p, covered=replace(p.covered, overlap_open=False))
    named_off = [d.card for d in read_covered(image, work, known, templates, off) if d.card is not None]
    assert truth.cards[1].card in named
    assert truth.cards[1].card not in named_off
    assert sorted(map(str, named)) == sorted(map(str, cards))


def test_a_rival_ranked_first_by_less_than_the_veto_lead_vetoes_nothing(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, _ = fanned
    p, work, target, rival = _named_and_rival(image, templates)
    # the identifier's first card barely ahead of its runner-up: a tie, no veto
    tied = Detection(
        card=None,
        confidence=0.62,
        corners=target.corners,
        top=False,
        runner_up=None,
        runner_up_confidence=0.61,
    )
    assert target.card in [d.card for d in read_covered(image, work, [tied], templates, p, [rival])]
    # the same lead vetoes when the veto asks for none
    strict = replace(p, covered=replace(p.covered, veto_lead=0.0))
    assert target.card not in [d.card for d in read_covered(image, work, [tied], templates, strict, [rival])]


def test_a_rival_ranked_first_at_a_chance_score_vetoes_nothing(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, _ = fanned
    p, work, target, rival = _named_and_rival(image, templates)
    # the identifier's first card well ahead of its runner-up, but at a score no reading has
    faint = Detection(
        card=None,
        confidence=0.28,
        corners=target.corners,
        top=False,
        runner_up=None,
        runner_up_confidence=0.22,
    )
    assert faint.confidence < p.covered.veto_score
    assert faint.confidence - faint.runner_up_confidence >= p.covered.veto_lead
    assert target.card in [d.card for d in read_covered(image, work, [faint], templates, p, [rival])]
    # the same reading vetoes when any score may veto
    strict = replace(p, covered=replace(p.covered, veto_score=0.0))
    assert target.card not in [d.card for d in read_covered(image, work, [faint], templates, strict, [rival])]


def _run_end(quad: np.ndarray, along: float) -> CornerProposal:
    """The index corner of the card ``quad`` proposed ``along`` (a fraction of its short side)
    along its short side from where it lies, as the end of a straight run of an outline lies
    where the card over it cuts that side."""
    across = quad[1] - quad[0]
    short = float(np.hypot(*across))
    unit = across / short
    down = np.array([-unit[1], unit[0]])
    return CornerProposal(quad[0] + along * short * unit, unit, down, 0.5 * short, 0.0)


def test_a_corner_proposed_along_its_side_is_named_when_read_moved_back(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, truth = fanned
    p = ScannerParams()
    short = CARD_PX * 63.0 / 88.0
    plain = moved = 0
    for card in truth.cards:
        quad = np.asarray(card.corners, np.float64)
        proposal = _run_end(quad, 0.12)
        first = read_corner(image, card_quad(proposal, short, p.find.card_aspect), templates, p)
        plain += first.card == card.card
        reading, at, reads = read_corner_shifting(image, proposal, short, 1.0, templates, p, budget=8)
        assert 0 < reads <= len(p.covered.shift_steps)
        assert reading is None or reading.card == card.card  # a moved read names no other card
        if reading is not None:
            moved += 1
            # read where the card's own corner lies, back along the side it was proposed on
            assert float(np.hypot(*(at.point - quad[0]))) < 0.05 * short
            assert np.allclose(at.across, proposal.across)
    assert moved >= plain + 4
    # no budget: no read
    assert (
        read_corner_shifting(
            image, _run_end(np.asarray(truth.cards[0].corners), 0.12), short, 1.0, templates, p, budget=0
        )[2]
        == 0
    )


def test_a_corner_laid_off_its_index_is_named_when_searched_farther(
    fanned: tuple[Image, SceneTruth], templates: Templates
) -> None:
    image, truth = fanned
    p = ScannerParams()
    searched = 0
    for card in truth.cards:
        quad = np.asarray(card.corners, np.float64)
        across = quad[1] - quad[0]
        short = float(np.hypot(*across))
        unit = across / short
        for sign in (-1.0, 1.0):
            # the card laid 5% of its short side off along that side and turned 5 degrees
            askew = turned(quad + sign * 0.05 * short * unit, sign * 5.0)
            first = read_corner(image, askew, templates, p)
            reading, angle, reads = read_corner_searching(image, askew, first, templates, p, budget=8)
            assert reading is None or reading.card == card.card  # a farther search names no other card
            assert reads == (len(p.covered.search_turns) if first.score >= p.covered.search_min_score else 0)
            if first.card is None and reading is not None:
                searched += 1  # named only when searched farther
                assert angle in p.covered.search_turns
    assert searched >= 2
    # no budget, or a corner scoring too low: no read
    quad = np.asarray(truth.cards[0].corners, np.float64)
    first = read_corner(image, quad, templates, p)
    assert read_corner_searching(image, quad, first, templates, p, budget=0) == (None, 0.0, 0)
    low = replace(first, score=p.covered.search_min_score - 0.01)
    assert read_corner_searching(image, quad, low, templates, p, budget=8) == (None, 0.0, 0)


def test_covered_search_params_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.search_reads must be an int"):
        CoveredParams(search_reads=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.search_turns"):
        CoveredParams(search_turns=())
    with pytest.raises(ValueError, match=r"covered\.search_turns"):
        CoveredParams(search_turns=(20.0,))
    with pytest.raises(ValueError, match=r"covered\.search_wide_px"):
        CoveredParams(search_wide_px=41)
    with pytest.raises(ValueError, match=r"covered\.search_min_score"):
        CoveredParams(search_min_score=1.5)
    with pytest.raises(ValueError, match=r"covered\.search_lead"):
        CoveredParams(search_lead=-0.01)


def test_covered_shift_params_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.shift_reads must be an int"):
        CoveredParams(shift_reads=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.shift_steps"):
        CoveredParams(shift_steps=())
    with pytest.raises(ValueError, match=r"covered\.shift_steps"):
        CoveredParams(shift_steps=(0.9,))
    with pytest.raises(ValueError, match=r"covered\.shift_lead"):
        CoveredParams(shift_lead=-0.01)
    with pytest.raises(ValueError, match=r"covered\.cluster_probes"):
        CoveredParams(cluster_probes=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.twin_band"):
        CoveredParams(twin_band=-0.1)
    with pytest.raises(ValueError, match=r"covered\.size_settle"):
        CoveredParams(size_settle=-1)
    with pytest.raises(ValueError, match=r"covered\.size_ties"):
        CoveredParams(size_ties=1)  # type: ignore[arg-type]


def test_a_moved_read_of_a_card_already_read_there_at_another_size_is_that_card() -> None:
    card = parse_card("4", DeckKind.OCTOPLUS)
    short, aspect = 100.0, 88.0 / 63.0
    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    # read at its top-left index corner at its own size...
    own = card_quad(CornerProposal(np.array([100.0, 100.0]), right, down, 50.0, 0.0), short, aspect)
    # ...and, moved, at its bottom-right one at a size 30% too large: the two cards lie apart
    far = own[2]
    big = card_quad(CornerProposal(far, -right, -down, 50.0, 0.0), 1.3 * short, aspect)
    reading = CornerReading(card, 0.8, 0.1, 0.75, card)
    first = _Named(own, replace(reading, score=0.7), own[0])
    second = _Named(big, reading, far, moved=True)
    p = CoveredParams()
    assert _apart(big, own) > p.same_card
    kept = _merge([second, first], p.same_card, p.same_place)
    assert [k.moved for k in kept] == [False]
    # not moved, the better-scored read of the two stays a card of its own
    assert len(_merge([replace(second, moved=False), first], p.same_card, p.same_place)) == 2


@pytest.mark.parametrize("seed", [3, 8])
def test_a_cluster_holding_no_card_identified_is_read_at_the_size_its_own_index_chooses(
    seed: int, templates: Templates
) -> None:
    # a lone card seen small (identified) beside a fan seen half as large again (nothing of
    # it identified): the frame's size, the lone card's, reads none of the fan's corners
    rng = np.random.default_rng(seed)
    lone = parse_card("2D", DeckKind.OKTRIS)
    left, _ = render(
        Scene(cards=single(lone, (300.0, 360.0), 12.0), card_px=150.0), np.random.default_rng(seed)
    )
    cards = [parse_card(c, DeckKind.OKTRIS) for c in ("3H", "8C", "5D", "AS", "7H")]
    placed = fan(cards, (930.0, 380.0), float(rng.uniform(-20, 20)), 230.0, rng)
    image, truth = render(Scene(cards=placed, card_px=230.0), np.random.default_rng(seed))
    image[:, :600] = left[:, :600]
    identified = [d for d in Scanner(DeckKind.OKTRIS).scan(image).detections if d.card == lone]
    assert len(identified) == 1
    base = ScannerParams()
    off = replace(base, covered=replace(base.covered, cluster_probes=False))
    assert [d.card for d in read_covered(image, make_work(image, off.find), identified, templates, off)] == [
        lone
    ]
    named = read_covered(image, make_work(image, base.find), identified, templates, base)[1:]
    assert len(named) >= len(cards) - 1
    short = 230.0 * 63.0 / 88.0
    for d in named:
        true_quad = next(np.asarray(c.corners, np.float64) for c in truth.cards if c.card == d.card)
        found = np.asarray(d.corners, np.float64)
        gap = min(float(np.hypot(*(np.roll(found, k, axis=0) - true_quad).T).mean()) for k in (0, 2))
        assert gap < 0.25 * short, (d.card, gap)


def test_the_covered_cards_of_hand_rows_are_named_at_the_junctions_of_their_sides() -> None:
    # rows of six cards each lying on the one before: a covered card's side shows as an edge
    # inside the row, and its index corner lies where that edge meets the row's outline
    labels = ("5C", "2H", "7S", "3D", "8D", "AH")
    cards = [parse_card(label, DeckKind.OKTRIS) for label in labels]
    # (without the reads between named cards, which name some of the same cards another way)
    plain = ScannerParams()
    base = replace(plain, covered=replace(plain.covered, gap_reads=0))
    on = Scanner(DeckKind.OKTRIS, params=base)
    off = Scanner(DeckKind.OKTRIS, params=replace(base, covered=replace(base.covered, junction_reach=0.0)))
    gained = 0
    for seed in (0, 1, 2):
        rng = np.random.default_rng(seed)
        placed = hand_row(cards, seed % 4, 4, (1280, 720), CARD_PX, rng)
        image, _ = render(Scene(cards=placed, card_px=CARD_PX), rng)
        named = {d.card for d in on.scan(image).detections if d.card is not None}
        named_off = {d.card for d in off.scan(image).detections if d.card is not None}
        assert named <= set(cards)  # none wrong
        assert named_off <= named
        gained += len(named - named_off)
    assert gained >= 3


def test_a_frame_read_at_two_sizes_keeps_to_the_one_naming_its_cards(
    fanned: tuple[Image, SceneTruth], templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    # found outlines not identified, most at the cards' size and one half as large again: with
    # no probe choosing, every corner is read at both sizes until the true one has named
    # ``size_settle`` cards and the other none; from then on at the true size alone
    image, truth = fanned
    short = CARD_PX * 63.0 / 88.0
    found = [
        Detection(card=None, confidence=0.0, corners=_quad_of(np.asarray(c.corners, np.float64)))
        for c in truth.cards
    ]
    big = np.asarray(truth.cards[-1].corners, np.float64)
    found.append(Detection(card=None, confidence=0.0, corners=_quad_of(big[0] + 1.5 * (big - big[0]))))
    reads: list[float] = []
    real = read_corner_turning

    def counted(
        frame: Image,
        quad: np.ndarray,
        t: Templates,
        params: ScannerParams,
        budget: int,
        scene: CornerScene | None = None,
    ) -> tuple[CornerReading, float, int]:
        reads.append(float(np.hypot(*(quad[1] - quad[0]))))
        return real(frame, quad, t, params, budget, scene)

    monkeypatch.setattr(scan_covered, "read_corner_turning", counted)
    base = ScannerParams()
    runs: dict[int, tuple[set[Card], list[bool]]] = {}
    for settle in (0, 2):
        covered = replace(base.covered, size_probes=0, cluster_probes=False, size_settle=settle)
        p = replace(base, covered=covered)
        reads.clear()
        out = read_covered(image, make_work(image, p.find), found, templates, p)
        named = {d.card for d in out if d.card is not None}
        assert named <= {c.card for c in truth.cards}  # none wrong
        runs[settle] = (named, [r > 1.25 * short for r in reads])
    (named_off, large_off), (named_on, large_on) = runs[0], runs[2]
    assert len(named_off) >= 2 and named_off <= named_on
    assert sum(large_on) < sum(large_off)  # fewer reads at the size that names nothing


def _quad_of(quad: np.ndarray) -> Quad:
    (a, b, c, d) = ((float(x), float(y)) for x, y in quad)
    return (a, b, c, d)


def test_sizes_tied_in_the_probe_are_read_in_turn_until_one_names_the_cards(
    fanned: tuple[Image, SceneTruth], templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the probe left two sizes tied (one corner named at each): the best scored, here a
    # wrong one, alone names nothing; read in turn with the other, the fan's cards are named
    image, truth = fanned
    base = ScannerParams()
    work = make_work(image, base.find)
    short = CARD_PX * 63.0 / 88.0 * work.scale
    wrong = 1.3 * short

    def tied(*args: object, **kwargs: object) -> tuple[float, list[_Named], set[int], list[float]]:
        return wrong, [], set(), [short]

    monkeypatch.setattr(scan_covered, "_probe_size", tied)
    cards = {c.card for c in truth.cards}
    found = [
        Detection(card=None, confidence=0.0, corners=_quad_of(np.asarray(c.corners, np.float64)))
        for c in truth.cards
    ]
    named: dict[bool, list[Card]] = {}
    for ties in (False, True):
        p = replace(base, covered=replace(base.covered, size_ties=ties))
        out = read_covered(image, work, found, templates, p)
        named[ties] = [d.card for d in out if d.card is not None]
        assert set(named[ties]) <= cards  # none wrong
    assert len(named[True]) >= len(cards) - 1
    assert len(named[True]) > len(named[False])


def test_the_sizes_between_the_candidates_are_each_candidate_lengthened_step_by_step() -> None:
    p = CoveredParams(ladder_steps=(0.05, -0.05, 0.1), ladder_gap=0.03)
    sizes = scan_covered._ladder_sizes([100.0, 150.0, 104.0], p)
    # every candidate by the first step, then by the next; those within 3% of a candidate (105
    # of 104, 98.8 of 100) or of a size listed (110 of 109.2) are left out
    assert [s for s, _ in sizes] == pytest.approx([157.5, 109.2, 95.0, 142.5, 165.0, 114.4])
    assert [i for _, i in sizes] == [1, 2, 0, 1, 1, 2]  # the candidate each lengthens


@pytest.mark.parametrize(("seed", "low", "high"), [(7, 0.85, 1.2), (11, 0.84, 1.25)])
def test_a_fan_whose_size_lies_between_two_candidates_is_named_at_a_size_between_them(
    seed: int, low: float, high: float, templates: Templates
) -> None:
    # candidate sizes 15% and more short and 20% and more long of the fan's cards: the index
    # names no corner at either; read at the sizes between them, a corner names its card near
    # its own size
    image, truth = _fan(seed, ("3H", "8C", "5D", "AS", "7H"))
    base = ScannerParams()
    base = replace(base, covered=replace(base.covered, ladder_reads=96))  # the default, made plain
    work = make_work(image, base.find)
    cards = scan_covered._filled(work)
    proposals = corner_proposals(work, base.find, base.covered, cards)
    short = CARD_PX * 63.0 / 88.0 * work.scale
    sizes = [low * short, high * short]
    off = replace(base, covered=replace(base.covered, ladder_reads=0))
    chosen, named, _, _ = scan_covered._probe_size(image, work, cards, proposals, sizes, templates, off)
    assert chosen is None and not named
    chosen, named, _, _ = scan_covered._probe_size(image, work, cards, proposals, sizes, templates, base)
    assert chosen is not None and abs(chosen - short) < 0.12 * short
    assert named and {n.reading.card for n in named} <= {c.card for c in truth.cards}


def test_a_size_between_the_candidates_names_only_the_card_its_corner_ranked_first_there(
    templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a corner read at 10% over a candidate names the 6C, but ranked the 6S first at that
    # candidate: read so far off its card's size, an index may name another card; the
    # corner ranking the 3H first at its candidate names it at the size between
    six_c, six_s, three_h = (parse_card(c, DeckKind.OKTRIS) for c in ("6C", "6S", "3H"))
    corner = CornerProposal(np.array([50.0, 50.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 20.0, 30.0)
    read: list[float] = []

    def reading(frame: Image, quad: np.ndarray, *args: object, **kwargs: object) -> CornerReading:
        read.append(float(np.hypot(*(quad[1] - quad[0]))))
        card = six_c if len(read) == 1 else three_h
        return CornerReading(card, 0.8, 0.1, 0.7, card)

    monkeypatch.setattr(scan_covered, "read_corner", reading)
    monkeypatch.setattr(scan_covered, "_worth_reading", lambda *args, **kwargs: True)
    p = ScannerParams()
    p = replace(p, covered=replace(p.covered, ladder_steps=(0.1,), ladder_votes=1, ladder_reads=96))
    work = make_work(np.zeros((200, 200, 3), np.uint8), p.find)
    image = np.zeros((200, 200, 3), np.uint8)
    cards = np.zeros((200, 200), np.uint8)
    # two candidates 60 and 90 (work pixels): 66 and 99 between them, read in turn
    found = scan_covered._ladder(
        image, work, cards, [(corner, {0: six_s, 1: three_h})], [60.0, 90.0], templates, p
    )
    assert found is not None
    size, named = found
    assert size == pytest.approx(99.0)
    assert [n.reading.card for n in named] == [three_h]
    assert read == pytest.approx([66.0 / work.scale, 99.0 / work.scale])


def test_a_size_between_the_candidates_names_no_card_its_corner_reads_faintly_there(
    templates: Templates, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a corner ranking the 3H first at both candidates reads it at 0.6 at the first size between
    # them (10% over the candidate 60) and at 0.8 at the next (10% over 90): a read so faint at a
    # size between the candidates names nothing, and the size where it reads clearly is chosen
    three_h = parse_card("3H", DeckKind.OKTRIS)
    corner = CornerProposal(np.array([50.0, 50.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 20.0, 30.0)
    read: list[float] = []

    def reading(frame: Image, quad: np.ndarray, *args: object, **kwargs: object) -> CornerReading:
        read.append(float(np.hypot(*(quad[1] - quad[0]))))
        return CornerReading(three_h, 0.6 if len(read) == 1 else 0.8, 0.1, 0.7, three_h)

    monkeypatch.setattr(scan_covered, "read_corner", reading)
    monkeypatch.setattr(scan_covered, "_worth_reading", lambda *args, **kwargs: True)
    p = ScannerParams()
    p = replace(p, covered=replace(p.covered, ladder_steps=(0.1,), ladder_votes=1, ladder_reads=96))
    assert p.covered.ladder_min_score > 0.6
    work = make_work(np.zeros((200, 200, 3), np.uint8), p.find)
    image = np.zeros((200, 200, 3), np.uint8)
    cards = np.zeros((200, 200), np.uint8)
    probed = [(corner, {0: three_h, 1: three_h})]
    found = scan_covered._ladder(image, work, cards, probed, [60.0, 90.0], templates, p)
    assert found is not None
    assert found[0] == pytest.approx(99.0)
    assert [n.reading.card for n in found[1]] == [three_h]
    # with no least score of its own, the faint read at the first size names its card there
    read.clear()
    plain = replace(p, covered=replace(p.covered, ladder_min_score=0.0))
    found = scan_covered._ladder(image, work, cards, probed, [60.0, 90.0], templates, plain)
    assert found is not None
    assert found[0] == pytest.approx(66.0)
