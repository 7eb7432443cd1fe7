"""Identification of warped cards by template matching (the shipped templates)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.identify import IdentifyInputError, identify
from scanner.identify_index import read_index
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams, Region
from scanner.templates import Templates, expected_cards
from scanner.types import Image
from scorer.cards import DeckKind, OctoCard, StdCard, Suit

PARAMS = IdentifyParams()
INDEX_ONLY = replace(PARAMS, face_weight=0.0, agree_face_score=2.0)
"""The index (centre) rule alone: the whole face never helps."""


def face(card: StdCard | OctoCard) -> Image:
    return render_face(card, CARD_WIDTH, CARD_HEIGHT)


def camera_view(image: Image, rng: np.random.Generator, jitter: float = 5.0) -> Image:
    """``image`` as a finder would deliver it: corners a few pixels off, shading, blur, noise."""
    h, w = image.shape[:2]
    border = 20
    big = cv2.copyMakeBorder(image, border, border, border, border, cv2.BORDER_CONSTANT, value=(70, 110, 60))
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    src = (dst + border + rng.uniform(-jitter, jitter, (4, 2))).astype(np.float32)
    warped = cv2.warpPerspective(big, cv2.getPerspectiveTransform(src, dst), (w, h)).astype(np.float32)
    shade = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.8, 1.1), h, dtype=np.float32)[:, None, None]
    warped = cv2.GaussianBlur(warped * shade, (0, 0), 1.0) + rng.normal(0.0, 6.0, warped.shape)
    return np.clip(warped, 0, 255).astype(np.uint8)


def turned(image: Image) -> Image:
    return np.ascontiguousarray(image[::-1, ::-1])


@pytest.mark.parametrize("deck", list(DeckKind))
def test_every_shipped_face_is_identified_upright_and_turned(deck: DeckKind) -> None:
    templates = Templates.builtin(deck)
    for card in expected_cards(deck):
        upright = identify(face(card), templates, PARAMS)
        assert (upright.card, upright.turned) == (card, False), f"{card} upright: {upright}"
        half_round = identify(turned(face(card)), templates, PARAMS)
        assert half_round.card == card, f"{card} turned: {half_round}"
        if deck is DeckKind.OCTOPLUS:  # a standard index reads the same from either corner
            assert half_round.turned


def test_either_corner_index_is_enough() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    for card in expected_cards(DeckKind.OKTRIS):
        image = face(card)
        top_hidden = image.copy()
        top_hidden[:100, :60] = (200, 200, 200)
        bottom_hidden = image.copy()
        bottom_hidden[-100:, -60:] = (200, 200, 200)
        assert identify(top_hidden, templates, PARAMS).card == card
        assert identify(bottom_hidden, templates, PARAMS).card == card


def test_an_octoplus_card_whose_centre_is_covered_is_read_from_its_corner_index() -> None:
    # a card of a fanned hand: only the strip with its top-left corner index shows
    templates = Templates.builtin(DeckKind.OCTOPLUS)
    corner_off = replace(PARAMS, corner_min_part_score=2.0, corner_agree_part_score=2.0)
    for card in expected_cards(DeckKind.OCTOPLUS):
        covered = face(card)
        covered[:, 48:] = (60, 60, 60)
        answer = identify(covered, templates, PARAMS)
        assert (answer.card, answer.turned) == (card, False), f"{card}: {answer}"
        half_round = identify(turned(covered), templates, PARAMS)
        assert (half_round.card, half_round.turned) == (card, True), f"{card} turned: {half_round}"
        assert identify(covered, templates, corner_off).card is None, card


def test_an_octoplus_corner_index_without_a_clear_lead_counts_when_the_centre_agrees() -> None:
    # the right half of the card covered, the rest noisy: neither the corner index nor the
    # half-covered centre is clear alone, but they agree
    templates = Templates.builtin(DeckKind.OCTOPLUS)
    rng = np.random.default_rng(1)
    agreement_only = replace(PARAMS, corner_min_part_score=2.0)
    neither = replace(agreement_only, corner_agree_part_score=2.0)
    named = 0
    for card in expected_cards(DeckKind.OCTOPLUS):
        covered = face(card).astype(np.float32)
        covered[:, 90:] = 60.0
        noisy = np.clip(covered + rng.normal(0.0, 25.0, covered.shape), 0, 255).astype(np.uint8)
        assert identify(noisy, templates, neither).card is None, card
        answer = identify(noisy, templates, agreement_only).card
        assert answer in (card, None), f"{card} read as {answer}"
        named += answer == card
    assert named >= 5


def test_an_octoplus_centre_is_not_named_when_its_corner_index_clearly_shows_another_card() -> None:
    templates = Templates.builtin(DeckKind.OCTOPLUS)
    two, three = OctoCard.parse("2"), OctoCard.parse("3")
    mixed = face(two)
    other = face(three)
    mixed[:90, :50] = other[:90, :50]
    mixed[-90:, -50:] = other[-90:, -50:]
    assert identify(face(two), templates, PARAMS).card == two
    answer = identify(mixed, templates, PARAMS)
    assert answer.card is None, answer
    assert answer.candidate == two


@pytest.mark.parametrize("deck", list(DeckKind))
def test_camera_like_cards_are_read_right_or_not_at_all(deck: DeckKind) -> None:
    rng = np.random.default_rng(20261129)
    templates = Templates.builtin(deck)
    right = wrong = 0
    total = 0
    for copy in range(3):
        for card in expected_cards(deck):
            image = camera_view(face(card), rng)
            if copy % 2:
                image = turned(image)
            answer = identify(image, templates, PARAMS)
            total += 1
            right += answer.card == card
            wrong += answer.card is not None and answer.card != card
    assert wrong == 0
    assert right >= 0.85 * total, f"{right} of {total} right"


def test_a_red_index_never_reads_as_a_black_suit() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    for card in expected_cards(DeckKind.OKTRIS):
        assert isinstance(card, StdCard)
        answer = identify(face(card), templates, replace(PARAMS, min_margin=0.0, min_score=-1.0))
        assert isinstance(answer.runner_up, StdCard)
        if card.suit.is_red:
            assert answer.runner_up.suit.is_red, f"{card}: runner-up {answer.runner_up}"


def test_red_cards_lose_the_colour_penalty_on_black_ink_in_a_colour_photo_only() -> None:
    full = Templates.builtin(DeckKind.OKTRIS)
    red_only = Templates(DeckKind.OKTRIS, {c: v for c, v in full.faces.items() if c.suit.is_red})  # type: ignore[union-attr]
    loose = replace(PARAMS, min_margin=0.0, min_score=-1.0, min_part_score=-1.0)
    no_rule = replace(loose, black_ink=0.0)
    for text in ("7S", "3C", "AS"):
        card = StdCard.parse(text)
        warm = np.clip(face(card).astype(np.int16) + np.array([-6, 0, 8], np.int16), 0, 255).astype(np.uint8)
        with_rule = identify(warm, red_only, loose).confidence
        without = identify(warm, red_only, no_rule).confidence
        assert with_rule == pytest.approx(max(0.0, without - PARAMS.colour_penalty), abs=0.02)
        grey = np.asarray(cv2.cvtColor(cv2.cvtColor(warm, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR), np.uint8)
        assert identify(grey, red_only, loose).confidence == pytest.approx(
            identify(grey, red_only, no_rule).confidence
        )


def test_a_colour_photo_with_colourless_index_corners_is_judged_by_the_whole_card() -> None:
    full = Templates.builtin(DeckKind.OKTRIS)
    red_only = Templates(DeckKind.OKTRIS, {c: v for c, v in full.faces.items() if c.suit.is_red})  # type: ignore[union-attr]
    loose = replace(PARAMS, min_margin=0.0, min_score=-1.0, min_part_score=-1.0)
    no_rule = replace(loose, black_ink=0.0)
    for text in ("7S", "3C"):
        warm = np.clip(face(StdCard.parse(text)).astype(np.int16) + np.array([-6, 0, 8], np.int16), 0, 255)
        warm = warm.astype(np.uint8)
        # both index corners without colour: only the rest of the card shows that the photo is in colour
        for corner in (warm[:100, :60], warm[-100:, -60:]):
            corner[:] = cv2.cvtColor(cv2.cvtColor(corner, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        with_rule = identify(warm, red_only, loose).confidence
        without = identify(warm, red_only, no_rule).confidence
        assert with_rule == pytest.approx(max(0.0, without - PARAMS.colour_penalty), abs=0.02)


def test_a_grey_photo_of_a_red_card_is_still_read() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    for text in ("5H", "AD", "8H"):
        card = StdCard.parse(text)
        grey = np.asarray(cv2.cvtColor(face(card), cv2.COLOR_BGR2GRAY), dtype=np.uint8)
        as_colour = np.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
        assert identify(grey, templates, PARAMS).card == card
        assert identify(as_colour, templates, PARAMS).card == card


def test_a_stray_nine_to_king_is_never_named_in_oktris() -> None:
    rng = np.random.default_rng(11)
    templates = Templates.builtin(DeckKind.OKTRIS)
    for rank in range(9, 14):
        for suit in Suit:
            card = StdCard(rank, suit)
            for image in (face(card), camera_view(face(card), rng)):
                answer = identify(image, templates, PARAMS)
                assert answer.card is None, f"{card} named {answer.card}"


def test_without_decoys_a_missing_rank_is_still_not_named_as_a_far_rank() -> None:
    full = Templates.builtin(DeckKind.OKTRIS)
    deck_only = Templates(DeckKind.OKTRIS, {c: full.faces[c] for c in expected_cards(DeckKind.OKTRIS)})
    for rank in (9, 10, 13):  # 9, 10 and K look like no rank A-8 of these faces
        card = StdCard(rank, Suit.HEARTS)
        answer = identify(face(card), deck_only, PARAMS)
        assert answer.card is None, f"{card} named {answer.card}"


def test_blank_paper_and_noise_are_not_identified() -> None:
    rng = np.random.default_rng(7)
    blank = np.full((CARD_HEIGHT, CARD_WIDTH, 3), 235, np.uint8)
    noise = rng.integers(0, 256, (CARD_HEIGHT, CARD_WIDTH, 3), dtype=np.uint8)
    for deck in DeckKind:
        templates = Templates.builtin(deck)
        assert identify(blank, templates, PARAMS).card is None
        assert identify(noise, templates, PARAMS).card is None


def test_grey_cards_are_identified() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    card = StdCard.parse("5S")
    grey = np.asarray(cv2.cvtColor(face(card), cv2.COLOR_BGR2GRAY), dtype=np.uint8)
    assert identify(grey, templates, PARAMS).card == card


def test_confidence_and_runner_up_describe_the_choice() -> None:
    templates = Templates.builtin(DeckKind.OCTOPLUS)
    card = OctoCard.parse("+2")
    answer = identify(face(card), templates, PARAMS)
    assert answer.card == card == answer.candidate
    assert answer.runner_up is not None and answer.runner_up != card
    assert 0.0 <= answer.runner_up_confidence < answer.confidence <= 1.0
    assert answer.margin == pytest.approx(answer.confidence - answer.runner_up_confidence)


def test_two_agreeing_index_corners_name_a_card_whose_overall_lead_is_small() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    card = StdCard.parse("7S")
    lead = identify(face(card), templates, INDEX_ONLY).margin
    demanding = replace(INDEX_ONLY, min_margin=min(2.0, 1.5 * lead), pair_margin=0.5)
    assert identify(face(card), templates, demanding).card == card
    assert identify(face(card), templates, replace(demanding, pair_margin=0.0)).card is None
    one_corner = face(card).copy()
    one_corner[-100:, -60:] = (200, 200, 200)
    assert identify(one_corner, templates, demanding).card is None


def test_a_demanding_threshold_gives_none_with_the_candidate_kept() -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    card = StdCard.parse("3H")
    rng = np.random.default_rng(3)
    answer = identify(camera_view(face(card), rng), templates, replace(INDEX_ONLY, min_margin=1.5))
    assert answer.card is None
    assert answer.candidate == card


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((280, 200, 3), np.float32),
        np.zeros((300, 200, 3), np.uint8),
        np.zeros((280, 200, 4), np.uint8),
        np.zeros((0, 0), np.uint8),
        [[0, 0], [0, 0]],
    ],
    ids=["float", "wrong-size", "four-channels", "empty", "not-an-array"],
)
def test_bad_card_images_raise_a_clear_error(bad: object) -> None:
    with pytest.raises(IdentifyInputError, match="card image"):
        identify(bad, Templates.builtin(DeckKind.OKTRIS), PARAMS)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [0.9, 1.1])
def test_an_index_at_another_size_matches_its_template_at_that_size(size: float) -> None:
    """A card whose index shows 10% smaller or larger (warp scale error) scores high against
    its templates at that size when they are scaled about the middle of the index
    (``index_scale_about`` 1), where the fine pass looks for every size; about the card's
    corner the index moves away and the same card scores about 0.4."""
    templates = Templates.builtin(DeckKind.OKTRIS)
    about = replace(PARAMS, index_scale_about=1.0)
    rank, suit = PARAMS.index_rank_region, PARAMS.index_suit_region
    centre = ((rank.x0 + rank.x1) / 2, (rank.y0 + suit.y1) / 2)
    for card in expected_cards(DeckKind.OKTRIS):
        matrix = cv2.getRotationMatrix2D(centre, 0.0, size)
        scaled = cv2.warpAffine(
            face(card), matrix, (CARD_WIDTH, CARD_HEIGHT), borderMode=cv2.BORDER_REPLICATE
        )
        reading = read_index(scaled, templates, replace(about, template_scales=(size,)))
        own = reading.order.index(card)
        assert reading.scores[own] >= 0.8, f"{card} at {size}: {reading.scores[own]:.3f}"
        assert int(np.argmax(reading.scores)) == own, f"{card} at {size}"
        named = identify(scaled, templates, replace(INDEX_ONLY, index_scale_about=1.0))
        assert named.card == card, f"{card} at {size}"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("search_px", -1),
        ("search_px", 2.5),
        ("index_scale", 0.0),
        ("min_margin", float("nan")),
        ("rank_weight", 1.5),
        ("template_scales", ()),
        ("template_scales", (0.1,)),
        ("index_rank_region", (0, 0, 10, 10)),
        ("face_size", (50,)),
        ("face_size", (2, 70)),
        ("face_size", (50.0, 70.0)),
        ("face_weight", 1.5),
        ("blend_min_margin", -0.1),
        ("corner_rank_weight", 1.5),
        ("corner_min_part_score", float("inf")),
        ("corner_agree_margin", -0.01),
        ("wide_search_px", 41),
        ("wide_search_px", 14.5),
        ("wide_template_scales", ()),
        ("wide_among", 0),
        ("wide_min_score", 2.5),
        ("rank_face_margin", -0.5),
        ("rank_face_score", float("nan")),
        ("rank_face_twin_margin", 3.0),
        ("rank_face_index_slack", -0.1),
        ("rank_face_min_rank_part", 2.5),
        ("suit_blur", -1.0),
        ("suit_search_px", 3.5),
        ("suit_fit", float("inf")),
        ("spade_lead", 1.5),
        ("club_lead", -1.5),
        ("lone_corner_scales", ()),
        ("lone_corner_scales", (0.9, 3.0)),
        ("face_twin_margin", -0.01),
        ("face_twin_score", float("nan")),
        ("centre_doubt_margin", 2.5),
        ("index_scale_about", 1.5),
    ],
)
def test_parameters_out_of_range_name_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        replace(PARAMS, **{field: value})  # type: ignore[arg-type]


def test_regions_must_lie_inside_the_card() -> None:
    with pytest.raises(ValueError, match="inside"):
        Region(0, 0, 201, 10)
    with pytest.raises(ValueError, match="inside"):
        Region(10, 10, 10, 20)


@pytest.mark.parametrize("card", [StdCard(7, Suit.HEARTS), StdCard(3, Suit.CLUBS), StdCard(1, Suit.SPADES)])
def test_a_card_turned_half_round_reads_the_same_with_its_two_views_swapped(card: StdCard) -> None:
    templates = Templates.builtin(DeckKind.OKTRIS)
    image = camera_view(face(card), np.random.default_rng(card.rank))
    upright = read_index(image, templates, PARAMS)
    turned = read_index(np.ascontiguousarray(image[::-1, ::-1]), templates, PARAMS)
    assert upright.order[int(np.argmax(upright.scores))] == card
    np.testing.assert_allclose(turned.per_view, upright.per_view[::-1], atol=1e-5)
    np.testing.assert_allclose(turned.scores, upright.scores, atol=1e-5)
    np.testing.assert_allclose(turned.turn_lead, -upright.turn_lead, atol=1e-5)
