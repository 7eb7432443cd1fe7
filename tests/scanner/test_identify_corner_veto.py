"""An Octoplus card read clearly at its centre is not left unnamed by a corner index that names
another card by a hair (``IdentifyParams.corner_veto_ratio``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner.find import warp_card
from scanner.find_geometry import as_quad
from scanner.identify import identify
from scanner.identify_params import IdentifyParams
from scanner.params import FindParams
from scanner.templates import Templates
from scorer.cards import DeckKind, parse_card
from tests.scanner.fixture_scenes import NO_FRAMES, scene_mistakes
from tests.scanner.test_identify_heldout import held_out_scene

OCTOPLUS = Templates.builtin(DeckKind.OCTOPLUS)
ON = IdentifyParams()
OFF = replace(ON, corner_veto_ratio=0.0)


def test_a_clear_centre_outweighs_a_corner_read_by_a_hair() -> None:
    # held-out 9753-31: a lone 6 on light wood under glare; its centre reads 6 at 0.90, 0.14 ahead
    # of the 4, and its small corner label reads 4 at 0.61, 0.04 ahead of the 6
    image, scene = held_out_scene(9753, 31)
    (six,) = [c for c in scene["cards"] if c["card"] == "6"]
    card = warp_card(image, as_quad(np.array(six["corners"], np.float64)), FindParams())
    assert identify(card, OCTOPLUS, OFF).card is None  # the case the ratio guards still shows
    assert identify(card, OCTOPLUS, ON).card == parse_card("6", DeckKind.OCTOPLUS)

    # and the scanner names it in the frame (the printed-frame step off: its outline, grown from
    # the face's frame, reads the corner label otherwise)
    def lost(params: IdentifyParams) -> list[str]:
        mistakes = scene_mistakes(scene, image, replace(NO_FRAMES, identify=params))
        return [m for m in mistakes if m.startswith("6 ")]

    assert lost(OFF) and not lost(ON)


def test_the_ratio_is_validated() -> None:
    with pytest.raises(ValueError, match="corner_veto_ratio"):
        IdentifyParams(corner_veto_ratio=-1.0)
