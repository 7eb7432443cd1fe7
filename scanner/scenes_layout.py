"""Card layouts and randomised conditions for rendered scenes.

Layouts return ``PlacedCard`` tuples in z-order (the last lies on top), in table
pixels, for a card of ``card_px`` pixels along its long side:

- ``single``: one card anywhere, any rotation;
- ``pile``: cards stacked with small random offsets and turns, the newest on top
  and older ones peeking out (Octoplus play);
- ``fan``: cards overlapping around a pivot so each shows its top-left index;
- ``trick``: one card per seat around the centre (Oktris), seat 1 at the
  bottom, then clockwise as seen from above (bottom, left, top, right);
- ``hand_row``: a hand laid out in an overlapping row in front of a seat.

The ``random_*`` helpers draw tables, camera poses, light, imaging and arms from
a ``numpy.random.Generator``; ``random_scene`` puts it all together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from scanner.scenes import (
    CARD_ASPECT,
    Arm,
    Camera,
    Glare,
    Imaging,
    Lighting,
    PlacedCard,
    Scene,
    Table,
)
from scanner.scenes_paint import TableKind
from scanner.types import Point
from scorer.cards import MINUS2, PASS, PLUS2, Card, DeckKind, OctoCard, oktris_deck

LAYOUTS: tuple[str, ...] = ("single", "singles", "pile", "fan", "trick", "hands", "mixed")
"""The layout names ``random_scene`` understands."""

_SKIN: tuple[tuple[int, int, int], ...] = (
    (150, 180, 225),
    (120, 150, 200),
    (95, 125, 175),
    (70, 95, 140),
    (50, 70, 105),
)
_SLEEVE: tuple[tuple[int, int, int], ...] = ((60, 40, 30), (40, 40, 150), (150, 150, 150), (30, 30, 30))


def seat_angle(seat: int, players: int) -> float:
    """The turn (degrees, clockwise in the image) of a card read upright by ``seat`` (1-based)."""
    return 360.0 * (seat - 1) / players


def seat_direction(seat: int, players: int) -> Point:
    """The unit vector from the table centre toward ``seat`` (seat 1 at the bottom)."""
    t = math.radians(seat_angle(seat, players))
    return (-math.sin(t), math.cos(t))


def _rotate(v: Point, deg: float) -> Point:
    t = math.radians(deg)
    return (v[0] * math.cos(t) - v[1] * math.sin(t), v[0] * math.sin(t) + v[1] * math.cos(t))


def single(card: Card, centre: Point, angle_deg: float) -> tuple[PlacedCard, ...]:
    """One card alone."""
    return (PlacedCard(card, centre, angle_deg, group="single"),)


def pile(
    cards: Sequence[Card], centre: Point, card_px: float, rng: np.random.Generator
) -> tuple[PlacedCard, ...]:
    """Cards dropped one on another: small offsets and turns, the last on top."""
    base = float(rng.uniform(-180, 180))
    out = []
    for card in cards:
        dx, dy = rng.normal(0.0, 0.09 * card_px, 2)
        angle = base + float(rng.normal(0.0, 18.0))
        out.append(PlacedCard(card, (centre[0] + dx, centre[1] + dy), angle, group="pile"))
    return tuple(out)


def fan(
    cards: Sequence[Card], centre: Point, angle_deg: float, card_px: float, rng: np.random.Generator
) -> tuple[PlacedCard, ...]:
    """Cards fanned about a pivot below them, each to the right of the one before (top-left indices show)."""
    n = len(cards)
    step = float(rng.uniform(9.0, 14.0))
    radius = card_px * float(rng.uniform(0.9, 1.2))
    pivot = (
        centre[0] - _rotate((0.0, -radius * 0.6), angle_deg)[0],
        centre[1] - _rotate((0.0, -radius * 0.6), angle_deg)[1],
    )
    out = []
    for i, card in enumerate(cards):
        a = angle_deg + (i - (n - 1) / 2.0) * step
        arm = _rotate((0.0, -radius), a)
        out.append(PlacedCard(card, (pivot[0] + arm[0], pivot[1] + arm[1]), a, group="fan"))
    return tuple(out)


def trick(
    cards: Sequence[Card], centre: Point, players: int, card_px: float, rng: np.random.Generator
) -> tuple[PlacedCard, ...]:
    """One card per seat (seat 1 first, in play order) around ``centre``, each read upright by its player."""
    out = []
    for i, card in enumerate(cards):
        seat = i + 1
        d = seat_direction(seat, players)
        dist = card_px * float(rng.uniform(0.6, 0.85))
        pos = (centre[0] + d[0] * dist + rng.normal(0, 6), centre[1] + d[1] * dist + rng.normal(0, 6))
        angle = seat_angle(seat, players) + float(rng.normal(0.0, 9.0))
        out.append(PlacedCard(card, pos, angle, group="trick", seat=seat))
    return tuple(out)


def hand_row(
    cards: Sequence[Card],
    seat: int,
    players: int,
    size: tuple[int, int],
    card_px: float,
    rng: np.random.Generator,
) -> tuple[PlacedCard, ...]:
    """A hand shown in an overlapping row in front of ``seat``, near the image edge on its side."""
    width, height = size
    d = seat_direction(seat, players)
    reach = abs(d[0]) * width / 2.0 + abs(d[1]) * height / 2.0 - card_px * 0.62
    centre = (width / 2.0 + d[0] * reach, height / 2.0 + d[1] * reach)
    angle = seat_angle(seat, players)
    step = card_px * CARD_ASPECT * float(rng.uniform(0.38, 0.55))
    along = _rotate((1.0, 0.0), angle)
    n = len(cards)
    out = []
    for i, card in enumerate(cards):
        k = (i - (n - 1) / 2.0) * step
        pos = (centre[0] + along[0] * k + rng.normal(0, 2), centre[1] + along[1] * k + rng.normal(0, 2))
        out.append(PlacedCard(card, pos, angle + float(rng.normal(0.0, 3.0)), group="hand", seat=seat))
    return tuple(out)


def draw_cards(deck: DeckKind, n: int, rng: np.random.Generator) -> list[Card]:
    """``n`` cards of the deck: distinct for Oktris, by the default deck's counts for Octoplus.

    Octoplus's default deck is numbers 1-7 eight times each and six each of
    ``+2``, ``-2``, ``Pass``.
    """
    if deck is DeckKind.OKTRIS:
        full = oktris_deck()
        return [full[int(i)] for i in rng.choice(len(full), size=n, replace=False)]
    pool: list[Card] = [OctoCard.number(v) for v in range(1, 8) for _ in range(8)]
    pool += [PLUS2] * 6 + [MINUS2] * 6 + [PASS] * 6
    return [pool[int(i)] for i in rng.choice(len(pool), size=n, replace=False)]


def random_table(rng: np.random.Generator, kind: TableKind | None = None) -> Table:
    """A random surface (of ``kind`` if given)."""
    kinds = list(TableKind)
    chosen = kind if kind is not None else kinds[int(rng.integers(len(kinds)))]
    return Table(chosen, int(rng.integers(1 << 30)))


def random_camera(rng: np.random.Generator, tilt_deg: float | None = None) -> Camera:
    """A camera up to 20° off vertical (``tilt_deg`` if given), slightly rolled."""
    tilt = float(rng.uniform(0, 20)) if tilt_deg is None else tilt_deg
    return Camera(tilt, float(rng.uniform(0, 360)), float(rng.normal(0, 4)), float(rng.uniform(900, 1200)))


def random_lighting(
    rng: np.random.Generator, size: tuple[int, int], glare: bool = False, dim: bool = False
) -> Lighting:
    """Room light with a gradient and warm or cool white balance; optional glare spots and dim light."""
    width, height = size
    spots = []
    if glare:
        for _ in range(int(rng.integers(1, 3))):
            spots.append(
                Glare(
                    (float(rng.uniform(0.2, 0.8) * width), float(rng.uniform(0.2, 0.8) * height)),
                    (float(rng.uniform(40, 140)), float(rng.uniform(25, 80))),
                    float(rng.uniform(0, 180)),
                    float(rng.uniform(0.5, 0.9)),
                )
            )
    warm = float(rng.uniform(-0.12, 0.12))
    return Lighting(
        brightness=float(rng.uniform(0.45, 0.65) if dim else rng.uniform(0.85, 1.1)),
        gradient=float(rng.uniform(0.1, 0.6)),
        gradient_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0.1, 0.35)),
        white_balance=(1.0 - warm, 1.0, 1.0 + warm),
        glare=tuple(spots),
        shadow_offset=(float(rng.uniform(-6, 6)), float(rng.uniform(-6, 6))),
        shadow_blur=float(rng.uniform(2.5, 7.0)),
        shadow_strength=float(rng.uniform(0.25, 0.5)),
    )


def random_imaging(rng: np.random.Generator, motion: bool = False, noisy: bool = False) -> Imaging:
    """Slight defocus and sensor noise; optional motion blur and heavy (low-light) noise."""
    return Imaging(
        defocus=float(rng.uniform(0.4, 1.6)),
        motion_px=float(rng.uniform(3, 8)) if motion else 0.0,
        motion_deg=float(rng.uniform(0, 180)),
        read_noise=float(rng.uniform(3.5, 5.5)) if noisy else float(rng.uniform(1, 2.5)),
        shot_noise=float(rng.uniform(7, 11)) if noisy else float(rng.uniform(2, 4)),
    )


def random_arm(rng: np.random.Generator, size: tuple[int, int], target: Point, card_px: float) -> Arm:
    """An arm reaching in from a random frame edge to near ``target``."""
    width, height = size
    edge = int(rng.integers(4))
    along = float(rng.uniform(0.15, 0.85))
    start = [
        (along * width, height + 150),
        (-150, along * height),
        (along * width, -150),
        (width + 150, along * height),
    ][edge]
    # the hand comes to rest beside the target, between it and the edge it came from
    dx, dy = start[0] - target[0], start[1] - target[1]
    norm = max(1.0, math.hypot(dx, dy))
    back = card_px * float(rng.uniform(0.5, 1.1))
    end = (target[0] + dx / norm * back + rng.normal(0, card_px * 0.2), target[1] + dy / norm * back)
    sleeve = _SLEEVE[int(rng.integers(len(_SLEEVE)))] if rng.random() < 0.6 else None
    return Arm(
        start, end, card_px * float(rng.uniform(0.42, 0.55)), _SKIN[int(rng.integers(len(_SKIN)))], sleeve
    )


def random_layout(
    layout: str, deck: DeckKind, size: tuple[int, int], card_px: float, rng: np.random.Generator
) -> tuple[PlacedCard, ...]:
    """Cards for one of ``LAYOUTS``.

    Raises:
        ValueError: ``layout`` is not one of ``LAYOUTS``.
    """
    width, height = size
    centre = (width / 2.0 + rng.normal(0, width * 0.06), height / 2.0 + rng.normal(0, height * 0.06))
    margin = card_px * 0.6

    def anywhere() -> Point:
        return (float(rng.uniform(margin, width - margin)), float(rng.uniform(margin, height - margin)))

    if layout == "single":
        return single(draw_cards(deck, 1, rng)[0], anywhere(), float(rng.uniform(-180, 180)))
    if layout == "singles":
        n = int(rng.integers(2, 6))
        cards = draw_cards(deck, n, rng)
        spots: list[Point] = []
        while len(spots) < n:
            p = anywhere()
            if all(math.dist(p, q) > card_px * 1.1 for q in spots) or len(spots) > 40:
                spots.append(p)
        return tuple(
            PlacedCard(c, p, float(rng.uniform(-180, 180))) for c, p in zip(cards, spots, strict=True)
        )
    if layout == "pile":
        return pile(draw_cards(deck, int(rng.integers(2, 9)), rng), centre, card_px, rng)
    if layout == "fan":
        return fan(
            draw_cards(deck, int(rng.integers(2, 9)), rng),
            centre,
            float(rng.uniform(-180, 180)),
            card_px,
            rng,
        )
    if layout == "trick":
        players = int(rng.integers(2, 5))
        played = int(rng.integers(2, players + 1))
        return trick(draw_cards(deck, played, rng), centre, players, card_px, rng)
    if layout == "hands":
        players = int(rng.integers(2, 5))
        cards = draw_cards(deck, 4 * players, rng)
        out: list[PlacedCard] = []
        for seat in range(1, players + 1):
            count = int(rng.integers(1, 5))
            out += hand_row(cards[4 * (seat - 1) : 4 * (seat - 1) + count], seat, players, size, card_px, rng)
        return tuple(out)
    if layout == "mixed":
        cards = draw_cards(deck, 7, rng)
        offset = (centre[0] - width * 0.18, centre[1])
        return (
            *pile(cards[:4], offset, card_px, rng),
            *single(cards[4], (width * 0.78, height * 0.3), float(rng.uniform(-180, 180))),
            *fan(cards[5:], (width * 0.7, height * 0.7), float(rng.uniform(-60, 60)), card_px, rng),
        )
    raise ValueError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")


def random_scene(
    rng: np.random.Generator,
    deck: DeckKind,
    layout: str,
    *,
    table: TableKind | None = None,
    tilt_deg: float | None = None,
    glare: bool = False,
    dim: bool = False,
    motion: bool = False,
    noisy: bool = False,
    arms: int = 0,
    card_px: float | None = None,
    size: tuple[int, int] = (1280, 720),
) -> Scene:
    """A whole random scene of ``layout`` with the conditions asked for.

    Raises:
        ValueError: ``layout`` is not one of ``LAYOUTS``.
    """
    px = float(rng.uniform(120, 200)) if card_px is None else card_px
    cards = random_layout(layout, deck, size, px, rng)
    reach = tuple(
        random_arm(
            rng,
            size,
            cards[int(rng.integers(len(cards)))].centre if cards else (size[0] / 2, size[1] / 2),
            px,
        )
        for _ in range(arms)
    )
    return Scene(
        cards=cards,
        arms=reach,
        table=random_table(rng, table),
        camera=random_camera(rng, tilt_deg),
        lighting=random_lighting(rng, size, glare=glare, dim=dim),
        imaging=random_imaging(rng, motion=motion, noisy=noisy),
        card_px=px,
        width=size[0],
        height=size[1],
    )
