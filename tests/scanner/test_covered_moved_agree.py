"""A turned, moved or searched corner read that only a second reading names (the second look, or
an Octoplus label read against blurred templates), at a lead under what its step asks, names its
card when another read of the same step names the same card (``CoveredParams.moved_agree``, 2);
one such read alone named wrong cards."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scanner.params import CoveredParams
from tests.scanner.fixture_scenes import NO_FRAMES, fixture_scene, scene_mistakes
from tests.scanner.test_identify_heldout import assert_wrong_names_mended, held_out_scene

# the corners laid on their edges (``CoveredParams.edge_reads``) name 6161-6's 7S and 8642-6's AD
# too: off, to show this step alone
AGREED = replace(NO_FRAMES, covered=replace(NO_FRAMES.covered, edge_reads=0))  # 2 by default
NEVER = replace(AGREED, covered=replace(AGREED.covered, moved_agree=0))
ALONE = replace(AGREED, covered=replace(AGREED.covered, moved_agree=1))


@pytest.mark.parametrize(
    ("where", "mended"),
    [
        # a fan's 7S: two turns of its corner name it by the second look (0.73, 0.72; leads 0.003,
        # 0.006)
        ((6161, 6), "7S (fan) not found"),
        # a fan's AD: three turns name it by the second look (0.69-0.76, leads 0.002-0.014)
        ((8642, 6), "AD (fan) not found"),
        # an Octoplus hand's 3: four turns of its corner name it by a second reading (0.61-0.73,
        # leads 0.008-0.022 under the deck's 0.04)
        ((5791, 11), "3 (hand) not found"),
        # the committed fixtures' scene_035, a fan's Octoplus 2: two moves of its corner name it by
        # a second reading (0.61, 0.60; leads 0.025, 0.026)
        ("scene_035.jpg", "2 (fan) not found"),
    ],
)
def test_a_read_named_by_a_second_reading_and_agreed_with_names_its_card(
    where: tuple[int, int] | str, mended: str
) -> None:
    if isinstance(where, str):
        scene, image = fixture_scene(where)
    else:
        image, scene = held_out_scene(*where)
    never, agreed = scene_mistakes(scene, image, NEVER), scene_mistakes(scene, image, AGREED)
    assert mended in never  # the case the test guards still shows
    assert mended not in agreed
    assert set(agreed) <= set(never)  # nothing lost, no wrong name


def test_one_read_named_by_the_second_look_alone_names_nothing() -> None:
    # a pile's 5D, its corner turned once named 8D by the second look (0.725, lead 0.007 over AD)
    assert_wrong_names_mended(5791, 18, ALONE, AGREED)


@pytest.mark.parametrize("value", [-1, 101, 1.5, True])
def test_the_agreeing_reads_are_checked(value: object) -> None:
    with pytest.raises(ValueError, match="moved_agree"):
        CoveredParams(moved_agree=value)  # type: ignore[arg-type]
