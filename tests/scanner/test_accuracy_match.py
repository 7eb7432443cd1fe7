"""The accuracy benchmark's match of detections to true cards (``benchmarks.scanner_accuracy``).

In a neat pile the top card lies on the card under it and the two true outlines differ by about
a pixel: the corners of the outline found cannot tell which card it is, and the name the scanner
read from the print that shows decides.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import benchmarks.scanner_accuracy as accuracy
from benchmarks.scanner_accuracy import NAME_TIE, _match, score_scene
from scanner.find_geometry import as_quad
from scanner.scan import Scanner
from scanner.types import Detection
from scorer.cards import DeckKind, parse_card
from tests.scanner.test_find import card_quad
from tests.scanner.test_identify_heldout import held_out_scene

DECK = DeckKind.OCTOPLUS


def _truth(card: str, quad: np.ndarray, z: int, top: bool, visible: float) -> dict[str, Any]:
    return {
        "card": card,
        "corners": quad.tolist(),
        "z": z,
        "top": top,
        "visible_fraction": visible,
        "identifiable": visible > 0.5,
        "group": "pile",
    }


def _pile(shift: float) -> tuple[list[dict[str, Any]], np.ndarray, np.ndarray]:
    """A 2 under a 1 lying ``shift`` pixels to its right (cards 146 px across): the truth and
    both outlines."""
    under = card_quad(640, 360, 146, 3)
    over = card_quad(640 + shift, 360, 146, 3)
    return [_truth("2", under, 0, False, 0.08), _truth("1", over, 1, True, 1.0)], under, over


def test_an_outline_as_near_the_card_of_its_name_as_the_one_under_it_is_matched_by_its_name() -> None:
    truth, under, _ = _pile(2.0)
    # the outline found lies half-way between, a hair nearer the 2 under the 1 it is named
    found = as_quad(under + np.array([0.9, 0.0]))
    named = (Detection(card=parse_card("1", DECK), confidence=0.7, corners=found, top=True),)
    assert _match(truth, named) == {0: 0}  # by the corners alone: the 2, read as 1
    assert _match(truth, named, DECK) == {1: 0}
    _, mistakes = score_scene({"file": "pile", "cards": truth}, named, DECK)
    assert not [m for m in mistakes if "read as" in m or "top card" in m]


def test_an_outline_clearly_nearer_the_other_card_is_matched_by_its_corners() -> None:
    truth, under, _ = _pile(12.0)
    # 12 px apart (0.08 of a short side): the outline on the 2 named 1 is a wrong name
    named = (Detection(card=parse_card("1", DECK), confidence=0.7, corners=as_quad(under), top=True),)
    assert NAME_TIE * 146 < 12.0
    assert _match(truth, named, DECK) == {0: 0}
    _, mistakes = score_scene({"file": "pile", "cards": truth}, named, DECK)
    assert "pile: 2 read as 1 (0.70)" in mistakes


def test_the_held_out_neat_pile_is_named_by_its_top_card(monkeypatch: pytest.MonkeyPatch) -> None:
    # held-out 9494/33: a 1 on a 2 (8% of it in view), the outline found 0.080 of a short side
    # from the 2 and 0.083 from the 1, named 1
    image, scene = held_out_scene(9494, 33)
    detections = Scanner(DECK).scan(image).detections
    monkeypatch.setattr(accuracy, "NAME_TIE", 0.0)
    _, mistakes = score_scene(scene, detections, DECK)
    assert any("2 read as 1" in m for m in mistakes)
    monkeypatch.undo()
    _, mistakes = score_scene(scene, detections, DECK)
    assert not [m for m in mistakes if "read as" in m or "top card" in m]
