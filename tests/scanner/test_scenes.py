"""Rendered scenes: deterministic, with truth that matches the pixels, and the committed fixtures intact."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner.faces import render_face
from scanner.scenes import Arm, Camera, Glare, Imaging, Lighting, PlacedCard, Scene, Table, render
from scanner.scenes_layout import LAYOUTS, fan, hand_row, pile, random_scene, trick
from scanner.scenes_paint import TableKind, table_texture
from scorer.cards import Card, DeckKind, OctoCard, StdCard, parse_card

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "scenes"
CALM = Lighting(glare=(), gradient=0.0, vignette=0.0)
SHARP = Imaging(defocus=0.0, read_noise=0.0, shot_noise=0.0)


def _small(*cards: PlacedCard, **kw: object) -> Scene:
    base: dict[str, object] = {
        "cards": cards,
        "width": 640,
        "height": 360,
        "card_px": 120.0,
        "lighting": CALM,
        "imaging": SHARP,
    }
    base.update(kw)
    return Scene(**base)  # type: ignore[arg-type]


def _warp(image: np.ndarray, corners: object) -> np.ndarray:
    src = np.array(corners, dtype=np.float32)
    dst = np.array([[0, 0], [200, 0], [200, 280], [0, 280]], dtype=np.float32)
    return np.asarray(cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (200, 280)))


def _similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation of two BGR card images inside a margin that leaves out the rounded corners."""
    ga = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)[15:265, 12:188].astype(np.float64)
    gb = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY)[15:265, 12:188].astype(np.float64)
    ga -= ga.mean()
    gb -= gb.mean()
    return float((ga * gb).sum() / np.sqrt((ga * ga).sum() * (gb * gb).sum()))


def test_same_scene_and_seed_render_the_same_image() -> None:
    scene = random_scene(np.random.default_rng(5), DeckKind.OCTOPLUS, "pile", arms=1, glare=True)
    a, ta = render(scene, np.random.default_rng(1))
    b, tb = render(scene, np.random.default_rng(1))
    assert np.array_equal(a, b)
    assert ta == tb


def test_noise_seed_changes_pixels_but_not_truth() -> None:
    scene = _small(PlacedCard(StdCard.parse("7H"), (320, 180), 20), imaging=Imaging())
    a, ta = render(scene, np.random.default_rng(1))
    b, tb = render(scene, np.random.default_rng(2))
    assert not np.array_equal(a, b)
    assert float(np.abs(a.astype(int) - b.astype(int)).mean()) < 6.0
    assert ta == tb


def test_same_random_scene_seed_gives_same_scene() -> None:
    a = random_scene(np.random.default_rng(9), DeckKind.OKTRIS, "fan")
    b = random_scene(np.random.default_rng(9), DeckKind.OKTRIS, "fan")
    c = random_scene(np.random.default_rng(10), DeckKind.OKTRIS, "fan")
    assert a == b
    assert a != c


def test_image_is_bgr_uint8_of_the_scene_size() -> None:
    image, _ = render(_small(), np.random.default_rng(0))
    assert image.shape == (360, 640, 3) and image.dtype == np.uint8


@pytest.mark.parametrize("tilt", [0.0, 18.0])
@pytest.mark.parametrize("card", [StdCard.parse("6D"), OctoCard.parse("-2")])
def test_warping_the_truth_quad_gives_back_the_face(card: Card, tilt: float) -> None:
    other = StdCard.parse("AS") if isinstance(card, OctoCard) else OctoCard.number(4)
    scene = _small(PlacedCard(card, (330, 170), 37.0), camera=Camera(tilt_deg=tilt, tilt_azimuth_deg=60))
    image, truth = render(scene, np.random.default_rng(0))
    warped = _warp(image, truth.cards[0].corners)
    own = _similarity(warped, render_face(card, 200, 280))
    assert own > 0.8
    assert own > _similarity(warped, render_face(other, 200, 280)) + 0.3


def test_card_turned_a_quarter_clockwise_has_its_top_left_corner_upper_right() -> None:
    _, truth = render(_small(PlacedCard(StdCard.parse("3C"), (320, 180), 90.0)), np.random.default_rng(0))
    (x, y), centre = truth.cards[0].corners[0], (320, 180)
    assert x > centre[0] + 30 and y < centre[1] - 20


