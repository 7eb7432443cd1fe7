"""The finder's last lone-card passes (the light colourless pixels, the regions enclosed by
denoised edges) looked at first on the work image shrunk (``FindParams.outline_shrink``): the
work image's own are made only when a rough outline could be a card not yet explained."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scanner.find import _outlines, _region_outlines, find_cards
from scanner.find_work import Work, make_work
from scanner.params import FindParams
from tests.scanner.test_find import best_match, card_quad, draw_card, table

PARAMS = FindParams()
FULL = replace(PARAMS, outline_shrink=1)


def _noisy(img: np.ndarray, seed: int = 5) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _separate_cards() -> tuple[np.ndarray, list[np.ndarray]]:
    img = table((40, 100, 30), gradient=0.2)
    quads = [card_quad(200 + 250 * i, 300 + 60 * (i % 2), 150, 25 * i) for i in range(4)]
    for q in quads:
        draw_card(img, q)
    return _noisy(img), quads


def _full_cuts_made(work: Work) -> bool:
    return "_cuts" in work.__dict__


def _corners(found: list) -> list[tuple[tuple[float, float], ...]]:
    return [f.corners for f in found]


def test_separate_cards_are_found_without_the_full_size_cuts_and_as_with_them() -> None:
    img, quads = _separate_cards()
    work = make_work(img, PARAMS)
    assert work.rough is not None and work.rough[1].shape == (180, 320)
    found = find_cards(img, PARAMS, work, scores=False)
    assert not _full_cuts_made(work)
    assert _corners(found) == _corners(find_cards(img, FULL, make_work(img, FULL), scores=False))
    for q in quads:
        assert best_match(found, q)[1] < 3.0


def test_a_card_the_card_pixels_miss_makes_the_full_size_cuts_and_is_found_as_with_them() -> None:
    # a light table: the card is not lighter than the table by the margin, only its outline shows
    img = table((228, 230, 232))
    quad = card_quad(500, 300, 150, 25)
    draw_card(img, quad, paper=240, outline=150)
    work = make_work(img, PARAMS)
    found = find_cards(img, PARAMS, work)
    assert not np.any(work.mask)
    assert _full_cuts_made(work)
    assert _corners(found) == _corners(find_cards(img, FULL))
    assert len(found) == 1 and best_match(found, quad)[1] < 3.0


def test_full_size_cuts_made_on_demand_are_those_made_with_the_work_image() -> None:
    img, _ = _separate_cards()
    rough, full = make_work(img, PARAMS), make_work(img, FULL)
    assert full.rough is None and _full_cuts_made(full)
    assert not _full_cuts_made(rough)
    assert np.array_equal(rough.blurred, cv2.medianBlur(rough.grey, PARAMS.denoise_kernel))
    assert np.array_equal(rough.blurred, full.blurred)
    assert np.array_equal(rough.bright, full.bright)
    assert np.array_equal(rough.regions, full.regions)


@pytest.mark.parametrize("seed", [1, 2])
def test_rough_region_outlines_scaled_back_lie_where_the_full_size_ones_do(seed: int) -> None:
    """Each card-size region enclosed by denoised edges at the work image's size has a rough
    outline, scaled back to work pixels, whose box centre lies within two work pixels of its own
    and whose area is within a fifth of its own: the card that explains one explains the other."""
    img, _ = _separate_cards()
    img = _noisy(img, seed)
    work = make_work(img, PARAMS)
    rough = _outlines(work, PARAMS)["regions"]
    area = float(work.grey.shape[0] * work.grey.shape[1])
    full = _region_outlines(work.regions, PARAMS.min_card_area * area, PARAMS.max_card_area * area, PARAMS)
    assert len(full) == 4

    def centre(c: np.ndarray) -> np.ndarray:
        x, y, w, h = cv2.boundingRect(c)
        return np.array([x + w / 2.0, y + h / 2.0])

    for c in full:
        nearest = min(rough, key=lambda r: float(np.linalg.norm(centre(r) - centre(c))))
        assert np.linalg.norm(centre(nearest) - centre(c)) <= 2.0
        assert abs(cv2.contourArea(nearest) / cv2.contourArea(c) - 1.0) <= 0.2


@pytest.mark.parametrize(
    ("field", "value"), [("outline_shrink", 0), ("shrunk_denoise_kernel", 4), ("shrunk_grow", 1.5)]
)
def test_bad_rough_parameters_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]
