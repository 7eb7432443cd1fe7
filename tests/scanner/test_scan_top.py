"""Top marking once the covered cards named from a corner have joined the cards found."""

from __future__ import annotations

import numpy as np

from scanner.find_geometry import as_quad
from scanner.find_work import make_work
from scanner.params import FindParams
from scanner.scan import _retop
from scanner.types import Detection, Quad
from scorer.cards import DeckKind, parse_card
from tests.scanner.test_find import card_quad, draw_card, table

PARAMS = FindParams()
SEVEN = parse_card("7H", DeckKind.OKTRIS)


def _scene() -> tuple[np.ndarray, Quad, Quad]:
    img = table((40, 100, 30))
    below = card_quad(600, 360, 180, 0)
    above = card_quad(680, 400, 180, 35)
    draw_card(img, below, outline=120)
    draw_card(img, above, outline=120)
    return img, as_quad(below), as_quad(above)


def test_a_card_named_from_a_corner_that_lies_over_another_is_marked_top() -> None:
    img, below, above = _scene()
    work = make_work(img, PARAMS)
    found = Detection(card=None, confidence=0.2, corners=below, top=False)
    named = Detection(card=SEVEN, confidence=0.8, corners=above, top=False)
    out = _retop([found, named], {id(found)}, work, PARAMS)
    assert [d.top for d in out] == [False, True]


def test_a_card_named_from_a_corner_under_another_is_not_marked_top_nor_demotes_it() -> None:
    img, below, above = _scene()
    work = make_work(img, PARAMS)
    found = Detection(card=None, confidence=0.2, corners=above, top=True)
    named = Detection(card=SEVEN, confidence=0.8, corners=below, top=False)
    out = _retop([found, named], {id(found)}, work, PARAMS)
    assert [d.top for d in out] == [True, False]
    # a whole card found keeps its flag even where a corner's reading seems to lie over it
    lying = Detection(card=None, confidence=0.2, corners=below, top=True)
    over = Detection(card=SEVEN, confidence=0.8, corners=above, top=False)
    out = _retop([lying, over], {id(lying)}, work, PARAMS)
    assert [d.top for d in out] == [True, True]
