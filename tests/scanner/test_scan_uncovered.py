"""A card of a pile or fan that no outline covers, fitted over its cluster (``scanner.scan_uncovered``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from benchmarks.scanner_accuracy import score_scene
from scanner.find_geometry import FloatArray, as_quad
from scanner.find_top import outline_distance
from scanner.find_work import make_work
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner
from scanner.scan_uncovered import uncovered_cards
from scanner.templates import Templates
from scanner.types import Detection
from scorer.cards import DeckKind, parse_card
from tests.scanner.fixture_scenes import NO_FRAMES
from tests.scanner.test_find import card_quad, table
from tests.scanner.test_identify_heldout import held_out_scene
from tests.scanner.test_scan_face_fit import _lay_face

PARAMS = FindParams()
TEMPLATES = Templates.builtin(DeckKind.OKTRIS)
TOP = parse_card("6D", DeckKind.OKTRIS)
UNDER = parse_card("3C", DeckKind.OKTRIS)
SHORT = 130.0


def _fan_of_two() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 6D lying over a 3C, shifted a third of a card's width and turned 5 degrees."""
    img = table((110, 60, 20))
    under = card_quad(600, 360, SHORT, 0)
    top = card_quad(645, 380, SHORT, 5)
    _lay_face(img, TEMPLATES.faces[UNDER][0], under)
    _lay_face(img, TEMPLATES.faces[TOP][0], top)
    return img, under, top


def test_a_top_card_left_without_an_outline_is_fitted_over_its_cluster_and_read() -> None:
    img, under, top = _fan_of_two()
    work = make_work(img, PARAMS)
    named = Detection(card=UNDER, confidence=0.8, corners=as_quad(under), top=True)
    tried: list[FloatArray] = []

    def read(rect: FloatArray) -> Detection:
        tried.append(rect / work.scale)
        return Detection(card=TOP, confidence=0.7, corners=as_quad(rect / work.scale), top=True)

    out = uncovered_cards([named], work, PARAMS, SHORT * work.scale, read, set())
    assert len(tried) == 1
    assert outline_distance(tried[0], top) < 0.1 * SHORT
    assert out[0] is named and [d.card for d in out[1:]] == [TOP]
    # (0 clusters a frame: none fitted)
    off = replace(PARAMS, top_uncovered_max=0)
    assert uncovered_cards([named], work, off, SHORT * work.scale, read, set()) == [named]
    assert len(tried) == 1


def test_a_cluster_covered_or_outlined_whole_or_naming_nothing_or_of_unknown_size_is_not_fitted() -> None:
    img, under, top = _fan_of_two()
    work = make_work(img, PARAMS)

    def never(_rect: FloatArray) -> Detection:
        raise AssertionError("a cluster was read")

    named = Detection(card=UNDER, confidence=0.8, corners=as_quad(under), top=False)
    over = Detection(card=None, confidence=0.0, corners=as_quad(top), top=True)
    short = SHORT * work.scale
    # both cards outlined: nothing left uncovered
    assert uncovered_cards([named, over], work, PARAMS, short, never, set()) == [named, over]
    # the 3C outlined whole (the finder's outline, not one laid out from a corner): the finder
    # looked at the cluster and outlined what it found there
    assert uncovered_cards([named], work, PARAMS, short, never, {id(named)}) == [named]
    # no named card in the cluster, or no card size known
    lone = replace(named, card=None)
    assert uncovered_cards([lone], work, PARAMS, short, never, set()) == [lone]
    assert uncovered_cards([named], work, PARAMS, None, never, set()) == [named]


def test_a_card_read_again_on_a_named_outline_is_not_added() -> None:
    img, under, _top = _fan_of_two()
    work = make_work(img, PARAMS)
    named = Detection(card=UNDER, confidence=0.8, corners=as_quad(under), top=True)

    def same(rect: FloatArray) -> Detection:
        # the 3C read again: the fit's centre lies within the 3C's outline
        return Detection(card=UNDER, confidence=0.7, corners=as_quad(rect / work.scale), top=True)

    assert uncovered_cards([named], work, PARAMS, SHORT * work.scale, same, set()) == [named]


@pytest.mark.parametrize(("seed", "index"), [(5656, 27), (5151, 27)])
def test_a_held_out_fans_top_card_left_without_an_outline_is_found_and_marked_top(
    seed: int, index: int
) -> None:
    # a fan of two on blue felt: only the card under is outlined (read at its corner); the card
    # over it, whole and in view, had no outline (the learned accept step, ``CoveredParams.learned_accept``,
    # names it from its corner; the blurred read of soft labels, ``CoveredParams.octo_blur``, names
    # 5151-27's from its corner too, and on 5656-27 names the card under it at its corner, which then
    # takes the top: both switched off to show the case, as is the relay of a card its centre reads
    # whole, ``CoveredParams.centre_relay``: with it and without them the top goes wrong again)
    image, scene = held_out_scene(seed, index)
    deck = DeckKind(scene["deck"])

    def top_mistakes(params: ScannerParams) -> list[str]:
        _, found = score_scene(scene, Scanner(deck, params=params).scan(image).detections, deck)
        return [m for m in found if "top card of the" in m or " read as " in m or "false card" in m]

    default = NO_FRAMES  # the printed-frame step names the top card first
    base = replace(
        default, covered=replace(default.covered, learned_accept=None, octo_blur=0.0, centre_relay=False)
    )
    assert top_mistakes(replace(base, find=replace(base.find, top_uncovered_max=0)))
    assert not top_mistakes(base)
    assert not top_mistakes(replace(base, covered=replace(base.covered, learned_accept=0.9)))


@pytest.mark.parametrize(("field", "value"), [("top_uncovered_share", 0.0), ("top_uncovered_max", -1)])
def test_bad_uncovered_parameters_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]
