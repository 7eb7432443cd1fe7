"""A corner unclear at the card's aspect is read with its long side stretched (``stretch_reads``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from benchmarks.scanner_accuracy import score_scene
from scanner.covered_read import read_corner, read_corner_stretching
from scanner.find_geometry import FloatArray
from scanner.params import CARD_ASPECT, CoveredParams, ScannerParams
from scanner.scan import Scanner
from scanner.types import Image
from scorer.cards import DeckKind, parse_card
from tests.scanner.test_identify_heldout import held_out_scene

PARAMS = ScannerParams()

# scene 4242-39 (a camera tilted 15 degrees, four hand rows): the 7 of a row whose cards the tilt
# shows with a long side 1.07 times the card's aspect over their short side
SEED, INDEX, CARD = 4242, 39, "7"


@pytest.fixture(scope="module")
def scene() -> tuple[Image, dict[str, Any]]:
    return held_out_scene(SEED, INDEX)


def _at_aspect(doc: dict[str, Any]) -> tuple[FloatArray, float]:
    """The 7's index corner laid out at the card's aspect (its true corner point and short side),
    and its true long side over its short side."""
    card = next(c for c in doc["cards"] if c["card"] == CARD and c["identifiable"])
    quad = np.roll(np.asarray(card["corners"], np.float64), -2 * card["index_visible"].index(True), axis=0)
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    short, long = float(np.hypot(*across)), float(np.hypot(*down))
    down = down / long * short * CARD_ASPECT
    return np.array([quad[0], quad[1], quad[1] + down, quad[0] + down]), long / short / CARD_ASPECT


def test_a_foreshortened_corner_is_named_stretched(scene: tuple[Image, dict[str, Any]]) -> None:
    image, doc = scene
    templates = Scanner(DeckKind.OCTOPLUS).templates
    assert templates is not None
    quad, stretch = _at_aspect(doc)
    assert stretch > 1.05
    first = read_corner(image, quad, templates, PARAMS)
    assert first.card is None and first.score >= PARAMS.covered.turn_min_score
    reading, reads = read_corner_stretching(image, quad, first, templates, PARAMS, budget=8)
    assert reading is not None and reading.card == parse_card(CARD, DeckKind.OCTOPLUS)
    assert reads == len(PARAMS.covered.stretch_steps)
    # shortened only, or with no budget: not named
    shorter = replace(PARAMS, covered=replace(PARAMS.covered, stretch_steps=(-0.07,)))
    assert read_corner_stretching(image, quad, first, templates, shorter, budget=8)[0] is None
    assert read_corner_stretching(image, quad, first, templates, PARAMS, budget=0) == (None, 0)


def test_a_corner_named_as_it_lay_is_not_stretched(scene: tuple[Image, dict[str, Any]]) -> None:
    image, doc = scene
    templates = Scanner(DeckKind.OCTOPLUS).templates
    assert templates is not None
    card = next(c for c in doc["cards"] if c["card"] == CARD and c["identifiable"])
    quad = np.roll(np.asarray(card["corners"], np.float64), -2 * card["index_visible"].index(True), axis=0)
    first = read_corner(image, quad, templates, PARAMS)
    assert first.card is not None
    assert read_corner_stretching(image, quad, first, templates, PARAMS, budget=8) == (None, 0)


def test_stretch_params_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.stretch_reads"):
        CoveredParams(stretch_reads=-1)
    with pytest.raises(ValueError, match=r"covered\.stretch_steps"):
        CoveredParams(stretch_steps=(0.7,))
    with pytest.raises(ValueError, match=r"covered\.stretch_steps"):
        CoveredParams(stretch_steps=())


def test_one_card_read_stretched_from_both_index_corners_is_one_card() -> None:
    # scene 4444-3: lone Octoplus cards under a camera tilted 15 degrees; the 1 near the right edge
    # shows a long side 1.15 times the card's aspect over its short side, and its two index corners
    # both name it (one stretched): laid out at the card's aspect from either corner, the two cards
    # lie 0.21 of the short side apart, yet they are one card
    image, doc = held_out_scene(4444, 3)
    deck = DeckKind(doc["deck"])
    tallies, mistakes = score_scene(doc, Scanner(deck, params=PARAMS).scan(image).detections, deck)
    assert not [m for m in mistakes if " read as " in m or "false card" in m]
    assert sum(t.identified for t in tallies.values()) == sum(1 for c in doc["cards"] if c["identifiable"])
