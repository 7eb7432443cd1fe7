"""A frame's motion blur measured on its named cards, and corners read against templates smeared
as it (``scanner.motion``, ``CoveredParams.motion_reads``)."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.covered_read import read_corner
from scanner.motion import (
    Motion,
    canonical_line,
    estimate_motion,
    estimate_motion_blind,
    line_kernel,
    motion_templates,
)
from scanner.params import CoveredParams, ScannerParams
from scanner.templates import Templates
from scorer.cards import DeckKind, parse_card
from tests.scanner.fixture_scenes import fixture_scene, named_at, named_near
from tests.scanner.test_identify_heldout import held_out_top

P = CoveredParams()


@pytest.fixture(scope="module")
def oktris() -> Templates:
    return Templates.builtin(DeckKind.OKTRIS)


def _table(cards: list[tuple[str, np.ndarray]], templates: Templates) -> np.ndarray:
    """A dark green table 640x480 with the template of each card laid onto its outline."""
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[:] = (40, 90, 30)
    for label, quad in cards:
        face = templates.faces[parse_card(label, templates.deck)][0]
        corners = np.array([[0, 0], [200, 0], [200, 280], [0, 280]], np.float32)
        matrix = cv2.getPerspectiveTransform(corners, quad.astype(np.float32))
        warped = cv2.warpPerspective(face, matrix, (640, 480))
        inside = cv2.warpPerspective(np.full((280, 200), 255, np.uint8), matrix, (640, 480)) > 127
        frame[inside] = warped[inside]
    return frame


def _quad(x: float, y: float, short: float, turn: float) -> np.ndarray:
    corners = np.array([[0, 0], [short, 0], [short, short * 1.4], [0, short * 1.4]], np.float64)
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    return corners @ np.array([[c, s], [-s, c]]) + (x, y)


CARDS = [("5H", _quad(60, 60, 130, 8)), ("3S", _quad(330, 90, 130, -20)), ("7D", _quad(470, 250, 120, 95))]


def test_a_line_kernel_smears_along_its_angle_and_keeps_the_light() -> None:
    flat = line_kernel(7, 0)
    assert flat.sum() == pytest.approx(1.0)
    middle = flat.shape[0] // 2
    assert flat[middle].sum() > 0.95  # a level line: its weight on the middle row
    upright = line_kernel(7, 90)
    assert upright[:, middle].sum() > 0.95
    assert line_kernel(0.5, 30).sum() == pytest.approx(1.0)


@pytest.mark.parametrize(("length", "angle"), [(7.0, 30.0), (5.0, 135.0)])
def test_the_blur_is_measured_on_the_named_cards(oktris: Templates, length: float, angle: float) -> None:
    sharp = _table(CARDS, oktris)
    frame = cv2.filter2D(sharp, -1, line_kernel(length, angle))
    known = [(quad, parse_card(label, DeckKind.OKTRIS)) for label, quad in CARDS]
    motion = estimate_motion(frame, known, oktris, P)
    assert motion is not None
    assert abs(motion.length - length) <= 2.0
    off = abs(motion.angle - angle) % 180.0
    assert min(off, 180.0 - off) <= P.motion_angle_step
    # the same cards unsmeared show no motion; nor does a frame whose cards are not where named
    assert estimate_motion(sharp, known, oktris, P) is None
    wrong = [
        (quad, parse_card(label, DeckKind.OKTRIS))
        for (label, _), (_, quad) in zip(CARDS, CARDS[1:] + CARDS[:1], strict=True)
    ]
    assert estimate_motion(frame, wrong, oktris, P) is None


def test_no_named_card_inside_the_frame_measures_nothing(oktris: Templates) -> None:
    frame = _table(CARDS, oktris)
    assert estimate_motion(frame, [], oktris, P) is None
    outside = [(_quad(600, 400, 130, 0), parse_card("5H", DeckKind.OKTRIS))]
    assert estimate_motion(frame, outside, oktris, P) is None


@pytest.mark.parametrize(("length", "angle"), [(7.0, 30.0), (5.0, 135.0)])
def test_the_blur_is_told_blind_by_the_faces_of_cards_not_named(
    oktris: Templates, length: float, angle: float
) -> None:
    """No card named: each outline with the cards it may be (a wrong first, the right second) gives
    the line by the candidate whose face fits best smeared."""
    sharp = _table(CARDS, oktris)
    frame = cv2.filter2D(sharp, -1, line_kernel(length, angle))
    deck = DeckKind.OKTRIS
    rivals = {"5H": "5D", "3S": "2S", "7D": "4D"}
    outlines = [(quad, [parse_card(rivals[label], deck), parse_card(label, deck)]) for label, quad in CARDS]
    motion = estimate_motion_blind(frame, outlines, oktris, P)
    assert motion is not None
    assert abs(motion.length - length) <= 2.0
    off = abs(motion.angle - angle) % 180.0
    assert min(off, 180.0 - off) <= P.motion_angle_step
    assert estimate_motion_blind(sharp, outlines, oktris, P) is None  # no blur to find
    # outlines on no card of theirs (every face laid on bare table): nothing fits, nothing found
    bare = [(_quad(x, 330, 100, 0), cards) for x, (_, cards) in zip((20, 150, 280), outlines, strict=True)]
    assert estimate_motion_blind(frame, bare, oktris, P) is None
    assert estimate_motion_blind(frame, [], oktris, P) is None


def test_the_line_is_taken_into_canonical_card_pixels() -> None:
    # a card twice the canonical size, turned a quarter: a level line 10 px long is 5 canonical
    # pixels long and runs down the card
    quad = np.array([[560, 0], [560, 400], [0, 400], [0, 0]], np.float64)
    assert canonical_line(quad, Motion(10.0, 0.0, 0.1), (200, 280), 15.0) == (5, 90)
    level = np.array([[0, 0], [200, 0], [200, 280], [0, 280]], np.float64)
    assert canonical_line(level, Motion(6.0, 40.0, 0.1), (200, 280), 15.0) == (6, 45)


def test_smeared_template_sets_are_kept_few(oktris: Templates) -> None:
    copy = Templates(oktris.deck, {card: oktris.faces[card] for card in list(oktris.faces)[:4]})
    first = motion_templates(copy, (5, 30))
    assert motion_templates(copy, (5, 30)) is first
    assert not np.array_equal(first.faces[copy.cards[0]][0], copy.faces[copy.cards[0]][0])
    for angle in range(0, 180, 15):
        motion_templates(copy, (7, angle))
    kept = copy.cache["motion-templates"]
    assert len(kept) == 8 and ((5, 30), 1.0) not in kept
    # a part: the top-left corner smeared, the rest as it was
    corner = motion_templates(copy, (9, 0), 0.5).faces[copy.cards[0]][0]
    plain = copy.faces[copy.cards[0]][0]
    assert np.array_equal(corner[160:, 120:], plain[160:, 120:])
    assert not np.array_equal(corner[:140, :100], plain[:140, :100])


def test_a_smeared_index_reads_against_templates_smeared_as_it(oktris: Templates) -> None:
    whole = np.array([[0, 0], [200, 0], [200, 280], [0, 280]], np.float64)
    face = oktris.faces[parse_card("3D", DeckKind.OKTRIS)][0]
    smeared = cv2.filter2D(face, -1, line_kernel(13, 105))
    assert read_corner(smeared, whole, oktris, ScannerParams()).card is None
    assert str(read_corner(smeared, whole, motion_templates(oktris, (13, 105)), ScannerParams()).card) == "3D"


def test_the_fixture_pile_5_is_named_in_its_smeared_frame() -> None:
    """scene_013 (motion 6 px at 94 degrees): the pile's 5 reads 3 against the sharp templates;
    measured on the three cards identified whole, the frame's blur names it."""
    scene, frame = fixture_scene("scene_013.jpg")
    on = ScannerParams()
    off = replace(on, covered=replace(on.covered, motion_reads=0))
    assert not any(gap < 0.3 * scene["card_px"] for gap, _ in named_at(scene, frame, "5", off))
    assert any(gap < 0.3 * scene["card_px"] for gap, _ in named_at(scene, frame, "5", on))


