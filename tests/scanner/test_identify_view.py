"""A found card warped only where it is read (``scanner.identify_view``) against the whole warp."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.find import warp_card, warp_card_box
from scanner.identify import IdentifyInputError, identify
from scanner.identify_params import IdentifyParams
from scanner.identify_view import CardView, card_box, card_sample, padded_crop
from scanner.params import FindParams
from scanner.templates import Templates
from scanner.types import Image, Quad
from scorer.cards import DeckKind, parse_card

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "scenes"
PARAMS = FindParams()


def fixture_cards(count: int) -> list[tuple[Image, Quad, DeckKind, str]]:
    """Frames of the scene fixtures with the true corners of their top cards."""
    doc = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    out: list[tuple[Image, Quad, DeckKind, str]] = []
    for scene in doc["scenes"]:
        image = np.asarray(cv2.imread(str(FIXTURES / scene["file"]), cv2.IMREAD_COLOR), dtype=np.uint8)
        for card in scene["cards"]:
            if card["top"] and card["visible_fraction"] > 0.97:
                corners = tuple((float(x), float(y)) for x, y in card["corners"])
                out.append((image, corners, DeckKind(scene["deck"]), card["card"]))  # type: ignore[arg-type]
        if len(out) >= count:
            break
    return out[:count]


def test_a_box_warped_on_its_own_matches_the_whole_card_within_a_grey_level() -> None:
    cards = fixture_cards(12)
    assert len(cards) == 12
    differing = total = 0
    for image, corners, _, _ in cards:
        whole = warp_card(image, corners, PARAMS)
        for box in ((0, 0, 50, 90), (150, 190, 200, 280), (37, 51, 38, 52)):
            x0, y0, x1, y1 = box
            part = warp_card_box(image, corners, PARAMS, box)
            ref = whole[y0:y1, x0:x1]
            assert part.shape == ref.shape
            step = np.abs(part.astype(np.int16) - ref.astype(np.int16))
            assert int(step.max()) <= 1
            differing += int(np.count_nonzero(step))
            total += step.size
        sample = warp_card_box(image, corners, PARAMS, (0, 0, 200, 280), 4)
        assert sample.shape == whole[::4, ::4].shape
        assert int(np.abs(sample.astype(np.int16) - whole[::4, ::4].astype(np.int16)).max()) <= 1
    assert differing <= 0.001 * total


@pytest.mark.parametrize("box", [(-1, 0, 10, 10), (0, 0, 201, 10), (5, 5, 5, 10), (0, 0, 10, 281)])
def test_a_box_beyond_the_card_is_refused(box: tuple[int, int, int, int]) -> None:
    image, corners, _, _ = fixture_cards(1)[0]
    with pytest.raises(ValueError, match="box"):
        warp_card_box(image, corners, PARAMS, box)


def test_a_mirrored_camera_cuts_boxes_from_the_whole_flipped_card() -> None:
    image, corners, _, _ = fixture_cards(1)[0]
    mirrored = FindParams(mirrored=True)
    with pytest.raises(ValueError, match="mirrored"):
        warp_card_box(image, corners, mirrored, (0, 0, 10, 10))
    whole = warp_card(image, corners, mirrored)
    view = CardView(image, corners, mirrored)
    assert np.array_equal(view.box(-3, -2, 40, 60), padded_crop(whole, -3, -2, 40, 60))
    assert np.array_equal(card_sample(view), whole[::4, ::4])


def test_boxes_reaching_beyond_the_card_repeat_its_edge_pixels() -> None:
    rng = np.random.default_rng(3)
    card = rng.integers(0, 256, (280, 200, 3), dtype=np.uint8)
    padded = cv2.copyMakeBorder(card, 9, 9, 9, 9, cv2.BORDER_REPLICATE)
    for x0, y0, x1, y1 in ((-9, -9, 40, 50), (170, 250, 209, 289), (10, 20, 30, 40), (-9, -9, 209, 289)):
        expected = padded[y0 + 9 : y1 + 9, x0 + 9 : x1 + 9]
        assert np.array_equal(card_box(card, x0, y0, x1, y1), expected)


def test_a_view_names_the_same_cards_as_the_whole_warp_and_warps_the_whole_only_when_needed() -> None:
    cards = fixture_cards(24)
    templates = {deck: Templates.builtin(deck) for deck in DeckKind}
    params = IdentifyParams()
    partial = 0
    for image, corners, deck, truth in cards:
        whole = identify(warp_card(image, corners, PARAMS), templates[deck], params)
        view = CardView(image, corners, PARAMS)
        by_view = identify(view, templates[deck], params)
        assert by_view.card == whole.card
        assert by_view.confidence == pytest.approx(whole.confidence, abs=2e-3)
        assert by_view.turned == whole.turned
        assert whole.card is None or whole.card == parse_card(truth, deck)
        partial += view._whole is None
        if view._whole is not None:
            # the whole card was needed: it is the same as ``warp_card``'s
            assert np.array_equal(view.whole(), warp_card(image, corners, PARAMS))
    assert partial >= len(cards) // 2


def test_a_view_of_a_card_of_another_size_is_refused() -> None:
    image, corners, deck, _ = fixture_cards(1)[0]
    view = CardView(image, corners, replace(PARAMS, card_width=150, card_height=210))
    with pytest.raises(IdentifyInputError, match="got shape"):
        identify(view, Templates.builtin(deck))


def test_a_view_of_a_grey_frame_names_the_same_cards_as_its_whole_warp() -> None:
    templates = {deck: Templates.builtin(deck) for deck in DeckKind}
    named = 0
    for image, corners, deck, _ in fixture_cards(8):
        frame = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)
        view = CardView(frame, corners, PARAMS)
        assert view.shape == (280, 200)
        assert card_sample(view).ndim == 2
        by_view = identify(view, templates[deck])
        assert by_view.card == identify(warp_card(frame, corners, PARAMS), templates[deck]).card
        named += by_view.card is not None
    assert named >= 4
