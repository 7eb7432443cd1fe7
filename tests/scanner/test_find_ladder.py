"""Cards rebuilt at other sizes where the finder guessed the card size (``scanner.find_ladder``,
``FindParams.ladder_*``): a pile's top card with a hand over it, in a frame of no other card."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner.find import find_cards
from scanner.find_geometry import order_corners
from scanner.find_ladder import ladder_cards
from scanner.find_top import outline_distance
from scanner.find_work import make_work
from scanner.params import FindParams, ScannerParams
from tests.scanner.fixture_scenes import fixture_scene, scene_mistakes
from tests.scanner.test_find import card_quad, draw_card, table

OFF = replace(ScannerParams(), find=replace(FindParams(), ladder_reads=0))


def test_the_top_card_under_a_hand_is_rebuilt_at_its_own_size() -> None:
    # fixture scene_018: a pile of six on wood under motion blur, a hand over its top AC; no lone
    # card, and no card shows its whole outline, so the finder takes the longest side it saw
    # (a part of one) for a card's long side: 81 px short sides against the AC's 105
    scene, frame = fixture_scene("scene_018.jpg")
    (ace,) = [c for c in scene["cards"] if c["card"] == "AC"]
    true = np.array(ace["corners"], np.float64)
    p = FindParams()
    work = make_work(frame, p)
    found = find_cards(frame, p, work)
    assert min(outline_distance(np.asarray(f.corners, np.float64), true) for f in found) > 20.0
    assert len(work.guesses) == 1
    rebuilt = [order_corners(rect / work.scale) for rect in ladder_cards(work, p)]
    assert 0 < len(rebuilt) <= p.ladder_reads
    assert min(outline_distance(quad, true) for quad in rebuilt) < 6.0


def test_the_scanner_names_the_covered_top_card() -> None:
    scene, frame = fixture_scene("scene_018.jpg")
    before = scene_mistakes(scene, frame, OFF)
    assert "AC (pile) not found" in before and "top card of the pile wrong" in before
    after = scene_mistakes(scene, frame, ScannerParams())
    assert "AC (pile) not found" not in after
    assert "top card of the pile wrong" not in after
    assert not [m for m in after if " read as " in m or "false card" in m]


def test_no_guess_where_a_lone_card_tells_the_size() -> None:
    frame = table((40, 110, 40))
    draw_card(frame, card_quad(400, 360, 110, 10))
    draw_card(frame, card_quad(800, 360, 110, -25))
    p = FindParams()
    work = make_work(frame, p)
    assert len(find_cards(frame, p, work)) == 2
    assert work.guesses == []
    assert ladder_cards(work, p) == []


def test_the_ladder_is_validated() -> None:
    assert FindParams(ladder_reads=0).ladder_reads == 0
    with pytest.raises(ValueError, match="ladder_reads"):
        FindParams(ladder_reads=-1)
    with pytest.raises(ValueError, match="ladder_sizes"):
        FindParams(ladder_sizes=(1.5, 1.2))
    with pytest.raises(ValueError, match="ladder_support"):
        FindParams(ladder_support=1.5)
    with pytest.raises(ValueError, match="ladder_inside"):
        FindParams(ladder_inside=-0.1)
