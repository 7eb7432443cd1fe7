"""A named top card's outline fitted again reads another card (``Scanner._refit_named_tops``,
``FindParams.top_refit_named_rename``).

A pile's top card found on an outline that takes in a card peeking out under it is read off its
place and can be named as a look-alike (held-out 8282/5: a 6 read as 4 at 0.65, 0.12 of a short
side off, its outline over the -2 under it); fitted again it lies on its own card and its print
reads 6 at 0.86.  That reading is taken when it is clearly the better one.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmarks.scanner_accuracy import score_scene
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner
from scorer.cards import DeckKind
from tests.scanner.test_identify_heldout import assert_wrong_names_mended, held_out_scene

BASE = ScannerParams()
OFF = replace(BASE, find=replace(BASE.find, top_refit_named_rename=2.0))


def test_a_top_card_named_as_a_look_alike_on_an_outline_over_the_card_under_it_is_named_again() -> None:
    assert_wrong_names_mended(8282, 5, OFF, BASE)
    image, scene = held_out_scene(8282, 5)
    deck = DeckKind(scene["deck"])
    _, mistakes = score_scene(scene, Scanner(deck, params=BASE).scan(image).detections, deck)
    assert not [m for m in mistakes if "top card" in m or " 6 " in m]


@pytest.mark.parametrize("value", [-0.1, 2.5])
def test_the_rename_lead_is_checked(value: float) -> None:
    with pytest.raises(ValueError, match="top_refit_named_rename"):
        FindParams(top_refit_named_rename=value)
