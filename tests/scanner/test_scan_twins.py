"""One card read twice (``scanner.scan_twins``): at both its index corners, or one index twice."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner.params import FindParams, ScannerParams
from scanner.scan_twins import are_twins, joined, merge_twins
from scanner.types import Detection, Quad
from scorer.cards import Card, DeckKind, parse_card
from tests.scanner.test_identify_heldout import held_out_scene, wrong_names

PARAMS = FindParams()
ONE = parse_card("1", DeckKind.OCTOPLUS)
FOUR_S = parse_card("4S", DeckKind.OKTRIS)
FOUR_C = parse_card("4C", DeckKind.OKTRIS)


def _quad(points: list[tuple[float, float]]) -> Quad:
    (a, b, c, d) = ((float(x), float(y)) for x, y in points)
    return (a, b, c, d)


def _card(card: Card | None, points: list[tuple[float, float]], confidence: float = 0.9) -> Detection:
    return Detection(card=card, confidence=confidence, corners=_quad(points), top=False)


# A card 112 x 158 pixels (index corners at (530, 280) and (654, 431)) read at each index corner
# and laid out a little too large from each: the two outlines reach past it on opposite sides.
FROM_TOP_LEFT = [(536.0, 284.0), (668.0, 277.0), (678.0, 462.0), (546.0, 469.0)]
FROM_BOTTOM_RIGHT = [(650.0, 426.0), (518.0, 435.0), (505.0, 251.0), (637.0, 242.0)]


def test_a_card_read_at_both_index_corners_becomes_one_card_between_them() -> None:
    a = _card(ONE, FROM_BOTTOM_RIGHT, 0.88)
    b = _card(ONE, FROM_TOP_LEFT, 0.85)
    assert are_twins(a, b, PARAMS) and are_twins(b, a, PARAMS)
    merged, whole = merge_twins([b, a], PARAMS)
    assert len(merged) == 1 and merged[0].card == ONE and merged[0].top
    assert whole == {id(merged[0])}
    corners = np.array(merged[0].corners)
    # from one read corner to the other: the card's own outline, within a few pixels
    truth = np.array([(654.0, 431.0), (542.0, 438.0), (530.0, 280.0), (644.0, 273.0)])
    assert float(np.abs(corners - truth).max()) < 8.0
    assert joined(a, b, PARAMS) == merged[0].corners


def test_two_readings_of_one_index_that_disagree_keep_the_better_one() -> None:
    better = _card(FOUR_S, [(601, 293), (684, 429), (494, 546), (410, 409)], 0.85)
    worse = _card(FOUR_C, [(503, 501), (421, 363), (613, 249), (695, 387)], 0.79)
    merged, whole = merge_twins([worse, better], PARAMS)
    assert merged == [better] and not whole


def test_overlapping_cards_of_a_fan_are_not_twins() -> None:
    # each card of a fan lies over the one before, moved right: the upper card's index corner
    # lies on the lower card, the lower card's index corner (in view) off the upper one
    lower = _card(ONE, [(400, 300), (512, 300), (512, 458), (400, 458)])
    upper = _card(ONE, [(440, 300), (552, 300), (552, 458), (440, 458)])
    assert not are_twins(lower, upper, PARAMS)
    assert merge_twins([lower, upper], PARAMS) == ([lower, upper], set())


def test_a_card_not_named_is_never_a_twin() -> None:
    a = _card(ONE, FROM_BOTTOM_RIGHT)
    b = _card(None, FROM_TOP_LEFT)
    assert not are_twins(a, b, PARAMS)
    assert merge_twins([a, b], PARAMS) == ([a, b], set())


def test_read_corners_that_make_no_card_shape_keep_the_better_reading_alone() -> None:
    a = _card(ONE, [(650, 426), (518, 435), (505, 251), (637, 242)], 0.9)
    # its read corner lies inside the first card, but only 60 pixels along its long side
    b = _card(ONE, [(620, 380), (700, 370), (710, 520), (630, 530)], 0.8)
    assert are_twins(a, b, PARAMS)
    assert joined(a, b, PARAMS) is None
    assert merge_twins([a, b], PARAMS) == ([a], set())


def test_twin_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="twin_inside"):
        FindParams(twin_inside=-0.1)
    with pytest.raises(ValueError, match="twin_aspect_tolerance"):
        FindParams(twin_aspect_tolerance=2.0)


BASE = ScannerParams()
WITHOUT = replace(BASE, find=replace(BASE.find, twin_inside=1.0))


@pytest.mark.parametrize(
    ("seed", "index"),
    [
        (9090, 19),  # a 1 on a pile read at both index corners, a detection from each
        (4714, 27),  # a covered 4 read at both index corners, two readings a little apart
        (4714, 18),  # a 4S's index read once as 4S and again, on an outline further in, as 4C
    ],
)
def test_a_held_out_card_once_read_twice_is_named_once(seed: int, index: int) -> None:
    image, scene = held_out_scene(seed, index)
    guarded = wrong_names(image, scene, WITHOUT)
    assert guarded, "the case no longer shows the mistake it guards"
    assert not set(guarded) & set(wrong_names(image, scene, BASE))
