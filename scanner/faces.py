"""The project's own card faces for both decks, drawn with OpenCV primitives.

``render_face(card, width, height)`` returns a BGR uint8 image of the upright face
on white paper; ``card_mask(width, height)`` is the card's rounded-rectangle shape
(255 inside, 0 outside, anti-aliased) and ``render_face_rgba`` both at once. The
paper outside the rounded corners is drawn white in ``render_face``; composite
with the mask to get the true outline.

Layout, as fractions of the card's width ``W`` and height ``H`` (the same for
every card of both decks, so a finder or identifier can crop by fraction):

- Corner index, top-left: the box ``INDEX_BOX`` = x 0.035..0.185 W,
  y 0.025..0.285 H. Its upper part (``INDEX_RANK_BOX``, y 0.035..0.145 H) holds
  the rank (``A 2..10 J Q K``) or the Octoplus label (``1``..``N``, ``+2``,
  ``-2``, ``P``); its lower part (``INDEX_SUIT_BOX``, y 0.16..0.27 H) holds the
  suit symbol for standard cards, or the card's mark for Octoplus cards (a
  filled dot for number cards, a filled red diamond for the specials).
- Corner index, bottom-right: the same box rotated 180° about the card centre
  (x 0.815..0.965 W, y 0.715..0.975 H), so a card turned half round shows
  exactly the same top-left corner.
- Centre: standard cards show pips (A-10) or a framed court design (J Q K) in
  ``CENTRE_BOX`` = x 0.22..0.78 W, y 0.10..0.90 H. Octoplus cards show a big
  numeral or symbol in an oval at the card centre (x 0.22..0.78 W,
  y 0.30..0.70 H), with a row of small marks above and below it (their count is
  the face value for number cards, so faces stay distinct when blurred), inside
  a coloured frame: dark blue for number cards, red for ``+2``, ``-2``, ``P``.

Colours are B,G,R: black ink for spades/clubs, red for hearts/diamonds.
Faces are cached; each call returns a fresh copy.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from scanner.types import Image
from scorer.cards import Card, OctoCard, OctoKind, StdCard, Suit

DEFAULT_WIDTH = 400
DEFAULT_HEIGHT = 560

Box = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` as fractions of the card's width and height."""

INDEX_BOX: Box = (0.035, 0.025, 0.185, 0.285)
INDEX_RANK_BOX: Box = (0.035, 0.035, 0.185, 0.145)
INDEX_SUIT_BOX: Box = (0.045, 0.16, 0.175, 0.27)
CENTRE_BOX: Box = (0.22, 0.10, 0.78, 0.90)
OCTO_FRAME: Box = (0.22, 0.05, 0.78, 0.95)
"""The frame printed on an Octoplus face between its corner indices (the middle of its line)."""
OCTO_FRAME_LINE = 0.014
"""That frame's line thickness as a fraction of the card width."""
CORNER_RADIUS = 0.055
"""Radius of the rounded corners as a fraction of the card width."""

BGR = tuple[int, int, int]
PAPER: BGR = (246, 248, 248)
BLACK: BGR = (30, 26, 24)
RED: BGR = (40, 30, 200)
OCTO_BLUE: BGR = (130, 70, 20)
OCTO_TINT: BGR = (238, 225, 205)
RED_TINT: BGR = (215, 215, 250)
_SUPERSAMPLE = 2

