"""A hand over a pile, outlined as a card of its own, is put over no card identified whole by the
sides alone (``FindParams.top_hand_sides``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner.find_top import top_flags
from scanner.find_work import make_work
from scanner.params import FindParams, ScannerParams
from tests.scanner.fixture_scenes import scene_mistakes
from tests.scanner.test_identify_heldout import held_out_scene

ON = ScannerParams()
OFF = replace(ON, find=replace(ON.find, top_hand_sides=0.0))
TOP_WRONG = "top card of the pile wrong"


@pytest.mark.parametrize(
    "seed",
    [
        # a dim pile with two hands over it; the 6C on top is named whole, and the lower hand is
        # outlined as a card whose sides run across it
        4680,
        # the same scene drawn again: its AH on top, the hand's outline over it
        3579,
    ],
)
def test_a_hand_outlined_as_a_card_does_not_take_the_pile_top(seed: int) -> None:
    image, scene = held_out_scene(seed, 40)
    off, on = scene_mistakes(scene, image, OFF), scene_mistakes(scene, image, ON)
    assert TOP_WRONG in off  # the case the test guards still shows
    assert TOP_WRONG not in on
    assert set(on) <= set(off)


def test_a_card_named_from_a_corner_keeps_the_hand_over_it() -> None:
    # a fan under an arm: its under cards' outlines take in the arm, and the 5H named from its
    # corner lies under them by the sides alone; it stays under them (it is no card found whole),
    # and the fan's top stays right
    image, scene = held_out_scene(6161, 34)
    assert "top card of the fan wrong" not in scene_mistakes(scene, image, ON)


def _flags(hands: list[float] | None, p: FindParams, whole: bool = True, marked: bool = True) -> list[bool]:
    # card 0 named (found ``whole`` or from a corner, ``marked`` top where found or not); card 1,
    # not identified, overlaps its lower half: by the sides alone (``order_above``) card 1 lies
    # over card 0
    frame = np.full((360, 640, 3), 60, np.uint8)
    frame[100:240, 200:300] = 230
    frame[170:310, 230:330] = 200
    work = make_work(frame, p)
    quads = [
        np.array([[200, 100], [300, 100], [300, 240], [200, 240]], np.float64) * work.scale,
        np.array([[230, 170], [330, 170], [330, 310], [230, 310]], np.float64) * work.scale,
    ]
    return top_flags(quads, [True, False], [whole, True], [marked, True], work, p, hands=hands)


def test_the_sides_of_an_outline_a_hand_covers_put_it_over_no_card_named_whole_or_marked() -> None:
    p = ScannerParams().find
    assert _flags(None, p)[0] is False  # no hands known: the sides put card 1 over card 0
    assert _flags([0.0, 0.2], p)[0] is False  # a hand over a fifth of it: still over card 0
    assert _flags([0.0, 0.5], p)[0] is True  # half of it a hand: card 0 is on top
    assert _flags([0.0, 0.5], p, whole=False)[0] is True  # named from a corner, marked top
    assert _flags([0.0, 0.5], p, whole=False, marked=False)[0] is False  # neither: stays under
    assert _flags([0.0, 0.5], replace(p, top_hand_sides=0.0))[0] is False  # off


def test_the_hand_share_is_validated() -> None:
    with pytest.raises(ValueError, match="top_hand_sides"):
        FindParams(top_hand_sides=1.5)
