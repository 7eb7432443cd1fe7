"""Covered cards read at the card size of their own place in the frame, and in frames where the
finder found no card at all."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.covered_size import local_shorts
from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scorer.cards import Card, DeckKind, parse_card

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "scenes"


def local_short(point: np.ndarray, centres: np.ndarray, shorts: np.ndarray, p: CoveredParams) -> float:
    """``local_shorts`` at one point."""
    return float(local_shorts(np.asarray(point, np.float64)[None], centres, shorts, p)[0])


def _plane(points: np.ndarray) -> np.ndarray:
    """Card short sides on a tilted table: larger toward the bottom right of the frame."""
    return np.asarray(40.0 + 0.02 * points[:, 0] + 0.03 * points[:, 1], np.float64)


def test_the_size_at_a_place_follows_the_plane_of_the_cards_around_it() -> None:
    p = CoveredParams()
    centres = np.array([[100.0, 100.0], [500.0, 120.0], [300.0, 400.0], [120.0, 300.0]])
    shorts = _plane(centres)
    for point in ([400.0, 300.0], [250.0, 200.0], [520.0, 420.0]):
        at = np.asarray(point, np.float64)
        assert local_short(at, centres, shorts, p) == pytest.approx(float(_plane(at[None])[0]))
    # far outside the cards the plane is not followed beyond local_reach of their sizes
    far = np.array([5000.0, 5000.0])
    assert local_short(far, centres, shorts, p) == pytest.approx(float(shorts.max()) * (1.0 + p.local_reach))


def test_too_few_cards_or_cards_along_one_line_give_the_nearest_cards_size() -> None:
    p = CoveredParams()
    two = np.array([[100.0, 100.0], [500.0, 100.0]])
    assert local_short(np.array([450.0, 300.0]), two, np.array([40.0, 60.0]), p) == 60.0
    row = np.array([[100.0, 100.0], [300.0, 101.0], [500.0, 102.0]])
    assert local_short(np.array([120.0, 400.0]), row, np.array([40.0, 50.0, 60.0]), p) == 40.0
    with pytest.raises(ValueError, match="at least one card"):
        local_short(np.array([0.0, 0.0]), np.zeros((0, 2)), np.zeros(0), p)


def test_covered_local_params_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.local_size"):
        CoveredParams(local_size=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.local_plane"):
        CoveredParams(local_plane=2)
    with pytest.raises(ValueError, match=r"covered\.local_spread"):
        CoveredParams(local_spread=-1.0)
    with pytest.raises(ValueError, match=r"covered\.local_reach"):
        CoveredParams(local_reach=1.5)
    with pytest.raises(ValueError, match=r"covered\.unfound_probe"):
        CoveredParams(unfound_probe=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.unfound_sizes"):
        CoveredParams(unfound_sizes=0)


def _named(scene: str, params: ScannerParams) -> tuple[Counter[Card], Counter[Card]]:
    """The cards ``params`` names in a fixture scene, and the cards lying there."""
    doc = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    truth = next(s for s in doc["scenes"] if s["file"] == scene)
    deck = DeckKind(truth["deck"])
    image = np.asarray(cv2.imread(str(FIXTURES / scene), cv2.IMREAD_COLOR), dtype=np.uint8)
    named = Counter(d.card for d in Scanner(deck, params=params).scan(image).detections if d.card is not None)
    return named, Counter(parse_card(c["card"], deck) for c in truth["cards"])


def test_a_pile_the_finder_found_nothing_of_is_read_at_the_size_its_sides_and_edges_give() -> None:
    # scene_046: a pile under an arm, no outline rebuilt; its 6H shows its index corner
    base = ScannerParams()
    named, present = _named("scene_046.jpg", base)
    off, _ = _named("scene_046.jpg", replace(base, covered=replace(base.covered, unfound_probe=False)))
    six = parse_card("6H", DeckKind.OKTRIS)
    assert not named - present
    assert named[six] == 1
    assert off[six] == 0


def test_a_hand_rows_covered_card_is_named_at_the_size_the_cards_identified_imply_at_its_place() -> None:
    # scene_010 (camera tilted 20 degrees): the cards identified measure 74-88 px, the frame's
    # size is their median 80 px; the bottom row's 7D and 8H (true 92-94 px) lie beside the
    # largest of them and are read at the plane of their sizes there
    base = ScannerParams()
    named, present = _named("scene_010.jpg", base)
    off, _ = _named("scene_010.jpg", replace(base, covered=replace(base.covered, local_size=False)))
    assert not named - present
    for label in ("7D", "8H"):
        card = parse_card(label, DeckKind.OKTRIS)
        assert named[card] == 1
        assert off[card] == 0
