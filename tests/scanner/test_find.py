"""The card finder on scenes drawn here: plain white cards on tables of every kind."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from scanner.find import FoundCard, _of_one_size, find_cards, order_corners, warp_card
from scanner.find_split import _outline_fraction, corners_of, whole_card_size
from scanner.find_work import make_work
from scanner.params import FindParams, ScannerParams

Quad = npt.NDArray[np.float64]
PARAMS = FindParams()


def card_quad(cx: float, cy: float, short: float, angle_deg: float) -> Quad:
    """A card's corners (TL, TR, BR, BL of the upright card) centred at (cx, cy), turned by angle."""
    long = short * 88.0 / 63.0
    half = np.array([[-short, -long], [short, -long], [short, long], [-short, long]]) / 2.0
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray(half @ rot.T + [cx, cy], dtype=np.float64)


def table(
    colour: Sequence[int], size: tuple[int, int] = (1280, 720), gradient: float = 0.0
) -> npt.NDArray[np.uint8]:
    """A table of one colour; ``gradient`` darkens it towards the right (uneven light)."""
    w, h = size
    img = np.empty((h, w, 3), np.float64)
    img[:] = colour
    if gradient:
        img *= np.linspace(1.0, 1.0 - gradient, w)[None, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def draw_card(img: npt.NDArray[np.uint8], quad: Quad, paper: int = 245, outline: int = 0) -> None:
    """Draw a white card with red index marks at two opposite corners and a pip in the middle.

    ``outline`` draws its edge in that grey, as a card's thin shadow on the card below shows.
    """
    pts = np.round(quad).astype(np.int32)
    cv2.fillConvexPoly(img, pts, (paper, paper, paper), cv2.LINE_AA)
    if outline:
        cv2.polylines(img, [pts], True, (outline, outline, outline), 1, cv2.LINE_AA)
    tl, tr, _br, bl = quad
    u = (tr - tl) / 1.0
    v = (bl - tl) / 1.0

    def at(s: float, t: float) -> tuple[int, int]:
        p = tl + u * s + v * t
        return (round(p[0]), round(p[1]))

    size = max(2, round(np.linalg.norm(u) * 0.08))
    cv2.circle(img, at(0.12, 0.1), size, (20, 20, 160), -1)
    cv2.circle(img, at(0.88, 0.9), size, (20, 20, 160), -1)
    cv2.circle(img, at(0.5, 0.5), size * 2, (30, 30, 30), -1)


def best_match(found: Sequence[FoundCard], truth: Quad) -> tuple[FoundCard | None, float]:
    """The found card nearest to a true quad, and its mean corner error in pixels (any corner order)."""
    best: tuple[FoundCard | None, float] = (None, math.inf)
    t = order_corners(truth)
    for f in found:
        q = np.array(f.corners)
        err = min(float(np.linalg.norm(q - np.roll(t, k, axis=0), axis=1).mean()) for k in range(4))
        if err < best[1]:
            best = (f, err)
    return best


@pytest.mark.parametrize("angle", [0, 17, 45, 90, 133])
@pytest.mark.parametrize(
    "colour", [(40, 110, 30), (30, 60, 110), (40, 40, 40)], ids=["green felt", "wood", "dark"]
)
def test_lone_card_on_a_coloured_or_dark_table_is_found_at_any_rotation(
    colour: tuple[int, int, int], angle: float
) -> None:
    img = table(colour)
    quad = card_quad(640, 360, 180, angle)
    draw_card(img, quad)
    found = find_cards(img, PARAMS)
    assert len(found) == 1
    card, err = best_match(found, quad)
    assert card is not None and card.top
    assert err < 3.0


def test_lone_card_on_a_light_table_is_found_by_its_outline() -> None:
    img = table((215, 218, 220))
    quad = card_quad(500, 300, 150, 25)
    draw_card(img, quad, paper=240, outline=150)
    found = find_cards(img, PARAMS)
    assert len(found) == 1
    assert best_match(found, quad)[1] < 3.0


def test_cards_under_uneven_light_are_all_found() -> None:
    img = table((60, 120, 40), gradient=0.7)
    quads = [card_quad(250, 360, 150, 10), card_quad(1050, 360, 150, -20)]
    for q in quads:
        draw_card(img, q, paper=235)
    # The far card lies in the dark half: dim it like its table.
    img[:, 640:] = (img[:, 640:].astype(np.float64) * 0.6).astype(np.uint8)
    found = find_cards(img, PARAMS)
    assert len(found) == 2
    for q in quads:
        assert best_match(found, q)[1] < 4.0


def test_separate_cards_are_each_found() -> None:
    img = table((40, 100, 30))
    quads = [card_quad(200 + 220 * i, 300 + 40 * (i % 2), 140, 30 * i) for i in range(5)]
    for q in quads:
        draw_card(img, q)
    found = find_cards(img, PARAMS)
    assert len(found) == 5
    for q in quads:
        card, err = best_match(found, q)
        assert card is not None and card.top and err < 3.0


def test_card_seen_at_an_angle_is_found_as_a_trapezoid() -> None:
    img = table((40, 100, 30))
    quad = card_quad(640, 360, 200, 0)
    draw_card(img, quad)
    src = np.array([[0, 0], [1280, 0], [1280, 720], [0, 720]], np.float32)
    dst = np.array([[120, 0], [1160, 0], [1280, 720], [0, 720]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    tilted = cv2.warpPerspective(img, m, (1280, 720), borderValue=(40, 100, 30))
    truth = (
        cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float32), m)
        .reshape(4, 2)
        .astype(np.float64)
    )
    found = find_cards(np.asarray(tilted, np.uint8), PARAMS)
    assert len(found) == 1
    assert best_match(found, truth)[1] < 3.0


def test_empty_table_has_no_cards() -> None:
    img = table((40, 100, 30), gradient=0.3)
    noise = np.random.default_rng(1).normal(0, 6, img.shape)
    img = np.clip(img + noise, 0, 255).astype(np.uint8)
    assert find_cards(img, PARAMS) == []


def test_top_card_of_a_pile_is_marked_and_the_card_below_is_not() -> None:
    img = table((40, 100, 30))
    below = card_quad(600, 360, 180, 0)
    above = card_quad(680, 400, 180, 35)
    draw_card(img, below, outline=120)
    draw_card(img, above, outline=120)
    found = find_cards(img, PARAMS)
    top_card, top_err = best_match(found, above)
    assert top_card is not None and top_err < 4.0
    assert top_card.top
    assert [f.top for f in found].count(True) == 1


def test_order_corners_puts_a_short_side_first_clockwise() -> None:
    quad = card_quad(100, 100, 63, 80)  # nearly lying on its side
    shuffled = quad[[2, 0, 3, 1]]
    ordered = order_corners(shuffled)
    sides = np.linalg.norm(ordered - np.roll(ordered, -1, axis=0), axis=1)
    assert sides[0] < sides[1] and sides[2] < sides[3]
    # clockwise on screen: the signed area (y down) is positive
    x, y = ordered[:, 0], ordered[:, 1]
    assert float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) > 0


