"""One face whose printed frame meets a thin end margin is not a row of cards: the two side
margins it cuts apart lie far apart, while a row's cards abut (``FindParams.row_gap``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner.find import _several_cards
from scanner.find_work import make_work
from scanner.params import FindParams
from tests.scanner.fixture_scenes import NO_FRAMES, scene_mistakes
from tests.scanner.test_find import card_quad, draw_card, row_of_cards, table
from tests.scanner.test_identify_heldout import held_out_scene

ON = NO_FRAMES
OFF = replace(ON, find=replace(ON.find, row_gap=1.0))


def _framed_card(p: FindParams) -> bool:
    """Whether ``_several_cards`` takes a drawn card for a row: a face whose printed frame (a
    dark rectangle over the middle 40% of its width) runs from end to end of the card, so that
    its two side margins are cut apart."""
    img = table((110, 60, 20))
    quad = card_quad(640, 360, 150, 0)
    draw_card(img, quad)
    tl, tr, _br, bl = quad
    left = np.round(tl + (tr - tl) * 0.3).astype(int)
    right = np.round(tl + (tr - tl) * 0.7 + (bl - tl)).astype(int)
    img[left[1] : right[1], left[0] - 1 : left[0] + 2] = 40
    img[left[1] : right[1], right[0] - 1 : right[0] + 2] = 40
    work = make_work(img, p)
    return _several_cards(quad * work.scale, work, p)


def _row(p: FindParams) -> bool:
    """Whether ``_several_cards`` takes three drawn cards overlapping in a row, outlined by one
    card-shaped quad, for a row."""
    img = table((110, 60, 20))
    quads = row_of_cards(img, 600, 150.0, 0.3)
    work = make_work(img, p)
    outline = np.array([quads[0][0], quads[2][1], quads[2][2], quads[0][3]], np.float64)
    return _several_cards(outline * work.scale, work, p)


def test_a_framed_face_is_one_card_and_a_row_stays_a_row() -> None:
    assert _framed_card(OFF.find)  # the case the limit guards: the margins look like a row
    assert not _framed_card(ON.find)
    assert _row(ON.find) and _row(OFF.find)


def test_a_whole_octoplus_card_whose_frame_meets_its_end_margin_is_found() -> None:
    # a held-out hand scene seen at a tilt: the bottom seat's lone 5 shows a thin end margin, and
    # its side margins were taken for two cards of a row, so the card was never outlined
    image, scene = held_out_scene(3579, 39)
    lost = "5 (hand) not found"
    assert lost in scene_mistakes(scene, image, OFF)
    assert lost not in scene_mistakes(scene, image, ON)


def test_the_row_gap_is_validated() -> None:
    with pytest.raises(ValueError, match="row_gap"):
        FindParams(row_gap=-0.1)
