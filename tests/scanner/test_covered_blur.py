"""A soft Octoplus corner label is read again against blurred templates (``CoveredParams.octo_blur``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.covered_read import read_corner
from scanner.faces import render_face
from scanner.identify_params import IdentifyParams
from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scanner.templates import Templates
from scorer.cards import DeckKind, parse_card

ON = ScannerParams()  # on by default, at 1.5
OFF = replace(ON, covered=replace(ON.covered, octo_blur=0.0))
WHOLE = np.array([[0, 0], [200, 0], [200, 280], [0, 280]], np.float64)
SCENES = Path(__file__).resolve().parents[1] / "fixtures" / "scenes"


@pytest.fixture(scope="module")
def templates() -> Templates:
    found = Scanner(DeckKind.OCTOPLUS).templates
    assert found is not None
    return found


@pytest.mark.parametrize("label", ["2", "5", "+2", "P"])
def test_a_blurred_label_is_named_only_against_blurred_templates(templates: Templates, label: str) -> None:
    card = parse_card(label, DeckKind.OCTOPLUS)
    face = cv2.GaussianBlur(render_face(card, 200, 280), (0, 0), 3.5)
    sharp = read_corner(face, WHOLE, templates, OFF)
    assert sharp.card is None and sharp.candidate == card  # ranked first, under the thresholds
    assert read_corner(face, WHOLE, templates, ON).card == card
    # not in a size probe's read, nor under the sharp read's score floor
    assert read_corner(face, WHOLE, templates, ON, clear_labels=False).card is None
    floor = replace(ON, covered=replace(ON.covered, octo_blur_min_score=sharp.score + 0.01))
    assert read_corner(face, WHOLE, templates, floor).card is None


def test_blank_paper_names_nothing_against_blurred_templates(templates: Templates) -> None:
    paper = np.full((280, 200, 3), 240, np.uint8)
    noise = np.random.default_rng(5).normal(0.0, 6.0, paper.shape)
    paper = np.clip(paper + noise, 0, 255).astype(np.uint8)
    assert read_corner(paper, WHOLE, templates, ON).card is None


def test_the_fixture_hand_and_fan_labels_are_named_at_their_true_corners(templates: Templates) -> None:
    """scene_025's +2 (a hand) and scene_041's fan 5: their parts read 0.61-0.62 against the sharp
    templates, under ``octo_min_part_score``, and pass every threshold against blurred ones."""
    truth = json.loads((SCENES / "truth.json").read_text())
    for name, label, group in (("scene_025", "+2", "hand"), ("scene_041", "5", "fan")):
        scene = next(s for s in truth["scenes"] if s["file"].startswith(name))
        frame = cv2.imread(str(SCENES / scene["file"]))
        doc = next(c for c in scene["cards"] if c["card"] == label and c["group"] == group)
        quad = np.asarray(doc["corners"], np.float64)
        card = parse_card(label, DeckKind.OCTOPLUS)
        assert read_corner(frame, quad, templates, OFF).card is None
        assert read_corner(frame, quad, templates, ON).card == card


def test_the_parameters_are_validated() -> None:
    with pytest.raises(ValueError, match="octo_blur"):
        CoveredParams(octo_blur=-1.0)
    with pytest.raises(ValueError, match="octo_blur_lead"):
        CoveredParams(octo_blur_lead=-0.1)
    with pytest.raises(ValueError, match="template_blur"):
        IdentifyParams(template_blur=11.0)
