"""The look's correlations in one transform (``scanner.identify_look._best_fits``): the same
best fits as ``cv2.matchTemplate`` (``TM_CCOEFF_NORMED``) variant by variant."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.identify_look import _SLACK, _bank, _best_fits, _fits, _Glyph, _glyph, _ink_box, _view
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import DeckKind, StdCard, Suit

PARAMS = IdentifyParams()


def small(card: StdCard, short_px: int = 70, seed: int = 0) -> Image:
    """``card``'s face shrunk to ``short_px`` pixels wide, blurred, with a little noise, warped
    back to the canonical size."""
    face = render_face(card, CARD_WIDTH, CARD_HEIGHT)
    size = (short_px, round(short_px * CARD_HEIGHT / CARD_WIDTH))
    shrunk = cv2.GaussianBlur(cv2.resize(face, size, interpolation=cv2.INTER_AREA), (0, 0), 1.0)
    noisy = np.clip(shrunk + np.random.default_rng(seed).normal(0.0, 3.0, shrunk.shape), 0, 255)
    back = cv2.resize(noisy.astype(np.uint8), (CARD_WIDTH, CARD_HEIGHT), interpolation=cv2.INTER_LINEAR)
    return np.asarray(back, np.uint8)


def _pair(
    templates: Templates, first: StdCard, second: StdCard
) -> tuple[tuple[_Glyph, _Glyph], tuple[int, int, int, int]]:
    """Both cards' suit glyphs cut from one box, as ``look`` cuts them."""
    boxes = [_ink_box(templates, card, PARAMS.index_suit_region, PARAMS.look_pad) for card in (first, second)]
    known = [box for box in boxes if box is not None]
    box = (
        min(b[0] for b in known),
        min(b[1] for b in known),
        max(b[2] for b in known),
        max(b[3] for b in known),
    )
    return (_glyph(templates, first, box, PARAMS), _glyph(templates, second, box, PARAMS)), box


def _reference(window: np.ndarray, pair: tuple[_Glyph, _Glyph]) -> list[float]:
    """Each card's best ``cv2.matchTemplate`` correlation over its variants, as ``look`` made it."""
    return [
        max(
            float(cv2.matchTemplate(window, variant, cv2.TM_CCOEFF_NORMED).max())
            for variant in glyph.variants
            if variant.shape[0] <= window.shape[0] and variant.shape[1] <= window.shape[1]
        )
        for glyph in pair
    ]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (StdCard(7, Suit.CLUBS), StdCard(7, Suit.SPADES)),
        (StdCard(1, Suit.SPADES), StdCard(1, Suit.CLUBS)),
        (StdCard(3, Suit.HEARTS), StdCard(3, Suit.DIAMONDS)),
    ],
)
def test_the_best_fits_are_those_of_match_template(first: StdCard, second: StdCard) -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    pair, box = _pair(templates, first, second)
    pad = PARAMS.look_search_px + _SLACK
    windows = []
    for card in (first, second):
        for turned in (False, True):
            seen = _view(small(card, seed=3), box, pad, turned)
            windows.append(seen - cv2.GaussianBlur(seen, (0, 0), PARAMS.look_highpass))
    windows.append(np.random.default_rng(5).normal(0.0, 20.0, windows[0].shape).astype(np.float32))
    for window in windows:
        window = np.ascontiguousarray(window, dtype=np.float32)
        bank = _bank(pair, (window.shape[0], window.shape[1]))
        fits = _best_fits(window, bank)
        assert fits == pytest.approx(_reference(window, pair), abs=1e-5)


def test_a_window_without_spread_fits_nothing_as_in_match_template() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    pair, box = _pair(templates, StdCard(5, Suit.CLUBS), StdCard(5, Suit.SPADES))
    pad = PARAMS.look_search_px + _SLACK
    flat = np.full((box[3] - box[1] + 2 * pad, box[2] - box[0] + 2 * pad), 7.0, dtype=np.float32)
    bank = _bank(pair, (flat.shape[0], flat.shape[1]))
    assert _best_fits(flat, bank) == pytest.approx(_reference(flat, pair), abs=1e-6)


def test_a_pair_in_either_order_shares_one_bank_and_the_banks_kept_are_bounded() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    params = IdentifyParams(look_banks=2)
    templates.cache.pop("look-banks", None)  # the built-in templates are shared: start empty
    pad = PARAMS.look_search_px + _SLACK
    for rank in (2, 3, 4):
        club, spade = StdCard(rank, Suit.CLUBS), StdCard(rank, Suit.SPADES)
        pair, box = _pair(templates, club, spade)
        seen = _view(small(club, seed=rank), box, pad, False)
        window = np.ascontiguousarray(seen - cv2.GaussianBlur(seen, (0, 0), PARAMS.look_highpass))
        forward = _fits(window, pair, templates, params)
        backward = _fits(window, (pair[1], pair[0]), templates, params)
        assert forward == pytest.approx(_reference(window, pair), abs=1e-5)
        assert backward[0] == forward[1] and backward[1] == forward[0]
        assert len(templates.cache["look-banks"]) == min(rank - 1, 2)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, 2.5, True])
def test_the_number_of_banks_kept_is_validated(value: object) -> None:
    with pytest.raises(ValueError, match="look_banks"):
        IdentifyParams(look_banks=value)  # type: ignore[arg-type]