def test_warp_card_cuts_out_an_upright_portrait_card() -> None:
    img = table((40, 100, 30))
    quad = card_quad(640, 360, 180, 20)
    draw_card(img, quad)
    found = find_cards(img, PARAMS)
    assert len(found) == 1
    warped = warp_card(img, found[0].corners, PARAMS)
    assert warped.shape == (PARAMS.card_height, PARAMS.card_width, 3)
    assert warped.dtype == np.uint8
    # the red index marks sit at two opposite corners whichever short side is up
    red = (warped[:, :, 2].astype(int) - warped[:, :, 1].astype(int)) > 60
    h, w = red.shape
    corners = [red[: h // 4, : w // 4].any(), red[-h // 4 :, -w // 4 :].any()]
    assert all(corners)
    assert not red[: h // 4, -w // 4 :].any() and not red[-h // 4 :, : w // 4].any()


def test_warp_card_rejects_corners_that_are_not_four_points() -> None:
    img = table((40, 100, 30))
    with pytest.raises(ValueError, match="four finite"):
        warp_card(img, ((0.0, 0.0), (1.0, 0.0), (1.0, math.nan), (0.0, 1.0)), PARAMS)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("work_long_side", 10),
        ("card_height", 100),
        ("min_card_area", 0.9),
        ("denoise_kernel", 4),
        ("canny_low", 500.0),
        ("card_size_px", (120.0, 80.0)),
        ("aspect_tolerance", math.nan),
        ("size_ladder_step", 0.0),
        ("whole_support", 1.5),
        ("whole_largest", -0.1),
        ("line_votes", 2.5),
        ("faint_open", True),
        ("max_line_cards", -1),
    ],
)
def test_bad_find_parameters_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]


def test_scanner_params_default_is_valid_and_frozen() -> None:
    params = ScannerParams()
    params.validate()
    with pytest.raises(AttributeError):
        params.find = FindParams()  # type: ignore[misc]


def row_of_cards(img: npt.NDArray[np.uint8], left: float, short: float, step: float) -> list[Quad]:
    """Draw three upright cards overlapping in a row across ``img`` at mid-height, the first
    centred at ``left``, each ``step`` of a short side right of the last; their quads."""
    quads = [card_quad(left + step * short * i, 360, short, 0) for i in range(3)]
    for q in quads:
        draw_card(img, q, outline=110)
    return quads