def test_a_smeared_pile_with_no_card_named_gets_its_top_card_from_the_blind_blur() -> None:
    """Held-out scene 8484-18 (a pile on wood, an arm over it, motion 6 px at 4 degrees): no card
    is identified whole, so no blur was measured and the pile's top 4S, found whole, stayed
    unnamed; the blur told by its face names it, read at its own outline, and marks it top.  The
    learned suit model (``IdentifyParams.suit_model``) names this 4S by its pips too: off here, to
    show the blur."""
    image, deck, card, centre = held_out_top(8484, 18)
    assert card == "4S"
    base = ScannerParams()
    on = replace(base, identify=replace(base.identify, suit_model=1.5))
    off = replace(on, covered=replace(on.covered, motion_blind_fit=1.0))
    assert named_near(image, deck, off, centre, 30.0) == []
    assert named_near(image, deck, on, centre, 30.0) == [("4S", True)]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("motion_reads", -1),
        ("motion_blind_fit", 1.5),
        ("motion_found", 1),
        ("motion_cards", 0),
        ("motion_lengths", (0.5,)),
        ("motion_angle_step", 0.0),
        ("motion_min_gain", -0.1),
        ("motion_soft", (20.0,)),
        ("motion_highpass", 0.5),
        ("motion_align_px", -1.0),
        ("motion_align_steps", 0),
    ],
)
def test_motion_parameters_out_of_range_are_refused(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        CoveredParams(**{field: value})  # type: ignore[arg-type]
    assert replace(CoveredParams(), motion_reads=0).motion_reads == 0
