"""The second, wider index search for cards whose quad is a few pixels off."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.identify import identify
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.templates import Templates, expected_cards
from scanner.types import Image
from scorer.cards import DeckKind, OctoCard, StdCard

PARAMS = IdentifyParams()
NARROW = replace(PARAMS, wide_search_px=0)
"""The first search alone."""


def shifted(card: StdCard | OctoCard, dx: int, dy: int) -> Image:
    """The card's face moved by ``(dx, dy)`` inside its cut-out (table showing at two edges), blurred."""
    image = render_face(card, CARD_WIDTH, CARD_HEIGHT)
    matrix = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float32)
    moved = cv2.warpAffine(image, matrix, (CARD_WIDTH, CARD_HEIGHT), borderValue=(60, 110, 60))
    return np.asarray(cv2.GaussianBlur(moved, (0, 0), 1.0), dtype=np.uint8)


# an Octoplus centre is big: the first search already absorbs such shifts
@pytest.mark.parametrize(("deck", "gain"), [(DeckKind.OKTRIS, 30), (DeckKind.OCTOPLUS, 0)])
def test_a_card_cut_out_a_few_pixels_beyond_the_first_search_is_named_by_the_wider_one(
    deck: DeckKind, gain: int
) -> None:
    templates = Templates.builtin(deck)
    narrow_right = wide_right = added_wrong = 0
    for card in expected_cards(deck):
        for dx, dy in ((10, 10), (-10, 9), (11, -11)):
            image = shifted(card, dx, dy)
            first = identify(image, templates, NARROW)
            both = identify(image, templates, PARAMS)
            narrow_right += first.card == card
            wide_right += both.card == card
            added_wrong += first.card is None and both.card is not None and both.card != card
    assert added_wrong == 0
    assert wide_right >= narrow_right + gain, (narrow_right, wide_right)


def test_the_wider_search_is_not_tried_when_switched_off() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    card = StdCard.parse("5H")
    image = shifted(card, 10, 10)
    assert identify(image, templates, PARAMS).card == card
    assert identify(image, templates, replace(PARAMS, wide_search_px=PARAMS.search_px)).card is None
