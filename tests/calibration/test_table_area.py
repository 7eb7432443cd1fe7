"""The play area found on recorded frames, its top-down view, and the middle card's size within 3%."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from calibration_fixtures import image, truth

from calibration.table import TableError, area_centre, find_play_area, measure_card, order_quad, top_down
from scanner.scenes import Arm, PlacedCard, Scene, Table, TableKind, render
from scorer.cards import DeckKind, parse_card

TABLES = truth()["tables"]


def ids(record: dict[str, Any]) -> str:
    return f"{record['image']}-{record['cloth']}-on-{record['table']}-tilt{record['tilt_deg']:g}"


@pytest.mark.parametrize("record", TABLES, ids=ids)
def test_the_play_area_is_found_within_three_pixels(record: dict[str, Any]) -> None:
    corners = find_play_area(image(record["image"]))
    error = np.abs(np.array(corners) - np.array(record["corners"])).max()
    assert error <= 3.0, f"corners {corners} vs truth {record['corners']}"


@pytest.mark.parametrize("record", TABLES, ids=ids)
def test_the_middle_card_is_measured_within_three_percent(record: dict[str, Any]) -> None:
    frame = image(record["image"])
    short, long = measure_card(frame, find_play_area(frame))
    true_short, true_long = record["card_size_px"]
    assert short == pytest.approx(true_short, rel=0.03)
    assert long == pytest.approx(true_long, rel=0.03)


def test_the_top_down_view_maps_the_play_area_onto_a_rectangle() -> None:
    record = TABLES[2]
    view = top_down(find_play_area(image(record["image"])))
    w, h = view.size
    mapped = [view.to_view(tuple(p)) for p in record["corners"]]
    expected = [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]
    assert np.abs(np.array(mapped) - np.array(expected)).max() <= 4.0
    assert view.warp(image(record["image"])).shape == (h, w, 3)


def test_a_cloth_filling_the_whole_frame_is_the_whole_frame() -> None:
    frame = image(TABLES[0]["image"])
    x0, y0, x1, y1 = (round(v) for v in (*TABLES[0]["corners"][0], *TABLES[0]["corners"][2]))
    inner = np.ascontiguousarray(frame[y0 + 20 : y1 - 20, x0 + 20 : x1 - 20])
    h, w = inner.shape[:2]
    corners = find_play_area(inner)
    assert np.abs(np.array(corners) - np.array([(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)])).max() <= 2.0


def test_no_card_in_the_middle_is_said_plainly() -> None:
    empty = image("capture/empty.jpg")
    with pytest.raises(TableError, match="lay one card face up in the middle"):
        measure_card(empty, find_play_area(empty))


def test_a_frame_without_a_cloth_asks_for_the_corners_by_hand() -> None:
    rng = np.random.default_rng(1)
    patches = rng.integers(0, 256, (9, 16, 3), dtype=np.uint8)
    clutter = np.asarray(cv2.resize(patches, (640, 360), interpolation=cv2.INTER_NEAREST), dtype=np.uint8)
    with pytest.raises(TableError, match=r"drag the play area's corners by hand|no cloth"):
        find_play_area(clutter)


def test_corners_are_ordered_clockwise_from_the_top_left() -> None:
    shuffled = np.array([[500, 400], [10, 20], [10, 400], [500, 30]], dtype=float)
    assert order_quad(shuffled) == ((10.0, 20.0), (500.0, 30.0), (500.0, 400.0), (10.0, 400.0))


def test_the_centre_of_a_quad_is_where_its_diagonals_cross() -> None:
    assert area_centre(((0, 0), (100, 0), (100, 50), (0, 50))) == pytest.approx((50.0, 25.0))


def test_an_arm_across_the_cloth_does_not_cut_the_play_area() -> None:
    scene = Scene(
        cards=(PlacedCard(parse_card("7H", DeckKind.OKTRIS), (640.0, 380.0), 10.0),),
        arms=(Arm((-150.0, 500.0), (600.0, 420.0)), Arm((420.0, -150.0), (560.0, 360.0))),
        table=Table(TableKind.FELT_BLUE, 4),
    )
    frame, _ = render(scene, np.random.default_rng(0))
    corners = find_play_area(frame)
    assert cv2.contourArea(np.asarray(corners, dtype=np.float32)) >= 0.95 * 1280 * 720
