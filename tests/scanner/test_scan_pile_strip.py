"""A pile card showing a thin strip beside the top card: its corner proposals and the veto."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scorer.cards import DeckKind, parse_card

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "scenes"


def _named(scene: str, params: ScannerParams) -> tuple[list[str], set[str]]:
    doc = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    truth = next(s for s in doc["scenes"] if s["file"] == scene)
    deck = DeckKind(truth["deck"])
    image = np.asarray(cv2.imread(str(FIXTURES / scene), cv2.IMREAD_COLOR), dtype=np.uint8)
    named = [str(d.card) for d in Scanner(deck, params=params).scan(image).detections if d.card is not None]
    return named, {str(parse_card(c["card"], deck)) for c in truth["cards"]}


def test_a_pile_card_strip_beside_the_top_card_is_named() -> None:
    # fixture scene_012: the 7S shows a strip of about a third of its short side beside the 2S
    # on top. The outline of that strip gives a corner 9 degrees off the card's sides; the end of
    # the straight run along its short side, 3 px from it and 7.5 degrees apart, reads the 7S.
    # Both are one corner at ``duplicate_angle`` 10 and the first (off) is read. The 7S read is
    # then vetoed by the outline found over the 2S and the strip, ranked 2S (0.58), unless a card
    # of that name is identified elsewhere in the frame (``veto_named``) or beside that outline
    # (``veto_near``), or a first card must score more to veto (``veto_score``): any one of the
    # three rules keeps the 7S.
    base = ScannerParams()
    named, present = _named("scene_012.jpg", base)
    assert "7S" in named
    assert set(named) <= present and len(named) == len(set(named))  # none wrong, none twice
    merged = replace(base, covered=replace(base.covered, duplicate_angle=10.0))
    assert "7S" not in _named("scene_012.jpg", merged)[0]
    vetoed = replace(base, covered=replace(base.covered, veto_named=False, veto_near=0.0, veto_score=0.0))
    assert "7S" not in _named("scene_012.jpg", vetoed)[0]
    near_only = replace(base, covered=replace(base.covered, veto_named=False, veto_near=0.5, veto_score=0.0))
    assert "7S" in _named("scene_012.jpg", near_only)[0]
    score_only = replace(base, covered=replace(base.covered, veto_named=False, veto_near=0.0))
    assert "7S" in _named("scene_012.jpg", score_only)[0]


def test_the_duplicate_angles_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.junction_duplicate_angle"):
        CoveredParams(junction_duplicate_angle=95.0)
    with pytest.raises(ValueError, match=r"covered\.junction_duplicate_angle"):
        CoveredParams(junction_duplicate_angle=-1.0)
    with pytest.raises(ValueError, match=r"covered\.veto_named"):
        CoveredParams(veto_named=1)  # type: ignore[arg-type]
