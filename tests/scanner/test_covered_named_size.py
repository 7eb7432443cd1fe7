"""Covered cards read once more at the size of the cards named on their own outlines, when the
frame's size the corners were read at lies far from it (``CoveredParams.named_size``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner import scan
from scanner.find_geometry import as_quad
from scanner.find_work import make_work
from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scanner.types import Detection
from scorer.cards import DeckKind, parse_card
from tests.scanner.fixture_scenes import NO_FRAMES, scene_mistakes
from tests.scanner.test_identify_heldout import held_out_scene

ON = NO_FRAMES
OFF = replace(ON, covered=replace(ON.covered, named_size=0.0))


@pytest.mark.parametrize(
    ("seed", "index", "lost"),
    [
        # a dim Octoplus fan: the frame's size read at first is a card and a half
        (8642, 27, "1 (fan) not found"),
        # a pile under an arm: the 2C under the top card read at the size named whole
        (2727, 40, "2C (pile) not found"),
    ],
)
def test_a_covered_card_is_named_at_the_named_cards_size(seed: int, index: int, lost: str) -> None:
    image, scene = held_out_scene(seed, index)
    off, on = scene_mistakes(scene, image, OFF), scene_mistakes(scene, image, ON)
    assert lost in off  # the case the pass guards still shows
    assert lost not in on
    assert set(on) <= set(off)


def _named_card(short: float) -> Detection:
    corners = as_quad(
        np.array([[100, 100], [100 + short, 100], [100 + short, 100 + 1.4 * short], [100, 100 + 1.4 * short]])
    )
    return Detection(card=parse_card("4", DeckKind.OCTOPLUS), confidence=0.9, corners=corners)


@pytest.mark.parametrize(
    ("read_at", "again"),
    [
        ([102.0], False),  # within 3% of the named cards' 100 px: not read again
        ([60.0, 98.0], False),  # one of the sizes read at is theirs
        ([105.0], True),  # the corners were read at a size 5% too large
        ([130.0], True),
    ],
)
def test_the_frame_is_read_again_only_far_from_the_named_size(
    monkeypatch: pytest.MonkeyPatch, read_at: list[float], again: bool
) -> None:
    sizes: list[tuple[float, float] | None] = []

    def fake_read(
        frame: object, work: object, detections: list[Detection], templates: object, params: ScannerParams
    ) -> list[Detection]:
        sizes.append(params.find.card_size_px)
        return detections

    monkeypatch.setattr(scan, "read_covered", fake_read)
    frame = np.zeros((720, 1280, 3), np.uint8)
    scanner = Scanner(DeckKind.OCTOPLUS, params=ON)
    work = make_work(frame, ON.find)
    cards = [
        _named_card(100.0),
        _named_card(100.0),
        Detection(card=None, confidence=0.1, corners=_named_card(90.0).corners),
    ]
    whole = {id(d) for d in cards}
    scanner._covered_at_named_size(frame, work, cards, whole, read_at)
    assert sizes == ([(100.0, 100.0 * ON.find.card_aspect)] if again else [])
    # no card named on its own outline: nothing to take a size from
    sizes.clear()
    scanner._covered_at_named_size(frame, work, cards, set(), [130.0])
    assert sizes == []


def test_the_named_size_is_validated() -> None:
    with pytest.raises(ValueError, match="named_size"):
        CoveredParams(named_size=-0.1)
