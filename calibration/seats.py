"""Seat zones: which seat a card lying at a point of the frame belongs to.

A seat is a direction from the table's ``centre``: an angle in degrees measured
clockwise *as seen in the image* from straight down (0: toward the bottom edge,
90: toward the left edge, 180: toward the top, 270: toward the right).  Seat 1
is the player nearest the bottom edge and the others follow clockwise as seen
from above (bottom, left, top, right for four), so by default seat ``k`` of
``n`` looks along ``360 * (k - 1) / n``.  A card belongs to the seat whose
direction is nearest to the card's direction from the centre.

The wizard page and ``calibrate seats`` move a seat by dragging its marker: the
seat's angle becomes the marker's direction from the centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scanner.types import Point

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MIN_SEPARATION_DEG = 5.0
"""Two seats closer than this (degrees) could not be told apart."""


def _gap(a: float, b: float) -> float:
    """The smaller angle (0..180) between two directions in degrees."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def angle_of(centre: Point, point: Point) -> float:
    """The direction of ``point`` from ``centre``: degrees 0..360, clockwise in the image from straight down.

    Raises:
        ValueError: ``point`` is the centre itself (no direction).
    """
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    if dx == 0 and dy == 0:
        raise ValueError(f"point {point!r} is the seat centre itself: it has no direction")
    return math.degrees(math.atan2(-dx, dy)) % 360.0


def direction(angle_deg: float) -> Point:
    """The unit vector (image coordinates, y down) of a seat angle."""
    t = math.radians(angle_deg)
    return (-math.sin(t), math.cos(t))


@dataclass(frozen=True)
class SeatZones:
    """Seat directions around a centre (frame pixels); ``angles[k]`` belongs to seat ``k + 1``.

    Raises:
        ValueError: (on construction) fewer than 2 or more than 8 seats, a
            non-finite value, two seats closer than ``MIN_SEPARATION_DEG``, or
            seats that do not follow each other clockwise from seat 1.
    """

    centre: Point
    angles: tuple[float, ...]

    def __post_init__(self) -> None:
        n = len(self.angles)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"seat zones need {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {n}")
        if not all(math.isfinite(v) for v in (*self.centre, *self.angles)):
            raise ValueError(
                f"seat zones must be finite numbers, got centre {self.centre!r} angles {self.angles!r}"
            )
        unwrapped = [(a - self.angles[0]) % 360.0 for a in self.angles]
        for k in range(1, n):
            if unwrapped[k] <= unwrapped[k - 1]:
                raise ValueError(
                    f"seat {k + 1} (at {self.angles[k]:g}°) does not follow seat {k} "
                    f"(at {self.angles[k - 1]:g}°) clockwise"
                )
        for k in range(n):
            a, b = self.angles[k], self.angles[(k + 1) % n]
            if _gap(a, b) < MIN_SEPARATION_DEG:
                raise ValueError(
                    f"seats {k + 1} and {(k + 1) % n + 1} are only {_gap(a, b):.1f}° apart "
                    f"(at least {MIN_SEPARATION_DEG:g}° needed)"
                )

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.angles)

    def seat_of(self, point: Point) -> int:
        """The seat (1-based) whose direction is nearest to ``point``'s direction from the centre.

        A point exactly on the centre belongs to seat 1.
        """
        try:
            angle = angle_of(self.centre, point)
        except ValueError:
            return 1
        gaps = [_gap(angle, a) for a in self.angles]
        return gaps.index(min(gaps)) + 1

    def marker(self, seat: int, radius: float) -> Point:
        """Where seat ``seat``'s marker is drawn: ``radius`` pixels from the centre along its direction.

        Raises:
            ValueError: ``seat`` is not 1..players.
        """
        self._check_seat(seat)
        dx, dy = direction(self.angles[seat - 1])
        return (self.centre[0] + dx * radius, self.centre[1] + dy * radius)

    def moved(self, seat: int, point: Point) -> SeatZones:
        """The zones with seat ``seat``'s direction turned toward ``point`` (a dragged marker).

        Raises:
            ValueError: ``seat`` is not 1..players, ``point`` is the centre, or
                the move would pass a neighbouring seat.
        """
        self._check_seat(seat)
        angles = list(self.angles)
        angles[seat - 1] = angle_of(self.centre, point)
        return SeatZones(self.centre, tuple(angles))

    def _check_seat(self, seat: int) -> None:
        if not 1 <= seat <= self.players:
            raise ValueError(f"seat {seat!r} does not exist: the table has seats 1 to {self.players}")


def default_zones(players: int, width: int, height: int) -> SeatZones:
    """Equal angles around the frame centre, seat 1 toward the bottom edge.

    Raises:
        ValueError: ``players`` is not 2..8 or the frame size is not positive.
    """
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"seat zones are for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")
    if width <= 0 or height <= 0:
        raise ValueError(f"frame size must be positive, got {width}x{height}")
    return SeatZones((width / 2.0, height / 2.0), tuple(360.0 * k / players for k in range(players)))


def zones_for_area(players: int, corners: tuple[Point, Point, Point, Point]) -> SeatZones:
    """Equal angles around the centre of a play area (its corners' mean), seat 1 toward the bottom.

    Raises:
        ValueError: ``players`` is not 2..8.
    """
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"seat zones are for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")
    cx = sum(p[0] for p in corners) / 4.0
    cy = sum(p[1] for p in corners) / 4.0
    return SeatZones((cx, cy), tuple(360.0 * k / players for k in range(players)))
