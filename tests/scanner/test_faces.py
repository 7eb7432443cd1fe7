"""The project's card faces: every face distinct, corner indices where the layout says, masks honest."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from scanner.faces import INDEX_BOX, card_mask, render_face, render_face_rgba
from scorer.cards import MINUS2, PASS, PLUS2, Card, OctoCard, StdCard, Suit, oktris_deck

FULL_DECK: tuple[Card, ...] = tuple(StdCard(rank, suit) for rank in range(1, 14) for suit in Suit)
OCTOPLUS: tuple[Card, ...] = (*(OctoCard.number(v) for v in range(1, 8)), PLUS2, MINUS2, PASS)


def _grey(card: Card, w: int = 200, h: int = 280) -> np.ndarray:
    return cv2.cvtColor(render_face(card, w, h), cv2.COLOR_BGR2GRAY).astype(np.float32)


def test_face_is_bgr_uint8_of_the_requested_size() -> None:
    face = render_face(StdCard.parse("7H"), 210, 294)
    assert face.shape == (294, 210, 3)
    assert face.dtype == np.uint8


@pytest.mark.parametrize(
    ("deck", "least_share"), [(FULL_DECK, 0.003), (OCTOPLUS, 0.01)], ids=["standard", "octoplus"]
)
def test_every_pair_of_faces_differs_substantially(deck: tuple[Card, ...], least_share: float) -> None:
    # share of pixels where some channel differs by more than 60 levels; court cards of
    # one colour differ only by their suit symbols, as printed decks do
    faces = {card: render_face(card, 200, 280).astype(np.int16) for card in deck}
    for a, b in itertools.combinations(deck, 2):
        share = float((np.abs(faces[a] - faces[b]).max(axis=2) > 60).mean())
        assert share > least_share, f"{a} and {b} differ in only {share:.2%} of their pixels"


@pytest.mark.parametrize("deck", [oktris_deck(), OCTOPLUS], ids=["oktris", "octoplus"])
def test_corner_indices_alone_tell_every_card_apart(deck: tuple[Card, ...]) -> None:
    w, h = 200, 280
    x0, y0, x1, y1 = (
        round(INDEX_BOX[0] * w),
        round(INDEX_BOX[1] * h),
        round(INDEX_BOX[2] * w),
        round(INDEX_BOX[3] * h),
    )
    crops = {card: _grey(card)[y0:y1, x0:x1] for card in deck}
    for a, b in itertools.combinations(deck, 2):
        diff = float(np.abs(crops[a] - crops[b]).mean())
        assert diff > 3.0, f"the corner indices of {a} and {b} differ by only {diff:.2f}"


@pytest.mark.parametrize("card", [StdCard.parse("QS"), StdCard.parse("4D"), OctoCard.number(6), PLUS2])
def test_face_turned_half_round_shows_the_same_corner_index(card: Card) -> None:
    w, h = 200, 280
    face = _grey(card, w, h)
    turned = face[::-1, ::-1]
    x0, y0, x1, y1 = (
        round(INDEX_BOX[0] * w),
        round(INDEX_BOX[1] * h),
        round(INDEX_BOX[2] * w),
        round(INDEX_BOX[3] * h),
    )
    assert float(np.abs(face[y0:y1, x0:x1] - turned[y0:y1, x0:x1]).mean()) < 2.0


def test_corner_index_has_ink_and_the_margin_outside_it_is_blank() -> None:
    w, h = 200, 280
    face = _grey(StdCard.parse("8C"), w, h)
    x0, y0, x1, y1 = (
        round(INDEX_BOX[0] * w),
        round(INDEX_BOX[1] * h),
        round(INDEX_BOX[2] * w),
        round(INDEX_BOX[3] * h),
    )
    assert (face[y0:y1, x0:x1] < 128).mean() > 0.08
    assert (face[:, : x0 - 1] < 200).mean() < 0.01


def test_red_suits_and_octoplus_specials_are_red_and_the_rest_are_not() -> None:
    def red_share(card: Card) -> float:
        b, g, r = (render_face(card, 200, 280).astype(int)[..., i] for i in range(3))
        return float(((r - b > 80) & (r - g > 80)).mean())

    assert red_share(StdCard.parse("5H")) > 0.02
    assert red_share(StdCard.parse("5D")) > 0.02
    assert red_share(StdCard.parse("5S")) < 0.001
    assert red_share(StdCard.parse("5C")) < 0.001
    for special in (PLUS2, MINUS2, PASS):
        assert red_share(special) > 0.05, special
    assert red_share(OctoCard.number(5)) < 0.001


def test_faces_are_fresh_copies_that_callers_may_change() -> None:
    face = render_face(OctoCard.number(3), 100, 140)
    face[:] = 0
    assert render_face(OctoCard.number(3), 100, 140).max() > 0


def test_mask_is_rounded_at_the_corners_and_full_inside() -> None:
    mask = card_mask(200, 280)
    assert mask.shape == (280, 200)
    assert mask[0, 0] == 0 and mask[279, 199] == 0
    assert mask[140, 100] == 255 and mask[0, 100] > 200 and mask[140, 0] > 200


def test_rgba_face_carries_the_mask_as_alpha() -> None:
    rgba = render_face_rgba(StdCard.parse("AS"), 120, 168)
    assert rgba.shape == (168, 120, 4)
    assert np.array_equal(rgba[..., 3], card_mask(120, 168))
    assert np.array_equal(rgba[..., :3], render_face(StdCard.parse("AS"), 120, 168))


def test_too_small_a_face_is_refused_naming_the_size() -> None:
    with pytest.raises(ValueError, match="10x14"):
        render_face(StdCard.parse("AS"), 10, 14)
