"""Seat zones: which player a card lying at a point of the image belongs to.

Seat 1 sits at the bottom edge of the camera image; the others follow clockwise
as seen from above (for four: bottom, left, top, right).  Without calibration
the zones are equal angles around the image centre, and a card belongs to the
seat whose direction is nearest.  Calibration may give its own directions
(:class:`AngleZones` with ``angles``) or a polygon per seat (:class:`PolygonZones`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from scanner.types import Point


class SeatZones(Protocol):
    """What the watcher needs of seat zones (calibration's zones fit too)."""

    def seat_of(self, point: Point) -> int:
        """The seat (1-based) whose zone holds ``point`` (pixel coordinates of the frame)."""
        ...


def zone_count(zones: object) -> int | None:
    """How many seats ``zones`` has, if it says (``seats`` or ``players``)."""
    for name in ("seats", "players"):
        value = getattr(zones, name, None)
        if isinstance(value, int):
            return value
    return None


def clockwise_from_bottom(dx: float, dy: float) -> float:
    """The direction of ``(dx, dy)`` in image coordinates (y down), in degrees clockwise
    as seen on the image from straight down: bottom 0, left 90, top 180, right 270."""
    return math.degrees(math.atan2(-dx, dy)) % 360.0


@dataclass(frozen=True)
class AngleZones:
    """Zones by direction around ``centre`` (pixels): seat ``i + 1`` looks along ``angles[i]``.

    ``angles`` are degrees clockwise from the bottom of the image (see
    :func:`clockwise_from_bottom`); by default equal steps starting at 0.

    Raises (on construction):
        ValueError: fewer than 1 seat, or ``angles`` of the wrong length or not finite.
    """

    count: int
    centre: Point
    angles: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"AngleZones needs at least 1 seat, got {self.count!r}")
        if not self.angles:
            object.__setattr__(self, "angles", tuple(360.0 * i / self.count for i in range(self.count)))
        if len(self.angles) != self.count:
            raise ValueError(
                f"AngleZones has {len(self.angles)} angles for {self.count} seats: {self.angles!r}"
            )
        if not all(math.isfinite(a) for a in self.angles):
            raise ValueError(f"AngleZones angles must be finite numbers, got {self.angles!r}")

    @classmethod
    def default(cls, seats: int, width: int, height: int) -> AngleZones:
        """Equal angles around the centre of a ``width`` x ``height`` image, seat 1 at the bottom."""
        return cls(seats, (width / 2.0, height / 2.0))

    @property
    def seats(self) -> int:
        return self.count

    def seat_of(self, point: Point) -> int:
        direction = clockwise_from_bottom(point[0] - self.centre[0], point[1] - self.centre[1])

        def distance(angle: float) -> float:
            d = abs(direction - angle % 360.0) % 360.0
            return min(d, 360.0 - d)

        return min(range(self.count), key=lambda i: distance(self.angles[i])) + 1


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    x, y = point
    inside = False
    for i in range(len(polygon)):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % len(polygon)]
        if (y1 > y) != (y2 > y):
            cross = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross:
                inside = not inside
    return inside


@dataclass(frozen=True)
class PolygonZones:
    """One polygon (pixel corners) per seat, seat 1 first.

    A point inside several polygons belongs to the first; a point inside none
    belongs to the seat whose polygon's centre is nearest.

    Raises (on construction):
        ValueError: no polygon, or a polygon with fewer than 3 corners.
    """

    polygons: tuple[tuple[Point, ...], ...]

    def __post_init__(self) -> None:
        if not self.polygons:
            raise ValueError("PolygonZones needs at least one polygon")
        for seat, polygon in enumerate(self.polygons, start=1):
            if len(polygon) < 3:
                raise ValueError(f"PolygonZones: seat {seat}'s polygon has {len(polygon)} corners, needs 3+")

    @property
    def seats(self) -> int:
        return len(self.polygons)

    def seat_of(self, point: Point) -> int:
        for seat, polygon in enumerate(self.polygons, start=1):
            if _inside(point, polygon):
                return seat

        def centre_distance(polygon: tuple[Point, ...]) -> float:
            cx = sum(p[0] for p in polygon) / len(polygon)
            cy = sum(p[1] for p in polygon) / len(polygon)
            return math.hypot(point[0] - cx, point[1] - cy)

        return min(range(len(self.polygons)), key=lambda i: centre_distance(self.polygons[i])) + 1
