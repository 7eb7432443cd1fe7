"""Corner proposals of covered-card reading: outline corners, straight runs of the outline, and
corners laid on the card edges (``scanner.find_corners``)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest

from scanner.find_corners import CornerProposal, corner_proposals
from scanner.find_work import make_work
from scanner.params import CoveredParams, ScannerParams
from scanner.scenes import Scene, SceneTruth, render
from scanner.scenes_layout import fan
from scanner.types import Image
from scorer.cards import DeckKind, parse_card

CARD_PX = 190.0
"""Long side of a card in the rendered scenes (table pixels; the camera looks straight down)."""

PLAIN: dict[str, Any] = {
    "outline_corners": False,
    "min_run": 0.0,
    "refine_samples": 0,
    "longest_first": False,
}
"""The proposals of the split outlines and straight edge pairs alone."""

NO_RUNS: dict[str, Any] = {"min_run": 0.0}
"""The ends of the outline's straight runs not proposed."""

REFINED: dict[str, Any] = {"refine_samples": 8}
"""Proposals laid on the card edges along their arms."""


def _params(**covered: Any) -> ScannerParams:
    base = ScannerParams()
    return replace(base, covered=replace(base.covered, **covered))


def _fans() -> Iterator[tuple[Image, SceneTruth]]:
    for seed in range(20, 28):
        rng = np.random.default_rng(seed)
        labels = ["3H", "8C", "5D", "AS", "7H", "2S"][: 4 + seed % 3]
        cards = [parse_card(label, DeckKind.OKTRIS) for label in labels]
        placed = fan(cards, (640.0, 400.0), float(rng.uniform(-30, 30)), CARD_PX, rng)
        yield render(Scene(cards=placed, card_px=CARD_PX), rng)


def _angle(a: np.ndarray, b: np.ndarray) -> float:
    """Degrees between two unit vectors."""
    return abs(math.degrees(math.atan2(float(a[0] * b[1] - a[1] * b[0]), float(a @ b))))


def _proposed(proposals: list[CornerProposal], corner: np.ndarray, across: np.ndarray, radius: float) -> bool:
    return any(
        float(np.hypot(*(p.point - corner))) <= radius and _angle(p.across, across) <= 3.0 for p in proposals
    )


def _lower_cards_proposed(params: ScannerParams) -> tuple[int, int]:
    """Of the visible index corners of the fans' lower cards: how many have a proposal within a
    tenth of the short side and 3 degrees, and how many there are."""
    hit = total = 0
    for image, truth in _fans():
        work = make_work(image, params.find)
        proposals = corner_proposals(work, params.find, params.covered)
        for card in truth.cards[:-1]:
            quad = np.asarray(card.corners, np.float64) * work.scale
            for k, shown in enumerate(card.index_visible):
                if not shown:
                    continue
                q = np.roll(quad, -2 * k, axis=0)
                short = float(np.hypot(*(q[1] - q[0])))
                total += 1
                hit += _proposed(proposals, q[0], (q[1] - q[0]) / short, 0.1 * short)
    return hit, total


def test_the_lower_cards_of_rendered_fans_are_proposed_at_their_index_corners() -> None:
    hit, total = _lower_cards_proposed(ScannerParams())
    plain, plain_total = _lower_cards_proposed(_params(**PLAIN))
    no_runs, _ = _lower_cards_proposed(_params(**NO_RUNS))
    assert total == plain_total > 20
    # a lower card's index corner lies where the fan's outline steps by a little: the ends of the
    # outline's straight runs propose it
    assert hit >= 0.7 * total
    assert hit > no_runs >= plain


def _card_image(quads: list[np.ndarray], size: tuple[int, int] = (1280, 720)) -> Image:
    """White cards (frame pixels, drawn in order, with no line between two cards) on a green table."""
    image = np.zeros((size[1], size[0], 3), np.uint8)
    image[:] = (40, 110, 50)
    for quad in quads:
        cv2.fillConvexPoly(image, np.round(quad * 16).astype(np.int32), (245, 245, 245), cv2.LINE_AA, 4)
    return image


