"""A found outline ranking first a neighbour identified beside it vetoes no corner's name
(``CoveredParams.veto_near``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scorer.cards import DeckKind
from tests.scanner.fixture_scenes import identified_and_wrong

SCENES = Path(__file__).resolve().parents[1] / "fixtures" / "scenes"
# on by default; the 5's corner is named by the blurred read of unclear labels (``octo_blur``, on
# by default), on in both. The outline's first card (+2 at 0.11) scores under ``veto_score``, which
# alone keeps the 5 too: any score vetoes here, to show this rule alone
ON = ScannerParams()
# (the second covered reading at the named cards' size, ``named_size``, names the 5 too: off)
ON = replace(ON, covered=replace(ON.covered, veto_score=0.0, named_size=0.0))
OFF = replace(ON, covered=replace(ON.covered, veto_near=0.0))


def test_the_fan_card_under_its_named_neighbour_is_named() -> None:
    """scene_041: the fan's covered 5 is found as an outline whose centre lies under the +2 over
    it (the identifier ranks +2 first, at 0.11); its corner names 5, and the +2 is identified
    0.33 short sides from that outline."""
    truth = json.loads((SCENES / "truth.json").read_text())
    scene = next(s for s in truth["scenes"] if s["file"].startswith("scene_041"))
    frame = cv2.imread(str(SCENES / scene["file"]))
    five = next(c for c in scene["cards"] if c["card"] == "5" and c["group"] == "fan")
    corner = np.asarray(five["corners"], np.float64)[0]
    results = {}
    for name, params in (("off", OFF), ("on", ON)):
        detections = Scanner(DeckKind.OCTOPLUS, params=params).scan(frame).detections
        near = [
            d
            for d in detections
            if str(d.card) == "5" and np.hypot(*(np.asarray(d.corners[0]) - corner)) < 15
        ]
        results[name] = (len(near), *identified_and_wrong(scene, detections, DeckKind.OCTOPLUS))
    assert results["off"][0] == 0
    assert results["on"][0] == 1
    assert results["on"][1] == results["off"][1] + 1
    assert results["on"][2] == results["off"][2] == 0


def test_the_parameter_is_validated() -> None:
    with pytest.raises(ValueError, match="veto_near"):
        CoveredParams(veto_near=-0.5)
