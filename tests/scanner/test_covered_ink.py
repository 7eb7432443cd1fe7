"""A lone standard corner whose index ink is black is not named as a red card
(``CoveredParams.black_ink``: the red cards lose the identifier's colour penalty there)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from scanner.covered_read import read_corner
from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scanner.types import Image
from scorer.cards import DeckKind, StdCard
from tests.scanner.test_identify_heldout import assert_wrong_names_mended, held_out_scene

BASE = ScannerParams()
# the identifier's own threshold for black ink, the corner reads' before this parameter (and the
# spade-or-club check by the face's rank off: it names another card of the scene, after which the
# lone corner below is read no more)
LOOSE = replace(
    BASE,
    covered=replace(BASE.covered, black_ink=BASE.identify.black_ink),
    identify=replace(BASE.identify, suit_face_rank_margin=2.0),
)

# held-out scene 5555-2: a whole 6C beside an arm, not found by the finder, read at its lone
# corner as 6D by the second look (0.009 ahead of 4D): its ink's redness is 0.032, just over the
# identifier's black threshold (0.03), so the red cards kept their scores
SEED, INDEX = 5555, 2


@pytest.fixture(scope="module")
def scene() -> tuple[Image, dict[str, Any]]:
    return held_out_scene(SEED, INDEX)


def test_a_black_corner_read_as_a_red_card_names_no_red_card(scene: tuple[Image, dict[str, Any]]) -> None:
    image, doc = scene
    scanner = Scanner(DeckKind(doc["deck"]), params=LOOSE)
    assert scanner.templates is not None
    red = [
        d
        for d in scanner.scan(image).detections
        if isinstance(d.card, StdCard) and d.card.suit.is_red and d.card.rank == 6
    ]
    assert red, "the case no longer shows the mistake it guards"
    quad = np.asarray(red[0].corners, np.float64)
    assert read_corner(image, quad, scanner.templates, LOOSE).card == red[0].card
    again = read_corner(image, quad, scanner.templates, BASE)
    assert again.card is None or not (isinstance(again.card, StdCard) and again.card.suit.is_red)


def test_the_scan_loses_the_wrong_red_name() -> None:
    assert_wrong_names_mended(SEED, INDEX, LOOSE, BASE)


def test_the_corner_black_ink_is_validated() -> None:
    assert CoveredParams(black_ink=0.0).black_ink == 0.0
    with pytest.raises(ValueError, match="black_ink"):
        CoveredParams(black_ink=-0.01)
    with pytest.raises(ValueError, match="black_ink"):
        CoveredParams(black_ink=1.5)
