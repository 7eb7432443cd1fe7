"""A card held before a white wall, found by its paper grown out from its print."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from scanner.find import find_cards
from scanner.find_geometry import order_corners
from scanner.find_paper import paper_quads
from scanner.find_work import make_work
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner
from scanner.templates import Templates
from scorer.cards import DeckKind, StdCard

PARAMS = FindParams()
SKIN = (140, 165, 215)


def corner_error(quad: npt.NDArray[np.float64], truth: npt.NDArray[np.float64]) -> float:
    """Mean corner distance (pixels), corners in any rotation."""
    q, t = order_corners(np.asarray(quad, np.float64)), order_corners(truth)
    return min(float(np.linalg.norm(q - np.roll(t, k, axis=0), axis=1).mean()) for k in range(4))


def held_card(wall: int = 252, paper: float = 0.93) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """A 1280x720 frame: a white wall, a beige shirt below, and the
    built-in 4D's face (its paper a little greyer than the wall) held by a hand whose fingers
    cross its left side; blurred a little, with camera noise and dark specks.  Returns the
    frame and the card's true corners."""
    rng = np.random.default_rng(3)
    img = np.full((720, 1280, 3), wall, np.float32)
    img[560:] = (120, 160, 185)
    face = Templates.builtin(DeckKind.OKTRIS).faces[StdCard.parse("4D")][0].astype(np.float32) * paper
    short, angle = 150.0, math.radians(6.0)
    long = short * 88.0 / 63.0
    half = np.array([[-short, -long], [short, -long], [short, long], [-short, long]]) / 2.0
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    quad = half @ turn.T + [600.0, 330.0]
    matrix = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [199, 0], [199, 279], [0, 279]]), np.float32(quad)
    )
    warped = cv2.warpPerspective(face, matrix, (1280, 720))
    inside = cv2.warpPerspective(np.ones((280, 200), np.float32), matrix, (1280, 720)) > 0.5
    img[inside] = warped[inside]
    left = int(quad[0][0])
    cv2.ellipse(img, (left - 90, 380), (70, 120), 0, 0, 360, SKIN, -1)  # the hand
    for k in range(3):  # its fingers across the card's left side
        cv2.ellipse(img, (left - 20, 300 + 28 * k), (50, 11), -8, 0, 360, SKIN, -1)
    img = cv2.GaussianBlur(img, (0, 0), 2.5)
    img += rng.integers(-3, 4, img.shape).astype(np.float32)
    img[rng.random((720, 1280)) < 0.003] = 40
    return np.clip(img, 0, 255).astype(np.uint8), quad


def test_a_held_card_on_a_white_wall_is_outlined_by_its_paper_within_a_few_pixels() -> None:
    img, truth = held_card()
    # the finder's own passes do not outline this card
    assert all(corner_error(np.asarray(f.corners), truth) > 20.0 for f in find_cards(img, PARAMS))
    work = make_work(img, PARAMS)
    errors = [corner_error(q / work.scale, truth) for q in paper_quads(work, PARAMS)]
    assert errors and min(errors) < 4.0, errors


def test_the_scanner_names_the_held_card_only_with_the_paper_look() -> None:
    img, truth = held_card()
    on = Scanner(DeckKind.OKTRIS).scan(img).detections  # the paper look is on by default
    off = Scanner(DeckKind.OKTRIS, params=ScannerParams(find=FindParams(paper_fallback=False))).scan(img)
    assert not any(d.card is not None for d in off.detections)
    named = [d for d in on if d.card is not None]
    assert [str(d.card) for d in named] == ["4D"]
    assert corner_error(np.asarray(named[0].corners), truth) < 6.0


@pytest.mark.parametrize("level", [205, 238, 250])
def test_an_empty_light_wall_gives_no_outline_and_no_card(level: int) -> None:
    rng = np.random.default_rng(5)
    img = np.full((720, 1280, 3), level, np.int16) + rng.integers(-5, 6, (720, 1280, 3), dtype=np.int16)
    img[rng.random((720, 1280)) < 0.003] = 30  # specks of sensor noise
    frame = np.clip(img, 0, 255).astype(np.uint8)
    cv2.ellipse(frame, (300, 500), (70, 160), 0, 0, 360, SKIN, -1)  # a hand, no card
    assert paper_quads(make_work(frame, PARAMS), PARAMS) == []
    assert Scanner(DeckKind.OKTRIS).scan(frame).detections == ()  # the look is on by default


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("paper_fallback", 1),
        ("paper_ink_margin", 0.0),
        ("paper_glyph_area", (0.01, 0.001)),
        ("paper_tolerances", ()),
        ("paper_aspect", (1.2,)),
        ("paper_min_fill", 1.5),
        ("paper_agree", 0),
        ("paper_max_seeds", 0),
    ],
)
def test_bad_paper_parameters_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]


def test_the_held_card_is_named_by_several_candidates_that_agree() -> None:
    img, _ = held_card()
    # the default asks two candidates naming the card (one alone named a phone 3S 3C)
    assert FindParams().paper_agree == 2
    strict = ScannerParams(find=FindParams(paper_agree=50))
    assert not any(d.card is not None for d in Scanner(DeckKind.OKTRIS, params=strict).scan(img).detections)
