"""The corners the frame-wide size probe read and left unnamed are read again at the size it chose
(``CoveredParams.probe_reread``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.scanner_accuracy import score_scene
from scanner.params import CoveredParams
from scanner.scan import Scanner
from scorer.cards import DeckKind
from tests.scanner.fixture_scenes import NO_FRAMES

SCENES = Path(__file__).resolve().parents[1] / "fixtures" / "scenes"
ON = NO_FRAMES  # on by default
OFF = replace(ON, covered=replace(ON.covered, probe_reread=False))


def test_a_pile_card_the_probe_read_unclear_is_named_at_the_size_it_chose() -> None:
    """scene_019: a pile with no card identified by the finder; the size probe names the top
    card 2 at 107.6 px (true 97) and reads the P's corner there unclear (its least part under the
    Octoplus threshold). Read again at that size as every other corner (turned, moved), it names
    the P; left out of the reads after the probe, the P stays unnamed."""
    truth = json.loads((SCENES / "truth.json").read_text())
    scene = next(s for s in truth["scenes"] if s["file"] == "scene_019.jpg")
    frame = np.asarray(cv2.imread(str(SCENES / scene["file"]), cv2.IMREAD_COLOR), np.uint8)
    pile_p = next(c for c in scene["cards"] if c["card"] == "P" and c["identifiable"])
    centre = np.asarray(pile_p["corners"], np.float64).mean(axis=0)
    short = float(np.hypot(*np.subtract(pile_p["corners"][1], pile_p["corners"][0])))
    results = {}
    for name, params in (("off", OFF), ("on", ON)):
        detections = Scanner(DeckKind.OCTOPLUS, params=params).scan(frame).detections
        near = [
            d
            for d in detections
            if str(d.card) == "P" and np.hypot(*(np.asarray(d.corners).mean(axis=0) - centre)) < 0.25 * short
        ]
        tallies, _ = score_scene(scene, detections, DeckKind.OCTOPLUS)
        results[name] = (
            len(near),
            sum(t.identified for t in tallies.values()),
            sum(t.wrong for t in tallies.values()),
            sum(t.top_right for t in tallies.values()),
        )
    assert results["off"][0] == 0
    assert results["on"][0] == 1
    assert results["on"][1] == results["off"][1] + 1  # the P, nothing lost
    assert results["on"][2] == results["off"][2] == 0  # no wrong name
    assert results["on"][3] == results["off"][3]  # the pile's top card as before


def test_probe_reread_is_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.probe_reread"):
        CoveredParams(probe_reread=1)  # type: ignore[arg-type]
