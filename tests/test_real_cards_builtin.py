"""The real photos' multi-card scenes read with the built-in templates, when the photos are
present (``benchmarks.real_cards.builtin_figures``; the scenes' deck need not be the one the
templates were drawn from).  Apart from ``tests/test_real_cards.py`` so that the two long
readings run side by side."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.real_cards import builtin_figures, real_cards_folder

pytestmark = pytest.mark.slow(longest=True)  # handed out first, with tests/test_real_cards.py


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    folder = real_cards_folder()
    if folder is None:
        pytest.skip("real photos not present (set OCTOTABLE_REAL_CARDS or add ../shared/data/real-cards)")
    return builtin_figures(folder)


def test_scenes_read_with_the_built_in_templates_name_at_most_two_cards_that_are_not_there(
    figures: dict[str, Any],
) -> None:
    scenes = figures["kinds"]["multi (built-in templates)"]
    assert scenes["scenes"] == 34
    assert scenes["visible"] > 0
    assert len(scenes["wrong"]) <= 2, scenes


def test_scene_losses_account_for_every_visible_card(figures: dict[str, Any]) -> None:
    losses = figures["scene_candidates"]["built-in"]
    assert losses["visible"] == figures["kinds"]["multi (built-in templates)"]["visible"]
    assert losses["named"] + losses["first"] + losses["missed"] == losses["visible"], losses
    assert losses["quads"] >= losses["wrong_first"], losses
