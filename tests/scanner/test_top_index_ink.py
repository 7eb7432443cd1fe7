"""The index cue of the top flags checked against the print (``find_top_print.index_shown``).

A named card read at an index box lying within another card's outline lies over that card:
print shows only on the upper card.  Where the box only straddles the other card's side, half
of it under that outline, the print there decides: the index's ink runs on over the other card
when the card read lies over it, and is covered by the other card's own pixels when it lies
under it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.find_geometry import as_quad
from scanner.find_top import index_box, index_over, inside_by
from scanner.find_top_print import index_ink, index_shown
from scanner.find_work import make_work
from scanner.identify_colour import grey
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner, _retop
from scanner.templates import Templates
from scanner.types import Detection
from scorer.cards import DeckKind, parse_card
from tests.scanner.test_find import card_quad, table
from tests.scanner.test_scan_face_fit import _lay_face

TEMPLATES = Templates.builtin(DeckKind.OCTOPLUS)
ONE = parse_card("1", DeckKind.OCTOPLUS)
THREE = parse_card("3", DeckKind.OCTOPLUS)
# a 640x360 frame, its own work image, with the card size of the recorded Octoplus round
PARAMS = FindParams(card_size_px=(71.59, 100.0))
LOWER = np.array([[345.5, 203.5], [417.1, 203.5], [417.1, 303.5], [345.5, 303.5]])
"""The 1, upright; its index box at its top-left corner."""


def _scene(upper: np.ndarray, one_on_top: bool) -> np.ndarray:
    """The 1 and a 3 laid along ``upper`` (the 3's lower side runs across the 1's index box),
    the 1 laid last when ``one_on_top``, on green felt, a little blurred as a camera sees."""
    img = table((40, 100, 30), size=(640, 360))
    laid = [(THREE, upper), (ONE, LOWER)] if one_on_top else [(ONE, LOWER), (THREE, upper)]
    for card, quad in laid:
        _lay_face(img, TEMPLATES.faces[card][0], quad)
    return np.asarray(cv2.GaussianBlur(img, (0, 0), 0.8), np.uint8)


def _tops(img: np.ndarray, upper: np.ndarray, p: FindParams) -> list[bool]:
    """The top flags ``_retop`` gives the 3 and the 1, both named and found whole."""
    work = make_work(img, p)
    dets = [
        Detection(card=THREE, confidence=0.9, corners=as_quad(upper), top=True),
        Detection(card=ONE, confidence=0.8, corners=as_quad(LOWER), top=True),
    ]
    return [d.top for d in _retop(dets, {id(d) for d in dets}, work, p, TEMPLATES)]


UPPERS = [(380, 166, 8), (375, 168, 12), (385, 165, 5)]


@pytest.mark.parametrize("place", UPPERS)
def test_an_index_box_half_under_the_card_on_top_does_not_put_its_card_over_it(
    place: tuple[float, float, float],
) -> None:
    upper = card_quad(place[0], place[1], 71.6, place[2])
    img = _scene(upper, one_on_top=False)
    work = make_work(img, PARAMS)
    quads = [upper * work.scale, LOWER * work.scale]
    # the 1's box straddles the 3's lower side: half its corners inside, so the outlines alone
    # put the 1 over the 3 (the print where they overlap says the 3, but the index is stronger)
    assert inside_by(index_box(quads[1]), quads[0], PARAMS.top_inset).mean() == PARAMS.top_index_share
    assert index_over(quads, [True, True], PARAMS).tolist() == [[False, False], [True, False]]
    assert _tops(img, upper, replace(PARAMS, top_index_ink=0.0)) == [False, True]
    # the 1's ink inside the 3's outline is covered by the 3: no sign, the 3 lies on top
    shown = index_ink(quads[1], quads[0], grey(TEMPLATES.faces[ONE][0]), work, PARAMS)
    assert shown is not None and shown < PARAMS.top_index_ink
    assert _tops(img, upper, PARAMS) == [True, False]


@pytest.mark.parametrize("place", UPPERS)
def test_an_index_box_running_on_over_the_card_under_it_keeps_its_sign(
    place: tuple[float, float, float],
) -> None:
    upper = card_quad(place[0], place[1], 71.6, place[2])
    img = _scene(upper, one_on_top=True)
    work = make_work(img, PARAMS)
    quads = [upper * work.scale, LOWER * work.scale]
    shown = index_ink(quads[1], quads[0], grey(TEMPLATES.faces[ONE][0]), work, PARAMS)
    assert shown is not None and shown >= PARAMS.top_index_ink
    over = index_over(quads, [True, True], PARAMS)
    assert np.array_equal(index_shown(quads, [THREE, ONE], TEMPLATES, work, PARAMS, over), over)
    assert _tops(img, upper, PARAMS) == [False, True]


def test_an_index_box_wholly_inside_the_other_card_or_outside_it_is_not_looked_at() -> None:
    # wholly inside: the index was read there, so its print shows; wholly outside: no sign
    img = _scene(card_quad(380, 166, 71.6, 8), one_on_top=True)
    work = make_work(img, PARAMS)
    face = grey(TEMPLATES.faces[ONE][0])
    around = card_quad(381.3, 253.5, 100.0, 0) * work.scale
    assert inside_by(index_box(LOWER), around, PARAMS.top_inset).all()
    assert index_ink(LOWER * work.scale, around, face, work, PARAMS) is None
    apart = card_quad(200, 100, 71.6, 0) * work.scale
    assert index_ink(LOWER * work.scale, apart, face, work, PARAMS) is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("top_index_ink", -0.1),
        ("top_index_ink", 2.5),
        ("top_index_shift", -1),
        ("top_index_shift", 9),
        ("top_index_shift", 1.5),
        ("top_index_blank", 1),
    ],
)
def test_index_ink_parameters_are_checked(name: str, value: float) -> None:
    with pytest.raises(ValueError, match=name):
        FindParams(**{name: value})


def test_an_index_box_whose_end_under_the_other_card_is_blank_gives_no_sign() -> None:
    # fixture scene_005: a pile of three, the 2 on top; the 1 under it is named from the corner
    # beside the 2 (the learned accept step), its index box's blank far end just inside the 2's
    # outline. Its print shows outside the 2 and it has none inside: no sign that the 1 lies
    # over the 2 (before, the box's corners alone put it over and made it the pile's top)
    folder = Path(__file__).resolve().parent.parent / "fixtures" / "scenes"
    doc = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    truth = next(s for s in doc["scenes"] if s["file"] == "scene_005.jpg")
    image = np.asarray(cv2.imread(str(folder / "scene_005.jpg"), cv2.IMREAD_COLOR), np.uint8)
    deck = DeckKind(truth["deck"])
    default = ScannerParams()
    base = replace(
        default,
        find=replace(default.find, top_index_blank=True),
        covered=replace(default.covered, learned_accept=0.9),
    )

    def tops(params: ScannerParams) -> dict[str, bool]:
        return {str(d.card): d.top for d in Scanner(deck, params=params).scan(image).detections if d.card}

    assert tops(base) == {"2": True, "1": False}
    assert tops(replace(base, find=replace(base.find, top_index_blank=False))) == {"2": False, "1": True}
