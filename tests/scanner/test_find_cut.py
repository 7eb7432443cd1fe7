"""Cards the frame cuts off, completed from their sides in view (``scanner.find_cut``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.find import _dense, find_cards
from scanner.find_cut import CutCard, cut_cards
from scanner.find_geometry import order_corners
from scanner.params import FindParams
from tests.scanner.test_find import best_match, card_quad, draw_card, table

PARAMS = FindParams()
NO_COMPLETION = FindParams(complete_cut=False)
DARK = (40, 40, 40)


def _scene(cx: float, cy: float, short: float, angle: float) -> tuple[np.ndarray, np.ndarray]:
    img = table(DARK)
    quad = card_quad(cx, cy, short, angle)
    draw_card(img, quad)
    return img, quad


def _cuts(img: np.ndarray) -> list[CutCard]:
    contour = _outline(img)
    return cut_cards(contour, _dense(contour), img.shape, PARAMS)


def _error(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean corner distance, in any corner order."""
    t = order_corners(truth)
    return min(float(np.linalg.norm(found - np.roll(t, k, axis=0), axis=1).mean()) for k in range(4))


@pytest.mark.parametrize("angle", [0, 24, 62, 118, 150])
def test_a_card_running_off_the_bottom_of_the_frame_is_completed_by_its_aspect(angle: float) -> None:
    # about a fifth of the card lies below the frame's bottom border
    img, quad = _scene(640, 720 - 150, 260, angle)
    assert quad[:, 1].max() > 720  # part of it is out of view
    cuts = _cuts(img)
    assert cuts and _error(cuts[0].quad, quad) < 6.0


@pytest.mark.parametrize(("cx", "cy", "angle"), [(90, 360, 30), (150, 650, 40), (1100, 140, 125)])
def test_a_card_whose_corners_the_frame_cuts_off_is_completed_by_its_sides(
    cx: float, cy: float, angle: float
) -> None:
    img, quad = _scene(cx, cy, 260, angle)
    inside = (quad[:, 0] >= 0) & (quad[:, 0] < 1280) & (quad[:, 1] >= 0) & (quad[:, 1] < 720)
    assert 0 < inside.sum() < 4
    cuts = _cuts(img)
    assert cuts and _error(cuts[0].quad, quad) < 6.0


def test_a_card_mostly_out_of_view_is_not_completed() -> None:
    img, _quad = _scene(640, 720 + 100, 260, 8)  # under half of it in view, either way it lies
    assert _cuts(img) == []


def test_cards_well_inside_the_frame_are_found_as_before() -> None:
    img, quad = _scene(640, 360, 260, 17)
    with_cut = find_cards(img, PARAMS)
    without = find_cards(img, NO_COMPLETION)
    assert len(with_cut) == len(without) == 1
    assert np.allclose(np.array(with_cut[0].corners), np.array(without[0].corners))
    assert best_match(with_cut, quad)[1] < 4.0


def _outline(img: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    contours, _ = cv2.findContours(
        (grey > 128).astype(np.uint8) * 255, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    return max(contours, key=cv2.contourArea)


def test_an_outline_that_does_not_touch_the_border_is_no_cut_card() -> None:
    img, _quad = _scene(640, 360, 260, 17)
    assert _cuts(img) == []


def test_the_completed_card_and_the_part_in_view() -> None:
    img, quad = _scene(640, 720 - 150, 260, 24)
    cuts = _cuts(img)
    assert cuts
    whole, seen = cuts[0].quad, cuts[0].seen
    assert whole[:, 1].max() > 720 and seen[:, 1].max() <= 719.0
    seen_area = cv2.contourArea(seen.astype(np.float32))
    assert 0.55 < seen_area / cv2.contourArea(whole.astype(np.float32)) < 0.99
    assert np.abs(np.sort(whole, axis=0) - np.sort(quad, axis=0)).max() < 8.0


@pytest.mark.parametrize(
    ("field", "value"), [("cut_min_side", 1.5), ("cut_square", -1.0), ("complete_cut", 1)]
)
def test_bad_cut_parameters_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]
