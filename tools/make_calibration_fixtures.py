"""Render the committed calibration fixtures: ``tests/fixtures/calibration/``.

Run from the repository root:
``.venv/bin/python tools/make_calibration_fixtures.py [--out DIR] [--seed N]``.
The same seed always writes the same files.

What it writes (JPEG frames and one ``truth.json``):

- ``table-NN.jpg``: a cloth (play area) lying on a different table top, seen by a
  camera tilted up to 15°, one card in the middle; truth: the cloth's corners
  in the frame and the middle card's side lengths ``[short, long]``;
- ``seats-NN.jpg``: the same set-up with one card in front of each of 2 to 8
  seats; truth: each card's centre and seat;
- ``capture/STEM-K.jpg``: guided-capture frames of the Oktris deck, one card
  held still in the middle, ``CAPTURES`` per card each in a new position and
  light; ``capture/empty.jpg``: the table with no card;
- ``eval-NN.jpg``: eight cards lying apart on the cloth in other light; truth:
  each card's label and corners.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scanner.scenes import Camera, Imaging, Lighting, PlacedCard, Scene, SceneTruth, Table, render  # noqa: E402
from scanner.scenes_paint import TableKind  # noqa: E402
from scanner.templates import expected_cards, file_stem  # noqa: E402
from scorer.cards import DeckKind  # noqa: E402

log = logging.getLogger("make_calibration_fixtures")

SCHEMA = 1
SIZE = (960, 540)
CAPTURE_SIZE = (480, 270)
CAPTURES = 3
PAIRS = (
    (TableKind.FELT_GREEN, TableKind.WOOD),
    (TableKind.FELT_BLUE, TableKind.GREY),
    (TableKind.GREY, TableKind.WOOD),
    (TableKind.WOOD, TableKind.FELT_GREEN),
    (TableKind.FELT_GREEN, TableKind.GREY),
    (TableKind.FELT_BLUE, TableKind.WOOD),
)
TILTS = ((0.0, 0.0), (8.0, 30.0), (15.0, 90.0), (12.0, 200.0), (5.0, 300.0), (10.0, 150.0))
SEAT_COUNTS = (2, 3, 4, 5, 6, 8)
JPEG_QUALITY = 50
"""Table and seat frames: the play area, the card size and the seats are found as well as at 80."""
EVAL_QUALITY = 72
CAPTURE_QUALITY = 62
"""Evaluation and capture frames: with captures at 45, or at 40 with evaluation frames at 62, templates
learned from the captures named an evaluation card wrongly (``benchmarks.calibration``); with captures
at 50, templates learned from them left one of the 32 evaluation cards unnamed."""
JPEG_OPTIONS = (cv2.IMWRITE_JPEG_OPTIMIZE, 1)
"""Optimised Huffman tables: the same pixels in fewer bytes."""


def _lighting(rng: np.random.Generator) -> Lighting:
    return Lighting(
        brightness=float(rng.uniform(0.85, 1.05)),
        gradient=float(rng.uniform(0.0, 0.25)),
        gradient_deg=float(rng.uniform(0, 360)),
        vignette=float(rng.uniform(0.05, 0.25)),
        white_balance=(float(rng.uniform(0.92, 1.08)), 1.0, float(rng.uniform(0.92, 1.08))),
    )


def _imaging(rng: np.random.Generator) -> Imaging:
    return Imaging(
        defocus=float(rng.uniform(0.4, 1.0)),
        read_noise=float(rng.uniform(1, 3)),
        shot_noise=float(rng.uniform(2, 5)),
    )


def _mat_rect(size: tuple[int, int]) -> np.ndarray:
    w, h = size
    return np.array([[0.12 * w, 0.1 * h], [0.88 * w, 0.1 * h], [0.88 * w, 0.9 * h], [0.12 * w, 0.9 * h]])


def _on_mat(
    cards: tuple[PlacedCard, ...],
    pair: tuple[TableKind, TableKind],
    camera: Camera,
    rng: np.random.Generator,
    seed: int,
    size: tuple[int, int],
    card_px: float,
) -> tuple[np.ndarray, SceneTruth, np.ndarray]:
    """A frame of ``cards`` lying on a cloth (``pair[0]``) that lies on a table (``pair[1]``)."""
    light, imaging = _lighting(rng), _imaging(rng)
    common: dict[str, Any] = {"camera": camera, "lighting": light, "imaging": imaging, "card_px": card_px}
    mat = Scene(cards=cards, table=Table(pair[0], seed), width=size[0], height=size[1], **common)
    floor = Scene(cards=(), table=Table(pair[1], seed + 1), width=size[0], height=size[1], **common)
    noise = int(rng.integers(1 << 30))
    top, truth = render(mat, np.random.default_rng(noise))
    below, _ = render(floor, np.random.default_rng(noise))
    quad = cv2.perspectiveTransform(_mat_rect(size)[None], mat.homography())[0]
    mask = np.zeros((size[1], size[0]), np.float32)
    cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    alpha = np.asarray(cv2.GaussianBlur(mask, (0, 0), 0.8), dtype=np.float32)[:, :, None]
    image = np.clip(top * alpha + below * (1 - alpha) + 0.5, 0, 255).astype(np.uint8)
    return image, truth, quad


def _sides(corners: tuple[tuple[float, float], ...]) -> list[float]:
    c = np.array(corners)
    a = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    b = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    return [round(float(min(a, b)), 2), round(float(max(a, b)), 2)]


def _write(path: Path, image: np.ndarray, quality: int = JPEG_QUALITY) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, quality, *JPEG_OPTIONS]):
        raise OSError(f"cannot write {path}")


def _camera(i: int) -> Camera:
    tilt, azimuth = TILTS[i % len(TILTS)]
    return Camera(tilt_deg=tilt, tilt_azimuth_deg=azimuth)


def make_tables(out: Path, rng: np.random.Generator, deck: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Table frames: a cloth on a table, one card in the middle."""
    records = []
    for i, pair in enumerate(PAIRS):
        w, h = SIZE
        card_px = float(rng.uniform(105, 150))
        card = PlacedCard(
            deck[int(rng.integers(len(deck)))],
            (w / 2 + float(rng.normal(0, 15)), h / 2 + float(rng.normal(0, 15))),
            float(rng.uniform(-180, 180)),
        )
        image, truth, quad = _on_mat((card,), pair, _camera(i), rng, 100 + i, SIZE, card_px)
        name = f"table-{i:02d}.jpg"
        _write(out / name, image)
        records.append(
            {
                "image": name,
                "cloth": pair[0].value,
                "table": pair[1].value,
                "tilt_deg": _camera(i).tilt_deg,
                "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in quad],
                "card": str(card.card),
                "card_size_px": _sides(truth.cards[0].corners),
            }
        )
    return records


