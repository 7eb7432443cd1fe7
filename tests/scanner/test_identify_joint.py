"""Rank from the whole face, suit from the index: the joint rule of ``scanner.identify``."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from scanner.faces import render_face
from scanner.identify import identify
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.templates import Templates, expected_cards
from scanner.types import Image
from scorer.cards import DeckKind, StdCard

PARAMS = IdentifyParams()
JOINT_OFF = replace(PARAMS, rank_face_margin=2.0)


def smudged_ranks(card: StdCard, sigma: float) -> Image:
    """The card's face with the rank of both corner indices blurred away (the suits kept)."""
    image = render_face(card, CARD_WIDTH, CARD_HEIGHT)
    rank = PARAMS.index_rank_region
    for _ in range(2):
        blurred = cv2.GaussianBlur(image, (0, 0), sigma)
        image[rank.y0 : rank.y1, rank.x0 : rank.x1] = blurred[rank.y0 : rank.y1, rank.x0 : rank.x1]
        image = np.ascontiguousarray(image[::-1, ::-1])
    return image


def test_a_card_whose_index_ranks_are_smudged_is_named_from_its_pips_and_index_suits() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    cards = [card for card in expected_cards(DeckKind.OKTRIS) if isinstance(card, StdCard)]
    without = with_joint = wrong = 0
    for card in cards:
        image = smudged_ranks(card, 5.0)
        without += identify(image, templates, JOINT_OFF).card == card
        answer = identify(image, templates, PARAMS)
        with_joint += answer.card == card
        wrong += answer.card is not None and answer.card != card
    assert wrong == 0
    assert without <= len(cards) // 4, without
    assert with_joint >= 0.9 * len(cards), with_joint


def test_the_joint_rule_needs_the_whole_face() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    card = StdCard.parse("5H")
    image = smudged_ranks(card, 5.0)
    assert identify(image, templates, PARAMS).card == card
    covered = image.copy()
    covered[90:, 60:] = (60, 110, 60)  # the pips of the lower right half hidden under a card
    assert identify(covered, templates, PARAMS).card is None
