"""The quick look (``FindParams.quick_long_side``, 427 by default): a frame of separate cards,
all named, is read from a smaller work image with every work-pixel size scaled
(``ScannerParams.at_work_side``); any other frame is read at ``work_long_side`` as without it."""

from __future__ import annotations

from dataclasses import fields, replace

import cv2
import numpy as np
import pytest

from scanner.find import find_cards, find_separate
from scanner.find_work import make_work
from scanner.params import WORK_PIXEL_SIZES, ScannerParams
from scanner.scan import Scanner
from scanner.scenes import Camera, PlacedCard, Scene, render
from scanner.types import Detection
from scorer.cards import DeckKind, oktris_deck

QUICK = ScannerParams()
PLAIN = replace(QUICK, find=replace(QUICK.find, quick_long_side=0))


def _separate(seed: int, count: int = 4) -> np.ndarray:
    """A rendered 1280x720 frame of ``count`` separate Oktris cards in a row."""
    rng = np.random.default_rng(seed)
    deck = oktris_deck()
    picks = rng.choice(len(deck), size=count, replace=False)
    cards = tuple(
        PlacedCard(
            deck[int(pick)],
            (200.0 + 280.0 * k, 360.0 + float(rng.uniform(-40, 40))),
            float(rng.uniform(-30, 30)),
        )
        for k, pick in enumerate(picks)
    )
    image, _truth = render(Scene(cards=cards, camera=Camera(tilt_deg=8.0), card_px=150.0), rng)
    return image


def _fanned(seed: int) -> np.ndarray:
    """A rendered frame of four cards fanned out, each lying on the one before."""
    rng = np.random.default_rng(seed)
    deck = oktris_deck()
    picks = rng.choice(len(deck), size=4, replace=False)
    cards = tuple(
        PlacedCard(deck[int(pick)], (500.0 + 48.0 * k, 360.0), 8.0 * k) for k, pick in enumerate(picks)
    )
    image, _truth = render(Scene(cards=cards, camera=Camera(tilt_deg=8.0), card_px=150.0), rng)
    return image


def _same_card_places(a: tuple[Detection, ...], b: tuple[Detection, ...], tolerance: float) -> bool:
    """Whether both name the same cards, each card's corners within ``tolerance`` frame pixels
    (in any cyclic order: a card read turned has its corners turned)."""
    if sorted(str(d.card) for d in a) != sorted(str(d.card) for d in b):
        return False
    for d in a:
        mine = np.asarray(d.corners)
        other = np.asarray(next(e.corners for e in b if e.card == d.card))
        off = min(float(np.abs(np.roll(other, k, axis=0) - mine).max()) for k in range(4))
        if off > tolerance:
            return False
    return True


@pytest.fixture(scope="module")
def scanners() -> tuple[Scanner, Scanner]:
    return Scanner(DeckKind.OKTRIS, params=QUICK), Scanner(DeckKind.OKTRIS, params=PLAIN)


def test_sizes_in_work_pixels_scale_with_the_work_image_and_nothing_else_does() -> None:
    p = ScannerParams()
    q = p.at_work_side(427)
    ratio = 427 / 640
    assert q.find.work_long_side == 427 and q.find.quick_long_side == 0
    assert q.find.corner_epsilon == pytest.approx(p.find.corner_epsilon * ratio)
    assert q.covered.side_min_px == pytest.approx(p.covered.side_min_px * ratio)
    assert q.find.fine_pad == round(p.find.fine_pad * ratio) and isinstance(q.find.fine_pad, int)
    assert q.find.edge_probe >= 1 and q.covered.open_margin >= 1
    assert q.find.denoise_kernel % 2 == 1 and q.find.denoise_kernel < p.find.denoise_kernel
    for section in ("find", "covered"):
        scaled = set(WORK_PIXEL_SIZES[section]) | {"work_long_side", "quick_long_side", "denoise_kernel"}
        for f in fields(getattr(p, section)):
            if f.name not in scaled:
                assert getattr(getattr(q, section), f.name) == getattr(getattr(p, section), f.name), f.name
    assert p.at_work_side(640) == replace(p, find=replace(p.find, quick_long_side=0))


@pytest.mark.parametrize("side", [-1, 32, 640, 1000])
def test_a_quick_side_not_below_the_work_side_is_refused_by_name(side: int) -> None:
    with pytest.raises(ValueError, match=r"find\.quick_long_side"):
        replace(ScannerParams().find, quick_long_side=side)


@pytest.mark.parametrize("side", [427, 320])
def test_a_frame_scaled_by_a_third_or_a_quarter_is_halved_first_and_near_its_pixel_areas(side: int) -> None:
    frame = _separate(3)
    p = QUICK.at_work_side(side).find
    work = make_work(frame, p)
    size = (side, round(720 * side / 1280))
    assert work.grey.shape == size[::-1] and work.scale == pytest.approx(side / 1280)
    by_area = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    by_area_grey = cv2.cvtColor(by_area, cv2.COLOR_BGR2LAB)[:, :, 0]
    assert float(np.abs(work.grey.astype(np.int16) - by_area_grey).mean()) < 2.0


@pytest.mark.parametrize("seed", [3, 4])
def test_separate_cards_are_found_at_the_smaller_work_image_where_they_are_at_the_larger(seed: int) -> None:
    frame = _separate(seed)
    small = QUICK.at_work_side(QUICK.find.quick_long_side).find
    quick = find_separate(frame, small, make_work(frame, small))
    plain = find_cards(frame, PLAIN.find, scores=False)
    assert quick is not None and len(quick) == len(plain) == 4
    for card in quick:
        mine = np.asarray(card.corners)
        assert min(float(np.abs(np.asarray(o.corners) - mine).max()) for o in plain) < 1.5


def test_a_fan_is_no_frame_of_separate_cards() -> None:
    frame = _fanned(7)
    small = QUICK.at_work_side(QUICK.find.quick_long_side).find
    assert find_separate(frame, small, make_work(frame, small)) is None


@pytest.mark.parametrize("seed", [3, 4])
def test_separate_cards_read_quickly_are_named_and_placed_as_at_the_full_work_image(
    scanners: tuple[Scanner, Scanner], seed: int
) -> None:
    quick, plain = scanners
    frame = _separate(seed)
    looked = quick._quick()
    assert looked is not None and looked._read(frame, separate=True) is not None  # the quick look answers
    a, b = quick.scan(frame).detections, plain.scan(frame).detections
    assert len(a) == 4 and all(d.card is not None for d in a)
    assert _same_card_places(a, b, 1.5)


def test_a_fan_is_read_at_the_full_work_image_as_without_the_quick_look(
    scanners: tuple[Scanner, Scanner],
) -> None:
    quick, plain = scanners
    frame = _fanned(7)
    assert quick.scan(frame).detections == plain.scan(frame).detections


def test_the_quick_look_follows_the_scanners_parameters() -> None:
    scanner = Scanner(DeckKind.OKTRIS, params=QUICK)
    first = scanner._quick()
    assert first is not None and first.params == QUICK.at_work_side(QUICK.find.quick_long_side)
    assert scanner._quick() is first  # made once
    scanner.params = replace(QUICK, find=replace(QUICK.find, white_margin=20.0))
    again = scanner._quick()
    assert again is not None and again is not first and again.params.find.white_margin == 20.0
    scanner.params = PLAIN
    assert scanner._quick() is None
