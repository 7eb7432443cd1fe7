"""Hand rows under a named card: the cards one step along its short side, read along the straight
outline past its index corner (``CoveredParams.row_reads``)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.find_corners import row_run
from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scanner.types import Detection
from scorer.cards import DeckKind, parse_card
from tests.scanner.fixture_scenes import fixture_scene


def _card(corner: tuple[float, float], degrees: float, short: float = 60.0) -> np.ndarray:
    """A card (TL TR BR BL, work pixels) with its index corner at ``corner``, its short side turned
    ``degrees``."""
    rad = math.radians(degrees)
    across = np.array([math.cos(rad), math.sin(rad)])
    down = np.array([-across[1], across[0]])
    p = np.asarray(corner, np.float64)
    return np.array([p, p + short * across, p + short * across + 1.4 * short * down, p + 1.4 * short * down])


def _mask(*quads: np.ndarray) -> np.ndarray:
    mask = np.zeros((300, 400), np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
    return mask


@pytest.mark.parametrize("degrees", [0.0, 20.0, -35.0])
def test_a_row_under_a_card_shows_its_outline_running_on_past_the_index_corner(degrees: float) -> None:
    top = _card((200.0, 100.0), degrees)
    step = top[0] - top[1]  # the row steps along the short side, away from the top card's far side
    under = [top + step * f for f in (0.35, 0.7)]
    assert row_run(top, _mask(*under, top), 0.3, 2.0)
    # a lone card, a card beside it square to the line, a card slid along its long side: no run
    assert not row_run(top, _mask(top), 0.3, 2.0)
    down = top[3] - top[0]
    assert not row_run(top, _mask(top + down * 0.3, top), 0.3, 2.0)
    assert not row_run(top, _mask(top + step * 0.35 - down * 0.2, top), 0.3, 2.0)
    # the line running out of the frame: no run
    assert not row_run(top - top[0] + [2.0, 2.0], _mask(top - top[0] + [2.0, 2.0]), 0.3, 2.0)


def test_the_card_under_a_hand_rows_top_card_is_named_along_its_outline() -> None:
    # fixture scene_025: a hand row in the top left corner, its 4 on top and named; the 1 under it
    # shows a strip one step (0.36 of the short side) along, its corner white on white on the
    # card below it and in line with the 4's short side: never proposed as a corner
    truth, image = fixture_scene("scene_025.jpg")
    deck = DeckKind(truth["deck"])
    present = Counter(parse_card(c["card"], deck) for c in truth["cards"] if c["identifiable"])
    one = parse_card("1", deck)

    def detections(reads: int) -> list[Detection]:
        params = replace(ScannerParams(), covered=CoveredParams(row_reads=reads))
        return Scanner(deck, params=params).scan(image).detections

    on = detections(CoveredParams().row_reads)
    named_on = Counter(d.card for d in on if d.card is not None)
    named_off = Counter(d.card for d in detections(0) if d.card is not None)
    assert not named_on - present  # none wrong
    assert named_on[one] == 1 and named_off[one] == 0
    place = np.mean(next(c["corners"] for c in truth["cards"] if c["card"] == "1"), axis=0)
    found = next(d for d in on if d.card == one)
    assert np.hypot(*(np.mean(found.corners, axis=0) - place)) < 15.0
    assert not found.top


def test_covered_row_params_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.row_reads"):
        CoveredParams(row_reads=-1)
    with pytest.raises(ValueError, match=r"covered\.row_reach"):
        CoveredParams(row_reach=-0.1)
    with pytest.raises(ValueError, match=r"covered\.row_margin"):
        CoveredParams(row_margin=float("nan"))
    with pytest.raises(ValueError, match=r"covered\.row_steps"):
        CoveredParams(row_steps=())
    with pytest.raises(ValueError, match=r"covered\.row_agree"):
        CoveredParams(row_agree=0)
