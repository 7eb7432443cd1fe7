"""What a frame with no card costs the finder, with and without its flat-field look.

Run: ``.venv/bin/python -m benchmarks.empty_frames [--repeat N]``.

A frame in which the finder finds no card is looked at once more with the
table's light divided out (``FindParams.flat_fallback``) when the light is
uneven.  The frames here are empty 1280x720 tables with a little camera noise:
green felt and a light grey table lit evenly (no second look), and the light
table with a shadow band across its lower half (the second look is taken).
Per frame, ``find_cards`` with the look and without it take turns, so both are
timed under the same load; medians in milliseconds, on one OpenCV thread.

Then the whole scan (``Scanner.scan`` with the built-in templates) with and without the
look for a card's paper grown from its print (``FindParams.paper_fallback``, taken in a
frame in which no card is named: every empty frame), timed in thread CPU time, and the
cards each reports (an empty table must report none); a white wall joins the frames.
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np

from scanner.find import find_cards
from scanner.params import FindParams, ScannerParams
from scanner.scan import Scanner
from scanner.types import Image
from scorer.cards import DeckKind


def frames() -> dict[str, Image]:
    """The empty tables, by name."""
    rng = np.random.default_rng(7)
    out: dict[str, Image] = {}
    for name, colour in (("green felt", (40, 110, 30)), ("light grey", (205, 207, 209))):
        table = np.empty((720, 1280, 3), np.int16)
        table[:] = colour
        table += rng.integers(-6, 7, table.shape, dtype=np.int16)
        out[name] = np.clip(table, 0, 255).astype(np.uint8)
    shaded = out["light grey"].astype(np.float64)
    shaded[360:] *= 0.6
    out["light grey, shadow band"] = np.clip(shaded, 0, 255).astype(np.uint8)
    return out


def wall() -> Image:
    """An empty white wall with a little camera noise and salt-and-pepper specks."""
    rng = np.random.default_rng(11)
    table = np.full((720, 1280, 3), 238, np.int16) + rng.integers(-6, 7, (720, 1280, 3), dtype=np.int16)
    specks = rng.random((720, 1280)) < 0.002
    table[specks] = 30
    return np.clip(table, 0, 255).astype(np.uint8)


def scan_times(repeat: int) -> None:
    """Per empty frame, the scan's median thread time with the paper look and without, and the
    cards each reports."""
    scanners = {
        look: Scanner(DeckKind.OKTRIS, params=ScannerParams(find=FindParams(paper_fallback=look)))
        for look in (True, False)
    }
    for name, image in {**frames(), "white wall": wall()}.items():
        times: dict[bool, list[float]] = {True: [], False: []}
        cards = {True: 0, False: 0}
        for _ in range(repeat):
            for look, scanner in scanners.items():
                start = time.thread_time()
                result = scanner.scan(image)
                times[look].append((time.thread_time() - start) * 1000.0)
                cards[look] = max(cards[look], len(result.detections))
        a, b = statistics.median(times[True]), statistics.median(times[False])
        print(
            f"scan {name:24s} with the paper look {a:7.2f} ms  without {b:7.2f} ms  "
            f"ratio {a / b:5.2f}  cards {cards[True]} / {cards[False]}"
        )


def main(argv: list[str] | None = None) -> int:
    """Print, per empty frame, the finder's median time with the flat-field look and without, then
    the scan's with the paper look and without (``scan_times``)."""
    parser = argparse.ArgumentParser(description="finder time on frames with no card")
    parser.add_argument("--repeat", type=int, default=20, help="scans of every frame (default 20)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    with_look, without = FindParams(), FindParams(flat_fallback=False)
    for name, image in frames().items():
        times: dict[bool, list[float]] = {True: [], False: []}
        cards = 0
        for _ in range(args.repeat):
            for look, params in ((True, with_look), (False, without)):
                start = time.perf_counter()
                found = find_cards(image, params)
                times[look].append((time.perf_counter() - start) * 1000.0)
                cards = max(cards, len(found))
        a, b = statistics.median(times[True]), statistics.median(times[False])
        print(
            f"{name:24s} with the look {a:7.2f} ms  without {b:7.2f} ms  ratio {a / b:5.2f}  "
            f"cards found {cards}"
        )
    scan_times(max(1, args.repeat // 4))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
