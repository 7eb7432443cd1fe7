"""Octoplus cards found by the frame printed on their faces (``scanner.find_frame``,
``FindParams.octo_frame``)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.find_frame import frame_to_card, framed_cards
from scanner.find_top import outline_distance
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH
from scanner.params import FindParams, ScannerParams
from scorer.cards import DeckKind, parse_card
from tests.scanner.fixture_scenes import scene_mistakes
from tests.scanner.test_identify_heldout import held_out_scene

ON = ScannerParams()
OFF = replace(ON, find=replace(ON.find, octo_frame=False))


def _laid(card: str, corners: np.ndarray, table: int) -> np.ndarray:
    """A 1280 x 720 frame of a plain table of grey ``table`` with the Octoplus ``card``'s face
    laid on ``corners`` (TL TR BR BL of the upright face)."""
    face = render_face(parse_card(card, DeckKind.OCTOPLUS), 200, 280)
    src = np.array([[0, 0], [200, 0], [200, 280], [0, 280]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    frame = np.full((720, 1280, 3), table, np.uint8)
    mask = cv2.warpPerspective(np.full((280, 200), 255, np.uint8), matrix, (1280, 720))
    laid = cv2.warpPerspective(face, matrix, (1280, 720), flags=cv2.INTER_AREA)
    frame[mask > 0] = laid[mask > 0]
    return frame


def test_the_faces_own_frame_grows_to_the_whole_face() -> None:
    # the outer edge of the frame printed on a face, as a quad of the face: grown, the face itself
    from scanner.find_frame import _OUTER

    x0, y0, x1, y1 = _OUTER
    w, h = float(CARD_WIDTH), float(CARD_HEIGHT)
    frame = np.array([[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]])
    card = frame_to_card(frame)
    assert np.allclose(card, [[0, 0], [w, 0], [w, h], [0, h]], atol=1e-3)
    # a frame seen twice as large and moved: the card too
    assert np.allclose(frame_to_card(2 * frame + 50), 2 * card + 50, atol=1e-3)


@pytest.mark.parametrize(
    "corners",
    [
        # upright, turned a third of a right angle, and foreshortened as a tilted camera sees it
        np.array([[600, 300], [700, 300], [700, 440], [600, 440]], np.float64),
        np.array([[600, 300], [687, 350], [617, 471], [530, 421]], np.float64),
        np.array([[610, 300], [690, 300], [705, 410], [595, 410]], np.float64),
    ],
)
def test_a_cards_outline_is_grown_from_its_printed_frame(corners: np.ndarray) -> None:
    # a light card on a light table: the table, not the card, sets no edge to follow
    frame = _laid("5", corners, 225)
    found = framed_cards(frame, (0, 0, 1280, 720), FindParams())
    assert len(found) == 1
    assert outline_distance(found[0], corners) < 3.0


def test_no_frame_is_found_where_no_octoplus_face_lies() -> None:
    frame = np.full((720, 1280, 3), 200, np.uint8)
    cv2.rectangle(frame, (500, 200), (700, 500), (40, 40, 40), 3)  # a frame of no card's shape
    cv2.rectangle(frame, (800, 300), (812, 327), (40, 40, 40), 1)  # a frame's shape, of no card's size
    assert framed_cards(frame, (0, 0, 1280, 720), FindParams()) == []


@pytest.mark.parametrize("seed", [5151, 9292])
def test_a_pile_in_dim_light_names_its_top_card_by_its_frame(seed: int) -> None:
    # held-out scene 19: an Octoplus pile on light wood in dim light, under glare; its top card
    # shows no outline of its own, but its printed frame
    image, scene = held_out_scene(seed, 19)
    (top,) = [c["card"] for c in scene["cards"] if c["top"]]
    lost = f"{top} (pile) found, not identified"
    off, on = scene_mistakes(scene, image, OFF), scene_mistakes(scene, image, ON)
    assert lost in off  # the case the step guards still shows
    assert lost not in on
    # nothing named is lost; a card under it, found and not identified, may be found no more
    # (its outline's centre lies inside the top card and gave way to it)
    unfound = {m.replace("found, not identified", "not found") for m in off}
    assert {m for m in on if m not in off} <= unfound


def test_the_frame_parameters_are_validated() -> None:
    with pytest.raises(ValueError, match="octo_frame_block"):
        FindParams(octo_frame_block=14)
    with pytest.raises(ValueError, match="octo_frame_aspect"):
        FindParams(octo_frame_aspect=(1.2, 0.8))


def test_a_grey_frame_and_a_region_off_the_frame_are_taken() -> None:
    corners = np.array([[600, 300], [700, 300], [700, 440], [600, 440]], np.float64)
    grey = cv2.cvtColor(_laid("5", corners, 225), cv2.COLOR_BGR2GRAY)
    found = framed_cards(grey, (-500, -500, 2000, 2000), FindParams())  # clipped to the frame
    assert len(found) == 1 and outline_distance(found[0], corners) < 3.0
    assert framed_cards(grey, (1270, 710, 1300, 740), FindParams()) == []  # too small a region