def test_card_under_another_is_not_top_and_loses_its_covered_index() -> None:
    # the second card covers the lower right of the first one
    lower = PlacedCard(StdCard.parse("2S"), (300, 170), 0.0)
    upper = PlacedCard(StdCard.parse("5H"), (350, 230), 0.0)
    _, truth = render(_small(lower, upper), np.random.default_rng(0))
    below, above = truth.cards
    assert (below.top, above.top) == (False, True)
    assert below.index_visible == (True, False) and below.identifiable
    assert above.index_visible == (True, True) and above.visible_fraction == 1.0
    assert 0.3 < below.visible_fraction < 0.9


def test_arm_over_a_card_hides_it_without_making_it_not_top() -> None:
    card = PlacedCard(OctoCard.number(2), (320, 180), 0.0)
    arm = Arm(start=(320, 500), end=(320, 170), width=90.0)
    _, truth = render(_small(card, arms=(arm,)), np.random.default_rng(0))
    seen = truth.cards[0]
    assert seen.top
    assert seen.visible_fraction < 0.8
    assert seen.index_visible[1] is False


def test_card_half_out_of_frame_is_partly_visible() -> None:
    _, truth = render(_small(PlacedCard(StdCard.parse("8D"), (630, 180), 0.0)), np.random.default_rng(0))
    assert 0.3 < truth.cards[0].visible_fraction < 0.7
    assert truth.cards[0].index_visible == (True, False)


def test_only_the_newest_card_of_a_pile_is_top() -> None:
    rng = np.random.default_rng(3)
    cards = [OctoCard.number(v) for v in (1, 4, 7, 2, 5)]
    placed = pile(cards, (320, 180), 120.0, rng)
    _, truth = render(_small(*placed), np.random.default_rng(0))
    assert [c.top for c in truth.cards] == [False] * 4 + [True]
    assert truth.cards[-1].identifiable


def test_fan_shows_every_cards_top_left_index() -> None:
    cards = [StdCard.parse(t) for t in ("AS", "2H", "3D", "4C", "5S", "6H")]
    placed = fan(cards, (320, 200), 0.0, 120.0, np.random.default_rng(4))
    _, truth = render(_small(*placed), np.random.default_rng(0))
    assert all(c.index_visible[0] for c in truth.cards)
    assert [c.top for c in truth.cards] == [False] * 5 + [True]


def test_trick_puts_each_card_toward_its_seat_and_upright_for_it() -> None:
    cards = [StdCard.parse(t) for t in ("7S", "2C", "8H", "AD")]
    placed = trick(cards, (320, 180), 4, 100.0, np.random.default_rng(2))
    seats = [(p.seat, p.centre) for p in placed]
    assert [s for s, _ in seats] == [1, 2, 3, 4]
    (_, bottom), (_, left), (_, top), (_, right) = seats
    assert bottom[1] > 180 + 40 and left[0] < 320 - 40 and top[1] < 180 - 40 and right[0] > 320 + 40
    assert [round(p.angle_deg / 90) % 4 for p in placed] == [0, 1, 2, 3]


def test_hand_rows_show_every_cards_top_left_index() -> None:
    cards = [OctoCard.number(v) for v in (1, 2, 3, 4)]
    placed = hand_row(cards, 2, 4, (640, 360), 100.0, np.random.default_rng(1))
    _, truth = render(_small(*placed, card_px=100.0), np.random.default_rng(0))
    assert all(c.index_visible[0] for c in truth.cards)
    assert all(c.seat == 2 and c.group == "hand" for c in truth.cards)


def test_table_textures_are_fixed_by_their_seed() -> None:
    for kind in TableKind:
        a = table_texture(kind, 7, 120, 80)
        assert np.array_equal(a, table_texture(kind, 7, 120, 80))
        assert not np.array_equal(a, table_texture(kind, 8, 120, 80))


