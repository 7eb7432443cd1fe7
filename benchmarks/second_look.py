"""The second look at unclear index corners, switched off and on, side by side.

Run: ``.venv/bin/python -m benchmarks.second_look [FOLDER ...] [--seed N [--count M]]``
(default: the committed fixtures ``tests/fixtures/scenes``; several folders, each with its
``truth.json``, are measured one after the other; ``--seed`` renders held-out scenes).

Every frame is scanned twice, taking turns (``benchmarks.scanner_accuracy``'s
``evaluate_side_by_side``): with ``IdentifyParams.look_lead`` at 0 (no second look:
``scanner.identify_look``) and as committed.  Per folder and per set it prints the
visible cards, found, identified and wrong (%), the piles and fans whose top card is
right (%), the median time per frame and the median of the per-frame time ratio (on /
off), then the mistakes that only one of the two sets makes.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from benchmarks.scanner_accuracy import FIXTURES, evaluate_side_by_side, render
from scanner.params import ScannerParams


def folders(args: list[str], scratch: Path) -> list[Path]:
    """The folders the command line names (``--seed N [--count M]`` renders one), else the fixtures."""
    if "--seed" in args:
        seed = int(args[args.index("--seed") + 1])
        count = int(args[args.index("--count") + 1]) if "--count" in args else 48
        return [render(seed, count, scratch)]
    names = [Path(a) for a in args if not a.startswith("--")]
    return names or [FIXTURES]


def main(argv: list[str] | None = None) -> int:
    """Print the side-by-side figures of each folder; returns 0."""
    args = sys.argv[1:] if argv is None else argv
    cv2.setNumThreads(1)
    on = ScannerParams()
    off = replace(on, identify=replace(on.identify, look_lead=0.0))
    with tempfile.TemporaryDirectory() as scratch:
        for folder in folders(args, Path(scratch)):
            reports = evaluate_side_by_side(folder, [off, on])
            print(f"== {folder}")
            heads = ("visible", "found%", "ident%", "wrong%")
            print(f"{'second look':<12} " + " ".join(f"{h:>7}" for h in heads) + f" {'top%':>6} {'ms':>7}")
            for name, report in zip(("off", "on"), reports, strict=True):
                t = report.total
                print(
                    f"{name:<12} {t.visible:>7} {t.found_pct:>7.1f} {t.identified_pct:>7.1f} "
                    f"{t.wrong_pct:>7.2f} {t.top_pct:>6.1f} {float(np.median(report.ms)):>7.1f}"
                )
            ratio = np.array(reports[1].ms) / np.maximum(np.array(reports[0].ms), 1e-9)
            print(f"median per-frame time ratio, on / off: {float(np.median(ratio)):.2f}")
            before, after = Counter(reports[0].mistakes), Counter(reports[1].mistakes)
            for label, gone in (("off only", before - after), ("on only", after - before)):
                for mistake in sorted(gone.elements()):
                    print(f"  {label}: {mistake}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
