"""Which of two named cards lies over the other, told by the print where they overlap, and how
that sign and the index read inside another card join the sides' answer."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.find_top import index_over, order_above, top_flags
from scanner.find_top_print import print_over
from scanner.find_work import Work, make_work
from scanner.params import FindParams
from scanner.templates import Templates
from scorer.cards import Card, DeckKind, parse_card
from tests.scanner.test_find import card_quad, draw_card, table

PARAMS = FindParams()
DECK = DeckKind.OCTOPLUS
TEMPLATES = Templates.builtin(DECK)


def _lay(img: np.ndarray, card: Card, quad: np.ndarray) -> None:
    """Paint ``card``'s template face onto ``img`` along ``quad`` (TL TR BR BL upright)."""
    face = TEMPLATES.faces[card][0]
    h, w = face.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = (img.shape[1], img.shape[0])
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size)
    img[mask > 128] = warped[mask > 128]


def _fan(order: tuple[int, int]) -> tuple[np.ndarray, list[np.ndarray], list[Card]]:
    """Two cards fanned (the second turned 25 degrees from the first), laid in ``order``."""
    cards = [parse_card("3", DECK), parse_card("6", DECK)]
    quads = [card_quad(600, 380, 200, -10), card_quad(680, 400, 200, 15)]
    img = table((40, 100, 30))
    for k in order:
        _lay(img, cards[k], quads[k])
    return img, quads, cards


@pytest.mark.parametrize("upper", [0, 1])
def test_the_card_whose_print_shows_where_two_overlap_lies_over_the_other(upper: int) -> None:
    img, quads, cards = _fan((1 - upper, upper))
    work = make_work(img, PARAMS)
    scaled = [q * work.scale for q in quads]
    over = print_over(scaled, list(cards), TEMPLATES, work, PARAMS, [(0, 1)])
    expected = np.zeros((2, 2), bool)
    expected[upper, 1 - upper] = True
    assert over.tolist() == expected.tolist()


def test_print_tells_nothing_of_a_card_not_named_or_where_the_pair_is_not_compared() -> None:
    img, quads, cards = _fan((0, 1))
    work = make_work(img, PARAMS)
    scaled = [q * work.scale for q in quads]
    assert not print_over(scaled, [cards[0], None], TEMPLATES, work, PARAMS, [(0, 1)]).any()
    assert not print_over(scaled, list(cards), TEMPLATES, work, PARAMS, []).any()
    # a margin no correlation can reach leaves every pair undecided
    never = FindParams(top_print_margin=2.5)
    assert not print_over(scaled, list(cards), TEMPLATES, work, never, [(0, 1)]).any()


def _stair() -> tuple[list[np.ndarray], Work]:
    """Three cards each overlapping the next by a strip, on an empty table: no side shows (the
    sides tell nothing) and no card's index box lies inside another (the index tells nothing)."""
    img = table((40, 100, 30))
    work = make_work(img, PARAMS)
    quads = [card_quad(520 + 130 * k, 460 - 100 * k, 180, 0) * work.scale for k in range(3)]
    assert not order_above(quads, work, PARAMS).any()
    return quads, work


def test_the_print_orders_cards_the_sides_and_the_index_leave_undecided() -> None:
    quads, work = _stair()
    named, whole, marked = [True] * 3, [True] * 3, [True] * 3
    assert top_flags(quads, named, whole, marked, work, PARAMS) == [True, True, True]
    printed = np.zeros((3, 3), bool)
    printed[2, 1] = printed[1, 0] = True  # 2 over 1 over 0
    flags = top_flags(quads, named, whole, marked, work, PARAMS, printed)
    assert flags == [False, False, True]
    printed = printed.T.copy()  # 0 over 1 over 2
    flags = top_flags(quads, named, whole, marked, work, PARAMS, printed)
    assert flags == [True, False, False]


def test_two_cards_each_read_inside_the_other_are_not_ordered_by_the_index() -> None:
    # the second card lies turned half round, its index corner inside the first card, whose
    # own index corner lies inside it: the index boxes contradict each other and tell nothing
    img = table((40, 100, 30))
    work = make_work(img, PARAMS)
    first = card_quad(600, 360, 180, 0) * work.scale
    second = np.roll(card_quad(560, 300, 180, 0), 2, axis=0) * work.scale
    assert index_over([first, second], [True, True], PARAMS).all(where=~np.eye(2, dtype=bool))
    assert top_flags([first, second], [True, True], [True, True], [True, True], work, PARAMS) == [True, True]


@pytest.mark.parametrize("small", [0.0, PARAMS.top_small])
def test_an_outline_much_smaller_than_the_named_cards_lies_over_none_of_them(small: float) -> None:
    # a patch of paper half a card's size over a named card's side (print, or a part of a card
    # outlined alone): its sides show across the card, yet it does not take the card's mark
    img = table((40, 100, 30))
    card = card_quad(600, 360, 180, 0)
    patch = card_quad(690, 360, 90, 0)
    draw_card(img, card, outline=120)
    pts = np.round(patch).astype(np.int32)
    cv2.fillConvexPoly(img, pts, (235, 235, 235))
    cv2.polylines(img, [pts], True, (120, 120, 120), 1, cv2.LINE_AA)
    p = FindParams(top_small=small)
    work = make_work(img, p)
    quads = [card * work.scale, patch * work.scale]
    assert order_above(quads, work, p)[1, 0]
    flags = top_flags(quads, [True, False], [True, True], [True, True], work, p)
    assert flags == ([True, True] if small else [False, True])
