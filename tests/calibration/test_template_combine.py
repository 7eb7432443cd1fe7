"""Several captures per card made into one template: aligned, averaged, the index's parts shared."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from calibration_fixtures import image, truth

from calibration.capture import clean_corners, combine_all
from calibration.template_combine import (
    CombineParams,
    align,
    average,
    averaged,
    combine_captures,
    compose_learned,
    paper_colour,
)
from scanner.find import find_cards, warp_card
from scanner.identify import identify
from scanner.identify_params import CARD_HEIGHT, CARD_WIDTH, IdentifyParams
from scanner.params import FindParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import Card, DeckKind, StdCard

DECK = DeckKind.OKTRIS
SHIPPED = Templates.builtin(DECK)


def captures_of(label: str) -> list[Image]:
    """The fixture captures of one card, cut out, cleaned and turned the same way, the medoid first."""
    out = []
    for record in truth()["captures"]:
        if record["card"] == label:
            frame = image(record["image"])
            found = find_cards(frame, FindParams())
            out.append(clean_corners(warp_card(frame, found[0].corners, FindParams())))
    return combine_all(out)


def moved(card: Image, dx: float, dy: float, scale: float) -> Image:
    matrix = np.array([[scale, 0.0, dx], [0.0, scale, dy]], dtype=np.float64)
    out = cv2.warpAffine(card, matrix, (CARD_WIDTH, CARD_HEIGHT), borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, dtype=np.uint8)


def grey(card: Image, blur: float = 1.5) -> np.ndarray:
    return np.asarray(
        cv2.GaussianBlur(cv2.cvtColor(card, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), blur)
    )


def correlation(a: Image, b: Image) -> float:
    x, y = grey(a).ravel(), grey(b).ravel()
    return float(np.corrcoef(x, y)[0, 1])


def test_a_capture_cut_a_little_off_is_aligned_back_onto_its_reference() -> None:
    reference = captures_of("6C")[0]
    off = moved(reference, 5.0, -4.0, 0.96)
    assert correlation(off, reference) < 0.9
    fitted = align(off, reference, CombineParams())
    assert fitted is not None
    aligned, agreement = fitted
    assert agreement > 0.98
    inner = (slice(20, CARD_HEIGHT - 20), slice(20, CARD_WIDTH - 20))
    assert np.abs(aligned[inner].astype(int) - reference[inner].astype(int)).mean() < 4.0


def test_a_fit_that_would_move_the_card_too_far_is_refused() -> None:
    reference = captures_of("6C")[0]
    assert align(moved(reference, 12.0, 0.0, 1.0), reference, CombineParams(max_shift=4.0)) is None


def test_captures_of_a_deck_drawn_like_the_shipped_one_take_the_shipped_geometry() -> None:
    card = StdCard.parse("7D")
    captures = captures_of("7D")
    template, on_shipped, used = average(captures, SHIPPED.faces[card], CombineParams())
    assert on_shipped and used == len(captures)
    shipped = SHIPPED.faces[card][0]

    def offset(a: Image) -> float:
        """How far ``a`` lies from the shipped face: largest move of a card corner, in pixels."""
        warp = np.eye(2, 3, dtype=np.float32)
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 100, 1e-5)
        _, warp = cv2.findTransformECC(grey(shipped), grey(a), warp, cv2.MOTION_AFFINE, criteria, None, 5)
        corners = np.array([[0, 0, 1], [CARD_WIDTH, 0, 1], [0, CARD_HEIGHT, 1], [CARD_WIDTH, CARD_HEIGHT, 1]])
        return float(np.abs(corners @ warp.T - corners[:, :2]).max())

    assert offset(template) < 1.0
    assert max(offset(c) for c in captures) > 2.0


def test_without_a_shipped_face_the_captures_are_aligned_onto_the_first() -> None:
    captures = captures_of("3H")
    shifted = [captures[0], moved(captures[1], 4.0, 3.0, 1.0), moved(captures[2], -3.0, 2.0, 1.03)]
    template, on_shipped, used = average(shifted, (), CombineParams())
    assert not on_shipped and used == 3
    assert correlation(template, captures[0]) > 0.97


def test_a_blurred_or_wrong_capture_is_left_out_of_the_average() -> None:
    card = StdCard.parse("5S")
    good = captures_of("5S")
    blurred = np.asarray(cv2.GaussianBlur(good[1], (0, 0), 9), dtype=np.uint8)
    wrong = captures_of("AD")[0]
    for shipped in (SHIPPED.faces[card], ()):
        _, _, used = average([good[0], blurred, good[2], wrong], shipped, CombineParams())
        assert used == 2, shipped


def test_which_captures_go_into_the_average_is_told_capture_by_capture() -> None:
    card = StdCard.parse("5S")
    good = captures_of("5S")
    blurred = np.asarray(cv2.GaussianBlur(good[1], (0, 0), 9), dtype=np.uint8)
    wrong = captures_of("AD")[0]
    for shipped in (SHIPPED.faces[card], ()):
        assert averaged([good[0], blurred, good[2], wrong], shipped, CombineParams()) == [
            True,
            False,
            True,
            False,
        ], shipped
    assert averaged([], (), CombineParams()) == []


def test_cards_of_one_suit_share_the_suit_and_of_one_rank_and_colour_the_rank() -> None:
    labels = ("5H", "8H", "5D", "5S")
    captures: dict[Card, list[Image]] = {StdCard.parse(label): captures_of(label) for label in labels}
    faces = combine_captures(captures, DECK)
    ip = IdentifyParams()
    rank, suit = ip.index_rank_region, ip.index_suit_region

    def relative(label: str, region: slice, x1: int) -> np.ndarray:
        face = faces[StdCard.parse(label)]
        return np.asarray(face[region, :x1].astype(np.float32) / paper_colour(face))

    suit_rows = slice(suit.y0 + 4, suit.y1)
    rank_rows = slice(rank.y0, rank.y1 - 4)
    # same suit: the same suit symbol (up to rounding); same rank and colour: the same numeral
    assert np.abs(relative("5H", suit_rows, suit.x1) - relative("8H", suit_rows, suit.x1)).max() < 0.04
    assert np.abs(relative("5H", rank_rows, rank.x1) - relative("5D", rank_rows, rank.x1)).max() < 0.04
    # what differs stays apart: the numerals of 5 and 8, the suits of hearts and diamonds, red and black
    assert np.abs(relative("5H", rank_rows, rank.x1) - relative("8H", rank_rows, rank.x1)).max() > 0.1
    assert np.abs(relative("5H", suit_rows, suit.x1) - relative("5D", suit_rows, suit.x1)).max() > 0.2
    assert np.abs(relative("5H", rank_rows, rank.x1) - relative("5S", rank_rows, rank.x1)).max() > 0.2


def test_parts_are_not_shared_when_switched_off() -> None:
    captures: dict[Card, list[Image]] = {StdCard.parse(x): captures_of(x) for x in ("5H", "8H")}
    faces = combine_captures(captures, DECK, params=CombineParams(share_parts=False))
    suit = IdentifyParams().index_suit_region
    a, b = (faces[StdCard.parse(x)][suit.y0 : suit.y1, suit.x0 : suit.x1].astype(int) for x in ("5H", "8H"))
    assert np.abs(a - b).max() > 10


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("min_fit", 1.5),
        ("max_shift", -1.0),
        ("align_scale", 0.0),
        ("seam_ramp", 0),
        ("max_warp", True),
        ("ink_quantile", 0.9),
        ("seam_search", 2.5),
    ],
)
def test_combine_parameters_are_validated(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        CombineParams(**{field: value})  # type: ignore[arg-type]


def test_one_blurred_capture_of_a_card_leaves_its_learned_template_as_it_was() -> None:
    labels = ("5H", "8H", "5D", "3C")
    clean: dict[Card, list[Image]] = {StdCard.parse(label): captures_of(label) for label in labels}
    spoiled = {card: list(images) for card, images in clean.items()}
    five = StdCard.parse("5H")
    spoiled[five][1] = np.asarray(cv2.GaussianBlur(spoiled[five][1], (0, 0), 9), dtype=np.uint8)
    without = combine_captures({**clean, five: [clean[five][0], clean[five][2]]}, DECK)
    with_bad = combine_captures(spoiled, DECK)
    assert np.array_equal(with_bad[five], without[five])
    # and all three good captures make a template close to the two
    assert correlation(combine_captures(clean, DECK)[five], without[five]) > 0.99


def reads(templates: dict[Card, Image], label: str) -> list[Card | None]:
    """What the identifier names each fixture capture of ``label`` with ``templates``."""
    chosen = Templates(DECK, {card: (face,) for card, face in templates.items()})
    return [identify(capture, chosen).card for capture in captures_of(label)]


def test_a_card_without_captures_is_composed_from_its_rank_and_suit() -> None:
    labels = ("5H", "5S", "AD", "8D", "3C")
    captures: dict[Card, list[Image]] = {StdCard.parse(label): captures_of(label) for label in labels}
    faces = combine_captures(captures, DECK)
    five = StdCard.parse("5D")
    assert five in faces and five not in captures
    # the composed 5D is the 5H with the diamond in its corner: it reads the real 5D, not the 5H
    assert reads(faces, "5D") == [five] * 3
    assert reads(faces, "5H") == [StdCard.parse("5H")] * 3


def test_a_rank_captured_only_in_the_other_colour_is_recoloured() -> None:
    labels = ("5S", "AD", "3D", "8D")
    captures: dict[Card, list[Image]] = {StdCard.parse(label): captures_of(label) for label in labels}
    faces = combine_captures(captures, DECK)
    five = StdCard.parse("5D")
    rank = IdentifyParams().index_rank_region
    area = faces[five][rank.y0 : rank.y1, rank.x0 : rank.x1].astype(np.float32)
    ink = area[area.sum(axis=2) < np.quantile(area.sum(axis=2), 0.1)]
    blue, green, red = ink.mean(axis=0)
    assert red > green + 40 and red > blue + 40  # the black 5 printed in red
    assert reads(faces, "5D") == [five] * 3


def test_a_card_whose_rank_or_suit_nobody_captured_is_not_composed() -> None:
    labels = ("5H", "AD")
    captures: dict[Card, list[Image]] = {StdCard.parse(label): captures_of(label) for label in labels}
    faces = combine_captures(captures, DECK)
    assert StdCard.parse("5D") in faces and StdCard.parse("AH") in faces
    assert StdCard.parse("6D") not in faces  # no 6 captured
    assert StdCard.parse("5S") not in faces  # no spade captured
    assert set(combine_captures(captures, DECK, params=CombineParams(compose_missing=False))) == set(captures)


def test_every_learned_card_whose_rank_and_suit_others_print_gets_a_composed_second_template() -> None:
    labels = ("5H", "5D", "AD", "8D", "3C")
    captures: dict[Card, list[Image]] = {StdCard.parse(label): captures_of(label) for label in labels}
    faces = combine_captures(captures, DECK, params=CombineParams(compose_missing=False))
    seconds = compose_learned(faces, IdentifyParams(), CombineParams())
    five = StdCard.parse("5D")
    # the 5D again, from the 5H's face and the diamonds of the AD and 8D; no other card prints
    # a 3 (for the 3C) nor a heart (for the 5H)
    assert set(seconds) == {five}
    assert not np.array_equal(seconds[five], faces[five])
    # the composed 5D alone (instead of the learned one) still reads the real 5D captures
    assert reads({**faces, five: seconds[five]}, "5D") == [five] * 3