def test_adding_a_card_keeps_the_table_still() -> None:
    scene = _small(PlacedCard(StdCard.parse("4S"), (200, 180), 10.0), table=Table(TableKind.WOOD, 3))
    later = scene.with_card(PlacedCard(StdCard.parse("5S"), (450, 180), -10.0))
    a, _ = render(scene, np.random.default_rng(0))
    b, truth = render(later, np.random.default_rng(0))
    assert np.array_equal(a[:, :300], b[:, :300])
    assert [str(c.card) for c in truth.cards] == ["4S", "5S"]


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: Camera(tilt_deg=50.0), "tilt_deg"),
        (lambda: Imaging(jpeg_quality=0), "jpeg_quality"),
        (lambda: Scene(card_px=10.0), "card_px"),
        (lambda: Lighting(shadow_strength=1.5), "shadow_strength"),
        (lambda: Glare((0, 0), (10, 10), strength=2.0), "strength"),
        (lambda: Arm((0, 0), (1, 1), width=0.0), "width"),
        (lambda: PlacedCard(StdCard.parse("AS"), (0, 0), tone=0.0), "tone"),
    ],
)
def test_out_of_range_values_are_refused_naming_the_field(make: object, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        make()  # type: ignore[operator]


def test_unknown_layout_is_refused_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="pile"):
        random_scene(np.random.default_rng(0), DeckKind.OKTRIS, "spiral")


# The committed fixtures


def _fixtures() -> dict[str, object]:
    data: dict[str, object] = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    return data


def test_fixture_truth_lists_existing_images_with_parsable_cards() -> None:
    doc = _fixtures()
    scenes = doc["scenes"]
    assert isinstance(scenes, list) and len(scenes) == 48
    decks = Counter(s["deck"] for s in scenes)
    assert decks == {"oktris": 24, "octoplus": 24}
    for s in scenes:
        deck = DeckKind(s["deck"])
        image = cv2.imread(str(FIXTURES / s["file"]))
        assert image is not None and image.shape == (s["height"], s["width"], 3)
        assert s["cards"], s["file"]
        labels = [parse_card(c["card"], deck) for c in s["cards"]]
        if deck is DeckKind.OKTRIS:
            assert all(isinstance(c, StdCard) and c.rank <= 8 for c in labels)
            assert len(set(labels)) == len(labels), f"{s['file']} repeats a card of the 32-card deck"
        assert [c["z"] for c in s["cards"]] == list(range(len(labels)))
        assert all(c["identifiable"] == any(c["index_visible"]) for c in s["cards"])


def test_fixtures_cover_every_condition_and_layout() -> None:
    tags = Counter(t for s in _fixtures()["scenes"] for t in s["conditions"])  # type: ignore[attr-defined]
    for wanted in (
        [k.value for k in TableKind] + list(LAYOUTS) + ["glare", "arm", "motion", "noisy", "dim", "tilt-20"]
    ):
        assert tags[wanted] >= 2, wanted


def test_fixtures_stay_small() -> None:
    total = sum(p.stat().st_size for p in FIXTURES.iterdir())
    assert total < 3.5e6


def test_fixture_truth_quads_frame_the_cards_in_the_images() -> None:
    scores = []
    for s in _fixtures()["scenes"]:  # type: ignore[attr-defined]
        image = cv2.imread(str(FIXTURES / s["file"]))
        assert image is not None, s["file"]
        for c in s["cards"]:
            if c["top"] and c["visible_fraction"] == 1.0:
                face = render_face(parse_card(c["card"], DeckKind(s["deck"])), 200, 280)
                scores.append(_similarity(_warp(image, c["corners"]), face))
    assert len(scores) >= 40
    assert float(np.median(scores)) > 0.85
    assert min(scores) > 0.6


def _overlap(a: object, b: object) -> bool:
    pa = np.array(a, dtype=np.float32)
    pb = np.array(b, dtype=np.float32)
    area, _ = cv2.intersectConvexConvex(pa, pb)
    return float(area) > 1.0


@pytest.mark.parametrize("layout", LAYOUTS)
def test_truth_of_random_layouts_is_consistent(layout: str) -> None:
    for seed in range(3):
        scene = random_scene(
            np.random.default_rng(seed),
            DeckKind.OCTOPLUS,
            layout,
            size=(640, 360),
            card_px=80.0,
            arms=seed % 2,
        )
        _, truth = render(scene, np.random.default_rng(0))
        cards = truth.cards
        assert len(cards) == len(scene.cards) and cards
        for c in cards:
            above = [d for d in cards if d.z > c.z and _overlap(c.corners, d.corners)]
            assert c.top == (not above), f"{layout} seed {seed}: {c.card} z={c.z} top={c.top}"
            if c.visible_fraction == 1.0:
                assert c.index_visible == (True, True)
            if not c.top:
                assert c.visible_fraction < 1.0
        assert cards[-1].top
