"""A card whose pale template loses its suit part: the card of its suit whose rank reads best."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.identify import Identification, _rank_mate
from scanner.identify_face import read_face
from scanner.identify_index import IndexReading
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.templates import Templates
from scorer.cards import Card, DeckKind, StdCard

PARAMS = IdentifyParams()
TEMPLATES = Templates.builtin(DeckKind.OKTRIS)


def _reading(rows: dict[str, tuple[float, float]]) -> IndexReading:
    """An index reading of the cards ``rows`` (card: rank part, suit part), scored as the reader
    weighs them."""
    order: tuple[Card, ...] = tuple(StdCard.parse(name) for name in rows)
    parts = np.array(list(rows.values()), dtype=np.float32)
    scores = (PARAMS.rank_weight * parts[:, 0] + (1.0 - PARAMS.rank_weight) * parts[:, 1]).astype(np.float32)
    return IndexReading(
        order=order,
        scores=scores,
        parts=parts,
        per_view=np.stack([scores, scores - 0.3]),
        turn_lead=np.full(len(order), -0.3, dtype=np.float32),
    )


def _named(reading: IndexReading) -> Identification:
    best = int(np.argmax(reading.scores))
    card = reading.order[best]
    return Identification(card=card, confidence=float(reading.scores[best]), candidate=card)


# the 5H of the phone photos read with a pale learned 5H: its rank part is the best by far, its
# suit part loses to the crisp heart of the 3H and 6H templates
PALE_5H = {"3H": (0.84, 0.92), "6H": (0.71, 0.94), "5H": (0.91, 0.78), "8H": (0.63, 0.84), "5D": (0.85, 0.40)}


def test_a_pale_templates_card_whose_rank_reads_best_is_named_over_its_suit_mate() -> None:
    reading = _reading(PALE_5H)
    assert reading.order[int(np.argmax(reading.scores))] == StdCard.parse("3H")
    answer = _rank_mate(reading, _named(reading), TEMPLATES, PARAMS)
    assert answer.card == StdCard.parse("5H")
    assert answer.runner_up == StdCard.parse("3H")
    assert answer.part_scores == pytest.approx((0.91, 0.78))
    # an unnamed first card yields too
    unnamed = replace(_named(reading), card=None)
    assert _rank_mate(reading, unnamed, TEMPLATES, PARAMS).card == StdCard.parse("5H")


def test_the_rank_mate_is_off_above_one() -> None:
    reading = _reading(PALE_5H)
    off = replace(PARAMS, rank_mate_lead=1.5)
    assert _rank_mate(reading, _named(reading), TEMPLATES, off).card == StdCard.parse("3H")


@pytest.mark.parametrize(
    "rows",
    [
        # the rank leads by less than rank_mate_lead
        {"3H": (0.84, 0.92), "5H": (0.87, 0.78)},
        # the mate's score is too far behind
        {"3H": (0.84, 0.98), "5H": (0.91, 0.55)},
        # the mate's suit part is under min_part_score
        {"3H": (0.80, 0.92), "5H": (0.91, 0.60)},
        # the best rank part belongs to a card of another suit
        {"3H": (0.84, 0.92), "5D": (0.91, 0.80)},
    ],
)
def test_the_first_card_stays_when_the_rank_mate_is_not_clear(rows: dict[str, tuple[float, float]]) -> None:
    reading = _reading(rows)
    first = reading.order[int(np.argmax(reading.scores))]
    assert _rank_mate(reading, _named(reading), TEMPLATES, PARAMS).card == first


def test_an_answer_naming_another_card_than_the_first_is_left_alone() -> None:
    reading = _reading(PALE_5H)
    other = Identification(card=StdCard.parse("6H"), confidence=0.85, candidate=StdCard.parse("6H"))
    assert _rank_mate(reading, other, TEMPLATES, PARAMS) is other


@pytest.mark.parametrize("field", ["rank_mate_lead", "rank_mate_band"])
def test_the_rank_mate_parameters_are_checked(field: str) -> None:
    with pytest.raises(ValueError, match=field):
        replace(PARAMS, **{field: -0.1})


def test_a_grey_photo_in_three_channels_reads_its_face_as_a_grey_image_does() -> None:
    # a grey photo stored as BGR: its red pips are grey, so the colour templates' red channel
    # must not count against the red cards
    card = StdCard.parse("7H")
    grey = cv2.cvtColor(render_face(card, CARD_WIDTH, CARD_HEIGHT), cv2.COLOR_BGR2GRAY)
    three = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    as_grey = read_face(grey, TEMPLATES, PARAMS)
    as_three = read_face(three, TEMPLATES, PARAMS)
    assert np.allclose(as_three.scores, as_grey.scores, atol=1e-5)
    assert as_three.order[int(np.argmax(as_three.scores))] == card