# Pip positions for ranks 1..10, as (x, y) fractions of CENTRE_BOX.
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.1), (0.5, 0.9)),
    3: ((0.5, 0.1), (0.5, 0.5), (0.5, 0.9)),
    4: ((0.18, 0.1), (0.82, 0.1), (0.18, 0.9), (0.82, 0.9)),
    5: ((0.18, 0.1), (0.82, 0.1), (0.5, 0.5), (0.18, 0.9), (0.82, 0.9)),
    6: ((0.18, 0.1), (0.82, 0.1), (0.18, 0.5), (0.82, 0.5), (0.18, 0.9), (0.82, 0.9)),
    7: ((0.18, 0.1), (0.82, 0.1), (0.5, 0.3), (0.18, 0.5), (0.82, 0.5), (0.18, 0.9), (0.82, 0.9)),
    8: (
        (0.18, 0.1),
        (0.82, 0.1),
        (0.5, 0.3),
        (0.18, 0.5),
        (0.82, 0.5),
        (0.5, 0.7),
        (0.18, 0.9),
        (0.82, 0.9),
    ),
    9: (
        (0.18, 0.1),
        (0.82, 0.1),
        (0.18, 0.37),
        (0.82, 0.37),
        (0.5, 0.5),
        (0.18, 0.63),
        (0.82, 0.63),
        (0.18, 0.9),
        (0.82, 0.9),
    ),
    10: (
        (0.18, 0.1),
        (0.82, 0.1),
        (0.5, 0.24),
        (0.18, 0.37),
        (0.82, 0.37),
        (0.18, 0.63),
        (0.82, 0.63),
        (0.5, 0.76),
        (0.18, 0.9),
        (0.82, 0.9),
    ),
}


def _pt(x: float, y: float) -> tuple[int, int]:
    return (round(x), round(y))


def draw_suit(
    image: Image, centre: tuple[float, float], size: float, suit: Suit, colour: BGR, flip: bool = False
) -> None:
    """Draw a filled suit symbol of height ``size`` pixels centred at ``centre`` (in place).

    ``flip`` draws it upside down. Shapes are built from circles and polygons.
    """
    cx, cy = centre
    s = size / 2.0
    sign = -1.0 if flip else 1.0

    def p(ux: float, uy: float) -> tuple[int, int]:
        # unit coordinates: x, y in -1..1, y down; flipped about the centre
        return _pt(cx + sign * ux * s, cy + sign * uy * s)

    def circle(ux: float, uy: float, ur: float) -> None:
        cv2.circle(image, p(ux, uy), max(1, round(ur * s)), colour, -1, cv2.LINE_AA)

    def poly(points: list[tuple[float, float]]) -> None:
        arr = np.array([p(ux, uy) for ux, uy in points], dtype=np.int32)
        cv2.fillPoly(image, [arr], colour, cv2.LINE_AA)

    if suit is Suit.DIAMONDS:
        poly([(0.0, -1.0), (0.72, 0.0), (0.0, 1.0), (-0.72, 0.0)])
    elif suit is Suit.HEARTS:
        circle(-0.45, -0.42, 0.5)
        circle(0.45, -0.42, 0.5)
        poly([(-0.93, -0.28), (0.93, -0.28), (0.0, 1.0)])
    elif suit is Suit.SPADES:
        circle(-0.44, 0.22, 0.46)
        circle(0.44, 0.22, 0.46)
        poly([(-0.88, 0.1), (0.88, 0.1), (0.0, -1.0)])
        poly([(0.0, 0.3), (0.3, 1.0), (-0.3, 1.0)])
    else:
        circle(0.0, -0.5, 0.42)
        circle(-0.48, 0.15, 0.42)
        circle(0.48, 0.15, 0.42)
        circle(0.0, 0.05, 0.25)
        poly([(0.0, 0.1), (0.3, 1.0), (-0.3, 1.0)])


def draw_text(
    image: Image,
    text: str,
    box: tuple[float, float, float, float],
    colour: BGR,
    weight: float = 0.16,
    font: int = cv2.FONT_HERSHEY_DUPLEX,
) -> None:
    """Draw ``text`` bold, as large as fits in the pixel ``box`` ``(x0, y0, x1, y1)``, centred.

    ``weight`` is the stroke thickness as a fraction of the box height.
    """
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    thick = max(1, round(weight * bh))
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    # the stroke adds about `thick` pixels around the glyph outline
    scale = min((bw - thick) / tw, (bh - thick) / th)
    (tw2, th2), _ = cv2.getTextSize(text, font, scale, thick)
    org = _pt(x0 + (bw - tw2) / 2.0, y0 + (bh + th2) / 2.0)
    cv2.putText(image, text, org, font, scale, colour, thick, cv2.LINE_AA)


