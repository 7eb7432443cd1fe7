"""An Octoplus corner label that leads clearly but reads faint is named (``CoveredParams.octo_clear``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from benchmarks.scanner_accuracy import score_scene
from scanner.covered_read import read_corner
from scanner.find_geometry import FloatArray
from scanner.params import CoveredParams, ScannerParams
from scanner.scan import Scanner
from scanner.types import Image
from scorer.cards import DeckKind, parse_card
from tests.scanner.test_identify_heldout import held_out_scene

# the rule is off by default; the learned accept step (``CoveredParams.learned_accept``, checked
# below) and the blurred read of unclear labels (``CoveredParams.octo_blur``) name this faint label
# too, so both are left out here to look at ``octo_clear`` alone
OFF = replace(ScannerParams(), covered=replace(ScannerParams().covered, learned_accept=None, octo_blur=0.0))
BASE = replace(OFF, covered=replace(OFF.covered, octo_clear=True))
LEARNED = replace(OFF, covered=replace(OFF.covered, learned_accept=0.9))

# held-out scene 4242-41: a fan whose covered P shows one index corner; its label leads the next
# card by 0.16 but its parts read 0.65, under ``octo_min_part_score`` (0.7)
SEED, INDEX, CARD = 4242, 41, "P"


@pytest.fixture(scope="module")
def scene() -> tuple[Image, dict[str, Any]]:
    return held_out_scene(SEED, INDEX)


def _corner(doc: dict[str, Any]) -> FloatArray:
    card = next(c for c in doc["cards"] if c["card"] == CARD)
    assert card["index_visible"][0]
    return np.asarray(card["corners"], np.float64)


def test_a_faint_label_leading_clearly_is_named_at_its_corner(scene: tuple[Image, dict[str, Any]]) -> None:
    image, doc = scene
    templates = Scanner(DeckKind.OCTOPLUS).templates
    assert templates is not None
    quad = _corner(doc)
    reading = read_corner(image, quad, templates, BASE)
    assert reading.card == parse_card(CARD, DeckKind.OCTOPLUS)
    assert reading.least_part < BASE.covered.octo_min_part_score
    assert reading.margin >= BASE.covered.octo_clear_margin
    # the usual thresholds alone, a size probe's read, or the label excepted: not named
    assert read_corner(image, quad, templates, OFF).card is None
    assert read_corner(image, quad, templates, BASE, clear_labels=False).card is None
    excepted = replace(BASE, covered=replace(BASE.covered, octo_clear_except=(CARD,)))
    assert read_corner(image, quad, templates, excepted).card is None


def test_the_scan_names_the_covered_card_and_nothing_wrong(scene: tuple[Image, dict[str, Any]]) -> None:
    image, doc = scene
    deck = DeckKind(doc["deck"])
    named: dict[str, int] = {}
    for name, params in (("off", OFF), ("on", BASE)):
        tallies, mistakes = score_scene(doc, Scanner(deck, params=params).scan(image).detections, deck)
        named[name] = sum(t.identified for t in tallies.values())
        assert not [m for m in mistakes if " read as " in m or "false card" in m]
        assert (f"{CARD} (fan) found, not identified" in " ".join(mistakes)) == (name == "off")
    assert named["on"] == named["off"] + 1
    # the learned accept step names it too: it takes the read the rule takes
    tallies, mistakes = score_scene(doc, Scanner(deck, params=LEARNED).scan(image).detections, deck)
    assert sum(t.identified for t in tallies.values()) == named["on"]
    assert not [m for m in mistakes if " read as " in m or "false card" in m]


def test_octo_clear_params_are_validated() -> None:
    with pytest.raises(ValueError, match=r"covered\.octo_clear_margin"):
        CoveredParams(octo_clear_margin=-0.1)
    with pytest.raises(ValueError, match=r"covered\.octo_clear_part_score"):
        CoveredParams(octo_clear_part_score=1.5)
    with pytest.raises(ValueError, match=r"covered\.octo_clear_except"):
        CoveredParams(octo_clear_except=("4S",))
    with pytest.raises(ValueError, match=r"covered\.octo_clear_except"):
        CoveredParams(octo_clear_except=["4"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"covered\.octo_clear must"):
        CoveredParams(octo_clear=1)  # type: ignore[arg-type]
    assert CoveredParams(octo_clear_except=()).octo_clear_except == ()


def test_a_faint_label_does_not_choose_the_frames_card_size() -> None:
    # held-out scene 5353-39: hand rows of Octoplus cards, none identified; named at a size probe,
    # a faint 7 leading clearly chose a card size too large for another row, whose 4 was then
    # named and laid out over its neighbours (a false card)
    image, doc = held_out_scene(5353, 39)
    deck = DeckKind(doc["deck"])
    for params in (BASE, ScannerParams()):  # and with the default blurred read of unclear labels
        _, mistakes = score_scene(doc, Scanner(deck, params=params).scan(image).detections, deck)
        assert not [m for m in mistakes if " read as " in m or "false card" in m]
