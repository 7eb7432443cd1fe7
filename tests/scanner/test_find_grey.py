"""A card hardly lighter than a strongly coloured table (wood in dim light) is grey against it:
a frame where no card is named is looked at again with grey pixels taken for card pixels
(``FindParams.grey_look``, ``paper_chroma``, ``table_chroma``)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.find import find_cards
from scanner.find_geometry import poly_mask
from scanner.find_work import coloured_table, grey_on_colour, make_work
from scanner.params import FindParams, ScannerParams
from tests.scanner.fixture_scenes import named_near
from tests.scanner.test_find import best_match, card_quad, draw_card, table
from tests.scanner.test_identify_heldout import held_out_top

WOOD = (105, 140, 170)  # BGR: a light, warm brown
PARAMS = FindParams()
GREY = replace(PARAMS, paper_chroma=PARAMS.grey_look)


def _lightness(bgr: tuple[int, int, int]) -> int:
    return int(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB)[0, 0, 0])


def test_a_wood_table_is_coloured_and_a_grey_one_is_not() -> None:
    assert coloured_table(table(WOOD), PARAMS)
    assert coloured_table(table((40, 110, 30)), PARAMS)  # green felt
    assert not coloured_table(table((150, 150, 150)), PARAMS)
    assert not coloured_table(table((235, 235, 235)), PARAMS)


def test_only_a_coloured_table_showing_grey_enough_for_a_card_is_looked_at_again() -> None:
    img = table(WOOD)
    assert not grey_on_colour(img, PARAMS, PARAMS.grey_look)  # an empty table: nothing to find
    draw_card(img, card_quad(640, 360, 200, 12), paper=150)
    assert grey_on_colour(img, PARAMS, PARAMS.grey_look)
    grey = table((140, 140, 140))
    draw_card(grey, card_quad(640, 360, 200, 12), paper=150)
    assert not grey_on_colour(grey, PARAMS, PARAMS.grey_look)  # a grey table: lightness tells


def test_a_grey_card_a_few_levels_lighter_than_wood_is_card_pixels_only_as_grey() -> None:
    paper = 150
    assert 0 < _lightness((paper, paper, paper)) - _lightness(WOOD) < PARAMS.white_margin
    img = table(WOOD)
    quad = card_quad(640, 360, 200, 12)
    draw_card(img, quad, paper=paper)
    inside = poly_mask(quad / 2.0, (360, 640)) > 0  # at work scale (half)
    plain = make_work(img, PARAMS).mask[inside]
    grey = make_work(img, GREY).mask[inside]
    assert np.count_nonzero(plain) < 0.05 * plain.size
    assert np.count_nonzero(grey) > 0.8 * grey.size
    assert not find_cards(img, PARAMS)
    card, err = best_match(find_cards(img, GREY), quad)
    assert card is not None and err < 3.0, err


def test_grey_pixels_on_a_grey_table_are_not_taken() -> None:
    img = table((140, 140, 140))
    draw_card(img, card_quad(640, 360, 200, 12), paper=146)
    assert np.array_equal(make_work(img, GREY).mask, make_work(img, PARAMS).mask)


def test_a_dim_octoplus_pile_on_wood_is_named_by_the_grey_look() -> None:
    """Held-out scene 2468-19: an Octoplus pile on light wood in dim light, its top card a +2; the
    cards are no more than 14 levels lighter than the wood beside the pile (the red print cuts the
    top card's paper into scraps), so the finder finds nothing. Looked at again with grey pixels
    for card pixels, the +2 is found whole, named and marked top."""
    image, deck, card, centre = held_out_top(2468, 19)
    assert card == "+2"
    base = ScannerParams()
    # (the ladder off too: it names the +2 from the scraps' corners laid out at other sizes)
    off = replace(base, find=replace(base.find, grey_look=0.0, ladder_reads=0))
    assert named_near(image, deck, off, centre, 20.0) == []
    assert named_near(image, deck, base, centre, 20.0) == [("+2", True)]


@pytest.mark.parametrize("field", ["paper_chroma", "table_chroma", "grey_look"])
def test_the_grey_fields_are_validated(field: str) -> None:
    with pytest.raises(ValueError, match=f"find.{field}"):
        FindParams(**{field: -1.0})
