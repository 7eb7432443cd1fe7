"""Whole-face matching: a card whose whole face is visible is named with the face's help."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.find import warp_card
from scanner.identify import identify
from scanner.identify_face import face_vector, read_face
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.params import FindParams
from scanner.templates import Templates, expected_cards
from scanner.types import Image
from scorer.cards import DeckKind, OctoCard, StdCard, parse_card

PARAMS = IdentifyParams()
INDEX_ONLY = replace(PARAMS, face_weight=0.0, agree_face_score=2.0)


def face(card: StdCard | OctoCard) -> Image:
    return render_face(card, CARD_WIDTH, CARD_HEIGHT)


def blurred_view(image: Image, rng: np.random.Generator) -> Image:
    """A small, blurred, noisy card: its corner index is hard to read, its face still shows."""
    small = cv2.resize(image, (50, 70), interpolation=cv2.INTER_AREA)
    back = cv2.resize(small, (CARD_WIDTH, CARD_HEIGHT), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    back = cv2.GaussianBlur(back, (0, 0), 3.0) + rng.normal(0.0, 8.0, back.shape)
    return np.clip(back, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("deck", list(DeckKind))
def test_every_shipped_face_matches_its_own_template_best_at_both_orientations(deck: DeckKind) -> None:
    templates = Templates.builtin(deck)
    for card in expected_cards(deck):
        for half_turn in (False, True):
            image = np.ascontiguousarray(face(card)[::-1, ::-1]) if half_turn else face(card)
            reading = read_face(image, templates, PARAMS)
            best = int(np.argmax(reading.scores))
            assert reading.order[best] == card
            assert reading.scores[best] > 0.95
            assert bool(reading.turned[best]) is half_turn


def test_face_vectors_are_unit_length_and_ignore_brightness() -> None:
    image = face(StdCard.parse("6D"))
    darker = np.asarray(image * 0.6, dtype=np.uint8)
    a, b = face_vector(image, PARAMS), face_vector(darker, PARAMS)
    assert float(np.linalg.norm(a)) == pytest.approx(1.0, abs=1e-4)
    assert float(a @ b) > 0.98


def test_the_face_names_blurred_cards_that_the_index_alone_leaves_unnamed() -> None:
    rng = np.random.default_rng(11)
    templates = Templates.builtin(DeckKind.OKTRIS)
    with_face = index_only = wrong = 0
    for card in expected_cards(DeckKind.OKTRIS):
        view = blurred_view(face(card), rng)
        answer = identify(view, templates, PARAMS)
        with_face += answer.card == card
        wrong += answer.card is not None and answer.card != card
        index_only += identify(view, templates, INDEX_ONLY).card == card
    assert wrong == 0
    assert with_face > index_only
    assert with_face >= 0.75 * len(expected_cards(DeckKind.OKTRIS))


def test_a_covered_face_scores_low_and_does_not_help() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    card = StdCard.parse("4C")
    covered = face(card).copy()
    covered[60:, 40:] = (60, 120, 40)  # another card or the table over all but the top-left index
    reading = read_face(covered, templates, PARAMS)
    assert float(reading.scores[reading.order.index(card)]) < PARAMS.agree_face_score
    assert float(reading.scores.max()) < PARAMS.agree_face_score
    assert identify(covered, templates, PARAMS).card == identify(covered, templates, INDEX_ONLY).card


def test_the_face_is_looked_at_only_when_the_index_alone_cannot_name_the_card() -> None:
    rng = np.random.default_rng(11)
    templates = Templates.builtin(DeckKind.OKTRIS)
    looked = 0
    for card in expected_cards(DeckKind.OKTRIS):
        view = blurred_view(face(card), rng)
        answer = identify(view, templates, PARAMS)
        index_named = identify(view, templates, INDEX_ONLY).card is not None
        assert (answer.face_score is None) == index_named, card
        looked += answer.face_score is not None
    assert 0 < looked < len(expected_cards(DeckKind.OKTRIS))


def test_a_card_named_with_the_face_reports_its_half_turn_from_the_face() -> None:
    rng = np.random.default_rng(5)
    templates = Templates.builtin(DeckKind.OCTOPLUS)
    card = OctoCard.parse("6")
    upright = blurred_view(face(card), rng)
    half_round = np.ascontiguousarray(upright[::-1, ::-1])
    assert identify(upright, templates, PARAMS).turned is False
    answer = identify(half_round, templates, PARAMS)
    assert answer.card == card
    assert answer.turned is True


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "scenes"


def test_whole_cards_of_the_scene_fixtures_are_named_with_the_face_and_never_wrongly() -> None:
    """Cards that show their whole outline (singles, tricks, the top of a pile), cut out at
    their true corners: the face's help names at least 95% of them (the index alone fewer),
    none wrongly."""
    doc = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    templates = {deck: Templates.builtin(deck) for deck in DeckKind}
    whole = with_face = index_only = wrong = 0
    for scene in doc["scenes"]:
        deck = DeckKind(scene["deck"])
        image = np.asarray(cv2.imread(str(FIXTURES / scene["file"]), cv2.IMREAD_COLOR), dtype=np.uint8)
        for card in scene["cards"]:
            if not (card["top"] and card["visible_fraction"] > 0.97):
                continue
            corners = tuple((float(x), float(y)) for x, y in card["corners"])
            warped = warp_card(image, corners, FindParams())  # type: ignore[arg-type]
            truth = parse_card(card["card"], deck)
            answer = identify(warped, templates[deck], PARAMS).card
            whole += 1
            with_face += answer == truth
            wrong += answer is not None and answer != truth
            index_only += identify(warped, templates[deck], INDEX_ONLY).card == truth
    assert whole >= 40
    assert wrong == 0
    assert with_face >= 0.95 * whole
    assert with_face > index_only