def _card(corner: tuple[float, float], angle_deg: float, short: float, slant_deg: float = 0.0) -> np.ndarray:
    """A card's corners TL TR BR BL (frame pixels) from its top-left corner, turned by ``angle_deg``;
    ``slant_deg`` leans its long side off the right angle (a card seen at a slant)."""
    a = math.radians(angle_deg)
    across = np.array([math.cos(a), math.sin(a)])
    b = a + math.radians(90.0 + slant_deg)
    down = np.array([math.cos(b), math.sin(b)])
    p = np.array(corner, np.float64)
    return np.array([p, p + short * across, p + short * across + 1.4 * short * down, p + 1.4 * short * down])


def test_a_card_peeking_out_along_a_straight_outline_is_proposed_at_its_index_corner() -> None:
    # a row of cards each lying on the one before, shifted along the short side, white on white:
    # each card's top-left corner lies on the row's top edge, where the outline steps by five
    # pixels (too little for a corner of the outline; no edge of the card's side shows)
    quads = [_card((300.0 + 55.0 * i, 200.0 - 5.0 * i), 0.0, 120.0) for i in range(4)]
    image = _card_image(quads)
    for params, expected in ((ScannerParams(), True), (_params(**NO_RUNS), False)):
        work = make_work(image, params.find)
        proposals = corner_proposals(work, params.find, params.covered)
        for quad in quads[1:3]:
            corner = quad[0] * work.scale
            assert _proposed(proposals, corner, np.array([1.0, 0.0]), 0.1 * 120.0 * work.scale) is expected


def test_a_slanted_corner_is_laid_on_both_of_its_edges() -> None:
    quad = _card((500.0, 200.0), 17.0, 130.0, slant_deg=-6.0)
    image = _card_image([quad])
    across = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
    down = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    errors = {}
    for name, params in (("refined", _params(**REFINED)), ("squared", ScannerParams())):
        work = make_work(image, params.find)
        proposals = corner_proposals(work, params.find, params.covered)
        near = [p for p in proposals if float(np.hypot(*(p.point - quad[0] * work.scale))) <= 3.0]
        assert near, name
        errors[name] = min(max(_angle(p.across, across), _angle(p.down, down)) for p in near)
    assert errors["refined"] <= 1.5
    assert errors["squared"] > 3.0  # a right-angled corner misses one edge of a slanted card


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("min_run", -1.0),
        ("run_epsilon", 0.0),
        ("refine_samples", -1),
        ("refine_radius", 0.0),
        ("refine_edge", 300.0),
        ("refine_angle", 60.0),
        ("refine_length", -1.0),
        ("refine_slant_length", -1.0),
        ("outline_corners", 1),
        ("longest_first", "yes"),
        ("junction_reach", -1.0),
        ("junction_length", 0.0),
        ("junction_refine", -1),
        ("junction_reads", -1),
    ],
)
def test_covered_params_reject_bad_proposal_fields(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match=f"covered.{field}"):
        CoveredParams(**{field: value})


def test_proposals_are_read_longest_arm_first() -> None:
    image, _ = next(_fans())
    lengths = {}
    for first in (True, False):
        params = _params(longest_first=first)
        work = make_work(image, params.find)
        proposals = corner_proposals(work, params.find, params.covered)
        # the junctions of inner edges with the outline come after all others (a weaker sign)
        kinds = [p.junction for p in proposals]
        assert kinds == sorted(kinds)
        lengths[first] = [max(p.length_across, p.length_down) for p in proposals if not p.junction]
    assert lengths[True] == sorted(lengths[True], reverse=True)
    assert sorted(lengths[True]) == sorted(lengths[False])
    assert lengths[False] != lengths[True]  # found in the order of the outlines and edges
