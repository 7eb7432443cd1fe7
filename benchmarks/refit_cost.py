"""Cost of reading cards again on a fitted outline (``Scanner._refit_unnamed``), side by side.

Run: ``.venv/bin/python -m benchmarks.refit_cost [FOLDER] [--repeat N]`` (default: the committed
scene fixtures, 3 scans per frame and setting).

Every frame of the folder is scanned with the default parameters and with
``FindParams.top_refit_max`` 0 (no card read again), the two taking turns frame by frame
so that a busy machine slows both alike; each frame's time is the best of ``--repeat``
scans.  Prints the median per-frame time of both, and the median, largest and mean of
the per-frame ratios (with / without).  OpenCV runs on one thread.
"""

from __future__ import annotations

import json
import statistics
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from benchmarks.scanner_accuracy import FIXTURES
from scanner.params import ScannerParams
from scanner.scan import Scanner
from scorer.cards import DeckKind


def main(argv: list[str] | None = None) -> int:
    """Print the side-by-side figures; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
    names = [
        a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--repeat")
    ]
    folder = Path(names[0]) if names else FIXTURES
    cv2.setNumThreads(1)
    doc = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    on = ScannerParams()
    off = replace(on, find=replace(on.find, top_refit_max=0))
    scanners: dict[DeckKind, tuple[Scanner, Scanner]] = {}
    without: list[float] = []
    with_it: list[float] = []
    for scene in doc["scenes"]:
        deck = DeckKind(scene["deck"])
        if deck not in scanners:
            scanners[deck] = (Scanner(deck, params=off), Scanner(deck, params=on))
            for scanner in scanners[deck]:
                scanner.warm_up()
        image = cv2.imread(str(folder / scene["file"]), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{folder / scene['file']}: not a readable image")
        frame = np.asarray(image, np.uint8)
        a: list[float] = []
        b: list[float] = []
        for _ in range(repeat):
            a.append(scanners[deck][0].scan(frame).ms)
            b.append(scanners[deck][1].scan(frame).ms)
        without.append(min(a))
        with_it.append(min(b))
    ratios = [b / max(a, 1e-9) for a, b in zip(without, with_it, strict=True)]
    print(f"frames: {len(ratios)} of {folder}, best of {repeat} scans each")
    mid_a, mid_b = statistics.median(without), statistics.median(with_it)
    mean_a, mean_b = statistics.fmean(without), statistics.fmean(with_it)
    print(f"median ms per frame: without {mid_a:.1f}, with {mid_b:.1f}")
    print(
        f"per-frame ratio with / without: median {statistics.median(ratios):.3f}, "
        f"largest {max(ratios):.2f}, mean ms {mean_a:.1f} -> {mean_b:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