def make_seats(out: Path, rng: np.random.Generator, deck: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Seat frames: one card in front of each seat, seat 1 at the bottom, then clockwise."""
    records = []
    for i, players in enumerate(SEAT_COUNTS):
        w, h = SIZE
        card_px = 90.0
        centre = (w / 2.0, h / 2.0)
        placed = []
        picks = rng.permutation(len(deck))[:players]
        for seat in range(1, players + 1):
            angle = 360.0 * (seat - 1) / players
            t = math.radians(angle)
            reach = card_px * (1.7 if math.cos(t) ** 2 < 0.5 else 1.2)
            pos = (centre[0] - math.sin(t) * reach * 1.3, centre[1] + math.cos(t) * reach)
            placed.append(
                PlacedCard(deck[int(picks[seat - 1])], pos, angle + float(rng.normal(0, 8)), "trick", seat)
            )
        camera = _camera(i)
        image, truth, _ = _on_mat(tuple(placed), PAIRS[i % len(PAIRS)], camera, rng, 200 + i, SIZE, card_px)
        name = f"seats-{i:02d}.jpg"
        _write(out / name, image)
        cards = []
        for c in truth.cards:
            corners = np.array(c.corners)
            cards.append(
                {
                    "card": str(c.card),
                    "seat": c.seat,
                    "centre": [round(float(v), 2) for v in corners.mean(axis=0)],
                }
            )
        records.append({"image": name, "players": players, "tilt_deg": camera.tilt_deg, "cards": cards})
    return records


def make_captures(out: Path, rng: np.random.Generator, deck: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Guided-capture frames: each card of the deck ``CAPTURES`` times in a new spot and light."""
    w, h = CAPTURE_SIZE
    records = []
    pair = PAIRS[0]
    camera = Camera(tilt_deg=6.0, tilt_azimuth_deg=20.0)
    empty, _, _ = _on_mat((), pair, camera, rng, 300, CAPTURE_SIZE, 120.0)
    _write(out / "capture" / "empty.jpg", empty, CAPTURE_QUALITY)
    for card in deck:
        for k in range(1, CAPTURES + 1):
            spot = (w / 2 + float(rng.normal(0, 18)), h / 2 + float(rng.normal(0, 10)))
            placed = PlacedCard(
                card, spot, float(rng.uniform(-25, 25)) + (180.0 if rng.random() < 0.3 else 0.0)
            )
            image, _, _ = _on_mat(
                (placed,), pair, camera, rng, 300, CAPTURE_SIZE, float(rng.uniform(115, 130))
            )
            name = f"capture/{file_stem(card)}-{k}.jpg"
            _write(out / name, image, CAPTURE_QUALITY)
            records.append({"image": name, "card": str(card)})
    return records


def make_evaluation(out: Path, rng: np.random.Generator, deck: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Evaluation frames: every card of the deck once, eight to a frame, lying apart in new light."""
    w, h = SIZE
    order = [deck[int(i)] for i in rng.permutation(len(deck))]
    records = []
    for i in range(0, len(order), 8):
        card_px = 115.0
        placed = []
        for j, card in enumerate(order[i : i + 8]):
            col, row = j % 4, j // 4
            pos = (
                w * (0.25 + 0.168 * col) + float(rng.normal(0, 6)),
                h * (0.33 + 0.34 * row) + float(rng.normal(0, 6)),
            )
            placed.append(PlacedCard(card, pos, float(rng.uniform(-30, 30)) + 180.0 * int(rng.integers(2))))
        number = i // 8
        image, truth, _ = _on_mat(
            tuple(placed), PAIRS[(number + 1) % len(PAIRS)], _camera(number), rng, 400 + number, SIZE, card_px
        )
        name = f"eval-{number:02d}.jpg"
        _write(out / name, image, EVAL_QUALITY)
        records.append(
            {
                "image": name,
                "cards": [
                    {"card": str(c.card), "corners": [[round(x, 2), round(y, 2)] for x, y in c.corners]}
                    for c in truth.cards
                ],
            }
        )
    return records


def main(argv: list[str] | None = None) -> int:
    """Write every fixture; returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", default=str(ROOT / "tests" / "fixtures" / "calibration"))
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    out = Path(args.out)
    rng = np.random.default_rng(args.seed)
    deck = expected_cards(DeckKind.OKTRIS)
    truth = {
        "schema": SCHEMA,
        "deck": DeckKind.OKTRIS.value,
        "captures_per_card": CAPTURES,
        "tables": make_tables(out, rng, deck),
        "seats": make_seats(out, rng, deck),
        "captures": make_captures(out, rng, deck),
        "evaluation": make_evaluation(out, rng, deck),
    }
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    log.info("wrote %s", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
