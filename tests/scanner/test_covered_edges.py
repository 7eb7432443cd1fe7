"""The corners read and left unnamed are read again laid on their card's edges
(``CoveredParams.edge_reads``): a proposal's arms can be several degrees off the card's sides,
and its index then reads unclear where the card's own sides read it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scanner.params import CoveredParams
from tests.scanner.fixture_scenes import NO_FRAMES, fixture_scene, scene_mistakes
from tests.scanner.test_identify_heldout import held_out_scene

ON = NO_FRAMES  # 16 reads by default
OFF = replace(ON, covered=replace(ON.covered, edge_reads=0))
# the whole arms' edges only (and no second reading at the named cards' size, ``named_size``: it
# names 4680-39's 5 too)
WHOLE = replace(ON, covered=replace(ON.covered, edge_near=(), named_size=0.0))


@pytest.mark.parametrize(
    ("seed", "index", "mended"),
    [
        # an Octoplus fan whose 1 and 6 are named laid on their edges; with the 6 the fan's top
        (9292, 7, ["1 (fan) not found", "6 (fan) not found", "top card of the fan wrong"]),
        # an Octoplus hand row's 2 and 7
        (5791, 11, ["2 (hand) not found", "7 (hand) not found"]),
        # a tilted frame's whole P lying on a hand's other card, outlined with it as one card
        (6161, 39, ["P (hand) not found"]),
    ],
)
def test_a_corner_laid_on_its_edges_names_its_card(seed: int, index: int, mended: list[str]) -> None:
    image, scene = held_out_scene(seed, index)
    off, on = scene_mistakes(scene, image, OFF), scene_mistakes(scene, image, ON)
    assert set(mended) <= set(off)  # the case the test guards still shows
    assert not set(mended) & set(on)
    assert set(on) <= set(off)  # nothing lost, no wrong name


def test_a_corner_laid_on_its_edges_and_turned_names_its_card() -> None:
    # the committed fixtures' scene_025: a hand row's +2, its corner laid on its edges still reading
    # unclear, is named turned a few degrees about its corner
    scene, image = fixture_scene("scene_025.jpg")
    off, on = scene_mistakes(scene, image, OFF), scene_mistakes(scene, image, ON)
    assert "+2 (hand) not found" in off
    assert "+2 (hand) not found" not in on
    assert set(on) <= set(off)


@pytest.mark.parametrize(
    ("seed", "index", "mended"),
    [
        # a hand row's 2D and 6H, their corners laid on the edges of their arms nearest the corner
        (9292, 10, ["2D (hand) not found", "6H (hand) not found"]),
        # an Octoplus hand row's 6 and 5
        (4680, 39, ["6 (hand) not found", "5 (hand) not found"]),
    ],
)
def test_a_corner_laid_on_its_edges_near_it_names_its_card(seed: int, index: int, mended: list[str]) -> None:
    image, scene = held_out_scene(seed, index)
    whole, on = scene_mistakes(scene, image, WHOLE), scene_mistakes(scene, image, ON)
    assert set(mended) <= set(whole)  # the whole arms' edges leave them unnamed
    assert not set(mended) & set(on)
    assert set(on) <= set(whole)


def test_a_card_the_near_edges_name_is_the_one_the_corner_ranked_first() -> None:
    # an Octoplus hand's 3, its corner laid on the edges nearest it, reads 1 (0.67), a card the
    # corner did not rank first as it lay: not named, and the hand gains no wrong name
    image, scene = held_out_scene(7373, 25)
    on = scene_mistakes(scene, image, ON)
    assert not [m for m in on if " read as " in m or "false card" in m]
    assert set(on) <= set(scene_mistakes(scene, image, WHOLE))


def test_a_card_read_again_from_its_other_index_corner_is_not_named_twice() -> None:
    # an Octoplus hand's whole 7, named from one index corner; its other index corner, laid on its
    # edges, reads 7 on a card laid out larger (no longer the same card by the corners' places):
    # that corner lies inside the 7 named, so it is that card and adds no false card
    image, scene = held_out_scene(5151, 39)
    on = scene_mistakes(scene, image, ON)
    assert not [m for m in on if "false card" in m]
    assert set(on) <= set(scene_mistakes(scene, image, OFF))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("edge_reads", -1),
        ("edge_reads", 1.5),
        ("edge_samples", 2),
        ("edge_angle", 60.0),
        ("edge_min_turn", -1.0),
        ("edge_min_move", -0.5),
        ("edge_near", (1.5,)),
        ("edge_near", 0.6),
    ],
)
def test_the_edge_reads_fields_are_checked(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"covered.{field}"):
        CoveredParams(**{field: value})  # type: ignore[arg-type]
