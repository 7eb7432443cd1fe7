"""The card checks of the finder (``scanner.find_check``), the faint-edge pass and mirrored cameras."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.find import find_cards, warp_card
from scanner.find_check import cut_sides, looks_like_card, paper_border, side_support, slanted_outline
from scanner.find_geometry import is_card_quad, order_corners
from scanner.find_work import make_work
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner
from scorer.cards import DeckKind, StdCard
from tests.scanner.test_find import best_match, card_quad, draw_card, table

PARAMS = FindParams()


def _white_on_white(step: int) -> tuple[np.ndarray, np.ndarray]:
    """A card only ``step`` grey levels darker than a white table, its edge softened, with speckle."""
    rng = np.random.default_rng(3)
    img = np.full((640, 480, 3), 226, np.uint8)
    quad = card_quad(240, 320, 260, 12)
    draw_card(img, quad, paper=226 - step)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    noise = rng.random(img.shape[:2])
    img[noise < 0.01] = 60
    img[noise > 0.99] = 255
    return img, quad


def test_a_card_hardly_darker_than_a_white_table_is_found_by_its_faint_outline() -> None:
    img, quad = _white_on_white(14)
    # the strong edges miss its outline; the faint ones find it
    weak = FindParams(canny_low=200.0, canny_high=400.0)
    card, err = best_match(find_cards(img, weak), quad)
    assert card is not None and err < 4.0
    neither = FindParams(canny_low=200.0, canny_high=400.0, faint_canny_low=200.0, faint_canny_high=400.0)
    assert best_match(find_cards(img, neither), quad)[1] > 4.0


def test_a_card_is_paper_edged_and_its_sides_show() -> None:
    img = table((40, 100, 30))
    quad = card_quad(640, 360, 200, 20)
    draw_card(img, quad)
    work = make_work(img, PARAMS)
    q = quad * work.scale
    assert paper_border(q, work, PARAMS) >= 0.9
    assert np.all(side_support(q, work, PARAMS) >= 0.9)
    assert looks_like_card(q, work, PARAMS)


def test_a_quad_inside_the_print_of_a_face_is_not_a_card() -> None:
    img = table((40, 100, 30))
    quad = card_quad(640, 360, 300, 0)
    draw_card(img, quad)
    # a dark printed band across the card under the inner quad's top side
    cv2.rectangle(img, (560, 250), (720, 290), (30, 30, 30), -1)
    work = make_work(img, PARAMS)
    inner = card_quad(640, 360, 150, 0) * work.scale
    assert paper_border(inner, work, PARAMS) < PARAMS.min_paper or not looks_like_card(inner, work, PARAMS)
    # a quad on the bare table is neither
    off = card_quad(150, 150, 120, 0) * work.scale
    assert not looks_like_card(off, work, PARAMS)


def test_a_side_along_the_frame_border_is_cut_off_not_missing() -> None:
    quad = np.array([[0.0, 10.0], [100.0, 10.0], [100.0, 150.0], [0.0, 150.0]])
    cut = cut_sides(quad, (200, 300), PARAMS)
    assert cut.tolist() == [False, False, False, True]
    img = table((40, 40, 40), size=(300, 200))
    cv2.fillConvexPoly(img, np.round(quad).astype(np.int32), (240, 240, 240))
    work = make_work(img, PARAMS)
    support = side_support(quad * work.scale, work, PARAMS)
    assert math.isnan(support[3]) and np.nanmin(support) >= 0.9


def test_a_mirrored_camera_gets_its_cut_out_cards_flipped_back() -> None:
    img = table((40, 100, 30))
    quad = card_quad(640, 360, 200, 0)
    draw_card(img, quad)
    corners = find_cards(img, PARAMS)[0].corners
    plain = warp_card(img, corners, PARAMS)
    mirrored = warp_card(img, corners, FindParams(mirrored=True))
    assert np.array_equal(mirrored, plain[:, ::-1])
    assert not np.array_equal(mirrored, plain)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("border_inset", (0.1, 0.05)),
        ("mirrored", 1),
        ("faint_canny_low", 50.0),
        ("support_points", 2.5),
        ("slanted", 1),
        ("recut", "yes"),
        ("slant_max_corner", 95.0),
        ("slant_min_support", 1.5),
        ("slant_min_part", 2.5),
    ],
)
def test_bad_card_check_parameters_are_refused(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]


def _broken_outline(cy: float) -> tuple[np.ndarray, np.ndarray]:
    """A white card on a white table whose outline shows only as a dashed line (centre at ``cy``
    of a 480x640 frame: from 470 on the frame's bottom border cuts it off)."""
    img = np.full((640, 480, 3), 226, np.uint8)
    quad = card_quad(240, cy, 260, 8)
    draw_card(img, quad, paper=224)
    ends = np.vstack([quad, quad[:1]])
    for k0 in range(4):
        a, b = ends[k0], ends[k0 + 1]
        n = int(np.linalg.norm(b - a) // 24)
        for k in range(n):
            p0 = np.round(a + (b - a) * (k / n)).astype(int)
            p1 = np.round(a + (b - a) * ((k + 0.7) / n)).astype(int)
            cv2.line(img, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), (200, 200, 200), 2)
    return np.asarray(cv2.GaussianBlur(img, (0, 0), 0.8), dtype=np.uint8), quad


@pytest.mark.parametrize("cy", [320, 470, 560])
def test_a_card_with_a_broken_outline_is_bounded_by_lines_even_cut_by_the_frame(cy: float) -> None:
    img, quad = _broken_outline(cy)
    found = find_cards(img, PARAMS)
    assert len(found) == 1
    assert best_match(found, quad)[1] < 4.0
    # no region encloses it: without the lines it is not found
    assert best_match(find_cards(img, FindParams(max_lines=0)), quad)[1] > 4.0


def test_a_card_mostly_cut_off_by_the_frame_is_not_reported() -> None:
    img, _quad = _broken_outline(760)
    assert find_cards(img, PARAMS) == []


def _seen_at_a_slant(squash: float, turn_deg: float) -> np.ndarray:
    """A card's corners as a camera at a slant sees them: squashed to ``squash`` along a direction
    ``turn_deg`` off its sides (a nearly square, skewed outline), centred in a 1280x720 frame."""
    a = math.radians(turn_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    squashing = rot @ np.diag([1.0, squash]) @ rot.T
    return np.asarray(card_quad(0, 0, 260, 0) @ squashing.T + [640.0, 360.0], dtype=np.float64)


def test_a_skewed_nearly_square_outline_is_a_slanted_card_and_a_square_one_is_not() -> None:
    slanted = _seen_at_a_slant(0.55, -30.0)
    assert not is_card_quad(slanted, PARAMS, PARAMS.lone_aspect_tolerance)
    assert slanted_outline(slanted, PARAMS)
    square = np.array([[500.0, 220.0], [780.0, 220.0], [780.0, 500.0], [500.0, 500.0]])
    assert not slanted_outline(square, PARAMS)  # a tile or a key seen from above
    assert not slanted_outline(card_quad(640, 360, 200, 10) * [1.0, 1.6], PARAMS)  # too long


def test_a_card_seen_at_a_slant_is_found_marked_slanted_unless_slanted_outlines_are_off() -> None:
    img = table((40, 60, 110))
    quad = _seen_at_a_slant(0.55, -30.0)
    draw_card(img, quad)
    card, err = best_match(find_cards(img, PARAMS), quad)
    assert card is not None and err < 4.0, err
    assert card.slanted
    assert best_match(find_cards(img, FindParams(slanted=False)), quad)[1] > 4.0  # not a card quad
    upright = table((40, 60, 110))
    draw_card(upright, card_quad(640, 360, 200, 10))
    assert [c.slanted for c in find_cards(upright, PARAMS)] == [False]
    # a white square tile seen from above is no slanted card
    tile = table((40, 60, 110))
    square = np.array([[500.0, 220.0], [780.0, 220.0], [780.0, 500.0], [500.0, 500.0]])
    draw_card(tile, square)
    assert best_match(find_cards(tile, FindParams(slanted=True)), square)[1] > 4.0


def _lay_face(img: np.ndarray, card: StdCard, quad: np.ndarray) -> None:
    """Paint ``card``'s face (``scanner.faces``) onto ``img`` along ``quad`` (TL TR BR BL upright)."""
    face = render_face(card, 200, 280)
    src = np.array([[0, 0], [200, 0], [200, 280], [0, 280]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = (img.shape[1], img.shape[0])
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((280, 200), 255, np.uint8), matrix, size)
    img[mask > 128] = warped[mask > 128]


def test_a_card_seen_at_a_slant_is_named_only_when_its_index_reads_clearly() -> None:
    img = table((40, 60, 110))
    quad = order_corners(_seen_at_a_slant(0.55, -30.0))
    _lay_face(img, StdCard.parse("7H"), quad)
    named = [d.card for d in Scanner(DeckKind.OKTRIS).scan(img).detections]
    assert named == [StdCard.parse("7H")]
    strict = ScannerParams(find=replace(PARAMS, slant_min_part=1.5))
    assert [d.card for d in Scanner(DeckKind.OKTRIS, params=strict).scan(img).detections] == [None]