def _rotate_half(image: Image) -> Image:
    return np.ascontiguousarray(image[::-1, ::-1])


def _px(box: Box, w: int, h: int) -> tuple[float, float, float, float]:
    return (box[0] * w, box[1] * h, box[2] * w, box[3] * h)


def _rank_text(card: StdCard) -> str:
    return "10" if card.rank == 10 else card.rank_symbol


def _draw_std_index(image: Image, card: StdCard, colour: BGR) -> None:
    h, w = image.shape[:2]
    draw_text(image, _rank_text(card), _px(INDEX_RANK_BOX, w, h), colour, weight=0.17)
    x0, y0, x1, y1 = _px(INDEX_SUIT_BOX, w, h)
    size = min(y1 - y0, (x1 - x0) * 1.2)
    draw_suit(image, ((x0 + x1) / 2.0, (y0 + y1) / 2.0), size, card.suit, colour)


def _draw_std_centre(image: Image, card: StdCard, colour: BGR) -> None:
    h, w = image.shape[:2]
    x0, y0, x1, y1 = _px(CENTRE_BOX, w, h)
    if card.rank <= 10:
        size = (0.30 if card.rank == 1 else 0.15) * w
        if card.rank == 1:
            size = 0.34 * w
        for fx, fy in _PIPS[card.rank]:
            centre = (x0 + fx * (x1 - x0), y0 + fy * (y1 - y0))
            draw_suit(image, centre, size, card.suit, colour, flip=fy > 0.55)
        return
    # court cards: a framed panel, a big letter and a suit symbol, point-symmetric
    thick = max(1, round(0.012 * w))
    cv2.rectangle(image, _pt(x0, y0 + 0.02 * h), _pt(x1, y1 - 0.02 * h), colour, thick, cv2.LINE_AA)
    tint = (220, 225, 250) if card.suit.is_red else (225, 220, 215)
    cv2.rectangle(
        image,
        _pt(x0 + 2 * thick, y0 + 0.02 * h + 2 * thick),
        _pt(x1 - 2 * thick, y1 - 0.02 * h - 2 * thick),
        tint,
        -1,
    )
    half = np.zeros_like(image)
    half[:] = tint
    mid = (y0 + y1) / 2.0
    draw_text(
        half, card.rank_symbol, (x0 + 0.08 * w, y0 + 0.06 * h, x1 - 0.08 * w, mid - 0.11 * h), colour, 0.14
    )
    draw_suit(half, ((x0 + x1) / 2.0, mid - 0.06 * h), 0.08 * w, card.suit, colour)
    # copy the top half of the panel, and the same rotated into the bottom half
    top = slice(round(y0 + 0.02 * h + 2 * thick), round(mid))
    cols = slice(round(x0 + 2 * thick), round(x1 - 2 * thick))
    image[top, cols] = half[top, cols]
    rotated = _rotate_half(half)
    bottom = slice(h - top.stop, h - top.start)
    rcols = slice(w - cols.stop, w - cols.start)
    image[bottom, rcols] = rotated[bottom, rcols]
    cv2.line(image, _pt(x0, mid), _pt(x1, mid), colour, thick, cv2.LINE_AA)


def _octo_label(card: OctoCard) -> str:
    return "P" if card.kind is OctoKind.PASS else str(card)


def _needs_underline(label: str) -> bool:
    return label.isdigit() and set(label) <= set("0689") and bool(set(label) & set("69"))