def test_a_row_of_overlapping_cards_is_not_taken_for_one_card() -> None:
    img = table((40, 100, 30))
    short = 150.0
    quads = row_of_cards(img, 500, short, 0.4)
    found = find_cards(img, PARAMS)
    card_area = short * short * 88 / 63
    for f in found:
        area = cv2.contourArea(np.array(f.corners, np.float32))
        assert area < 1.2 * card_area
    top, err = best_match(found, quads[-1])
    assert top is not None and err < 4.0 and top.top


def test_size_of_the_cards_of_a_pile_is_read_from_the_top_cards_whole_outline() -> None:
    img = table((40, 100, 30))
    short = 130.0
    quads = [card_quad(560, 330, short, 10), card_quad(660, 360, short, -25), card_quad(600, 420, short, 60)]
    for q in quads:
        draw_card(img, q, outline=110)
    work = make_work(img, PARAMS)
    contours, _ = cv2.findContours(work.union, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    corners = [c for contour in contours for c in corners_of(contour, PARAMS)]
    cards = cv2.drawContours(np.zeros_like(work.union), contours, -1, 255, cv2.FILLED)
    size = whole_card_size(corners, 20.0, 300.0, work, cards, PARAMS)
    assert size is not None
    assert abs(size / (short * work.scale) - 1.0) < 0.06


def test_fine_edges_found_around_card_clusters_only_are_those_of_the_whole_frame() -> None:
    img = table((40, 100, 30), gradient=0.2)
    for q in (card_quad(300, 300, 120, 20), card_quad(900, 400, 120, -10), card_quad(960, 430, 120, 40)):
        draw_card(img, q, outline=110)
    noise = np.random.default_rng(3).normal(0, 4, img.shape)
    img = np.clip(img + noise, 0, 255).astype(np.uint8)
    work = make_work(img, PARAMS)
    whole = cv2.Canny(cv2.GaussianBlur(work.grey, (3, 3), 0), PARAMS.split_canny_low, PARAMS.split_canny_high)
    square = np.ones((3, 3), np.uint8)
    outline = cv2.morphologyEx(work.union, cv2.MORPH_GRADIENT, square)
    near = cv2.dilate(work.union, np.ones((5, 5), np.uint8))
    expected = cv2.bitwise_and(cv2.bitwise_or(cv2.dilate(whole, square), outline), near)
    assert np.count_nonzero(expected) > 0
    assert np.array_equal(work.edges, expected)


def test_outline_evidence_of_no_hypotheses_is_empty_not_an_error() -> None:
    # A cluster can leave no card hypothesis at all; scoring none of them must not fail.
    edges = np.zeros((40, 60), np.uint8)
    none = np.zeros((0, 4, 2), np.float64)
    assert _outline_fraction(none, edges).shape == (0,)
    one = np.array([[[5.0, 5.0], [30.0, 5.0], [30.0, 35.0], [5.0, 35.0]]])
    edges[5, :] = 255
    assert _outline_fraction(one, edges)[0] > 0.2


def test_cards_found_without_scores_are_the_cards_found_with_them() -> None:
    """Skipping the outline measure of the scores (``scores=False``, as the scan does) finds the
    same cards, corners and top flags; the scores themselves are measured only when asked."""
    img = table((40, 100, 30))
    quads = [card_quad(200 + 220 * i, 300 + 40 * (i % 2), 140, 30 * i) for i in range(4)]
    for q in quads:
        draw_card(img, q)
    work = make_work(img, PARAMS)
    scored = find_cards(img, PARAMS, work)
    plain = find_cards(img, PARAMS, work, scores=False)
    assert [(f.corners, f.top) for f in plain] == [(f.corners, f.top) for f in scored]
    assert all(f.score > 0.5 for f in scored)
    assert all(f.score == 0.0 for f in plain)


def test_a_quad_much_smaller_than_the_card_that_shows_best_is_dropped() -> None:
    """``_of_one_size`` asks how well an outline shows only when one quad is much smaller than
    the largest; then the smaller quad goes."""
    big = card_quad(300, 300, 150, 0)
    small = card_quad(800, 300, 60, 0)
    asked: list[int] = []

    def shown(quad: Quad) -> float:
        asked.append(id(quad))
        return 0.9 if quad is big else 0.5

    assert _of_one_size([big, small], shown, PARAMS) == [big]
    assert len(asked) == 2
    asked.clear()
    alike = card_quad(800, 300, 140, 0)
    assert _of_one_size([big, alike], shown, PARAMS) == [big, alike]
    assert asked == []
