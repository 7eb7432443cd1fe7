"""A printable deck: the project's own card faces at real size (63 x 88 mm) on A4 pages.

The faces are exactly those of ``scanner.faces`` (the ones the scanner's
built-in templates and rendered scenes use), nine cards a page in a 3 x 3 grid
with no gap between cards, cut marks in the margins along every cutting line
and faint guide lines between the cards. Print at 100 % ("actual size", no
"fit to page"); see ``docs/printable-deck.md``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy as np
from PIL import Image as PILImage

from scanner.faces import PAPER, render_face
from scorer.cards import MINUS2, PASS, PLUS2, Card, DeckKind, OctoCard, oktris_deck

log = logging.getLogger(__name__)

PAGE_MM = (210.0, 297.0)
"""A4 portrait, width x height."""
CARD_MM = (63.0, 88.0)
"""A card, width x height."""
GRID = (3, 3)
"""Cards across and down a page."""
MARK_MM = 6.0
"""Length of a cut mark in the margin."""
MARK_GAP_MM = 1.5
"""Gap between the grid and the start of a cut mark."""


def octoplus_counts(max_number: int = 7, copies: int = 8, special_copies: int = 6) -> dict[Card, int]:
    """The default Octoplus deck: numbers ``1..max_number`` ``copies`` times each, and each special card
    (``+2``, ``-2``, ``P``) ``special_copies`` times.

    Raises:
        ValueError: a count is negative or ``max_number`` is not in 1..99.
    """
    if not 1 <= max_number <= 99:
        raise ValueError(f"max_number must be 1..99, got {max_number!r}")
    if copies < 0 or special_copies < 0:
        raise ValueError(
            f"copies must not be negative, got copies={copies!r}, special_copies={special_copies!r}"
        )
    counts: dict[Card, int] = {OctoCard.number(v): copies for v in range(1, max_number + 1)}
    counts.update({PLUS2: special_copies, MINUS2: special_copies, PASS: special_copies})
    return counts


def deck_counts(deck: DeckKind) -> dict[Card, int]:
    """The default counts of a deck: Octoplus as ``octoplus_counts()``, Oktris each of its 32 cards once."""
    if deck is DeckKind.OKTRIS:
        return dict.fromkeys(oktris_deck(), 1)
    return octoplus_counts()


def _mm(value: float, dpi: int) -> int:
    return round(value / 25.4 * dpi)


def _page_layout(dpi: int) -> tuple[int, int, int, int, int, int]:
    pw, ph = _mm(PAGE_MM[0], dpi), _mm(PAGE_MM[1], dpi)
    cw, ch = _mm(CARD_MM[0], dpi), _mm(CARD_MM[1], dpi)
    x0 = (pw - GRID[0] * cw) // 2
    y0 = (ph - GRID[1] * ch) // 2
    return pw, ph, cw, ch, x0, y0


def _on_white(face: np.ndarray) -> np.ndarray:
    """The face with its paper tone lifted to pure white, so a printer lays no ink on the paper."""
    gain = 255.0 / np.array(PAPER, dtype=np.float32)
    out: np.ndarray = np.clip(face.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    return out


def _draw_marks(page: np.ndarray, dpi: int) -> None:
    _, _, cw, ch, x0, y0 = _page_layout(dpi)
    x1, y1 = x0 + GRID[0] * cw, y0 + GRID[1] * ch
    gap, length = _mm(MARK_GAP_MM, dpi), _mm(MARK_MM, dpi)
    thick = max(1, _mm(0.2, dpi))
    black = (0, 0, 0)
    guide = (215, 215, 215)
    for i in range(GRID[0] + 1):
        x = x0 + i * cw
        cv2.line(page, (x, y0 - gap - length), (x, y0 - gap), black, thick)
        cv2.line(page, (x, y1 + gap), (x, y1 + gap + length), black, thick)
        cv2.line(page, (x, y0), (x, y1), guide, 1)
    for j in range(GRID[1] + 1):
        y = y0 + j * ch
        cv2.line(page, (x0 - gap - length, y), (x0 - gap, y), black, thick)
        cv2.line(page, (x1 + gap, y), (x1 + gap + length, y), black, thick)
        cv2.line(page, (x0, y), (x1, y), guide, 1)


def deck_pages(counts: Mapping[Card, int], dpi: int = 300) -> list[np.ndarray]:
    """The pages of the deck as BGR images of A4 at ``dpi``, cards in the order of ``counts``.

    Raises:
        ValueError: ``dpi`` is outside 72..600, a count is negative, or the deck is empty.
    """
    if not 72 <= dpi <= 600:
        raise ValueError(f"dpi must be 72..600, got {dpi!r}")
    bad = {str(card): n for card, n in counts.items() if n < 0}
    if bad:
        raise ValueError(f"card counts must not be negative, got {bad}")
    cards = [card for card, n in counts.items() for _ in range(n)]
    if not cards:
        raise ValueError("the deck is empty: every card count is 0")
    pw, ph, cw, ch, x0, y0 = _page_layout(dpi)
    per_page = GRID[0] * GRID[1]
    pages = []
    for start in range(0, len(cards), per_page):
        page = np.full((ph, pw, 3), 255, dtype=np.uint8)
        for k, card in enumerate(cards[start : start + per_page]):
            col, row = k % GRID[0], k // GRID[0]
            x, y = x0 + col * cw, y0 + row * ch
            page[y : y + ch, x : x + cw] = _on_white(render_face(card, cw, ch))
        _draw_marks(page, dpi)
        pages.append(page)
    return pages


def write_deck_pdf(path: Path | str, counts: Mapping[Card, int] | None = None, dpi: int = 300) -> int:
    """Write the deck (default: the default Octoplus deck) as a multi-page A4 PDF; returns the page count.

    Raises:
        ValueError: as ``deck_pages``.
        OSError: the file cannot be written.
    """
    target = Path(path)
    pages = deck_pages(octoplus_counts() if counts is None else counts, dpi)
    images = [PILImage.fromarray(np.ascontiguousarray(p[:, :, ::-1])) for p in pages]
    images[0].save(target, "PDF", save_all=True, append_images=images[1:], resolution=float(dpi))
    log.info("wrote %d pages to %s", len(images), target)
    return len(images)