def _draw_octo_index(image: Image, card: OctoCard, colour: BGR) -> None:
    h, w = image.shape[:2]
    label = _octo_label(card)
    draw_text(image, label, _px(INDEX_RANK_BOX, w, h), colour, weight=0.17)
    x0, y0, x1, y1 = _px(INDEX_SUIT_BOX, w, h)
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    r = min(x1 - x0, y1 - y0) * 0.3
    if card.is_special:
        pts = np.array([_pt(cx, cy - 1.4 * r), _pt(cx + r, cy), _pt(cx, cy + 1.4 * r), _pt(cx - r, cy)])
        cv2.fillPoly(image, [pts.astype(np.int32)], colour, cv2.LINE_AA)
    else:
        cv2.circle(image, _pt(cx, cy), max(1, round(r)), colour, -1, cv2.LINE_AA)
    if _needs_underline(label):
        bx0, _, bx1, by1 = _px(INDEX_RANK_BOX, w, h)
        cv2.line(
            image,
            _pt(bx0 + 0.02 * w, by1 + 0.006 * h),
            _pt(bx1 - 0.02 * w, by1 + 0.006 * h),
            colour,
            max(1, round(0.008 * w)),
        )


def _draw_marks(image: Image, card: OctoCard, colour: BGR, cy: float) -> None:
    """A row of small marks centred at height ``cy``: the card's own count and shape."""
    w = image.shape[1]
    r = 0.022 * w
    if card.kind is OctoKind.NUMBER:
        count = min(card.value, 10)
        rows = [count] if count <= 5 else [math.ceil(count / 2), count // 2]
        for i, n in enumerate(rows):
            y = cy + (i - (len(rows) - 1) / 2.0) * 2.6 * r
            for j in range(n):
                x = w / 2.0 + (j - (n - 1) / 2.0) * 2.8 * r
                cv2.circle(image, _pt(x, y), max(1, round(r)), colour, -1, cv2.LINE_AA)
        return
    t = max(1, round(0.45 * r))
    for j in range(2 if card.kind is not OctoKind.PASS else 3):
        n = 2 if card.kind is not OctoKind.PASS else 3
        x = w / 2.0 + (j - (n - 1) / 2.0) * 4.0 * r
        if card.kind is OctoKind.PASS:
            cv2.circle(image, _pt(x, cy), max(1, round(1.2 * r)), colour, t, cv2.LINE_AA)
        else:
            cv2.line(image, _pt(x - 1.3 * r, cy), _pt(x + 1.3 * r, cy), colour, t, cv2.LINE_AA)
            if card.kind is OctoKind.PLUS2:
                cv2.line(image, _pt(x, cy - 1.3 * r), _pt(x, cy + 1.3 * r), colour, t, cv2.LINE_AA)


def _draw_octo_face(image: Image, card: OctoCard) -> None:
    h, w = image.shape[:2]
    colour = RED if card.is_special else OCTO_BLUE
    tint = RED_TINT if card.is_special else OCTO_TINT
    # frame between the corner indices
    thick = max(1, round(OCTO_FRAME_LINE * w))
    x0, y0, x1, y1 = OCTO_FRAME
    cv2.rectangle(image, _pt(x0 * w, y0 * h), _pt(x1 * w, y1 * h), colour, thick, cv2.LINE_AA)
    # centre oval: specials filled red with a white symbol, numbers tinted with a blue numeral
    centre = _pt(0.5 * w, 0.5 * h)
    axes = _pt(0.26 * w, 0.19 * h)
    cv2.ellipse(image, centre, axes, 0, 0, 360, colour if card.is_special else tint, -1, cv2.LINE_AA)
    cv2.ellipse(image, centre, axes, 0, 0, 360, colour, thick, cv2.LINE_AA)
    ink = PAPER if card.is_special else colour
    label = _octo_label(card)
    box = (0.29 * w, 0.37 * h, 0.71 * w, 0.60 * h)
    draw_text(image, label, box, ink, weight=0.12)
    if _needs_underline(label):
        cv2.line(
            image,
            _pt(0.38 * w, 0.625 * h),
            _pt(0.62 * w, 0.625 * h),
            ink,
            max(1, round(0.02 * w)),
            cv2.LINE_AA,
        )
    # marks above the oval and the same rotated below it
    marks = np.full_like(image, 255)
    _draw_marks(marks, card, colour, 0.2 * h)
    region = slice(round(0.1 * h), round(0.29 * h))
    cols = slice(round(0.24 * w), round(0.76 * w))
    image[region, cols] = np.minimum(image[region, cols], marks[region, cols])
    flipped = _rotate_half(marks)
    region_b = slice(h - region.stop, h - region.start)
    cols_b = slice(w - cols.stop, w - cols.start)
    image[region_b, cols_b] = np.minimum(image[region_b, cols_b], flipped[region_b, cols_b])


def _validate_size(width: int, height: int) -> None:
    if width < 40 or height < 56:
        raise ValueError(f"card face size must be at least 40x56 pixels, got {width}x{height}")


@functools.lru_cache(maxsize=256)
def _render(card: Card, width: int, height: int) -> Image:
    w, h = width * _SUPERSAMPLE, height * _SUPERSAMPLE
    image = np.empty((h, w, 3), dtype=np.uint8)
    image[:] = PAPER
    index_half = np.empty_like(image)
    index_half[:] = PAPER
    if isinstance(card, StdCard):
        colour = RED if card.suit.is_red else BLACK
        _draw_std_centre(image, card, colour)
        _draw_std_index(index_half, card, colour)
    else:
        _draw_octo_face(image, card)
        _draw_octo_index(index_half, card, RED if card.is_special else OCTO_BLUE)
    # the corner index at top-left, and the same turned 180° at bottom-right
    x0, y0, x1, y1 = (round(v) for v in _px(INDEX_BOX, w, h))
    image[y0:y1, x0:x1] = index_half[y0:y1, x0:x1]
    turned = _rotate_half(index_half)
    image[h - y1 : h - y0, w - x1 : w - x0] = turned[h - y1 : h - y0, w - x1 : w - x0]
    small = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    result: Image = np.ascontiguousarray(small, dtype=np.uint8)
    result.flags.writeable = False
    return result


def render_face(card: Card, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> Image:
    """The upright face of ``card`` as a ``height x width x 3`` BGR uint8 image.

    Raises:
        ValueError: the size is below 40x56 pixels.
        TypeError: ``card`` is not a ``StdCard`` or ``OctoCard``.
    """
    _validate_size(width, height)
    if not isinstance(card, StdCard | OctoCard):
        raise TypeError(f"render_face needs a StdCard or OctoCard, got {card!r}")
    return _render(card, width, height).copy()


@functools.lru_cache(maxsize=32)
def _mask(width: int, height: int) -> Image:
    s = 4
    w, h = width * s, height * s
    r = round(CORNER_RADIUS * w)
    big = np.zeros((h, w), dtype=np.uint8)
    cv2.rectangle(big, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(big, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    mask: Image = np.asarray(cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA), dtype=np.uint8)
    mask.flags.writeable = False
    return mask


def card_mask(width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> Image:
    """The card's rounded-rectangle outline: ``height x width`` uint8, 255 inside, 0 outside.

    Raises:
        ValueError: the size is below 40x56 pixels.
    """
    _validate_size(width, height)
    return _mask(width, height).copy()


def render_face_rgba(card: Card, width: int = DEFAULT_WIDTH, height: int = DEFAULT_HEIGHT) -> Image:
    """The face with its outline as alpha: ``height x width x 4`` uint8, B,G,R,A.

    Raises:
        ValueError: the size is below 40x56 pixels.
        TypeError: ``card`` is not a ``StdCard`` or ``OctoCard``.
    """
    face = render_face(card, width, height)
    out: Image = np.empty((height, width, 4), dtype=np.uint8)
    out[:, :, :3] = face
    out[:, :, 3] = card_mask(width, height)
    return out
