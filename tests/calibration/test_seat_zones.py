"""Seat zones: seat 1 at the bottom, then clockwise as seen from above; moved by dragging a marker."""

from __future__ import annotations

import pytest

from calibration.seats import SeatZones, angle_of, default_zones, zones_for_area
from scanner.watcher_zones import AngleZones


def test_four_default_seats_are_bottom_left_top_right() -> None:
    zones = default_zones(4, 1280, 720)
    assert zones.centre == (640.0, 360.0)
    assert zones.seat_of((640, 700)) == 1
    assert zones.seat_of((20, 360)) == 2
    assert zones.seat_of((640, 10)) == 3
    assert zones.seat_of((1270, 360)) == 4


@pytest.mark.parametrize("players", range(2, 9))
def test_each_default_seat_owns_the_point_along_its_own_direction(players: int) -> None:
    zones = default_zones(players, 1000, 1000)
    for seat in range(1, players + 1):
        assert zones.seat_of(zones.marker(seat, 300)) == seat


@pytest.mark.parametrize("players", [0, 1, 9])
def test_seats_are_for_two_to_eight_players(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 8"):
        default_zones(players, 640, 480)


def test_angles_follow_the_watchers_convention() -> None:
    zones = SeatZones((500.0, 400.0), (10.0, 95.0, 170.0, 300.0))
    theirs = AngleZones(4, (500.0, 400.0), zones.angles)
    for x in range(0, 1000, 37):
        for y in range(0, 800, 41):
            assert zones.seat_of((x, y)) == theirs.seat_of((x, y))


def test_dragging_a_marker_turns_that_seat_toward_it() -> None:
    zones = default_zones(4, 800, 800)
    moved = zones.moved(2, (100, 200))  # up and left of the centre
    assert moved.angles[1] == pytest.approx(angle_of((400, 400), (100, 200)))
    assert moved.seat_of((120, 210)) == 2
    assert moved.angles[0] == zones.angles[0]


def test_dragging_a_seat_past_its_neighbour_is_refused() -> None:
    zones = default_zones(4, 800, 800)
    with pytest.raises(ValueError, match="does not follow"):
        zones.moved(2, (700, 100))


def test_a_seat_that_does_not_exist_is_named() -> None:
    with pytest.raises(ValueError, match="seat 5 does not exist"):
        default_zones(4, 800, 800).moved(5, (0, 0))


def test_zones_for_a_play_area_turn_around_its_centre() -> None:
    zones = zones_for_area(2, ((100.0, 100.0), (500.0, 100.0), (500.0, 300.0), (100.0, 300.0)))
    assert zones.centre == (300.0, 200.0)
    assert zones.seat_of((300, 290)) == 1
    assert zones.seat_of((300, 110)) == 2
