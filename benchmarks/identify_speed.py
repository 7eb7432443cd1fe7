"""Whole-scan time with the committed identifier and with its first pass alone, side by side.

Run: ``.venv/bin/python -m benchmarks.identify_speed [--repeat N]``.

The frames of ``benchmarks.scanner_speed`` (1, 4 and 8 separate Oktris cards on
green felt, 1280x720) and the 48 committed scene fixtures (piles, fans, hands,
arms, blur) are scanned by two scanners that differ only in their identifier:
the committed parameters, and the first pass alone (the rank-from-face rule, the
spade-or-club check and the wider second search switched off, as
``benchmarks.identify_holdout``'s ``first_pass``).  The two take turns on every
frame, so both are timed under the same load; the figures are medians (and
means) of ``Scanner.scan`` over every scan, on one OpenCV thread.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from dataclasses import replace

import cv2
import numpy as np

from benchmarks.identify_holdout import FIRST_PASS
from benchmarks.scanner_accuracy import FIXTURES
from benchmarks.scanner_speed import COUNTS, frames
from scanner.params import ScannerParams
from scanner.scan import Scanner
from scorer.cards import DeckKind


def _fixture_frames() -> list[tuple[DeckKind, np.ndarray]]:
    doc = json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))
    out = []
    for scene in doc["scenes"]:
        image = cv2.imread(str(FIXTURES / scene["file"]), cv2.IMREAD_COLOR)
        out.append((DeckKind(scene["deck"]), np.asarray(image, dtype=np.uint8)))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the side-by-side scan times; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="scans of every frame by each scanner")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    rules = {"committed": ScannerParams(), "first_pass": replace(ScannerParams(), identify=FIRST_PASS)}
    scanners = {
        (name, deck): Scanner(deck, params=params) for name, params in rules.items() for deck in DeckKind
    }
    for scanner in scanners.values():
        scanner.warm_up()
    sets: dict[str, list[tuple[DeckKind, np.ndarray]]] = {
        f"{count} card{'s' if count > 1 else ''}": [(DeckKind.OKTRIS, f) for f in frames(count, seed=count)]
        for count in COUNTS
    }
    sets["fixtures"] = _fixture_frames()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"ms per 1280x720 frame (Scanner.scan), one OpenCV thread, {args.repeat} scans each; load {load:.1f}"
    )
    print(f"{'frames':>10} {'committed':>10} {'first pass':>11} {'ratio':>6} {'mean':>6} {'mean fp':>8}")
    for name, items in sets.items():
        times: dict[str, list[float]] = {rule: [] for rule in rules}
        for _ in range(args.repeat):
            for deck, image in items:
                for rule in rules:
                    start = time.perf_counter()
                    scanners[(rule, deck)].scan(image)
                    times[rule].append((time.perf_counter() - start) * 1000.0)
        now, first = statistics.median(times["committed"]), statistics.median(times["first_pass"])
        print(
            f"{name:>10} {now:10.2f} {first:11.2f} {now / first:6.2f} "
            f"{statistics.mean(times['committed']):6.2f} {statistics.mean(times['first_pass']):8.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
