"""Seat zones and the watcher's parameters."""

from __future__ import annotations

import pytest

from scanner.watcher_params import WatcherParams
from scanner.watcher_zones import AngleZones, PolygonZones, clockwise_from_bottom


def test_directions_are_measured_clockwise_from_the_bottom_of_the_image() -> None:
    assert clockwise_from_bottom(0, 1) == pytest.approx(0)
    assert clockwise_from_bottom(-1, 0) == pytest.approx(90)
    assert clockwise_from_bottom(0, -1) == pytest.approx(180)
    assert clockwise_from_bottom(1, 0) == pytest.approx(270)


def test_four_seats_sit_bottom_left_top_right() -> None:
    zones = AngleZones.default(4, 640, 360)
    assert [zones.seat_of(p) for p in [(320, 350), (10, 180), (320, 5), (630, 180)]] == [1, 2, 3, 4]


def test_three_seats_sit_bottom_upper_left_upper_right() -> None:
    zones = AngleZones.default(3, 640, 360)
    assert [zones.seat_of(p) for p in [(320, 350), (100, 40), (540, 40)]] == [1, 2, 3]


def test_two_seats_face_each_other_bottom_and_top() -> None:
    zones = AngleZones.default(2, 640, 360)
    assert [zones.seat_of(p) for p in [(100, 300), (600, 40)]] == [1, 2]


def test_calibrated_angles_override_the_equal_split() -> None:
    zones = AngleZones(2, (320, 180), angles=(0.0, 90.0))  # seat 2 sits at the left edge
    assert zones.seat_of((20, 180)) == 2
    assert zones.seat_of((320, 20)) in (1, 2)  # top is halfway between: either is acceptable
    assert zones.seat_of((620, 170)) == 1  # right is nearer the bottom (90 deg away) than the left (180)


def test_angle_zones_reject_a_wrong_number_of_angles() -> None:
    with pytest.raises(ValueError, match="2 angles for 3 seats"):
        AngleZones(3, (0, 0), angles=(0.0, 90.0))


def test_polygon_zones_use_the_polygon_holding_the_point_else_the_nearest() -> None:
    zones = PolygonZones(
        (
            ((0, 200), (640, 200), (640, 360), (0, 360)),
            ((0, 0), (640, 0), (640, 150), (0, 150)),
        )
    )
    assert zones.seats == 2
    assert zones.seat_of((300, 300)) == 1
    assert zones.seat_of((300, 100)) == 2
    assert zones.seat_of((300, 190)) == 1  # between the two, nearer seat 1's centre


def test_polygon_zones_reject_a_polygon_of_two_corners() -> None:
    with pytest.raises(ValueError, match="seat 2's polygon has 2 corners"):
        PolygonZones((((0, 0), (1, 0), (0, 1)), ((0, 0), (1, 1))))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("still_frames", 0, "still_frames must be within 1..600, got 0"),
        ("motion_fraction", 1.5, "motion_fraction must be within"),
        ("blur", 2.5, "blur must be an integer"),
        ("turn_idle_s", float("nan"), "turn_idle_s must be within"),
        ("laid_changed", 1.2, "laid_changed must be within 0.0..1.0, got 1.2"),
        ("report_initial", "yes", "report_initial must be true or false"),
    ],
)
def test_watcher_params_name_the_bad_field_and_value(field: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        WatcherParams(**{field: value})  # type: ignore[arg-type]


def test_watcher_params_reject_an_empty_skin_range() -> None:
    with pytest.raises(ValueError, match="skin_cr_min 180 exceeds skin_cr_max 173"):
        WatcherParams(skin_cr_min=180)


def test_watcher_params_from_a_mapping_reject_unknown_names() -> None:
    assert WatcherParams.from_mapping({"still_frames": 3}).still_frames == 3
    with pytest.raises(ValueError, match="no field 'stil_frames'"):
        WatcherParams.from_mapping({"stil_frames": 3})
