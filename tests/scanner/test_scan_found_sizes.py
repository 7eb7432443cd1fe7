"""Where the outlines found are no card's size and the size probe names nothing, the likeliest of
its sizes are read after theirs (``CoveredParams.found_sizes``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner.params import CoveredParams
from scanner.scan import Scanner
from scorer.cards import DeckKind
from tests.scanner.fixture_scenes import NO_FRAMES, identified_and_wrong
from tests.scanner.test_identify_heldout import held_out_scene

ON = NO_FRAMES  # on by default
OFF = replace(ON, covered=replace(ON.covered, found_sizes=1))


def test_hand_rows_outlined_as_one_card_are_read_at_the_probes_sizes() -> None:
    """Held-out scene 8484-39: four Octoplus hand rows, no card identified by the finder; three
    rows are outlined each as one card-shaped blob (short sides 105-154 px against a true 88-124),
    so the frame's size (their median, 139 px) names no corner, nor does the probe at any of its
    sizes. Read at its next likeliest size too (104 px), the bottom row's top card 2 and the four
    cards of the top row are named; at the outlines' size alone, none of them (the right-hand
    row's 7, of the frame's largest cards, is named either way)."""
    image, scene = held_out_scene(8484, 39)
    bottom_two = next(c for c in scene["cards"] if c["card"] == "2" and c["top"])
    centre = np.asarray(bottom_two["corners"], np.float64).mean(axis=0)
    results = {}
    for name, params in (("off", OFF), ("on", ON)):
        detections = Scanner(DeckKind.OCTOPLUS, params=params).scan(image).detections
        twos = [np.mean(d.corners, axis=0) for d in detections if str(d.card) == "2"]
        near = [at for at in twos if np.hypot(*(at - centre)) < 25.0]
        results[name] = (len(near), *identified_and_wrong(scene, detections, DeckKind.OCTOPLUS))
    assert results["off"][0] == 0
    assert results["on"][0] == 1
    assert results["on"][1] >= results["off"][1] + 4
    assert results["on"][2] == results["off"][2] == 0  # no wrong name


def test_found_sizes_is_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.found_sizes"):
        CoveredParams(found_sizes=0)
