"""Cards a hand lies over, completed from their sides in view (``scanner.find_hand_cut``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.find import _dense, _outlines, find_cards
from scanner.find_cut import CutCard
from scanner.find_geometry import order_corners
from scanner.find_hand_cut import hand_cut_cards, hand_cut_lone
from scanner.find_work import make_work
from scanner.params import FindParams
from tests.scanner.test_find import best_match, card_quad, draw_card, table

PARAMS = FindParams()
NO_COMPLETION = FindParams(complete_hand=False)
FELT = (90, 120, 40)
SKIN = (90, 140, 200)


def _hand(img: np.ndarray, quad: np.ndarray, corner: int, reach: float) -> None:
    """A hand: a skin-coloured disc over ``corner`` of the card reaching ``reach`` of its short
    side in, and a forearm leading away from the card."""
    centre = quad.mean(axis=0)
    at = quad[corner]
    short = float(np.linalg.norm(quad[1] - quad[0]))
    radius = round(reach * short)
    cv2.circle(img, (round(at[0]), round(at[1])), radius, SKIN, -1, cv2.LINE_AA)
    away = at + (at - centre) / np.linalg.norm(at - centre) * 3 * short
    cv2.line(img, (round(at[0]), round(at[1])), (round(away[0]), round(away[1])), SKIN, radius)


def _scene(angle: float, corner: int, reach: float) -> tuple[np.ndarray, np.ndarray]:
    img = table(FELT)
    quad = card_quad(640, 360, 240, angle)
    draw_card(img, quad)
    _hand(img, quad, corner, reach)
    return img, quad


def _outline(img: np.ndarray) -> np.ndarray:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    light = (grey > 200).astype(np.uint8) * 255
    light = cv2.morphologyEx(light, cv2.MORPH_CLOSE, np.ones((25, 25), np.uint8))  # print filled
    contours, _ = cv2.findContours(light, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)


def _cuts(img: np.ndarray) -> list[CutCard]:
    contour = _outline(img)
    return hand_cut_cards(contour, _dense(contour), PARAMS)


def _error(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean corner distance, in any corner order."""
    t = order_corners(truth)
    return min(float(np.linalg.norm(found - np.roll(t, k, axis=0), axis=1).mean()) for k in range(4))


@pytest.mark.parametrize(("angle", "corner"), [(0, 0), (20, 1), (65, 2), (140, 3)])
def test_a_card_a_hand_lies_over_is_completed_from_its_sides(angle: float, corner: int) -> None:
    img, quad = _scene(angle, corner, 0.45)
    cuts = _cuts(img)
    assert cuts and _error(cuts[0].quad, quad) < 6.0


def test_a_card_mostly_under_the_hand_is_not_completed() -> None:
    img, _quad = _scene(20, 1, 0.95)
    assert _cuts(img) == []


def test_a_whole_card_is_no_hand_cut_card() -> None:
    img = table(FELT)
    draw_card(img, card_quad(640, 360, 240, 20))
    assert _cuts(img) == []


def test_two_cards_side_by_side_are_not_completed_as_one() -> None:
    img = table(FELT)
    draw_card(img, card_quad(560, 360, 200, 0))
    draw_card(img, card_quad(700, 400, 200, 0))
    assert all(_error(c.quad, card_quad(560, 360, 200, 0)) > 10.0 for c in _cuts(img))


@pytest.mark.parametrize(("angle", "corner", "reach"), [(0, 0, 0.45), (65, 2, 0.5), (140, 3, 0.6)])
def test_the_finder_reports_the_card_under_a_hand_whole(angle: float, corner: int, reach: float) -> None:
    img, quad = _scene(angle, corner, reach)
    assert best_match(find_cards(img, PARAMS), quad)[1] < 6.0
    # without the completion the card is missed or misfitted
    assert best_match(find_cards(img, NO_COMPLETION), quad)[1] > 6.0


@pytest.mark.parametrize(("field", "value"), [("hand_min_seen", 1.5), ("complete_hand", 1)])
def test_bad_hand_cut_parameters_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("angle", [0, 20, 65, 140])
def test_a_whole_card_s_outline_pixels_are_not_filled_in(angle: float) -> None:
    img = table(FELT)
    draw_card(img, card_quad(640, 360, 240, angle))
    work = make_work(img, PARAMS)
    split = _outlines(work, PARAMS)["split"]
    calls: list[int] = []

    def dense(contour: np.ndarray) -> np.ndarray:
        calls.append(1)
        return _dense(contour)

    # the card's hull simplifies to four corners: no cut card, and no need for every pixel of it
    assert split and hand_cut_lone(split, [], work, PARAMS, dense) == []
    assert calls == []


def test_outline_pixels_made_on_demand_give_the_same_cut_cards() -> None:
    img, _quad = _scene(20, 1, 0.45)
    contour = _outline(img)
    calls: list[int] = []

    def dense() -> np.ndarray:
        calls.append(1)
        return _dense(contour)

    lazy = hand_cut_cards(contour, dense, PARAMS)
    eager = hand_cut_cards(contour, _dense(contour), PARAMS)
    assert len(calls) == 1 and len(lazy) == len(eager) == 1
    assert np.array_equal(lazy[0].quad, eager[0].quad) and np.array_equal(lazy[0].seen, eager[0].seen)
