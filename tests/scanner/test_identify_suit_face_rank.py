"""The spade-or-club check with the rank read from the whole face
(``IdentifyParams.suit_face_rank_margin``): a blurred black card whose index ranks a card of
another rank between its spade and its club is named when its pips show the rank and its suit
symbols the suit."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scanner.find import warp_card
from scanner.find_geometry import as_quad
from scanner.identify import identify
from scanner.identify_index import read_index
from scanner.identify_params import IdentifyParams
from scanner.params import FindParams, ScannerParams
from scanner.templates import Templates
from scanner.types import Image
from scorer.cards import DeckKind, parse_card
from tests.scanner.fixture_scenes import fixture_scene, scene_mistakes
from tests.scanner.test_identify_heldout import held_out_scene

OKTRIS = Templates.builtin(DeckKind.OKTRIS)
ON = IdentifyParams()
OFF = replace(ON, suit_face_rank_margin=2.0)


def _card_at(frame: Image, scene: dict[str, object], name: str) -> Image:
    """The card ``name`` of ``scene`` cut out of ``frame`` at its true outline."""
    cards = scene["cards"]
    assert isinstance(cards, list)
    (card,) = [c for c in cards if c["card"] == name]
    return warp_card(frame, as_quad(np.array(card["corners"], np.float64)), FindParams())


def test_an_ace_whose_blurred_index_also_reads_4_is_named_from_its_one_pip() -> None:
    # fixture scene_018: the pile's top AC under motion blur and an arm; its index ranks AC, 4C
    # and AS within 0.011, the whole face reads an ace 0.33 ahead of any other rank
    scene, frame = fixture_scene("scene_018.jpg")
    card = _card_at(frame, scene, "AC")
    reading = read_index(card, OKTRIS, ON)
    first, second = (reading.order[i] for i in np.argsort(-reading.scores)[:2])
    assert {str(first), str(second)} == {"AC", "4C"}  # the case the step is for still shows
    assert identify(card, OKTRIS, OFF).card is None
    answer = identify(card, OKTRIS, ON)
    assert answer.card == parse_card("AC", DeckKind.OKTRIS)
    assert answer.runner_up == parse_card("AS", DeckKind.OKTRIS)


def test_the_scanner_names_a_blurred_five_of_spades_on_a_pile() -> None:
    # held-out 5791-46: a pile's top 5S under motion blur; the index ranks 5S, 8S, 4S within 0.01
    image, scene = held_out_scene(5791, 46)

    def lost(identify_params: IdentifyParams) -> list[str]:
        mistakes = scene_mistakes(scene, image, replace(ScannerParams(), identify=identify_params))
        return [m for m in mistakes if m.startswith("5S ") or "top card" in m or " read as " in m]

    assert lost(OFF)  # the case the step is for still shows
    assert lost(ON) == []


def test_a_face_that_does_not_show_its_rank_names_nothing() -> None:
    # the same AC with its lower half (two of its pips' places and the far index) covered: the
    # face no longer leads by a rank, and the index alone cannot tell A from 4
    scene, frame = fixture_scene("scene_018.jpg")
    card = _card_at(frame, scene, "AC").copy()
    card[110:, :] = (90, 140, 190)  # light wood over the lower part
    assert identify(card, OKTRIS, ON).card is None


def test_the_margin_is_validated() -> None:
    assert IdentifyParams(suit_face_rank_margin=0.0).suit_face_rank_margin == 0.0
    with pytest.raises(ValueError, match="suit_face_rank_margin"):
        IdentifyParams(suit_face_rank_margin=-0.1)
