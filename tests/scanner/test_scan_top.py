"""Top marking once the covered cards named from a corner have joined the cards found: which of
two overlapping cards lies over the other, and the outline of a top card fitted again."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from benchmarks.scanner_accuracy import FIXTURES, _match, score_scene
from benchmarks.scanner_speed import fanned_frames
from scanner.find_geometry import as_quad
from scanner.find_top import (
    _edge_grid,
    _edge_runs,
    _Pixels,
    _RectangleSearch,
    _running_sums,
    index_box,
    index_over,
    order_above,
    outline_distance,
    refit_in_pile,
    refit_outline,
    top_flags,
)
from scanner.find_work import make_work
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner, _retop
from scanner.types import Detection, Quad
from scorer.cards import DeckKind, parse_card
from tests.scanner.test_find import card_quad, draw_card, table
from tests.scanner.test_identify_heldout import held_out_scene

PARAMS = FindParams()
SEVEN = parse_card("7H", DeckKind.OKTRIS)


def _drawn_pile(below: np.ndarray, above: np.ndarray) -> np.ndarray:
    """A green table with the card ``above`` drawn over the card ``below``."""
    img = table((40, 100, 30))
    draw_card(img, below, outline=120)
    draw_card(img, above, outline=120)
    return img


def _scene() -> tuple[np.ndarray, Quad, Quad]:
    below = card_quad(600, 360, 180, 0)
    above = card_quad(680, 400, 180, 35)
    return _drawn_pile(below, above), as_quad(below), as_quad(above)


@pytest.mark.parametrize(
    ("named_over", "found_top", "expected"),
    [
        # a card named from a corner that lies over another is marked top
        (True, False, [False, True]),
        # a card named from a corner under another is not marked top, nor demotes it
        (False, True, [True, False]),
        # the finder marked the lower card top; the card named from its corner shows its sides
        # across it, so the lower card loses its mark and the named one takes it
        (True, True, [False, True]),
    ],
    ids=["named-over-is-top", "named-under-is-not-top", "found-under-named-loses-top"],
)
def test_a_card_named_from_a_corner_is_top_only_over_the_card_it_overlaps(
    named_over: bool, found_top: bool, expected: list[bool]
) -> None:
    img, below, above = _scene()
    work = make_work(img, PARAMS)
    found = Detection(card=None, confidence=0.2, corners=above if not named_over else below, top=found_top)
    named = Detection(card=SEVEN, confidence=0.8, corners=above if named_over else below, top=False)
    out = _retop([found, named], {id(found)}, work, PARAMS)
    assert [d.top for d in out] == expected


def _work_quads(quads: list[Quad], scale: float) -> list[np.ndarray]:
    return [np.asarray(q, np.float64) * scale for q in quads]


def test_a_card_read_inside_another_cards_outline_lies_over_it() -> None:
    # the upper card's top-left index box lies within the lower card's outline
    upper = card_quad(600, 360, 180, 0)
    lower = card_quad(560, 320, 180, 8)
    box = index_box(upper)
    assert cv2.pointPolygonTest(lower.astype(np.float32), tuple(map(float, box.mean(axis=0))), False) > 0
    over = index_over([upper, lower], [True, True], PARAMS)
    assert over.tolist() == [[False, True], [False, False]]
    # a card not identified was read nowhere: no evidence
    assert not index_over([upper, lower], [False, True], PARAMS).any()


def test_the_index_decides_where_the_sides_show_nothing() -> None:
    # an empty table: no side shows, so the sides leave the pair undecided and both named
    # cards found whole would be on top; the index read inside the other card decides
    img = table((40, 100, 30))
    work = make_work(img, PARAMS)
    quads = _work_quads(
        [as_quad(card_quad(600, 360, 180, 0)), as_quad(card_quad(560, 320, 180, 8))], work.scale
    )
    assert not order_above(quads, work, PARAMS).any()
    flags = top_flags(quads, [True, True], [True, True], [True, True], work, PARAMS)
    assert flags == [True, False]
    # named from a corner and overlapping no outline, a card is top: nothing found lies over it
    assert top_flags(quads[:1], [True], [False], [False], work, PARAMS) == [True]
    # (without ``top_lone_named``, only when it was marked so)
    alone_off = replace(PARAMS, top_lone_named=False)
    assert top_flags(quads[:1], [True], [False], [False], work, alone_off) == [False]
    assert top_flags(quads[:1], [True], [False], [True], work, alone_off) == [True]
    # a card not identified keeps its mark unless a card lies over it
    assert top_flags(quads[1:], [False], [True], [True], work, PARAMS) == [True]
    assert top_flags(quads[1:], [False], [True], [False], work, PARAMS) == [False]


def test_cards_that_overlap_nowhere_keep_their_marks_without_being_compared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # no two outlines overlap: a named card is on top (with ``top_lone_named`` off, only one
    # found whole), every card not named keeps its mark; neither the sides nor the index boxes
    # are looked at
    img = table((40, 100, 30))
    work = make_work(img, PARAMS)
    quads = _work_quads(
        [as_quad(card_quad(x, 360, 180, 10)) for x in (250, 640, 1030)],
        work.scale,
    )

    def compared(*_args: object, **_kwargs: object) -> np.ndarray:
        raise AssertionError("a pair was compared")

    monkeypatch.setattr("scanner.find_top.order_above", compared)
    monkeypatch.setattr("scanner.find_top.index_over", compared)
    named, whole = [True, True, False], [True, False, True]
    assert top_flags(quads, named, whole, [False, False, True], work, PARAMS) == [True, True, True]
    assert top_flags(quads, named, whole, [False, True, False], work, PARAMS) == [True, True, False]
    alone_off = replace(PARAMS, top_lone_named=False)
    assert top_flags(quads, named, whole, [False, False, True], work, alone_off) == [True, False, True]
    assert top_flags(quads, named, whole, [False, True, False], work, alone_off) == [True, True, False]


def test_a_card_named_from_a_corner_overlapping_no_outline_is_top_beside_a_pile() -> None:
    # a pile of two found whole and, apart from it, a card named from a corner only (a hand
    # over its middle leaves it no outline of its own): nothing found lies over that card
    img, below, above = _scene()
    lone = as_quad(card_quad(250, 360, 180, 10))
    draw_card(img, np.asarray(lone, np.float64), outline=120)
    work = make_work(img, PARAMS)
    quads = _work_quads([below, above, lone], work.scale)
    named, whole, marked = [True, True, True], [True, True, False], [False, True, False]
    assert top_flags(quads, named, whole, marked, work, PARAMS) == [False, True, True]
    alone_off = replace(PARAMS, top_lone_named=False)
    assert top_flags(quads, named, whole, marked, work, alone_off) == [False, True, False]


def test_a_fixture_piles_top_card_named_from_a_corner_under_a_hand_is_marked_top() -> None:
    # scene_046: a hand over the middle of the pile's top card (6H) leaves no outline found; the
    # 6H is named from its one index corner in view, and no other outline overlaps it
    if not (FIXTURES / "truth.json").is_file():
        pytest.skip(f"no scene fixtures in {FIXTURES}")
    doc = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    scene = next(s for s in doc["scenes"] if s["file"] == "scene_046.jpg")
    image = cv2.imread(str(FIXTURES / scene["file"]), cv2.IMREAD_COLOR)
    deck = DeckKind(scene["deck"])

    def pile_mistakes(params: ScannerParams) -> list[str]:
        _, mistakes = score_scene(scene, Scanner(deck, params=params).scan(image).detections, deck)
        return [m for m in mistakes if "top card of the pile" in m]

    base = ScannerParams()
    assert pile_mistakes(replace(base, find=replace(base.find, top_lone_named=False)))
    assert not pile_mistakes(base)


def test_an_outline_holding_another_leaves_the_pair_undecided() -> None:
    # two outlines of one card (one a little larger): neither lies over the other
    img = table((40, 100, 30))
    card = card_quad(640, 360, 180, 10)
    draw_card(img, card, outline=120)
    work = make_work(img, PARAMS)
    larger = card_quad(640, 360, 200, 10)
    quads = _work_quads([as_quad(card), as_quad(larger)], work.scale)
    assert not order_above(quads, work, PARAMS).any()


@pytest.mark.parametrize("known", [False, True])
def test_a_top_cards_outline_taking_in_the_card_under_it_is_fitted_to_the_top_card(known: bool) -> None:
    below = card_quad(610, 330, 170, -12)
    above = card_quad(650, 380, 170, 4)
    work = make_work(_drawn_pile(below, above), PARAMS)
    # the outline found runs along the top card's sides but takes in the lower card's corner
    # peeking out at its top left: larger by a fifth, shifted that way
    merged = card_quad(650 - 17, 380 - 24, 170 * 1.2, 4) * work.scale
    assert outline_distance(merged / work.scale, above) > 0.15 * 170
    rect = refit_outline(merged, work, PARAMS, 170 * work.scale if known else None)
    assert rect is not None
    assert outline_distance(rect / work.scale, above) < 0.06 * 170


def test_a_top_card_outlined_with_the_arm_over_it_is_fitted_turned_any_way() -> None:
    below = card_quad(630, 350, 170, -10)
    top = card_quad(640, 370, 170, 5)
    work = make_work(_drawn_pile(below, top), PARAMS)
    # the outline found holds the top card with an arm over it: its sides run 25 degrees off
    # the card's, beyond the turn a refit tries from them
    found = card_quad(640, 370, 260, 30) * work.scale
    short = 170 * work.scale
    near = refit_outline(found, work, PARAMS, short)
    assert near is None or outline_distance(near / work.scale, top) > 0.2 * 170
    rect = refit_outline(found, work, PARAMS, short, around=True)
    assert rect is not None
    assert outline_distance(rect / work.scale, top) < 0.06 * 170


@pytest.mark.parametrize(("seed", "index"), [(2727, 18), (5151, 18)])
def test_a_held_out_piles_top_card_under_an_arm_is_fitted_turned_any_way(seed: int, index: int) -> None:
    # a pile on wood with an arm over it, nothing named: the one outline found holds the top card
    # and the arm (2727-18: 190 px across a card of 136 x 190; 5151-18: aspect 1.17), its sides
    # 15 and 27 degrees off the card's; fitted turned any way, the outline lies on the top card
    # (3C, 4D) and reads it (the wider fit off the hand, ``top_skin``, mends it on its own too, and
    # on 2727-18 so do reading the corners at the size probe's next sizes, ``found_sizes``, and the
    # second look at grey pixels, ``grey_look``: all are switched off to see the case)
    image, scene = held_out_scene(seed, index)
    deck = DeckKind(scene["deck"])
    base = ScannerParams()
    off = replace(
        base,
        find=replace(base.find, top_refit_around=False, top_skin=False, grey_look=0.0),
        covered=replace(base.covered, found_sizes=1),
    )

    def top_mistakes(params: ScannerParams) -> list[str]:
        _, mistakes = score_scene(scene, Scanner(deck, params=params).scan(image).detections, deck)
        return [m for m in mistakes if "top card of the pile" in m or " read as " in m or "false card" in m]

    assert top_mistakes(off), "the case no longer shows the mistake it guards"
    assert not top_mistakes(base)


@pytest.mark.parametrize("known", [False, True])
def test_the_top_card_of_a_pile_is_the_card_whose_whole_outline_shows_over_the_pile(known: bool) -> None:
    img = table((40, 100, 30))
    lowest = card_quad(600, 330, 170, -25)
    middle = card_quad(660, 350, 170, 20)
    top = card_quad(630, 390, 170, 5)
    for quad in (lowest, middle, top):
        draw_card(img, quad, outline=120)
    work = make_work(img, PARAMS)
    # the outlines found: the two lower cards whole (as if their parts under the top card showed)
    # and a misfit part of the top card, half a short side off it and smaller
    part = card_quad(630 + 60, 390 - 55, 170 * 0.8, 5)
    assert outline_distance(part, top) > 0.45 * 170
    pile = _work_quads([as_quad(lowest), as_quad(middle), as_quad(part)], work.scale)
    short = 170 * work.scale if known else None
    local = refit_outline(pile[2], work, PARAMS, short)
    assert local is None or outline_distance(local / work.scale, top) > 0.2 * 170
    rect = refit_in_pile(pile[2], pile, work, PARAMS, short)
    assert rect is not None
    assert outline_distance(rect / work.scale, top) < 0.06 * 170


@pytest.mark.parametrize(("seed", "index"), [(8484, 27), (8484, 33), (7373, 19), (7373, 33)])
def test_a_held_out_piles_top_card_outlined_off_it_is_found_over_the_pile(seed: int, index: int) -> None:
    # the outlines found near the top card lie 0.2-0.6 of its short side off it; the card fitted
    # over the whole pile reads it (8484-27: a 6 among named cards; 8484-33: a 3, nothing named;
    # 7373-19 and 7373-33: nothing named and the outlines found only parts of cards, so the card
    # is fitted over the whole cluster, larger than the print inside it)
    image, scene = held_out_scene(seed, index)
    deck = DeckKind(scene["deck"])
    detections = Scanner(deck).scan(image).detections
    _, mistakes = score_scene(scene, detections, deck)
    assert not [m for m in mistakes if "top card of the pile" in m or " read as " in m or "false card" in m]


@pytest.mark.parametrize(("seed", "index"), [(7373, 27), (2727, 46)])
def test_a_named_top_cards_outline_taking_in_a_card_under_it_is_fitted_to_the_top_card(
    seed: int, index: int
) -> None:
    # the top card (7373-27: a +2; 2727-46: 3C) is named on an outline lying nearer a card under
    # it than itself (0.18 and 0.09 of its short side off), so that card reads as the top card's
    # name and the top card is not found; fitted again near its outline, it reads the same card
    # 0.12 and 0.03 off, its sides showing along more of it
    # (the relay from the read corner, ``relay_gain``, and the face alignment, ``top_face_fit``,
    # mend them too: they are switched off, so that the refit is seen to mend each case on its own;
    # so is the row check's gap, ``row_gap``, with which 7373-27's cards read otherwise)
    image, scene = held_out_scene(seed, index)
    deck = DeckKind(scene["deck"])
    base = ScannerParams()
    alone = replace(base, find=replace(base.find, relay_gain=0.0, top_face_fit=False, row_gap=1.0))
    neither = replace(alone, find=replace(alone.find, top_refit_named_below=0.0))

    def top_mistakes(params: ScannerParams) -> list[str]:
        _, mistakes = score_scene(scene, Scanner(deck, params=params).scan(image).detections, deck)
        return [m for m in mistakes if "top card of the pile" in m or " read as " in m]

    assert top_mistakes(neither), "the case no longer shows the mistake it guards"
    assert not top_mistakes(alone)
    assert not top_mistakes(base)


def test_a_named_card_read_again_a_little_off_over_its_fan_is_not_named_twice() -> None:
    # 4714-21: a fan whose top card, a 4, is named on an outline 0.12 of its short side off; the
    # fit over the fan lands 0.19 off on the other side and reads 4 again: a second 4 there
    # would be a card that is not on the table
    image, scene = held_out_scene(4714, 21)
    deck = DeckKind(scene["deck"])
    detections = Scanner(deck).scan(image).detections
    _, mistakes = score_scene(scene, detections, deck)
    assert not [m for m in mistakes if " read as " in m or "false card" in m]


def test_the_top_card_of_a_fixture_pile_is_named_and_marked_alone() -> None:
    # scene_032: a pile of eight whose top card's outline, as found, takes in cards peeking
    # out under it; fitted again, the top card reads as the 8 of clubs
    if not (FIXTURES / "truth.json").is_file():
        pytest.skip(f"no scene fixtures in {FIXTURES}")
    doc = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    scene = next(s for s in doc["scenes"] if s["file"] == "scene_032.jpg")
    image = cv2.imread(str(FIXTURES / scene["file"]), cv2.IMREAD_COLOR)
    detections = Scanner(DeckKind(scene["deck"])).scan(image).detections
    match = _match(scene["cards"], detections)
    pile = [k for k, t in enumerate(scene["cards"]) if t["group"] == "pile"]
    (top,) = [k for k in pile if scene["cards"][k]["top"]]
    assert top in match
    assert detections[match[top]].card == parse_card(scene["cards"][top]["card"], DeckKind.OKTRIS)
    assert detections[match[top]].top
    named_tops = [d for d in detections if d.top and d.card is not None]
    assert named_tops == [detections[match[top]]]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("top_index_share", 1.5),
        ("top_refit_turn", -1.0),
        ("top_refit_turn_step", 0.0),
        ("top_refit_sizes", (1.0, 0.8)),
        ("top_refit_sizes", (0.8,)),
        ("top_refit_size_step", 0.0),
        ("top_refit_moved", 3.0),
        ("top_refit_reach", 0.01),
        ("top_refit_max", 1.5),
        ("top_refit_near_best", 1.5),
        ("top_refit_named_below", 1.5),
        ("top_refit_named_gain", -2.0),
        ("top_small", 1.5),
        ("top_print_margin", -0.1),
        ("top_print_min_score", 1.5),
        ("top_print_min_overlap", 1.5),
        ("top_print_inset", 0.6),
        ("top_print_min_spread", -1.0),
        ("top_print_shading", -0.1),
        ("top_lone_named", 1),
    ],
)
def test_bad_top_parameters_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_refit_rectangle_search_finds_the_rectangle_whose_sides_hold_most_edges(seed: int) -> None:
    # every placement summed side by side, against the running sums made once per grid
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 19, size=(300, 2)).astype(np.intp)
    edge = rng.random(300) < 0.6
    shape = (19, 23)
    across_u = _edge_grid(cells[:, 0], cells[:, 1], edge, shape)
    across_v = _edge_grid(cells[::-1, 0], cells[::-1, 1], ~edge, shape)
    # each edge point counts one at its cell and half at each neighbour across
    counted = np.zeros(shape)
    for a, b in cells[edge]:
        counted[a, b] += 1.0
    spread = counted.copy()
    spread[1:] += 0.5 * counted[:-1]
    spread[:-1] += 0.5 * counted[1:]
    assert np.array_equal(across_u, spread)
    runs = _running_sums(across_u, across_v)
    # the edge counts' running sums (OpenCV's integral, float32) are exactly NumPy's in order
    assert np.array_equal(runs[0][:, 1:], np.cumsum(across_u.astype(np.float64), axis=1))
    assert np.array_equal(runs[1][1:, :], np.cumsum(across_v.astype(np.float64), axis=0))
    # a hand over some cells: its share of each cell, and the share of an outline off it
    under = rng.random(shape) * (rng.random(shape) < 0.3)
    hidden = _running_sums(under, under)
    plain, handed = _RectangleSearch(runs), _RectangleSearch(runs, hidden)
    for wide, tall in ((5, 7), (7, 5), (12, 3), (18, 2)):
        length = 2.0 * (wide + tall)
        best, place = -1.0, (0, 0)
        best_off, place_off = -1.0, (0, 0)
        for u0 in range(shape[0] - wide):
            for v0 in range(shape[1] - tall):
                total, known = (
                    grid_v[u0, v0 : v0 + tall].sum()
                    + grid_v[u0 + wide, v0 : v0 + tall].sum()
                    + grid_u[u0 : u0 + wide, v0].sum()
                    + grid_u[u0 : u0 + wide, v0 + tall].sum()
                    for grid_v, grid_u in ((across_u, across_v), (1.0 - under, 1.0 - under))
                )
                if total > best:
                    best, place = total, (u0, v0)
                if known >= 0.6 * length and total / known > best_off:
                    best_off, place_off = total / known, (u0, v0)
        shown, u0, v0 = plain.best(wide, tall)
        assert (u0, v0) == place
        assert shown == pytest.approx(best / length)
        shown, u0, v0 = handed.best(wide, tall, 0.6)
        assert (u0, v0) == place_off
        assert shown == pytest.approx(best_off)
    assert plain.best(shape[0], 3)[0] == -1.0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_refit_grid_from_the_rows_ends_and_the_strong_pixels_is_the_grid_of_every_pixel(
    seed: int,
) -> None:
    # the grid's origin and size from the first and last pixel of each row, its edges from the
    # pixels strong enough to be edges: the same grid and sums as from every pixel of the window
    rng = np.random.default_rng(seed)
    inside = np.zeros((90, 120), np.uint8)
    cv2.fillConvexPoly(inside, np.array([[7, 20], [100, 3], [117, 70], [30, 88]], np.int32), 1)
    ys, xs = np.nonzero(inside)
    gx, gy = (rng.normal(0.0, 30.0, len(xs)).round() for _ in range(2))
    every = _Pixels(xs + 11.0, ys + 5.0, gx, gy, np.hypot(gx, gy))
    firsts = np.flatnonzero(np.r_[True, ys[1:] != ys[:-1]])
    ends = np.r_[firsts[1:] - 1, len(ys) - 1]
    rows = np.r_[firsts, ends]
    strong = every.subset(every.total >= PARAMS.top_min_gradient)
    assert len(strong.x) < len(every.x)
    for angle in rng.uniform(-math.pi, math.pi, 25):
        u = np.array([math.cos(angle), math.sin(angle)])
        v = np.array([-u[1], u[0]])
        origin, runs, _ = _edge_runs((every.x, every.y), every, u, v, PARAMS)
        fast_origin, fast_runs, _ = _edge_runs((every.x[rows], every.y[rows]), strong, u, v, PARAMS)
        assert fast_origin == origin
        assert all(np.array_equal(a, b) for a, b in zip(fast_runs, runs, strict=True))


def test_a_pile_whose_top_card_is_named_on_its_own_outline_is_not_fitted_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # fanned rows of four cards (the speed benchmark's): the top card's whole outline is found and
    # named, so a fit over the whole fan for an unnamed outline among them would find that card
    fits: list[int] = []

    def counted(*args: object, **kwargs: object) -> object:
        fits.append(1)
        return refit_in_pile(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("scanner.scan.refit_in_pile", counted)
    scanner = Scanner(DeckKind.OKTRIS)
    for image in fanned_frames(seed=44):
        detections = scanner.scan(image).detections
        assert any(d.card is not None and d.top for d in detections)
    assert fits == []
