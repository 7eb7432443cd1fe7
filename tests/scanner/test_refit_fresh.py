"""Two unnamed outlines of one card fitted again to one place name it once
(``FindParams.top_refit_fresh``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner
from scorer.cards import DeckKind, OctoCard
from tests.scanner.fixture_scenes import NO_FRAMES
from tests.scanner.test_identify_heldout import assert_wrong_names_mended, held_out_scene

BASE = NO_FRAMES
# the case as it was seen: the corners read at the outlines' sizes only (the probe's next sizes,
# ``CoveredParams.found_sizes``, name the 7 there before the refit does), and not again at the
# named cards' size (``named_size``: with the outlines' sizes alone it names a false 7 far away)
OUTLINE_SIZES = replace(BASE, covered=replace(BASE.covered, found_sizes=1, named_size=0.0))
STALE = replace(OUTLINE_SIZES, find=replace(BASE.find, top_refit_fresh=False))

# held-out scene 5858-25: an Octoplus 7 lying on a 4, found as two unnamed outlines that the
# refit fits to the same place (2 pixels apart) and names 7 twice: one of them a false card
SEED, INDEX = 5858, 25


def _sevens(params: ScannerParams) -> int:
    image, doc = held_out_scene(SEED, INDEX)
    detections = Scanner(DeckKind(doc["deck"]), params=params).scan(image).detections
    # the pile's 7 lies about (675, 620) in the frame; two more 7s lie far from it
    near = [d for d in detections if abs(d.centre[0] - 675) + abs(d.centre[1] - 620) < 150]
    return sum(1 for d in near if isinstance(d.card, OctoCard) and str(d.card) == "7")


def test_one_card_fitted_twice_is_named_once() -> None:
    assert _sevens(STALE) == 2, "the case no longer shows the mistake it guards"
    assert _sevens(OUTLINE_SIZES) == 1
    assert _sevens(BASE) == 1


def test_the_scan_loses_the_false_card() -> None:
    assert_wrong_names_mended(SEED, INDEX, STALE, OUTLINE_SIZES)
    assert_wrong_names_mended(SEED, INDEX, STALE, BASE)


def test_the_switch_is_validated() -> None:
    assert FindParams(top_refit_fresh=False).top_refit_fresh is False
    with pytest.raises(ValueError, match="top_refit_fresh"):
        FindParams(top_refit_fresh=0)  # type: ignore[arg-type]
